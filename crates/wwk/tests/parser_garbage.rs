//! Garbage never panics the parser (contract): random bytes, random tokens
//! from the order vocabulary, huge numbers, stray brackets.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_core::{PlayerId, Rng, Ruleset};
use arbitre_wwk::Wwk;

#[test]
fn garbage_never_panics_and_every_line_gets_a_verdict() {
    let st = common::trio();
    let vocab = [
        "NAT",
        "IST",
        "CAI",
        "BUL",
        "ALL",
        "ARMY",
        "-",
        ">>",
        "ESCT",
        "MOVE",
        "SMOV",
        "HMOV",
        "BOMB",
        "CAP",
        "5x50kT",
        "5MT",
        "#0904",
        "[",
        "]",
        "99999999999999999999",
        "0",
        "-3",
        "LT",
        "INF",
        "ICBM",
        "MISS",
        "BUILD",
        "SPY",
        "RG",
        "ST",
        "RT",
        "XFER",
        "EC",
        "NAT",
        "MARKET",
        "SELL",
        "BUY",
        "F",
        "N",
        "é",
        "\t",
        "RESEARCH",
        "I",
        "L",
        "OPTION",
        "AI",
    ];
    let mut rng = Rng::for_phase(3, 1, "garbage");
    for _ in 0..400 {
        let lines = 1 + rng.below(6) as usize;
        let mut text = String::new();
        for _ in 0..lines {
            let k = rng.below(9) as usize;
            let mut l: Vec<String> = (0..k)
                .map(|_| vocab[rng.below(vocab.len() as u64) as usize].to_string())
                .collect();
            if rng.chance(1, 8) {
                l.push(
                    (0..rng.below(12))
                        .map(|_| char::from_u32(rng.below(0x2000) as u32).unwrap_or('?'))
                        .collect(),
                );
            }
            text.push_str(&l.join(" "));
            text.push('\n');
        }
        let p = Wwk.parse_orders(&st, &PlayerId::from("tur"), &text);
        let nonempty = text
            .lines()
            .filter(|l| {
                !arbitre_core::normalize_line(l).is_empty() && !l.trim_start().starts_with('#')
            })
            .count();
        assert!(
            p.orders.len() + p.diagnostics.len() >= nonempty.min(1),
            "{text}"
        );
    }
    // An unknown player gets a diagnostic, not a panic.
    let p = Wwk.parse_orders(&st, &PlayerId::from("nobody"), "IST 2 INF MOVE BUL");
    assert_eq!(p.error_count(), 1);
}

#[test]
fn the_example_mail_of_the_players_guide_parses_cleanly() {
    let doc = include_str!("../../../docs/wwk.md");
    let start = doc.find("PARTIE wwk-001").expect("example mail");
    let block = &doc[start..];
    let end = block.find("\nEND").expect("END");
    // The daemon strips the envelope line; the orders follow it.
    let orders = &block[block.find('\n').unwrap() + 1..end];
    let st = common::trio();
    let p = Wwk.parse_orders(&st, &PlayerId::from("tur"), orders);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(p.orders.len(), 11);
}
