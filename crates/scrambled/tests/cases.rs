//! Conformance cases kept as data (tests/cases/*.toml): a position, the
//! orders of each turn, and the expected troop counts and report lines.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
mod common;
use common::*;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    description: String,
    rules: String,
    players: Vec<String>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    turn: Vec<Turn>,
    #[serde(default)]
    bureaucracy: Vec<(u32, String)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Turn {
    #[serde(default)]
    orders: BTreeMap<String, String>,
    #[serde(default)]
    troops: Vec<(String, String, u64)>,
    #[serde(default)]
    report: Vec<Expect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    player: String,
    lines: Vec<String>,
}

fn run(name: &str, text: &str) {
    let case: Case = toml::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let names: Vec<&str> = case.players.iter().map(|s| s.as_str()).collect();
    if !case.bureaucracy.is_empty() {
        // One game per territory count, all of Alice's land at economy 100.
        let land = [
            "LOR", "ALS", "CHA", "PIC", "IDF", "BAD", "SWA", "BAV", "BOH",
        ];
        for (n, want) in &case.bureaucracy {
            let mut pos = format!("quota = 6\n{}", player("alice", "LOR", Some("LOR"), &[]));
            for t in land.iter().take(*n as usize) {
                pos.push_str(&territory(t, Some("alice"), 100, &[]));
            }
            let mut s = from_position(&names, &case.rules, &pos);
            resolve(&mut s, &[]);
            let r = report(&s, "alice");
            let line = format!("Bureaucratie : {n} territoires, quote-part 6 -> {want}");
            assert!(
                has_line(&r, &line),
                "{name} ({}): missing «{line}» in\n{r}",
                case.description
            );
        }
    }
    if case.turn.is_empty() {
        return;
    }
    let mut s = from_position(&names, &case.rules, case.position.as_deref().unwrap_or(""));
    for (i, turn) in case.turn.iter().enumerate() {
        let orders: Vec<(&str, &str)> = turn
            .orders
            .iter()
            .map(|(p, o)| (p.as_str(), o.as_str()))
            .collect();
        resolve(&mut s, &orders);
        for (t, p, n) in &turn.troops {
            assert_eq!(
                troops(&s, t, p),
                *n,
                "{name} turn {}: troops of {p} in {t}",
                i + 1
            );
        }
        for e in &turn.report {
            let r = report(&s, &e.player);
            for l in &e.lines {
                assert!(
                    r.lines().any(|x| x == l.trim_end()),
                    "{name} turn {}: missing exact line «{l}» for {} in\n{r}",
                    i + 1,
                    e.player
                );
            }
        }
    }
}

#[test]
fn conformance_cases_from_data_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    assert!(names.len() >= 2);
    for p in names {
        let text = std::fs::read_to_string(&p).unwrap();
        run(&p.file_name().unwrap().to_string_lossy(), &text);
    }
}
