//! Turn resolution per ruleset at growing sizes (issue 9), and report
//! rendering for all players, with the peak heap of one turn.
//!
//! Default sizes keep `cargo bench` to a few minutes on two cores;
//! `ARBITRE_BENCH_FULL=1` adds the largest sizes of the issue. Before the
//! criterion groups, each size is also measured once (setup, bots, parse,
//! resolve, reports, peak memory) and printed as a markdown table row, the
//! table of `docs/performance.md`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_benches::alloc::Counting;
use arbitre_benches::figures::{measure, Row};
use arbitre_benches::full;
use arbitre_benches::game::Game;
use arbitre_core::Ruleset;
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use std::time::Duration;

#[global_allocator]
static A: Counting = Counting;

const SEED: u64 = 9;

fn neb_sizes() -> Vec<usize> {
    let mut v = vec![100, 1_000, 10_000];
    if full() {
        v.push(100_000);
    }
    v
}

fn eds_sizes() -> Vec<(usize, usize)> {
    let mut v = vec![(100, 10), (1_000, 10), (1_000, 50)];
    if full() {
        v.extend([(10_000, 10), (10_000, 99)]);
    }
    v
}

fn scn_sizes() -> Vec<(usize, usize)> {
    let mut v = vec![(50, 4), (500, 20), (500, 50)];
    if full() {
        v.extend([(5_000, 50), (5_000, 200)]);
    }
    v
}

fn wwk_sizes() -> Vec<(usize, usize)> {
    let mut v = vec![(50, 4), (500, 20), (500, 50)];
    if full() {
        v.extend([(5_000, 50), (5_000, 200)]);
    }
    v
}

fn bench_game<R: Ruleset>(c: &mut Criterion, group: &str, label: String, map: usize, g: &Game<R>) {
    let orders = g.bot_orders();
    let mut grp = c.benchmark_group(group);
    grp.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    grp.throughput(Throughput::Elements(map as u64));
    grp.bench_function(BenchmarkId::new("resolve", &label), |b| {
        b.iter_batched(
            || g.state.clone(),
            |mut s| g.resolve(&mut s, &orders),
            BatchSize::LargeInput,
        )
    });
    let mut after = g.state.clone();
    let events = g.resolve(&mut after, &orders);
    grp.bench_function(BenchmarkId::new("reports_all_players", &label), |b| {
        b.iter(|| g.reports(&after, &events))
    });
    grp.finish();
}

fn table(rows: &[Row]) {
    println!("\n{}", Row::header());
    for r in rows {
        println!("{}", r.line());
    }
    println!();
}

fn resolve(c: &mut Criterion) {
    // The one-shot table only under `cargo bench` (`--bench`), not when
    // `cargo test --benches` runs each benchmark once as a smoke test.
    let table_wanted = std::env::args().any(|a| a == "--bench");
    let mut rows = Vec::new();
    for n in neb_sizes() {
        if table_wanted {
            rows.push(measure(format!("{n} worlds, 2 players"), || {
                Game::nebulight(n, SEED)
            }));
        }
        let g = Game::nebulight(n, SEED);
        bench_game(c, "resolve_nebulight", format!("{n}w"), n, &g);
    }
    for (n, p) in eds_sizes() {
        if table_wanted {
            rows.push(measure(format!("{n} stars, {p} rulers"), || {
                Game::eds(n, p, SEED)
            }));
        }
        let g = Game::eds(n, p, SEED);
        bench_game(c, "resolve_eds", format!("{n}s_{p}r"), n, &g);
    }
    for (n, p) in scn_sizes() {
        if table_wanted {
            rows.push(measure(format!("{n} territories, {p} players"), || {
                Game::scrambled(n, p, SEED)
            }));
        }
        let g = Game::scrambled(n, p, SEED);
        bench_game(c, "resolve_scrambled", format!("{n}t_{p}p"), n, &g);
    }
    for (n, p) in wwk_sizes() {
        if table_wanted {
            rows.push(measure(format!("{n} zones, {p} nations"), || {
                Game::wwk(n, p, SEED)
            }));
        }
        let g = Game::wwk(n, p, SEED);
        bench_game(c, "resolve_wwk", format!("{n}z_{p}n"), n, &g);
    }
    if table_wanted {
        table(&rows);
    }
}

criterion_group!(benches, resolve);
criterion_main!(benches);
