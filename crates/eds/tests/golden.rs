//! A 12-month game between three bots on the built-in "trio" galaxy, run through
//! the engine exactly as the daemon does (bot orders as mail text → parse →
//! resolve → reports). Every ruler's report of every month is compared byte for
//! byte with the golden files under tests/golden/bot-game/; `BLESS=1` rewrites
//! them. Also: determinism, and garbage orders never panic.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use arbitre_core::{Adapter, Engine, PlayerId, Rng, Ruleset};
use arbitre_eds::Eds;
use common::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

const SEED: u64 = 20261020;
const MONTHS: u32 = 12;

/// Play the bot game; returns (file name, content) of every golden document.
fn play() -> (Vec<(String, String)>, Vec<String>) {
    let engine = Adapter(Eds);
    let mut cfg = config(3, toml::Table::new());
    cfg.options.insert("map".into(), "trio".into());
    cfg.seed = SEED;
    let mut snap = engine.setup(&cfg).unwrap();
    let mut files = Vec::new();
    let mut states = vec![snap.state.clone()];
    for p in 1..=3 {
        let r = engine
            .report(&snap.state, &arbitre_core::Viewer::Player(pid(p)))
            .unwrap();
        files.push((
            format!("m00-p{p}.txt"),
            format!("{}\n\n{}", r.subject, r.body),
        ));
    }
    for m in 1..=MONTHS {
        let mut orders = BTreeMap::new();
        for p in 1..=3 {
            let id: PlayerId = pid(p);
            let text = engine.bot_orders(&snap.state, SEED, &id).unwrap();
            let check = engine.check(&snap.state, &id, &text).unwrap();
            assert_eq!(
                check.errors, 0,
                "bot orders must parse: {text}\n{:?}",
                check.verdicts
            );
            orders.insert(id, text);
        }
        let res = engine.resolve(&snap.state, SEED, &orders).unwrap();
        for (id, rep) in &res.reports {
            let sheet = rep
                .attachments
                .iter()
                .find(|a| a.mime == "text/plain")
                .map(|a| String::from_utf8_lossy(&a.content).to_string())
                .unwrap_or_default();
            files.push((
                format!("m{m:02}-{id}.txt"),
                format!(
                    "=== BEFEHLE ===\n{}\n=== {} ===\n\n{}\n=== BEFEHLSBLATT (Anhang) ===\n{}",
                    orders[id], rep.subject, rep.body, sheet
                ),
            ));
        }
        files.push((
            format!("m{m:02}-spielleitung.txt"),
            res.game_master.body.clone(),
        ));
        snap = res.snapshot;
        states.push(snap.state.clone());
        if res.outcome.is_some() {
            break;
        }
    }
    (files, states)
}

#[test]
fn bot_game_of_twelve_months_matches_golden_reports() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/bot-game");
    let (files, states) = play();
    assert_eq!(states.len() as u32, MONTHS + 1);
    if std::env::var("BLESS").is_ok() {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let mut failures = Vec::new();
    for (name, text) in &files {
        let want = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|_| panic!("golden file {name} missing: run with BLESS=1"));
        if &want != text {
            let diff = similar::TextDiff::from_lines(&want, text);
            let mut d = format!("--- golden/{name}\n+++ now\n");
            for hunk in diff.unified_diff().context_radius(2).iter_hunks() {
                d.push_str(&hunk.to_string());
            }
            failures.push(d);
        }
    }
    assert!(
        failures.is_empty(),
        "reports differ from the golden files (BLESS=1 rewrites them):\n{}",
        failures.join("\n")
    );
}

#[test]
fn same_seed_and_orders_give_identical_state_and_reports() {
    let (fa, sa) = play();
    let (fb, sb) = play();
    assert_eq!(sa, sb);
    assert_eq!(fa, fb);
}

#[test]
fn the_bot_game_has_colonies_research_and_building() {
    let (_, states) = play();
    let last: arbitre_eds::model::State = serde_json::from_str(states.last().unwrap()).unwrap();
    for r in &last.rulers {
        let stars = last
            .stars
            .values()
            .filter(|s| s.owner == Some(r.number))
            .count();
        assert!(
            stars >= 5,
            "ruler {} explored and colonised: {stars} stars",
            r.number
        );
        assert!(last.ships.values().filter(|s| s.owner == r.number).count() >= 6);
    }
    assert!(
        last.stars
            .values()
            .any(|s| s.facility == Some(arbitre_eds::model::Facility::F)),
        "someone researches"
    );
}

#[test]
fn garbage_orders_never_panic() {
    let s = base();
    let mut rng = Rng::for_setup(123);
    let alphabet: Vec<char> =
        "0123456789,/ []ABCDEFGLTUWZaeg-#äöüß\t\u{a0}HSPRUNGMONAT:J999999999999999999999"
            .chars()
            .collect();
    let edge = [
        "[13]\n1,X,Z,99999,99999,99999,99999,99999,99999,99999,99999,99999,99999,4\n",
        "[13]\n1,X,Z,4294967295,0,0,0,0,0,0,0,0,0,2\n",
        "[10]\n2,1000000000,1000000000\n[11]\n2,1000000000,1000000000\n",
        "[5]\n2,1000000000\n[17]\n2,1000000000\n[12]\n1,L,1000000000\n",
        "[7]\n2,A,1000000000,1000000000\n2,/,0,0\n",
        "[DIPLOMATIE 255]\nx\n[DIPLOMATIE 999]\ny\n[ANZEIGER]\n",
    ];
    for text in edge {
        let mut st = s.clone();
        let p = Eds.parse_orders(&st, &pid(1), text);
        let _ = p.verdicts();
        month(&mut st, &[(1, text)]);
    }
    for _ in 0..3000 {
        let len = rng.below(120) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect();
        let sections = [
            "[7]\n",
            "[13]\n",
            "[3 STATUS]\n",
            "[DIPLOMATIE 9]\n",
            "[17]\n",
            "",
        ];
        let full = format!(
            "{}{}",
            sections[rng.below(sections.len() as u64) as usize],
            text
        );
        let p = Eds.parse_orders(&s, &pid(1), &full);
        // Whatever parses must also execute without a panic.
        if !p.orders.is_empty() {
            let mut st = s.clone();
            month(&mut st, &[(1, &full), (2, &full)]);
        }
    }
}

#[test]
fn ten_bots_play_the_standard_galaxy() {
    let mut s = scenario("standard", 10);
    for m in 0..6u32 {
        let orders: Vec<(usize, String)> = (1..=10)
            .map(|n| {
                (
                    n,
                    Eds.bot_orders(&s, &pid(n), &mut Rng::for_phase(1, m, "bot")),
                )
            })
            .collect();
        let o: Vec<(usize, &str)> = orders.iter().map(|(n, t)| (*n, t.as_str())).collect();
        month(&mut s, &o);
    }
    assert_eq!(s.month, 6);
    for r in &s.rulers {
        assert!(
            s.stars
                .values()
                .filter(|x| x.owner == Some(r.number))
                .count()
                >= 3,
            "ruler {} expands",
            r.number
        );
    }
}
