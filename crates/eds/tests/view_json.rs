//! The JSON view of the EDS documents (issue 20): every report of the
//! fixture game and of a generated galaxy validates against
//! docs/schemas/eds.view.schema.json (item 3); the text is rendered from the
//! view alone and every number of the text is in the view (item 2); a
//! ruler's view shows no star, ship or message the text hides (§6.9), and a
//! planted leak is caught; orders checked against `state_from_view` get no
//! error the referee would not give (item 4).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::testkit_views::*;
use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, Ruleset, SetupConfig, Viewer};
use arbitre_eds::model::State;
use arbitre_eds::report::{render, render_ship_line, render_star_line};
use arbitre_eds::view::{EdsView, Info, ViewKind};
use arbitre_eds::Eds;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn generated(seed: u64, rulers: usize, months: usize) -> Game {
    let options: toml::Table = toml::from_str("map = \"generate\"").unwrap();
    bots(
        &format!("generate-{seed}"),
        SetupConfig {
            game_id: format!("gen-{seed}"),
            seed,
            players: (1..=rulers)
                .map(|i| PlayerSetup {
                    id: PlayerId::from(format!("p{i}").as_str()),
                    name: format!("REICH{i}"),
                    options: toml::Table::new(),
                })
                .collect(),
            options,
            files: BTreeMap::new(),
        },
        months,
    )
}

/// The games and their reports, played once for every test of the file.
fn games() -> &'static Vec<(Game, Vec<Seen>)> {
    static G: OnceLock<Vec<(Game, Vec<Seen>)>> = OnceLock::new();
    G.get_or_init(|| {
        let mut g = fixtures("eds");
        assert!(!g.is_empty(), "no EDS fixture");
        g.push(generated(7, 4, 14));
        played(&Adapter(Eds), g)
    })
}

fn typed(v: &Value) -> EdsView {
    serde_json::from_value(v.clone()).unwrap()
}

