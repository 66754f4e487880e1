//! The JSON view of the report (issue 20): every report of the fixture game
//! and of generated games validates against docs/schemas/wwk.view.schema.json
//! (item 3); the text is rendered from the view alone and every number of
//! the text is in the view (item 2); a nation's view shows no zone or unit
//! the text hides, and a planted leak is caught; orders checked against
//! `state_from_view` get no error the referee would not give (item 4).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::testkit_views::*;
use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, Ruleset, SetupConfig, Viewer};
use arbitre_wwk::report_view::{base_notation, unit_notation, Seat, View};
use arbitre_wwk::view::Seen as Control;
use arbitre_wwk::{report, State, Wwk};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn generated(scenario: &str, nations: &[&str], seed: u64, turns: usize) -> Game {
    let options: toml::Table = toml::from_str(&format!("scenario = \"{scenario}\"")).unwrap();
    bots(
        &format!("{scenario}-{seed}"),
        SetupConfig {
            game_id: format!("gen-{scenario}"),
            seed,
            players: nations
                .iter()
                .map(|n| PlayerSetup {
                    id: PlayerId::from(format!("p-{}", n.to_lowercase()).as_str()),
                    name: format!("Joueur {n}"),
                    options: toml::from_str(&format!("nation = \"{n}\"")).unwrap(),
                })
                .collect(),
            options,
            files: BTreeMap::new(),
        },
        turns,
    )
}

/// The games and their reports, played once for every test of the file.
fn games() -> &'static Vec<(Game, Vec<Seen>)> {
    static G: OnceLock<Vec<(Game, Vec<Seen>)>> = OnceLock::new();
    G.get_or_init(|| {
        let mut g = fixtures("wwk");
        assert!(!g.is_empty(), "no WWK fixture");
        g.push(generated("trio", &["TUR", "EGY", "GRE"], 7, 8));
        g.push(generated("monde", &["FRA", "GBR", "GER", "RUS"], 11, 5));
        played(&Adapter(Wwk), g)
    })
}

