//! Issue 8, fuzzing on the stable toolchain: the inputs of the cargo-fuzz
//! targets in `crates/fuzz/` (mail ingest, each ruleset's order parser), produced
//! by a bounded, seeded mutation loop instead of libFuzzer, so that it runs
//! in every `cargo test`. Seeds are real inputs (order mails, every
//! ruleset's bot orders); mutations flip, insert, delete, duplicate and
//! splice bytes and lines, and graft MIME and charset headers.
//!
//! What must hold: no panic anywhere; the order checker returns a verdict
//! for every non-empty line it did not understand; and the daemon itself,
//! fed a few hundred mutated mails, journals every one exactly once and
//! leaves nothing unread.
//!
//! `ARBITRE_FUZZ_ITERS=<n>` raises the budget; the figures are printed
//! (`--nocapture`) and quoted in docs/reliability.md.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_core::{Engine, PlayerId, PlayerSetup, SetupConfig};
use common::*;
use std::collections::BTreeMap;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const GRAFTS: &[&[u8]] = &[
    b"\r\n",
    b"\n\n",
    b"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n",
    b"--b--\r\n",
    b"Content-Type: text/plain; charset=iso-8859-1\r\n",
    b"Content-Type: text/plain; charset=utf-16\r\n",
    b"Content-Type: text/html\r\n\r\n<html><body><p>",
    b"Content-Transfer-Encoding: base64\r\n\r\n",
    b"Content-Transfer-Encoding: quoted-printable\r\n\r\n=C3=A9=\r\n",
    b"=?utf-8?B?R0FNRSBnMQ==?=",
    b"GAME g1 PLAYER alice PASSWORD wonderland\n",
    b"END\n",
    b"\xff\xfe\x00",
    b"\xc3\xa9\xe2\x82\xac",
    b"Auto-Submitted: auto-replied\r\n",
    b"Content-Disposition: attachment; filename=orders.txt\r\n",
];

fn mutate(seed: &[u8], rng: &mut Rng, pool: &[Vec<u8>]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..=rng.below(6) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => v.insert(at, rng.next() as u8),
            2 if !v.is_empty() => {
                let end = (at + rng.below(32)).min(v.len());
                v.drain(at.min(end)..end);
            }
            3 => {
                let g = GRAFTS[rng.below(GRAFTS.len())];
                v.splice(at..at, g.iter().copied());
            }
            4 if !v.is_empty() => {
                // duplicate a stretch (long lines, repeated parts)
                let end = (at + rng.below(200)).min(v.len());
                let piece: Vec<u8> = v[at.min(end)..end].to_vec();
                for _ in 0..rng.below(20) {
                    v.splice(at..at, piece.iter().copied());
                }
            }
            5 => {
                let other = &pool[rng.below(pool.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(400)).min(other.len());
                v.splice(at..at, other[from..end].iter().copied());
            }
            _ => v.truncate(at),
        }
    }
    v
}