#[test]
fn eds_views_validate_against_the_schema() {
    let (schema, v) = schema("eds");
    assert_eq!(schema["$id"], "urn:arbitre:schema:eds.view:1");
    let (mut checked, mut battles) = (0, 0);
    for (game, seen) in games() {
        for s in seen {
            let view = view_of(s);
            let errors = invalid(&v, view);
            assert!(errors.is_empty(), "{} {}: {errors:#?}", game.name, who(s));
            checked += 1;
            battles += view["battles"].as_array().unwrap().len();
            // The replay is the fixture's game: its reports are the ones
            // the fixture recorded.
            if let Viewer::Player(p) = &s.viewer {
                if let Some(want) = game.expected.get(&(s.turn, p.clone())) {
                    // The daemon hands each reader the deadline in their
                    // zone (ReportFacts); this replay has no clock, so the
                    // Zugabgabetermin line is the one part that differs.
                    assert!(
                        without_deadline(want)
                            .contains(without_deadline(&s.report.body).trim_end()),
                        "{} {}: the replay is not the fixture's game",
                        game.name,
                        who(s)
                    );
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} views");
    assert!(
        battles > 0,
        "no battle in the games: the schema's battles are untested"
    );
}

#[test]
fn eds_view_matches_text() {
    for (game, seen) in games() {
        for s in seen {
            // Through JSON and back, as a player's tool reads it.
            let view = typed(view_of(s));
            assert_eq!(render(&view), s.report.body, "{} {}", game.name, who(s));
        }
    }
}

#[test]
fn eds_every_number_of_the_text_is_in_the_view() {
    for (game, seen) in games() {
        for s in seen {
            // The map's column ruler (`    12345678901…`) spells the
            // width, not a number of its own.
            let text: String = s
                .report
                .body
                .lines()
                .filter(|l| {
                    !(l.starts_with("    ") && l.chars().all(|c| c.is_ascii_digit() || c == ' '))
                })
                .map(|l| format!("{l}\n"))
                .collect();
            let missing = missing_numbers(&text, view_of(s));
            assert!(
                missing.is_empty(),
                "{} {}: {missing:?} not in the view",
                game.name,
                who(s)
            );
        }
    }
}

/// Facts of a ruler's view (as JSON, so that a test can plant one) that its
/// text does not show: a star or ship whose line is not in the text,
/// another ruler's documents, a message or letter not printed, a ship mark
/// of the map where the ruler has no ship, game-master-only parts.
fn leaks(view: &Value, text: &str) -> Vec<String> {
    let v = typed(view);
    let mut out = Vec::new();
    if v.viewer != ViewKind::Player {
        return out;
    }
    if v.sheets.len() != 1 {
        out.push(format!("{} rulers' documents", v.sheets.len()));
    }
    if !v.notes.is_empty() || !v.all_stars.is_empty() || v.public_report.is_some() {
        out.push("game-master or spectator parts".into());
    }
    let lines: std::collections::BTreeSet<&str> = text.lines().collect();
    for d in &v.sheets {
        let sh = &d.sheet;
        for st in sh.stars.iter().chain(&sh.observed_stars) {
            if !lines.contains(render_star_line(st).as_str()) {
                out.push(format!("star {}: its line is not in the text", st.number));
            }
        }
        for x in sh.ships.iter().chain(&sh.observed_ships) {
            if !lines.contains(render_ship_line(x).as_str()) {
                out.push(format!("ship {}: its line is not in the text", x.number));
            }
        }
        for p in &v.map.ships {
            if !sh.ships.iter().any(|x| [x.x, x.y] == *p) {
                out.push(format!("a ship mark at {p:?} without an own ship"));
            }
        }
        if let Some(m) = &d.month_report {
            let infos = m.infos.iter().filter_map(|i| match i {
                Info::Message(x) => Some(x),
                Info::JumpOrder { .. } => None,
            });
            for x in m.errors.iter().chain(infos) {
                if !text.contains(&x.text) {
                    out.push(format!("message \"{}\" not in the text", x.text));
                }
            }
            for p in &m.diplomacy {
                if !text.contains(&p.text) {
                    out.push(format!("letter \"{}\" not in the text", p.text));
                }
            }
        }
    }
    out
}

fn ruler_views() -> impl Iterator<Item = (&'static Game, &'static Seen, &'static PlayerId)> {
    games().iter().flat_map(|(g, seen)| {
        seen.iter().filter_map(move |s| match &s.viewer {
            Viewer::Player(p) => Some((g, s, p)),
            _ => None,
        })
    })
}

#[test]
fn eds_player_view_shows_no_star_or_ship_the_text_hides() {
    let (mut fogged, mut observed) = (0, 0);
    for (g, s, p) in ruler_views() {
        let v = view_of(s);
        let l = leaks(v, &s.report.body);
        assert!(l.is_empty(), "{} {}: {l:#?}", g.name, who(s));
        // The fog is real: the state holds ships the view does not.
        let real: State = serde_json::from_str(&s.state).unwrap();
        let me = real.ruler_by_id(p).unwrap().number;
        let t = typed(v);
        let shown = t.sheets[0].sheet.ships.len() + t.sheets[0].sheet.observed_ships.len();
        fogged += real.ships.len() - shown;
        observed += t.sheets[0].sheet.observed_ships.len() + t.sheets[0].sheet.observed_stars.len();
        assert!(t.sheets[0].sheet.ships.iter().all(|x| x.owner == me));
        assert!(t.sheets[0]
            .sheet
            .observed_ships
            .iter()
            .all(|x| x.owner != me));
    }
    assert!(fogged > 100, "the games have fog of war to keep");
    assert!(observed > 0, "no Beobachtung in the games");
}

#[test]
fn eds_a_planted_leak_is_caught() {
    // A ruler's report and the game master's of the same month.
    let (g, s, _) = ruler_views()
        .find(|(_, s, _)| s.turn >= 3)
        .expect("a ruler's report after month 3");
    let gm = games()
        .iter()
        .find(|(x, _)| x.name == g.name)
        .unwrap()
        .1
        .iter()
        .find(|x| x.turn == s.turn && x.viewer == Viewer::GameMaster)
        .unwrap();
    let view = view_of(s);
    let me = typed(view).sheets[0].sheet.ruler;
    let master = view_of(gm);
    let foreign = master["sheets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["sheet"]["ruler"] != json!(me))
        .unwrap()["sheet"]
        .clone();
    let text = &s.report.body;
    assert_eq!(leaks(view, text), Vec::<String>::new());
    // Another ruler's ship among the Beobachtungen.
    let mut planted = view.clone();
    planted["sheets"][0]["sheet"]["observed_ships"]
        .as_array_mut()
        .unwrap()
        .push(foreign["ships"][0].clone());
    assert!(!leaks(&planted, text).is_empty(), "{}", who(s));
    // Another ruler's star with all its columns.
    let mut planted = view.clone();
    planted["sheets"][0]["sheet"]["observed_stars"]
        .as_array_mut()
        .unwrap()
        .push(foreign["stars"][0].clone());
    assert!(!leaks(&planted, text).is_empty());
    // Another ruler's whole sheet (the wrong eye).
    let mut planted = view.clone();
    planted["sheets"] = master["sheets"].clone();
    assert!(!leaks(&planted, text).is_empty());
    // A foreign ship's point on the map.
    let mut planted = view.clone();
    planted["map"]["ships"]
        .as_array_mut()
        .unwrap()
        .push(json!([foreign["ships"][0]["x"], foreign["ships"][0]["y"]]));
    assert!(!leaks(&planted, text).is_empty());
}

#[test]
fn eds_check_report_no_false_errors() {
    let e = Adapter(Eds);
    let mut checked = 0;
    let mut differences = Vec::new();
    for (g, s, p) in ruler_views() {
        let real: State = serde_json::from_str(&s.state).unwrap();
        let active = e
            .players(&s.state)
            .unwrap()
            .iter()
            .any(|x| &x.id == p && x.active);
        if real.game_over || !active {
            continue;
        }
        let rebuilt = Eds.state_from_view(view_of(s), p).unwrap();
        let mut texts = vec![e.bot_orders(&s.state, g.cfg.seed, p).unwrap()];
        // The fixture's own order mails for the next month, too.
        if let Some(Some(o)) = g.turns.get(s.turn as usize) {
            texts.extend(o.get(p).cloned());
        }
        // A line the view decides: a ship that is not the ruler's.
        texts.push(format!(
            "{}\n[7 SPRUNG]\n9999,A,1,1\n",
            texts[0].lines().next().unwrap_or_default()
        ));
        for text in texts {
            let want = Eds.parse_orders(&real, p, &text);
            let got = Eds.parse_orders(&rebuilt, p, &text);
            let (false_errors, other) = compare(&want, &got);
            assert!(
                false_errors.is_empty(),
                "{} {}: {false_errors:#?}\n{text}",
                g.name,
                who(s)
            );
            differences.extend(
                other
                    .into_iter()
                    .map(|d| format!("{} {}: {d}", g.name, who(s))),
            );
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} order sets");
    eprintln!("{} verdict differences (warnings):", differences.len());
    for d in &differences {
        eprintln!("  {d}");
    }
}

/// The view decides the referee's errors of a jump, not only avoids false
/// ones: an own ship's home base, a foreign ship, a target off the map and
/// a wrong month are errors against the view as against the real state.
#[test]
fn eds_check_report_finds_the_errors_the_view_decides() {
    let (_, s, p) = ruler_views()
        .find(|(_, s, _)| s.turn >= 1)
        .expect("a ruler's report after month 1");
    let real: State = serde_json::from_str(&s.state).unwrap();
    let rebuilt = Eds.state_from_view(view_of(s), p).unwrap();
    let me = real.ruler_by_id(p).unwrap().number;
    let home = real
        .ships
        .values()
        .find(|x| x.owner == me && x.home_base)
        .expect("a home base");
    let other = real.ships.values().find(|x| x.owner != me).unwrap();
    let own = real
        .ships
        .values()
        .find(|x| x.owner == me && !x.home_base)
        .unwrap();
    let month = arbitre_eds::formulas::short_month(&real.params, real.month + 1);
    let text = format!(
        "MONAT: {month}\n[7 SPRUNG]\n{},A,1,1\n{},A,1,1\n{},A,{},1\n",
        home.number,
        other.number,
        own.number,
        real.width + 5
    );
    let want = Eds.parse_orders(&real, p, &text);
    let got = Eds.parse_orders(&rebuilt, p, &text);
    assert_eq!(verdicts(&got), verdicts(&want), "{text}");
    assert_eq!(
        verdicts(&got)
            .values()
            .flatten()
            .filter(|v| v.starts_with('E'))
            .count(),
        3,
        "{:?}",
        verdicts(&got)
    );
    let wrong_month = format!("MONAT: J9/M9\n[7 SPRUNG]\n{},A,1,1\n", own.number);
    assert_eq!(
        verdicts(&Eds.parse_orders(&rebuilt, p, &wrong_month)),
        verdicts(&Eds.parse_orders(&real, p, &wrong_month))
    );
}

#[test]
fn eds_state_from_view_refuses_a_spectators_view() {
    let (_, seen) = &games()[0];
    let spectator = seen.iter().find(|s| s.viewer == Viewer::Spectator).unwrap();
    let p = PlayerId::from("anna");
    assert!(Eds.state_from_view(view_of(spectator), &p).is_err());
    assert!(Eds.state_from_view(&json!({"month": 1}), &p).is_err());
}

/// The report without its Zugabgabetermin line (see its use).
fn without_deadline(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("Zugabgabetermin:"))
        .collect::<Vec<_>>()
        .join("\n")
}