#[test]
fn wwk_views_validate_against_the_schema() {
    let (schema, v) = schema("wwk");
    assert_eq!(schema["$id"], "urn:arbitre:schema:wwk.view:2");
    let mut checked = 0;
    for (game, seen) in games() {
        for s in seen {
            let errors = invalid(&v, view_of(s));
            assert!(errors.is_empty(), "{} {}: {errors:#?}", game.name, who(s));
            checked += 1;
            // The replay is the fixture's game: its reports are the ones
            // the fixture recorded.
            if let Viewer::Player(p) = &s.viewer {
                if let Some(want) = game.expected.get(&(s.turn, p.clone())) {
                    assert!(
                        want.contains(s.report.body.trim_end()),
                        "{} {}: the replay is not the fixture's game",
                        game.name,
                        who(s)
                    );
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} views");
}

#[test]
fn wwk_text_is_rendered_from_the_view() {
    for (game, seen) in games() {
        for s in seen {
            let view: View = serde_json::from_value(view_of(s).clone()).unwrap();
            assert_eq!(
                report::text(&view),
                s.report.body,
                "{} {}",
                game.name,
                who(s)
            );
        }
    }
}

#[test]
fn wwk_every_number_of_the_text_is_in_the_view() {
    for (game, seen) in games() {
        for s in seen {
            let missing = missing_numbers(&s.report.body, view_of(s));
            assert!(
                missing.is_empty(),
                "{} {}: {missing:?} not in the view",
                game.name,
                who(s)
            );
        }
    }
}

/// The ZONES section's blocks, by zone code.
fn zone_blocks(text: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let Some(i) = text.find("== ZONES ==\n") else {
        return out;
    };
    let mut cur: Option<String> = None;
    for l in text[i + 12..].lines() {
        if l.starts_with("== ") {
            break;
        }
        if let Some(rest) = l.strip_prefix('[') {
            let code = rest.split(']').next().unwrap().to_string();
            out.insert(code.clone(), format!("{l}\n"));
            cur = Some(code);
        } else if let Some(c) = &cur {
            let b = out.get_mut(c).unwrap();
            b.push_str(l);
            b.push('\n');
        }
    }
    out
}

/// Zone and unit facts of a nation's view (as JSON, so a test can plant
/// one) that its text does not show: the zones of ZONES with each owner's
/// units, bases and stock, and the control and units of the zone table.
fn leaks(view: &Value, text: &str) -> Vec<String> {
    let v: View = serde_json::from_value(view.clone()).unwrap();
    let Seat::Nation { code: me, .. } = &v.viewer else {
        return vec![];
    };
    let mut out = Vec::new();
    let blocks = zone_blocks(text);
    for z in &v.zones {
        let Some(block) = blocks.get(&z.code) else {
            out.push(format!("{}: in the view's zones, not in the text", z.code));
            continue;
        };
        for h in &z.holdings {
            if &h.owner != me && !block.contains(&format!("  {} :\n", h.owner)) {
                out.push(format!("{}: {}'s units not in the text", z.code, h.owner));
            }
            let mut facts: Vec<String> = h
                .units
                .iter()
                .map(|g| format!("{} {}", g.count, unit_notation(g)))
                .collect();
            facts.extend(
                h.bases
                    .iter()
                    .map(|b| format!("{} {}", b.count, base_notation(b))),
            );
            if let Some(s) = &h.stock {
                facts.push(format!("{} Stock {}ec", h.owner, s.ledger.ec));
            }
            for f in facts {
                if !block.contains(&f) {
                    out.push(format!("{}: `{f}` not in the text", z.code));
                }
            }
        }
    }
    let table = text.split("== TABLE DES ZONES ==\n").nth(1).unwrap_or("");
    for r in v.map.iter().flatten() {
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("[{}] ", r.code)))
            .unwrap_or("");
        let in_zones = v.zones.iter().find(|z| z.code == r.code);
        if r.seen != Control::Unknown && (line.contains(") ? |") || in_zones.is_none()) {
            out.push(format!("{}: control in the view, not in the text", r.code));
        }
        let mine = in_zones.is_some_and(|z| z.holdings.iter().any(|h| &h.owner == me));
        if (!r.units.is_empty() || !r.bases.is_empty()) && !mine {
            out.push(format!(
                "{}: units in the zone table, not in the text",
                r.code
            ));
        }
    }
    out
}

fn nation_views() -> impl Iterator<Item = (&'static Game, &'static Seen, &'static PlayerId)> {
    games().iter().flat_map(|(g, seen)| {
        seen.iter().filter_map(move |s| match &s.viewer {
            Viewer::Player(p) => Some((g, s, p)),
            _ => None,
        })
    })
}

#[test]
fn wwk_nation_view_shows_no_zone_or_unit_the_text_hides() {
    let mut fogged = 0;
    for (g, s, _) in nation_views() {
        let v = view_of(s);
        let l = leaks(v, &s.report.body);
        assert!(l.is_empty(), "{} {}: {l:#?}", g.name, who(s));
        fogged += v["map"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|z| z["control"].is_null())
            .count();
    }
    assert!(fogged > 100, "the games have fog of war to keep");
}

#[test]
fn wwk_a_planted_leak_is_caught() {
    let (g, s, _) = nation_views()
        .find(|(_, s, _)| s.turn >= 2)
        .expect("a nation's report after turn 2");
    let view = view_of(s);
    let hidden = view["map"]
        .as_array()
        .unwrap()
        .iter()
        .find(|z| z["control"].is_null())
        .expect("a zone in the fog")
        .clone();
    // Another nation's army in a zone the text shows.
    let mut planted = view.clone();
    planted["zones"][0]["holdings"]
        .as_array_mut()
        .unwrap()
        .push(json!({
            "owner": "ZZZ", "units": [{ "count": 4321, "code": "INF", "damaged": false,
            "heads": [], "cargo": [] }], "bases": []
        }));
    assert!(
        !leaks(&planted, &s.report.body).is_empty(),
        "{} {}: a planted army went unnoticed",
        g.name,
        who(s)
    );
    // A zone of the fog in the ZONES list.
    let mut planted = view.clone();
    planted["zones"].as_array_mut().unwrap().push(json!({
        "code": hidden["code"], "name": hidden["name"],
        "status": { "kind": "controlled", "by": "ZZZ" }, "capital": false,
        "irradiated": false, "guerrilla": false, "symbols": [], "holdings": []
    }));
    assert!(!leaks(&planted, &s.report.body).is_empty());
    // The control of a zone of the fog in the zone table.
    let mut planted = view.clone();
    let i = view["map"]
        .as_array()
        .unwrap()
        .iter()
        .position(|z| z["control"].is_null())
        .unwrap();
    planted["map"][i]["control"] = json!({ "kind": "controlled", "by": "ZZZ" });
    assert!(!leaks(&planted, &s.report.body).is_empty());
}

#[test]
fn wwk_echeck_state_from_view_gives_no_false_error() {
    let e = Adapter(Wwk);
    let mut checked = 0;
    let mut differences = Vec::new();
    for (g, s, p) in nation_views() {
        let real: State = serde_json::from_str(&s.state).unwrap();
        let active = e
            .players(&s.state)
            .unwrap()
            .iter()
            .any(|x| &x.id == p && x.active);
        if real.ended || !active {
            continue;
        }
        let rebuilt = Wwk.state_from_view(view_of(s), p).unwrap();
        let mut texts = vec![e.bot_orders(&s.state, g.cfg.seed, p).unwrap()];
        // The fixture's own order mails for the next turn, too.
        if let Some(Some(o)) = g.turns.get(s.turn as usize) {
            texts.extend(o.get(p).cloned());
        }
        for text in texts {
            let want = Wwk.parse_orders(&real, p, &text);
            let got = Wwk.parse_orders(&rebuilt, p, &text);
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

#[test]
fn wwk_state_from_view_refuses_a_spectators_view() {
    let (_, seen) = &games()[0];
    let spectator = seen.iter().find(|s| s.viewer == Viewer::Spectator).unwrap();
    let p = PlayerId::from("fr");
    assert!(Wwk.state_from_view(view_of(spectator), &p).is_err());
    assert!(Wwk.state_from_view(&json!({"turn": 1}), &p).is_err());
}
