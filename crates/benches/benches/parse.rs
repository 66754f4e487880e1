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
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_benches::game::Game;
use arbitre_core::{PlayerId, Ruleset};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::collections::BTreeMap;
use std::time::Duration;

const SEED: u64 = 9;

fn parse_all<R: Ruleset>(g: &Game<R>, orders: &BTreeMap<PlayerId, String>) -> usize {
    orders
        .iter()
        .map(|(p, t)| g.ruleset.parse_orders(&g.state, p, t).orders.len())
        .sum()
}

/// The raw limit: the newline search over the same order blocks.
fn count_lines(orders: &BTreeMap<PlayerId, String>) -> usize {
    orders
        .values()
        .map(|t| std::hint::black_box(t.as_str()).lines().count())
        .sum()
}

fn bench<R: Ruleset>(c: &mut Criterion, label: &str, g: Game<R>) {
    // A few turns in, so the bots have something to order everywhere.
    let orders = g.bot_orders();
    let bytes: usize = orders.values().map(|t| t.len()).sum();
    let n = parse_all(&g, &orders);
    let id = g.ruleset.info().id;
    println!(
        "parse {id} {label}: {} players, {n} orders, {bytes} bytes",
        orders.len()
    );
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
            b.iter(|| parse_all(&g, &orders))
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
