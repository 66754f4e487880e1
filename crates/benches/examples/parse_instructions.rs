//! Instructions per byte of the order parsers, counted by Valgrind: a figure
//! that a loaded machine does not move, where the parse bench's MB/s move by
//! a third from one run to the next (issue 21).
//!
//! ```sh
//! cargo build --release -p arbitre-benches --example parse_instructions
//! valgrind --tool=callgrind --toggle-collect='*measured*' --callgrind-out-file=/tmp/cg.out \
//!     target/release/examples/parse_instructions wwk 1000z_100n 20
//! callgrind_annotate /tmp/cg.out | head
//! ```
//!
//! It builds the parse bench's game (the same sizes and seed), parses every
//! player's block ROUNDS times (default 20) inside `measured`, and prints
//! the bytes parsed: callgrind's instruction count for `measured` divided by
//! that is the instructions per byte. Without Valgrind it prints the same
//! line (a quick check that the game is the bench's); `PARSE_DUMP=N`
//! prints the first N blocks parsed.
#![allow(clippy::unwrap_used)] // tool code: a failed unwrap is a failed run

use arbitre_benches::game::Game;
use arbitre_core::{ParseIndex, PlayerId, Ruleset};
use std::collections::BTreeMap;

const SEED: u64 = 9;

/// The work counted: every block parsed `rounds` times.
#[inline(never)]
fn measured<R: Ruleset>(
    g: &Game<R>,
    index: Option<&ParseIndex>,
    orders: &BTreeMap<PlayerId, String>,
    rounds: usize,
) -> usize {
    let mut n = 0;
    for _ in 0..rounds {
        for (p, t) in orders {
            n += std::hint::black_box(g.ruleset.parse_orders_indexed(&g.state, index, p, t))
                .orders
                .len();
        }
    }
    n
}

fn run<R: Ruleset>(g: Game<R>, label: &str, rounds: usize) {
    let orders = g.bot_orders();
    // `PARSE_DUMP=N` prints the first N blocks: what the count is of.
    let dump = std::env::var("PARSE_DUMP")
        .ok()
        .and_then(|n| n.parse().ok());
    for (p, t) in orders.iter().take(dump.unwrap_or(0)) {
        println!("--- {p}\n{t}");
    }
    let bytes: usize = orders.values().map(|t| t.len()).sum();
    let index = g.ruleset.parse_index(&g.state);
    let n = measured(&g, index.as_ref(), &orders, rounds);
    println!(
        "parse_instructions {} {label}: {rounds} rounds of {bytes} bytes = {} bytes parsed, {} orders",
        g.ruleset.info().id,
        rounds * bytes,
        n
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(20);
    let label = args.get(1).map(String::as_str).unwrap_or("");
    match (args.first().map(String::as_str).unwrap_or(""), label) {
        ("nebulight", "100w") => run(Game::nebulight(100, SEED), label, rounds),
        ("nebulight", "10000w") => run(Game::nebulight(10_000, SEED), label, rounds),
        ("eds", "250s_10r") => run(Game::eds(250, 10, SEED), label, rounds),
        ("eds", "2500s_99r") => run(Game::eds(2_500, 99, SEED), label, rounds),
        ("scrambled", "100t_10p") => run(Game::scrambled(100, 10, SEED), label, rounds),
        ("scrambled", "1000t_100p") => run(Game::scrambled(1_000, 100, SEED), label, rounds),
        ("wwk", "100z_8n") => run(Game::wwk(100, 8, SEED), label, rounds),
        ("wwk", "1000z_100n") => run(Game::wwk(1_000, 100, SEED), label, rounds),
        _ => {
            eprintln!("usage: parse_instructions RULESET GAME [ROUNDS] (the parse bench's games: nebulight 100w|10000w, eds 250s_10r|2500s_99r, scrambled 100t_10p|1000t_100p, wwk 100z_8n|1000z_100n)");
            std::process::exit(2);
        }
    }
}
