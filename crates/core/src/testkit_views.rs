//! Shared by the view tests of the rulesets (issue 20 items 2-4, D1
//! review follow-up): replays a fixture game (its game.toml and inbox
//! mails, as the daemon sets it up) or a bot game through the engine, keeps
//! every report with the state it was written from, validates views
//! against a schema, lists the numbers of a text and of a view, and
//! compares the verdicts of the real state with those of
//! `Ruleset::state_from_view`. Used by crates/{scrambled,wwk,eds}/tests/view_json.rs.
//! Compiled only with the `testkit` feature (it needs `jsonschema`).

use crate::{rng::fnv1a64, Engine, PlayerId, PlayerSetup, Report, SetupConfig, Viewer};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One report and the stored state it was rendered from.
pub struct Seen {
    pub turn: u32,
    pub viewer: Viewer,
    pub report: Report,
    pub state: String,
    /// The report's view, parsed once for the checks that walk it.
    pub view: Option<serde_json::Value>,
}

fn seen(turn: u32, viewer: Viewer, report: Report, state: String) -> Seen {
    let view = report.view.as_ref().map(|v| v.value().unwrap());
    Seen {
        turn,
        viewer,
        report,
        state,
        view,
    }
}

/// A game to replay: its setup and, per turn, the orders (None: the bots').
pub struct Game {
    pub name: String,
    pub cfg: SetupConfig,
    pub turns: Vec<Option<BTreeMap<PlayerId, String>>>,
    /// (turn, player) -> the report file the fixture expects.
    pub expected: BTreeMap<(u32, PlayerId), String>,
}

fn table(v: Option<&toml::Value>) -> toml::Table {
    v.and_then(|v| v.as_table()).cloned().unwrap_or_default()
}

/// Every fixture game of `ruleset` (fixtures/<ruleset>/*).
pub fn fixtures(ruleset: &str) -> Vec<Game> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures").join(ruleset))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let g: toml::Table =
                toml::from_str(&std::fs::read_to_string(dir.join("game.toml")).unwrap()).unwrap();
            let id = g["id"].as_str().unwrap().to_string();
            let seed = g
                .get("seed")
                .and_then(|s| s.as_integer())
                .map(|s| s as u64)
                .unwrap_or_else(|| fnv1a64(id.as_bytes()));
            let players = g["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| PlayerSetup {
                    id: PlayerId::from(p["id"].as_str().unwrap()),
                    name: p
                        .get("name")
                        .and_then(|n| n.as_str())
                        .unwrap_or(p["id"].as_str().unwrap())
                        .to_string(),
                    options: table(p.get("rules")),
                })
                .collect();
            let cfg = SetupConfig {
                game_id: id,
                seed,
                players,
                options: table(g.get("rules")),
                files: BTreeMap::new(),
            };
            let mut tdirs: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_dir())
                .collect();
            tdirs.sort();
            let mut turns = Vec::new();
            let mut expected = BTreeMap::new();
            for t in tdirs {
                let n: u32 = t
                    .file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .trim_start_matches("turn-")
                    .parse()
                    .unwrap();
                if let Ok(files) = std::fs::read_dir(t.join("expected")) {
                    for f in files {
                        let f = f.unwrap().path();
                        let name = f.file_name().unwrap().to_str().unwrap().to_string();
                        if let Some(p) = name.strip_suffix("-report.txt") {
                            expected.insert(
                                (n, PlayerId::from(p)),
                                std::fs::read_to_string(&f).unwrap(),
                            );
                        }
                    }
                }
                if n == 0 || !t.join("inbox").is_dir() {
                    continue;
                }
                let mut orders = BTreeMap::new();
                let mut mails: Vec<PathBuf> = std::fs::read_dir(t.join("inbox"))
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect();
                mails.sort();
                for m in mails {
                    // The mails are stored with CRLF line ends.
                    let raw = std::fs::read_to_string(&m).unwrap().replace("\r\n", "\n");
                    let body = raw.split_once("\n\n").map_or("", |(_, b)| b);
                    // The mail layer hands the ruleset the lines after the
                    // one-line `GAME … PLAYER … PASSWORD …` header.
                    let body: String = body
                        .lines()
                        .skip_while(|l| {
                            !matches!(l.split_whitespace().next(), Some("GAME" | "PARTIE"))
                        })
                        .skip(1)
                        .map(|l| format!("{l}\n"))
                        .collect();
                    orders.insert(
                        PlayerId::from(m.file_stem().unwrap().to_str().unwrap()),
                        body,
                    );
                }
                turns.push(Some(orders));
            }
            Game {
                name: dir.file_name().unwrap().to_str().unwrap().to_string(),
                cfg,
                turns,
                expected,
            }
        })
        .collect()
}

/// A bot game of `turns` turns.
pub fn bots(name: &str, cfg: SetupConfig, turns: usize) -> Game {
    Game {
        name: name.to_string(),
        cfg,
        turns: vec![None; turns],
        expected: BTreeMap::new(),
    }
}

