//! Scale generators and measuring helpers for arbitre's criterion benchmarks
//! (issue 9). Every generator is seeded and deterministic: the same size and
//! seed give the same TOML, so a figure in `docs/performance.md` can be
//! reproduced. The benches themselves live in `crates/benches/benches/`.

pub mod alloc;
pub mod capacity;
pub mod eds;
pub mod figures;
pub mod game;
pub mod grid;
pub mod limits;
pub mod mail;
pub mod nebulight;
pub mod scrambled;
pub mod wwk;

/// True when `ARBITRE_BENCH_FULL=1`: run the largest sizes too (minutes).
pub fn full() -> bool {
    std::env::var("ARBITRE_BENCH_FULL").is_ok_and(|v| v == "1")
}
