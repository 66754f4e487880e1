//! A full 20-turn bot-vs-bot game on the built-in "duel" map, through the
//! engine face the daemon uses. Every player's report of every turn (and the
//! orders the bots wrote) is compared byte for byte with the golden files in
//! `tests/golden/bot-duel/`. `BLESS=1 cargo test -p arbitre-nebulight --test
//! bot_game` rewrites them; without BLESS any difference fails with a diff.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, SetupConfig, Viewer};
use arbitre_nebulight::Nebulight;
use std::collections::BTreeMap;
use std::path::PathBuf;

const SEED: u64 = 20040101;

fn config() -> SetupConfig {
    SetupConfig {
        game_id: "duel-bots".into(),
        seed: SEED,
        players: vec![
            PlayerSetup {
                id: "maxtor".into(),
                name: "Maxtor".into(),
                options: Default::default(),
            },
            PlayerSetup {
                id: "miria".into(),
                name: "Miria".into(),
                options: Default::default(),
            },
        ],
        options: toml::from_str("map = \"duel\"").unwrap(),
        files: Default::default(),
    }
}

/// Plays the whole game; returns (file name, content) for every golden file
/// and the final state JSON.
fn play_game() -> (Vec<(String, String)>, String) {
    let e = Adapter(Nebulight);
    let mut state = e.setup(&config()).unwrap().state;
    let ids = ["maxtor", "miria"];
    let mut files = Vec::new();
    for id in ids {
        let r = e
            .report(&state, &Viewer::Player(PlayerId::from(id)))
            .unwrap();
        files.push((format!("t00-{id}.txt"), r.body));
    }
    for turn in 1..=20u32 {
        let mut orders = BTreeMap::new();
        for id in ids {
            let o = e.bot_orders(&state, SEED, &PlayerId::from(id)).unwrap();
            let check = e.check(&state, &PlayerId::from(id), &o).unwrap();
            assert_eq!(
                check.errors, 0,
                "turn {turn}, {id}: the bot wrote an invalid order:\n{o}"
            );
            files.push((format!("t{turn:02}-{id}-ordres.txt"), o.clone()));
            orders.insert(PlayerId::from(id), o);
        }
        let res = e.resolve(&state, SEED, &orders).unwrap();
        for id in ids {
            files.push((
                format!("t{turn:02}-{id}.txt"),
                res.reports[&PlayerId::from(id)].body.clone(),
            ));
        }
        if turn == 20 {
            let out = res.outcome.clone().expect("the game ends after turn 20");
            files.push((
                "resultat.txt".into(),
                format!("{}\n{:?}\n", out.summary, out.ranking),
            ));
            files.push(("t20-arbitre.txt".into(), res.game_master.body.clone()));
        } else {
            assert!(res.outcome.is_none());
        }
        state = res.snapshot.state;
    }
    (files, state)
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/bot-duel")
}

