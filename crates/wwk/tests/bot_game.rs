//! A 10-turn game between bots on the trio scenario, replayed through the
//! engine's object-safe face (as the daemon does). Every per-player report of
//! every turn is compared byte for byte with tests/golden/ (BLESS=1 rewrites).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{Adapter, Engine, PlayerId, SetupConfig, Viewer};
use arbitre_wwk::Wwk;
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common;

fn play(seed: u64, turns: u32) -> Vec<(String, String)> {
    let e = Adapter(Wwk);
    let cfg = SetupConfig {
        game_id: "wwk-bots".into(),
        seed,
        players: common::players(3),
        ..Default::default()
    };
    let mut state = e.setup(&cfg).expect("setup").state;
    let mut out = vec![];
    for p in e.players(&state).unwrap() {
        let r = e.report(&state, &Viewer::Player(p.id.clone())).unwrap();
        out.push((format!("t00-{}.txt", p.id), r.body));
    }
    for t in 1..=turns {
        let mut orders = BTreeMap::new();
        for p in e.players(&state).unwrap().into_iter().filter(|p| p.active) {
            let text = e.bot_orders(&state, seed, &p.id).unwrap();
            let c = e.check(&state, &p.id, &text).unwrap();
            assert_eq!(c.errors, 0, "bot orders must parse: {:?}", c.verdicts);
            orders.insert(p.id.clone(), text);
        }
        let res = e.resolve(&state, seed, &orders).expect("resolve");
        for (p, r) in &res.reports {
            out.push((
                format!("t{t:02}-{p}.txt"),
                format!(
                    "--- ordres envoyés ---\n{}\n--- rapport ---\n{}",
                    orders.get(p).cloned().unwrap_or_default(),
                    r.body
                ),
            ));
        }
        out.push((format!("t{t:02}-gm.txt"), res.game_master.body.clone()));
        state = res.snapshot.state;
        if res.outcome.is_some() {
            break;
        }
    }
    out
}

