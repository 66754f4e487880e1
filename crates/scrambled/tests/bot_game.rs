//! A full 15-turn game between 4 bots on the Hexagone world, played through
//! the daemon's `Engine` face (state as JSON, orders as mail text). Every
//! player's report of every turn is compared byte for byte with the golden
//! files under tests/golden/bots/; `BLESS=1` rewrites them.
//!
//! Also the determinism test (SCN-64): the same seed and orders give the same
//! state JSON and reports.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, SetupConfig, Viewer};
use arbitre_scrambled::Scrambled;
use std::collections::BTreeMap;
use std::path::PathBuf;

const SEED: u64 = 20_261_129;
const PLAYERS: &[(&str, &str)] = &[
    ("anne", "Anne"),
    ("bruno", "Bruno"),
    ("chloe", "Chloé"),
    ("denis", "Denis"),
];

fn config() -> SetupConfig {
    let options: toml::Table = toml::from_str("world = \"hexagone\"\nturn_limit = 15").unwrap();
    SetupConfig {
        game_id: "sn-bots".into(),
        seed: SEED,
        players: PLAYERS
            .iter()
            .map(|(id, n)| PlayerSetup {
                id: PlayerId::from(*id),
                name: n.to_string(),
                options: Default::default(),
            })
            .collect(),
        options,
        files: BTreeMap::new(),
    }
}

/// Plays the game; returns (file name, content) for every report, plus the final state.
fn play() -> (Vec<(String, String)>, String) {
    let engine = Adapter(Scrambled);
    let mut state = engine.setup(&config()).unwrap().state;
    let mut out = Vec::new();
    for (id, _) in PLAYERS {
        let r = engine
            .report(&state, &Viewer::Player(PlayerId::from(*id)))
            .unwrap();
        out.push((format!("t00-{id}.txt"), r.body));
    }
    for turn in 1..=15u32 {
        let mut orders = BTreeMap::new();
        for p in engine
            .players(&state)
            .unwrap()
            .into_iter()
            .filter(|p| p.active)
        {
            let text = engine.bot_orders(&state, SEED, &p.id).unwrap();
            let checked = engine.check(&state, &p.id, &text).unwrap();
            assert_eq!(
                checked.errors, 0,
                "bot {} wrote a bad order at turn {turn}: {:?}\n{text}",
                p.id, checked.verdicts
            );
            assert!(checked.ready);
            orders.insert(p.id.clone(), text);
        }
        let res = engine.resolve(&state, SEED, &orders).unwrap();
        for (p, r) in &res.reports {
            let mut body = String::new();
            if let Some(o) = orders.get(p) {
                body.push_str("---- ordres envoyés ----\n");
                body.push_str(o);
                body.push_str("---- rapport ----\n");
            }
            body.push_str(&r.body);
            out.push((format!("t{turn:02}-{p}.txt"), body));
        }
        state = res.snapshot.state;
        if turn < 15 {
            assert!(res.outcome.is_none());
        } else {
            let o = res.outcome.expect("the game ends at the turn limit");
            let mut s = o.summary.clone();
            s.push('\n');
            for r in &o.ranking {
                s.push_str(&format!("{} {} {}\n", r.rank, r.player, r.score));
            }
            out.push(("outcome.txt".into(), s));
        }
    }
    (out, state)
}

#[test]
fn bot_game_15_turns_matches_golden_reports() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/bots");
    let (files, _) = play();
    let bless = std::env::var("BLESS").map(|v| v == "1").unwrap_or(false);
    if bless {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let mut failures = Vec::new();
    for (name, content) in &files {
        let path = dir.join(name);
        if bless {
            std::fs::write(&path, content).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!("missing golden file {} (run with BLESS=1)", path.display())
        });
        if &want != content {
            let diff = similar::TextDiff::from_lines(want.as_str(), content.as_str());
            failures.push(format!(
                "{name}:\n{}",
                diff.unified_diff()
                    .context_radius(2)
                    .header("golden", "actual")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "reports differ from the golden files (BLESS=1 to accept):\n{}",
        failures.join("\n")
    );
}

#[test]
fn scn_64_same_seed_and_orders_give_identical_state_and_reports() {
    let (a, sa) = play();
    let (b, sb) = play();
    assert_eq!(sa, sb);
    assert_eq!(a, b);
    // And a resolution of one stored state, twice, is identical too.
    let engine = Adapter(Scrambled);
    let s0 = engine.setup(&config()).unwrap().state;
    let orders: BTreeMap<PlayerId, String> = PLAYERS
        .iter()
        .map(|(id, _)| {
            (
                PlayerId::from(*id),
                engine.bot_orders(&s0, 1, &PlayerId::from(*id)).unwrap(),
            )
        })
        .collect();
    let r1 = engine.resolve(&s0, 1, &orders).unwrap();
    let r2 = engine.resolve(&s0, 1, &orders).unwrap();
    assert_eq!(r1.snapshot, r2.snapshot);
    assert_eq!(r1.reports, r2.reports);
    assert_eq!(r1.game_master, r2.game_master);
}