#[test]
fn bot_game_20_turns_matches_golden_reports() {
    let (files, _) = play_game();
    let dir = golden_dir();
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let mut failures = String::new();
    for (name, text) in &files {
        let want = std::fs::read_to_string(dir.join(name)).unwrap_or_else(|_| {
            panic!("missing golden file {name}: run with BLESS=1 to create it")
        });
        if &want != text {
            let diff = similar::TextDiff::from_lines(&want, text);
            failures.push_str(&format!(
                "--- golden/{name}\n+++ actual\n{}\n",
                diff.unified_diff().context_radius(2)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "reports differ from the golden files (BLESS=1 to accept):\n{failures}"
    );
}

#[test]
fn neb_75_same_seed_and_orders_give_identical_state_and_reports() {
    let (a, sa) = play_game();
    let (b, sb) = play_game();
    assert_eq!(sa, sb);
    assert_eq!(a, b);
    // And one turn resolved twice from the same stored state.
    let e = Adapter(Nebulight);
    let s0 = e.setup(&config()).unwrap().state;
    let mut orders = BTreeMap::new();
    for id in ["maxtor", "miria"] {
        orders.insert(
            PlayerId::from(id),
            e.bot_orders(&s0, SEED, &PlayerId::from(id)).unwrap(),
        );
    }
    let r1 = e.resolve(&s0, SEED, &orders).unwrap();
    let r2 = e.resolve(&s0, SEED, &orders).unwrap();
    assert_eq!(r1.snapshot, r2.snapshot);
    assert_eq!(r1.reports, r2.reports);
    assert_eq!(r1.game_master, r2.game_master);
}

/// Many seeds on both built-in maps: every phase's invariants hold (checked
/// in debug builds after each phase), bots never write a refused line, and
/// every game ends after its last turn with a ranking.
#[test]
fn bot_games_on_many_seeds_keep_the_invariants() {
    let e = Adapter(Nebulight);
    for map in ["duel", "duel-petit"] {
        for seed in 1..=8u64 {
            let mut c = config();
            c.seed = seed;
            c.options = toml::from_str(&format!("map = \"{map}\"\nturns = 12")).unwrap();
            let mut state = e.setup(&c).unwrap().state;
            for turn in 1..=12 {
                let mut orders = BTreeMap::new();
                for id in ["maxtor", "miria"] {
                    let o = e.bot_orders(&state, seed, &PlayerId::from(id)).unwrap();
                    assert_eq!(
                        e.check(&state, &PlayerId::from(id), &o).unwrap().errors,
                        0,
                        "{map} seed {seed} turn {turn}:\n{o}"
                    );
                    orders.insert(PlayerId::from(id), o);
                }
                let res = e.resolve(&state, seed, &orders).unwrap();
                assert_eq!(res.outcome.is_some(), turn == 12);
                state = res.snapshot.state;
            }
        }
    }
}

/// Random orders of every form, naming real and unknown worlds and fleets
/// with random quantities, for many turns: the referee never panics and the
/// invariants (checked after each phase in debug builds) always hold.
#[test]
fn random_orders_never_break_the_referee() {
    use arbitre_core::Rng;
    use arbitre_nebulight::NebState;
    let e = Adapter(Nebulight);
    for seed in 1..=6u64 {
        let mut c = config();
        c.seed = seed;
        c.options =
            toml::from_str("map = \"duel-petit\"\nturns = 15\nenforce_known_worlds = false")
                .unwrap();
        let mut state = e.setup(&c).unwrap().state;
        let mut rng = Rng::for_phase(seed, 0, "fuzz");
        for _ in 1..=15 {
            let s: NebState = serde_json::from_str(&state).unwrap();
            let worlds: Vec<u32> = s.worlds.keys().map(|w| w.0).chain([0, 4242]).collect();
            let fleets: Vec<u32> = s.fleets.keys().map(|f| f.0).chain([0, 777]).collect();
            let mut orders = BTreeMap::new();
            for id in ["maxtor", "miria"] {
                let mut text = String::new();
                for _ in 0..40 {
                    let m = *rng.pick(&worlds).unwrap();
                    let n = *rng.pick(&worlds).unwrap();
                    let f = *rng.pick(&fleets).unwrap();
                    let g = *rng.pick(&fleets).unwrap();
                    let x = rng.range(0, 30);
                    let forms = [
                        format!("VI M_{m} S M_{n}"),
                        format!("VP M_{m} S M_{n}"),
                        format!("F_{f} S M_{m}"),
                        format!("M_{m} C {x} VC F_{f}"),
                        format!("M_{m} C {x} VI"),
                        format!("M_{m} C {x} VP"),
                        format!("M_{m} C {x} DEP"),
                        format!("M_{m} C {x} ATT"),
                        format!("M_{m} C {x} DEF"),
                        format!("M_{m} C {x} P"),
                        format!("M_{m} E {x} N M_{n}"),
                        format!("M_{m} C {x} I"),
                        format!("VI M_{m} C {x} I"),
                        format!("F_{f} D MP"),
                        format!("F_{f} D {x} N"),
                        format!("M_{m} T {x} VI VP"),
                        format!("M_{m} T {x} VP VI"),
                        format!("M_{m} T {x} VI F_{f}"),
                        format!("M_{m} T {x} VP F_{f}"),
                        format!("F_{f} T {x} VC VI"),
                        format!("F_{f} T {x} VC VP"),
                        format!("F_{f} T {x} VC F_{g}"),
                        format!("F_{f} C MP"),
                        format!("F_{f} C {x} N"),
                        format!("F_{f} * F_{g}"),
                        format!("F_{f} * M"),
                        format!("F_{f} * P"),
                        format!("F_{f} * I"),
                        format!("VP M_{m} * F_{f}"),
                        format!("VP M_{m} * N"),
                        format!("VI M_{m} * F_{f}"),
                        format!("F_{f} MM {m} {n}"),
                        format!("F_{f} M_{n}"),
                        "F_1 -> 3".to_string(),
                    ];
                    text.push_str(rng.pick(&forms).unwrap());
                    text.push('\n');
                }
                orders.insert(PlayerId::from(id), text);
            }
            let res = e.resolve(&state, seed, &orders).unwrap();
            for id in ["maxtor", "miria"] {
                assert!(res.reports[&PlayerId::from(id)]
                    .body
                    .starts_with("NÉBULIGHT"));
            }
            state = res.snapshot.state;
        }
    }
}

/// Issue 20: every view of the bot game survives JSON (the report rendered
/// from the view read back is the mailed text, byte for byte), and the
/// state rebuilt from a player's view holds exactly the worlds and fleets
/// that view shows, with their numbers.
#[test]
fn views_read_back_render_the_same_report_and_rebuild_the_players_game() {
    use arbitre_core::Ruleset;
    use arbitre_nebulight::{model::WorldId, report, view::NebView, NebState};
    let e = Adapter(Nebulight);
    let mut state = e.setup(&config()).unwrap().state;
    let ids = ["maxtor", "miria"];
    for turn in 1..=20u32 {
        let mut orders = BTreeMap::new();
        for id in ids {
            let o = e.bot_orders(&state, SEED, &PlayerId::from(id)).unwrap();
            orders.insert(PlayerId::from(id), o);
        }
        let r = e.resolve(&state, SEED, &orders).unwrap();
        state = r.snapshot.state;
        let reports = r
            .reports
            .iter()
            .map(|(p, r)| (Some(p.clone()), r))
            .chain([(None, &r.game_master), (None, &r.spectator)]);
        for (who, rep) in reports {
            let value = rep.view.as_ref().unwrap().value().unwrap();
            let v: NebView = serde_json::from_value(value.clone()).unwrap();
            assert_eq!(report::render(&v), rep.body, "turn {turn} {who:?}");
            let Some(who) = who else { continue };
            let rebuilt: NebState = Nebulight.state_from_view(&value, &who).unwrap();
            let real: NebState = serde_json::from_str(&state).unwrap();
            let slot = real.slot_of(who.as_str()).unwrap();
            assert_eq!(rebuilt.players[0].name, real.players[slot].name);
            let shown: Vec<WorldId> = v.worlds.iter().map(|w| WorldId(w.number)).collect();
            assert_eq!(rebuilt.worlds.keys().copied().collect::<Vec<_>>(), shown);
            for (id, w) in rebuilt.worlds.iter().filter(|(_, w)| !w.black_hole) {
                let x = &real.worlds[id];
                assert_eq!(
                    (w.population, w.mp, w.links.clone()),
                    (x.population, x.mp, x.links.clone()),
                    "turn {turn} {who} {id}"
                );
            }
            for (id, f) in &rebuilt.fleets {
                let x = &real.fleets[id];
                assert_eq!((f.world, f.vc), (x.world, x.vc), "turn {turn} {who} {id}");
                if x.owner == Some(slot) {
                    assert_eq!((f.cargo_mp, f.cargo_n), (x.cargo_mp, x.cargo_n));
                }
            }
        }
    }
}