#[test]
fn wwk_5_bot_game_matches_golden_reports() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/bots");
    let files = play(2026, 10);
    assert!(files.len() >= 10 * 3, "at least 10 turns were played");
    let bless = std::env::var("BLESS").is_ok();
    let mut failures = vec![];
    if bless {
        std::fs::create_dir_all(&dir).unwrap();
    }
    for (name, body) in &files {
        let path = dir.join(name);
        if bless {
            std::fs::write(&path, body).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if &want != body {
            let diff = similar::TextDiff::from_lines(want.as_str(), body.as_str());
            failures.push(format!(
                "{name}:\n{}",
                diff.unified_diff().context_radius(2)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "golden reports differ (BLESS=1 to rewrite):\n{}",
        failures.join("\n")
    );
}

#[test]
fn wwk_5_determinism_same_seed_same_state_and_reports() {
    let e = Adapter(Wwk);
    let cfg = SetupConfig {
        game_id: "d".into(),
        seed: 5,
        players: common::players(3),
        ..Default::default()
    };
    let s0 = e.setup(&cfg).unwrap().state;
    let orders: BTreeMap<PlayerId, String> = [(
        "tur".into(),
        "IST BUILD INF 2\nIST 2 LT MOVE BUL\nIST 3 INF MOVE BUL".to_string(),
    )]
    .into();
    let a = e.resolve(&s0, 5, &orders).unwrap();
    let b = e.resolve(&s0, 5, &orders).unwrap();
    assert_eq!(a.snapshot, b.snapshot);
    assert_eq!(a.reports, b.reports);
    assert!(a.reports[&PlayerId::from("tur")]
        .body
        .contains("[IST] [2] [LT] [MOVE] [BUL] ... OK"));
    // A different seed changes some dice somewhere, never the structure.
    assert_eq!(play(9, 3), play(9, 3));
}

#[test]
fn wwk_6_state_round_trips_through_json() {
    let st = common::trio();
    let json = serde_json::to_string(&st).unwrap();
    let back: arbitre_wwk::State = serde_json::from_str(&json).unwrap();
    assert_eq!(st, back);
}

#[test]
fn wwk_5_every_roll_is_logged_with_its_step() {
    let e = Adapter(Wwk);
    let cfg = SetupConfig {
        game_id: "r".into(),
        seed: 11,
        players: common::players(3),
        ..Default::default()
    };
    let s0 = e.setup(&cfg).unwrap().state;
    let orders: BTreeMap<PlayerId, String> = [(
        "tur".into(),
        "IST 2 LT MOVE BUL\nIST 3 INF MOVE BUL".to_string(),
    )]
    .into();
    let a = e.resolve(&s0, 11, &orders).unwrap();
    let st: arbitre_wwk::State = serde_json::from_str(&a.snapshot.state).unwrap();
    // Initiative: one d20 per nation in step 0.3; research d100s in 5.8; combat in 3.10.
    assert_eq!(
        st.roll_log
            .iter()
            .filter(|r| r.step == "0.3" && r.die == 20)
            .count(),
        3
    );
    assert!(st.roll_log.iter().any(|r| r.step == "3.10" && r.die == 100));
    assert!(st
        .roll_log
        .iter()
        .all(|r| r.result >= 1 && r.result <= r.die));
    let seqs: Vec<u32> = st
        .roll_log
        .iter()
        .filter(|r| r.step == "5.8")
        .map(|r| r.seq)
        .collect();
    assert_eq!(seqs, (1..=seqs.len() as u32).collect::<Vec<_>>());
    assert!(a
        .game_master
        .attachments
        .iter()
        .any(|x| x.name == "jets-t01.json"));
    let b = e.resolve(&s0, 11, &orders).unwrap();
    assert_eq!(a.snapshot, b.snapshot, "same seed, same roll log");
}

#[test]
fn wwk_5_rolls_carry_their_catalogue_purpose() {
    let e = Adapter(Wwk);
    let cfg = SetupConfig {
        game_id: "r".into(),
        seed: 3,
        players: common::players(3),
        ..Default::default()
    };
    let s0 = e.setup(&cfg).unwrap().state;
    let a = e.resolve(&s0, 3, &BTreeMap::new()).unwrap();
    let st: arbitre_wwk::State = serde_json::from_str(&a.snapshot.state).unwrap();
    assert!(st
        .roll_log
        .iter()
        .filter(|r| r.step == "0.3")
        .all(|r| r.purpose == "R2 initiative"));
    assert!(
        st.roll_log.iter().all(|r| !r.purpose.is_empty()),
        "{:?}",
        st.roll_log.iter().find(|r| r.purpose.is_empty())
    );
}

/// Where `text` puts `:` or `;` right after a word, as English does and
/// French typography does not (a space goes before high punctuation, as the
/// catalogue and the Nébulight and Scrambled reports write it). A sign inside
/// a token (`x:y`, `://`) is not punctuation and is left alone.
fn unspaced_high_punctuation(text: &str) -> Vec<String> {
    let mut bad = vec![];
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        for (j, c) in chars.iter().enumerate() {
            if !matches!(c, ':' | ';') || j == 0 {
                continue;
            }
            let after_is_space = chars.get(j + 1).is_none_or(|a| *a == ' ');
            if after_is_space && chars[j - 1] != ' ' {
                bad.push(line.to_string());
                break;
            }
        }
    }
    bad
}

#[test]
fn item10_wwk_french_colons_spaced() {
    // The detector itself: the old report lines are caught, the new ones pass.
    assert_eq!(unspaced_high_punctuation("PV 9   Statut: -").len(), 1);
    assert_eq!(unspaced_high_punctuation("  EGY:").len(), 1);
    assert!(unspaced_high_punctuation("PV 9   Statut : -   x:y").is_empty());

    let files = play(2026, 10);
    let mut bad = vec![];
    for (name, body) in &files {
        // Only the report: the echoed orders are the player's own text.
        let report = body.split("--- rapport ---\n").last().unwrap_or(body);
        for l in unspaced_high_punctuation(report) {
            bad.push(format!("{name}: {l}"));
        }
    }
    assert!(files.len() >= 30, "the game was played: {}", files.len());
    assert!(
        bad.is_empty(),
        "French lines without the space:\n{}",
        bad.join("\n")
    );

    // The confirmation's texts, for lines refused at receipt.
    let e = Adapter(Wwk);
    let cfg = SetupConfig {
        game_id: "wwk-colons".into(),
        seed: 7,
        players: common::players(3),
        ..Default::default()
    };
    let state = e.setup(&cfg).expect("setup").state;
    let p = e.players(&state).unwrap()[0].id.clone();
    let c = e
        .check(
            &state,
            &p,
            "[IST] [1] [INF] [MOVE] [ANK] [SYR] [TAU] [ISR]\n[NAT] [RESEARCH] [I]\n",
        )
        .unwrap();
    let texts: Vec<String> = c
        .verdicts
        .iter()
        .filter_map(|v| match &v.verdict {
            arbitre_core::Verdict::Error(t) | arbitre_core::Verdict::Warning(t) => Some(t.clone()),
            arbitre_core::Verdict::Ok => None,
        })
        .collect();
    assert_eq!(texts.len(), 2, "both lines are refused: {:?}", c.verdicts);
    for t in &texts {
        assert!(unspaced_high_punctuation(t).is_empty(), "{t}");
    }
}
