//! Capacity (issue 9): how many concurrent games one daemon on this machine
//! serves with every deadline met, by simulation through the store and the
//! mail loop at a fixed clock (`arbitre_benches::capacity` says what is
//! simulated and measured).
//!
//! Not a criterion micro-benchmark (a round takes seconds), but a bench
//! target all the same, so that `cargo bench` runs it: a short run by
//! default (60 games, 2 rounds), 2,000 games and 5 rounds with
//! `ARBITRE_BENCH_FULL=1`; `ARBITRE_BENCH_GAMES` / `ARBITRE_BENCH_ROUNDS`
//! set any size, and the `capacity` example takes them as arguments.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_benches::capacity::{run, Options};
use arbitre_benches::full;

fn env_usize(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let games = env_usize("ARBITRE_BENCH_GAMES", if full() { 2000 } else { 60 });
    let rounds = env_usize("ARBITRE_BENCH_ROUNDS", if full() { 5 } else { 2 });
    run(Options {
        games,
        rounds,
        ..Options::default()
    });
}
