//! One measured turn per size, no criterion: the quick way to get the figures
//! of the largest sizes (and their peak memory) once.
//!
//! `cargo run --release -p arbitre-benches --example figures -- nebulight 100000`
//! `… -- eds 10000 99`, `… -- scrambled 5000 200`, `… -- wwk 5000 200`,
//! or no argument for every default size.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_benches::alloc::Counting;
use arbitre_benches::figures::{measure, Row};
use arbitre_benches::game::Game;

#[global_allocator]
static A: Counting = Counting;

const SEED: u64 = 9;

fn row(ruleset: &str, n: usize, p: usize) -> Row {
    match ruleset {
        "nebulight" => measure(format!("{n} worlds, 2 players"), || {
            Game::nebulight(n, SEED)
        }),
        "eds" => measure(format!("{n} stars, {p} rulers"), || Game::eds(n, p, SEED)),
        "scrambled" => measure(format!("{n} territories, {p} players"), || {
            Game::scrambled(n, p, SEED)
        }),
        "wwk" => measure(format!("{n} zones, {p} nations"), || Game::wwk(n, p, SEED)),
        other => panic!("unknown ruleset {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: Vec<(String, usize, usize)> = if args.is_empty() {
        vec![
            ("nebulight".into(), 1_000, 2),
            ("eds".into(), 1_000, 10),
            ("scrambled".into(), 500, 20),
            ("wwk".into(), 500, 20),
        ]
    } else {
        let n = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1_000);
        let p = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
        vec![(args[0].clone(), n, p)]
    };
    println!("{}", Row::header());
    for (r, n, p) in runs {
        println!("{}", row(&r, n, p).line());
    }
}
