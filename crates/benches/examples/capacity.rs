//! Capacity by simulation (issue 9), at any size:
//!
//! ```sh
//! cargo run --release -p arbitre-benches --example capacity -- [GAMES] [ROUNDS] [--nmr PCT] [--keep-files] [--argon2] [--indexes] [--no-png] [--smtp HOST:PORT] [--keep-sent TURNS]
//! ```
//! (defaults: 1,000 games, 4 rounds, 10 % of the seats miss each turn). See
//! `arbitre_benches::capacity` for what is simulated and measured.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_benches::capacity::{run, Options};

/// The daemon binary's allocator, so that the simulation measures what
/// the daemon runs.
#[global_allocator]
static ALLOCATOR: arbitre::Allocator = arbitre::Allocator;

fn main() {
    let mut a = Options::default();
    let mut positional = 0;
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        match x.as_str() {
            "--nmr" => a.nmr_percent = it.next().and_then(|v| v.parse().ok()).expect("--nmr PCT"),
            "--keep-files" => a.keep_files = true,
            "--argon2" => a.argon2 = true,
            "--indexes" => a.indexes = true,
            "--no-png" => a.no_png = true,
            "--keep-sent" => {
                a.keep_sent = Some(
                    it.next()
                        .and_then(|v| v.parse().ok())
                        .expect("--keep-sent TURNS"),
                )
            }
            "--smtp" => {
                let v = it.next().expect("--smtp HOST:PORT");
                let (h, p) = v.rsplit_once(':').expect("--smtp HOST:PORT");
                a.smtp = Some((h.to_string(), p.parse().expect("--smtp port")));
            }
            n => {
                let v: usize = n.parse().unwrap_or_else(|_| panic!("unknown argument {n}"));
                if positional == 0 {
                    a.games = v;
                } else {
                    a.rounds = v;
                }
                positional += 1;
            }
        }
    }
    run(a);
}