fn iters(default: usize) -> usize {
    std::env::var("ARBITRE_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A fixed game per ruleset, as in crates/fuzz/fuzz_targets/orders_*.rs.
fn games() -> Vec<(String, Box<dyn Engine>, String, PlayerId)> {
    let mut out = Vec::new();
    for (name, players, rules) in [
        ("nebulight", vec!["maxtor", "miria"], "map = \"duel\""),
        ("eds", vec!["p1", "p2", "p3"], ""),
        ("scrambled", vec!["p1", "p2", "p3"], "world = \"testland\""),
        // WWK seats are matched to nations by id (issue 18 item 3).
        ("wwk", vec!["tur", "egy", "gre"], ""),
    ] {
        let e = boxed(name);
        let config = SetupConfig {
            game_id: "fuzz".into(),
            seed: 7,
            players: players
                .iter()
                .map(|p| PlayerSetup {
                    id: PlayerId::new(p.to_string()),
                    name: p.to_string(),
                    options: Default::default(),
                })
                .collect(),
            options: toml::from_str(rules).unwrap(),
            files: BTreeMap::new(),
        };
        let state = e.setup(&config).unwrap().state;
        out.push((
            name.to_string(),
            e,
            state,
            PlayerId::new(players[0].to_string()),
        ));
    }
    out
}

fn boxed(name: &str) -> Box<dyn Engine> {
    use arbitre_core::Adapter;
    match name {
        "nebulight" => Adapter::boxed(arbitre_nebulight::Nebulight),
        "eds" => Adapter::boxed(arbitre_eds::Eds),
        "scrambled" => Adapter::boxed(arbitre_scrambled::Scrambled),
        _ => Adapter::boxed(arbitre_wwk::Wwk),
    }
}

#[test]
fn fuzz_order_parsers_never_panic_and_judge_every_line() {
    let n = iters(3000);
    let mut rng = Rng(0xF022);
    let mut tried = BTreeMap::new();
    for (name, engine, state, player) in games() {
        let mut pool: Vec<Vec<u8>> = Vec::new();
        for s in 0..8u64 {
            pool.push(engine.bot_orders(&state, s, &player).unwrap().into_bytes());
        }
        pool.push(b"ADD 3\n\n   \n# comment\n".to_vec());
        for i in 0..n {
            let seed = pool[i % pool.len()].clone();
            let input = mutate(&seed, &mut rng, &pool);
            let text = String::from_utf8_lossy(&input);
            let checked = engine
                .check(&state, &player, &text)
                .unwrap_or_else(|e| panic!("{name}: check failed on {text:?}: {e}"));
            assert!(
                checked.errors <= checked.verdicts.len(),
                "{name}: more errors than verdicts"
            );
            // Every order understood or refused is a judged line.
            assert!(
                checked.orders <= checked.verdicts.len() + 1,
                "{name}: {text:?}"
            );
        }
        tried.insert(name, n);
    }
    println!("stable fuzz loop: order parsers, inputs tried per ruleset: {tried:?}");
}

#[test]
fn fuzz_mail_ingest_never_panics() {
    let n = iters(3000) * 4;
    let mut rng = Rng(0x3A11);
    let mut pool: Vec<Vec<u8>> = vec![
        mail("alice@example.org", "orders", &orders("g1", "alice", "wonderland", "ADD 3\nADD 4")),
        mail_with("bob@example.org", "o", "<p>GAME g1 PLAYER bob PASSWORD builder</p><p>ADD 1</p><p>END</p>", ""),
        b"From: a@b.c\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/html; charset=latin1\r\n\r\n<b>GAME g1</b>\r\n--x\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=o.txt\r\n\r\nGAME g1 PLAYER alice PASSWORD wonderland\r\nADD 2\r\nEND\r\n--x--\r\n".to_vec(),
    ];
    let turn1 = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples/nebulight/orders/turn-001");
    if let Ok(rd) = std::fs::read_dir(&turn1) {
        for e in rd.flatten() {
            pool.push(std::fs::read(e.path()).unwrap());
        }
    }
    let (mut parsed, mut blocks) = (0, 0);
    for i in 0..n {
        let seed = pool[i % pool.len()].clone();
        let input = mutate(&seed, &mut rng, &pool);
        if let Ok(m) = arbitre_mail::parse_mail(&input, 1 << 20) {
            parsed += 1;
            if arbitre_mail::find_in_mail(&m).is_ok() {
                blocks += 1;
            }
        }
    }
    println!("stable fuzz loop: mail ingest, {n} inputs tried, {parsed} parsed, {blocks} with an order block");
    assert!(
        blocks > 0,
        "the mutations must not be so wild that no order block survives"
    );
}

#[test]
fn fuzz_the_daemon_journals_every_mutated_mail_exactly_once() {
    let n = (iters(3000) / 10).max(50);
    let mut rng = Rng(0xDAE);
    let pool = vec![
        mail(
            "alice@example.org",
            "orders",
            &orders("g1", "alice", "wonderland", "ADD 3\nADD 4"),
        ),
        mail(
            "bob@example.org",
            "orders",
            &orders("g1", "bob", "builder", "ADD 9"),
        ),
    ];
    let mut env = Env::new();
    let mut distinct = std::collections::BTreeSet::new();
    for i in 0..n {
        let input = mutate(&pool[i % 2], &mut rng, &pool);
        distinct.insert(input.clone());
        env.drop_mail(&input);
    }
    env.daemon.cycle().unwrap();
    let left: Vec<String> = std::fs::read_dir(env.dir.path().join("inbox/new"))
        .unwrap()
        .map(|e| String::from_utf8_lossy(&std::fs::read(e.unwrap().path()).unwrap()).into_owned())
        .collect();
    assert!(left.is_empty(), "mutated mails left unread: {left:#?}");
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal") as usize,
        distinct.len(),
        "journaled exactly once each"
    );
    println!(
        "stable fuzz loop: daemon, {n} mutated mails ({} distinct) journaled, none left",
        distinct.len()
    );
}