/// Plays `game` and returns every report: each player's, the spectator's
/// and the game master's, after setup and after each turn.
pub fn play(e: &dyn Engine, game: &Game) -> Vec<Seen> {
    let mut state = e.setup(&game.cfg).unwrap().state;
    let mut seen = Vec::new();
    let mut viewers: Vec<Viewer> = e
        .players(&state)
        .unwrap()
        .into_iter()
        .map(|p| Viewer::Player(p.id))
        .collect();
    viewers.extend([Viewer::Spectator, Viewer::GameMaster]);
    for v in viewers {
        let report = e.report(&state, &v).unwrap();
        seen.push(self::seen(0, v, report, state.clone()));
    }
    for (i, orders) in game.turns.iter().enumerate() {
        let orders = match orders {
            Some(o) => o.clone(),
            None => e
                .players(&state)
                .unwrap()
                .into_iter()
                .filter(|p| p.active)
                .map(|p| {
                    let o = e.bot_orders(&state, game.cfg.seed, &p.id).unwrap();
                    (p.id, o)
                })
                .collect(),
        };
        let res = e.resolve(&state, game.cfg.seed, &orders).unwrap();
        let turn = i as u32 + 1;
        let next = res.snapshot.state;
        for (p, r) in res.reports {
            seen.push(self::seen(turn, Viewer::Player(p), r, next.clone()));
        }
        for (v, r) in [
            (Viewer::Spectator, res.spectator),
            (Viewer::GameMaster, res.game_master),
        ] {
            seen.push(self::seen(turn, v, r, next.clone()));
        }
        state = next;
        if res.outcome.is_some() {
            break;
        }
    }
    seen
}

pub fn who(s: &Seen) -> String {
    match &s.viewer {
        Viewer::Player(p) => format!("turn {} {p}", s.turn),
        Viewer::Spectator => format!("turn {} spectator", s.turn),
        Viewer::GameMaster => format!("turn {} game master", s.turn),
    }
}

/// The schema docs/schemas/<ruleset>.view.schema.json, compiled.
pub fn schema(ruleset: &str) -> (serde_json::Value, jsonschema::Validator) {
    let path = root().join(format!("docs/schemas/{ruleset}.view.schema.json"));
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    (schema, v)
}

/// Why `view` does not validate (empty: it does).
pub fn invalid(v: &jsonschema::Validator, view: &serde_json::Value) -> Vec<String> {
    v.iter_errors(view)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Every run of digits, without leading zeros.
pub fn digit_runs(s: &str, out: &mut BTreeSet<String>) {
    let mut cur = String::new();
    for c in s.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            cur.push(c);
        } else if !cur.is_empty() {
            let t = cur.trim_start_matches('0');
            out.insert(if t.is_empty() { "0".into() } else { t.into() });
            cur.clear();
        }
    }
}

/// The numbers a view holds: its number values and the digits of its
/// strings and keys.
pub fn view_numbers(v: &serde_json::Value, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Number(n) => digit_runs(&n.to_string(), out),
        serde_json::Value::String(s) => digit_runs(s, out),
        serde_json::Value::Array(a) => a.iter().for_each(|x| view_numbers(x, out)),
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                digit_runs(k, out);
                view_numbers(x, out);
            }
        }
        _ => {}
    }
}

/// The numbers of `text` missing from `view`.
pub fn missing_numbers(text: &str, view: &serde_json::Value) -> Vec<String> {
    let mut t = BTreeSet::new();
    digit_runs(text, &mut t);
    let mut v = BTreeSet::new();
    view_numbers(view, &mut v);
    t.difference(&v).cloned().collect()
}

/// What parsing `text` gave, line by line: `E reason` or `W reason`.
pub fn verdicts<O>(p: &crate::Parsed<O>) -> BTreeMap<usize, Vec<String>> {
    let mut m: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for d in &p.diagnostics {
        m.entry(d.line).or_default().push(format!(
            "{} {}",
            if d.warning { "W" } else { "E" },
            d.reason
        ));
    }
    m
}

/// Errors the view-rebuilt state gives that the real state does not, and
/// every other difference (warnings) for the record.
pub fn compare<O>(
    real: &crate::Parsed<O>,
    from_view: &crate::Parsed<O>,
) -> (Vec<String>, Vec<String>) {
    let (r, v) = (verdicts(real), verdicts(from_view));
    let mut false_errors = Vec::new();
    let mut other = Vec::new();
    let lines: BTreeSet<&usize> = r.keys().chain(v.keys()).collect();
    for l in lines {
        let rl = r.get(l).cloned().unwrap_or_default();
        let vl = v.get(l).cloned().unwrap_or_default();
        if rl == vl {
            continue;
        }
        let real_error = rl.iter().any(|x| x.starts_with('E'));
        if vl.iter().any(|x| x.starts_with('E')) && !real_error {
            false_errors.push(format!("line {l}: referee {rl:?}, view {vl:?}"));
        } else {
            other.push(format!("line {l}: referee {rl:?}, view {vl:?}"));
        }
    }
    (false_errors, other)
}

/// Plays each game once and keeps its reports (the fixture loop every view
/// test runs before its checks).
pub fn played(e: &dyn Engine, games: Vec<Game>) -> Vec<(Game, Vec<Seen>)> {
    games
        .into_iter()
        .map(|game| {
            let seen = play(e, &game);
            (game, seen)
        })
        .collect()
}

/// The view a report carries (a report without one fails the test).
pub fn view_of(s: &Seen) -> &serde_json::Value {
    s.view
        .as_ref()
        .unwrap_or_else(|| panic!("{}: no view", who(s)))
}
