//! Order parsing per ruleset (issue 9), in MB/s and orders/s, on the order
//! blocks the bots write for every player of a generated game.
//!
//! Two sizes per ruleset: a map of a usual game and a large one, because a
//! parser checks names and numbers against the state (a parser whose cost
//! grows with the map shows it here).
//!
//! In the same run, `parse_<ruleset>_bytes/limit_lines/<game>` splits the
//! same bytes into lines (`str::lines().count()`, memchr for the newlines):
//! the least any line-based parser must do, so the ratio of the two figures
//! is arbitre's overhead over the hardware limit (as `ingest` does for
//! mail-parser and SQLite).
//!
//! Before measuring, each game prints the allocations one parse of all its
//! blocks makes per order line and per accepted order, counted by the
//! counting allocator installed here (issue 21: a grammar allocates at most
//! once per accepted order beyond the `Parsed` echo of its line), and the
//! MB/s of the parse and of `limit_lines` in this thread's CPU time (the
//! wall-clock figures of a loaded machine count other processes' time).
//!
//! The blocks are parsed with the ruleset's parse index of the state
//! ([`Ruleset::parse_index`], issue 21), built once per game before
//! measuring, as the turn's parse and a loaded game's checks build it once
//! per state; the time it took is printed beside the figures.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_benches::alloc::{self, Counting};
use arbitre_benches::game::Game;
use arbitre_core::{ParseIndex, PlayerId, Ruleset};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const SEED: u64 = 9;

#[global_allocator]
static GLOBAL: Counting = Counting;

fn parse_all<R: Ruleset>(
    g: &Game<R>,
    index: Option<&ParseIndex>,
    orders: &BTreeMap<PlayerId, String>,
) -> usize {
    orders
        .iter()
        .map(|(p, t)| {
            g.ruleset
                .parse_orders_indexed(&g.state, index, p, t)
                .orders
                .len()
        })
        .sum()
}

/// The raw limit: the newline search over the same order blocks.
fn count_lines(orders: &BTreeMap<PlayerId, String>) -> usize {
    orders
        .values()
        .map(|t| std::hint::black_box(t.as_str()).lines().count())
        .sum()
}

/// CPU time this thread has run, in ns (`/proc/thread-self/schedstat`,
/// Linux): on a loaded machine the wall clock counts the time other
/// processes take, this does not.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split(' ').next()?.parse().ok()
}

/// MB/s of `f` over `bytes` in CPU time, repeated for at least 0.5 s of CPU.
/// The clock is read between batches of at least 2 ms: reading
/// `/proc/thread-self/schedstat` costs microseconds, which every 16 parses
/// of a small game took a tenth of the measured time.
fn cpu_mb_s(bytes: usize, mut f: impl FnMut() -> usize) -> Option<f64> {
    let mut batch = 1u64;
    loop {
        let t = cpu_ns()?;
        for _ in 0..batch {
            std::hint::black_box(f());
        }
        if cpu_ns()? - t >= 2_000_000 {
            break;
        }
        batch *= 2;
    }
    let start = cpu_ns()?;
    let mut rounds = 0u64;
    while cpu_ns()? - start < 500_000_000 {
        for _ in 0..batch {
            std::hint::black_box(f());
        }
        rounds += batch;
    }
    let ns = (cpu_ns()? - start) as f64;
    Some(bytes as f64 * rounds as f64 / ns * 1e3)
}

fn bench<R: Ruleset>(c: &mut Criterion, label: &str, g: Game<R>) {
    // A few turns in, so the bots have something to order everywhere.
    let orders = g.bot_orders();
    let bytes: usize = orders.values().map(|t| t.len()).sum();
    let lines: usize = orders
        .values()
        .map(|t| t.lines().filter(|l| !l.trim().is_empty()).count())
        .sum();
    // The parser's index of the state (WWK's units by nation), built once
    // per state as the turn's parse and a loaded game's checks do; its cost
    // is shown apart, beside one parse of all the blocks.
    // Wall clock: the thread's CPU clock is updated too coarsely for a
    // single call.
    let t = Instant::now();
    let index = g.ruleset.parse_index(&g.state);
    let index_us = t.elapsed().as_micros();
    let index = index.as_ref();
    let t = Instant::now();
    let before = alloc::allocations();
    let n = parse_all(&g, index, &orders);
    let allocs = alloc::allocations() - before;
    let once_us = t.elapsed().as_micros();
    let id = g.ruleset.info().id;
    println!(
        "parse {id} {label}: {} players, {n} orders, {lines} order lines, {bytes} bytes; {allocs} allocations: {:.2} per order line, {:.2} per order",
        orders.len(),
        allocs as f64 / lines.max(1) as f64,
        allocs as f64 / n.max(1) as f64,
    );
    if index.is_some() {
        println!(
            "parse {id} {label}: the parse index of the state built in {index_us} µs, one cold parse of all blocks {once_us} µs (wall clock)"
        );
    }
    if let (Some(parse), Some(limit)) = (
        cpu_mb_s(bytes, || parse_all(&g, index, &orders)),
        cpu_mb_s(bytes, || count_lines(&orders)),
    ) {
        println!(
            "parse {id} {label}: CPU time {parse:.0} MB/s, limit_lines {limit:.0} MB/s ({:.1}x)",
            limit / parse
        );
    }
    for (unit, tp) in [
        ("bytes", Throughput::Bytes(bytes as u64)),
        ("orders", Throughput::Elements(n as u64)),
    ] {
        let mut grp = c.benchmark_group(format!("parse_{id}_{unit}"));
        grp.sample_size(20)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2));
        grp.throughput(tp);
        grp.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| parse_all(&g, index, &orders))
        });
        if unit == "bytes" {
            grp.bench_function(BenchmarkId::new("limit_lines", label), |b| {
                b.iter(|| count_lines(&orders))
            });
        }
        grp.finish();
    }
}

fn parse(c: &mut Criterion) {
    bench(c, "100w", Game::nebulight(100, SEED));
    bench(c, "10000w", Game::nebulight(10_000, SEED));
    bench(c, "250s_10r", Game::eds(250, 10, SEED));
    bench(c, "2500s_99r", Game::eds(2_500, 99, SEED));
    bench(c, "100t_10p", Game::scrambled(100, 10, SEED));
    bench(c, "1000t_100p", Game::scrambled(1_000, 100, SEED));
    bench(c, "100z_8n", Game::wwk(100, 8, SEED));
    bench(c, "1000z_100n", Game::wwk(1_000, 100, SEED));
}

criterion_group!(benches, parse);
criterion_main!(benches);
