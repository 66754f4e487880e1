//! The JSON view of the report (issue 20): every report of the fixture game
//! and of generated games validates against
//! docs/schemas/scrambled.view.schema.json (item 3); the text is rendered
//! from the view alone and every number of the text is in the view (item
//! 2); a player's view shows no troops the text hides, and a planted leak
//! is caught; orders checked against `state_from_view` get no error the
//! referee would not give (item 4).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::testkit_views::*;
use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, Ruleset, SetupConfig, Viewer};
use arbitre_scrambled::view::View;
use arbitre_scrambled::{report, Scrambled, State};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn generated(world: &str, n: usize, seed: u64, turns: usize) -> Game {
    let options: toml::Table =
        toml::from_str(&format!("world = \"{world}\"\nturn_limit = {turns}")).unwrap();
    bots(
        &format!("{world}-{n}"),
        SetupConfig {
            game_id: format!("gen-{world}"),
            seed,
            players: (1..=n)
                .map(|i| PlayerSetup {
                    id: PlayerId::from(format!("p{i}").as_str()),
                    name: format!("Joueur Numéro {i}"),
                    options: Default::default(),
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
        let mut g = fixtures("scrambled");
        assert!(!g.is_empty(), "no Scrambled Nations fixture");
        g.push(generated("hexagone", 8, 11, 8));
        g.push(generated("testland", 3, 5, 6));
        played(&Adapter(Scrambled), g)
    })
}

#[test]
fn scrambled_views_validate_against_the_schema() {
    let (schema, v) = schema("scrambled");
    assert_eq!(schema["$id"], "urn:arbitre:schema:scrambled.view:2");
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
                    let first = s
                        .report
                        .body
                        .lines()
                        .zip(want.lines())
                        .find(|(a, b)| a != b);
                    assert!(
                        want.contains(s.report.body.trim_end()),
                        "{} {}: the replay is not the fixture's game: {first:?}",
                        game.name,
                        who(s)
                    );
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} views");
}

#[test]
fn scrambled_text_is_rendered_from_the_view() {
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
fn scrambled_every_number_of_the_text_is_in_the_view() {
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

/// The body of section `title` of a report (empty if absent).
fn section<'a>(text: &'a str, title: &str) -> &'a str {
    let head = format!("== {title} ==\n");
    let Some(i) = text.find(&head) else {
        return "";
    };
    let rest = &text[i + head.len()..];
    &rest[..rest.find("\n== ").unwrap_or(rest.len())]
}

/// Each row of the TERRITOIRES table with its continuation lines, by id.
fn table_rows(text: &str) -> BTreeMap<String, String> {
    let mut rows: BTreeMap<String, String> = BTreeMap::new();
    let mut last: Option<String> = None;
    for l in section(text, "TERRITOIRES").lines().skip(1) {
        if l.starts_with(' ') {
            if let Some(id) = &last {
                rows.get_mut(id).unwrap().push_str(l);
            }
            continue;
        }
        let id = l.split_whitespace().next().unwrap_or("").to_string();
        rows.insert(id.clone(), l.to_string());
        last = Some(id);
    }
    rows
}

/// Troop facts of a player's view (as JSON, so a test can plant one) that
/// the player's text does not show: stacks of the territory table,
/// activity rows and the player's own stacks.
fn leaks(view: &Value, text: &str) -> Vec<String> {
    let name = |p: &Value| -> String {
        view["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == *p)
            .map(|x| x["name"].as_str().unwrap().to_string())
            .unwrap_or_else(|| p.as_str().unwrap().to_string())
    };
    let mut out = Vec::new();
    let rows = table_rows(text);
    let mut seen_troops = std::collections::BTreeSet::new();
    for t in view["territories"].as_array().unwrap() {
        let id = t["id"].as_str().unwrap();
        let Some(stacks) = t.get("troops") else {
            continue;
        };
        seen_troops.insert(id.to_string());
        let Some(row) = rows.get(id) else {
            out.push(format!("{id}: troops in the view, no row in the text"));
            continue;
        };
        if row.trim_end().ends_with('?') {
            out.push(format!("{id}: troops in the view, `?` in the text"));
        }
        for s in stacks.as_array().unwrap() {
            let fact = format!("{} {}", name(&s["player"]), s["count"]);
            if !row.contains(&fact) {
                out.push(format!("{id}: `{fact}` not in the text's row"));
            }
        }
    }
    let act = section(text, "ACTIVITÉ VISIBLE");
    for a in view
        .get("activity")
        .and_then(|a| a.as_array())
        .into_iter()
        .flatten()
    {
        let id = a["territory"].as_str().unwrap();
        if !seen_troops.contains(id) {
            out.push(format!(
                "{id}: activity outside the territories whose troops the view shows"
            ));
        }
        if !act.contains(&format!("({id}) — ")) {
            out.push(format!("{id}: activity not in the text"));
        }
        for s in a["end"].as_array().unwrap() {
            let fact = format!("{} {} (suprématie", name(&s["player"]), s["count"]);
            if !act.contains(&fact) {
                out.push(format!("{id}: `{fact}` not in the text's activity"));
            }
        }
    }
    let own = section(text, "VOS TROUPES");
    for o in view
        .get("troops")
        .and_then(|a| a.as_array())
        .into_iter()
        .flatten()
    {
        let id = o["territory"].as_str().unwrap();
        let count = o["count"].to_string();
        let line = own.lines().find(|l| l.contains(&format!("({id})")));
        if !line.is_some_and(|l| l.split_whitespace().any(|w| w == count)) {
            out.push(format!("{id}: own troops not in the text"));
        }
    }
    out
}

fn player_views() -> impl Iterator<Item = (&'static Game, &'static Seen, &'static PlayerId)> {
    games().iter().flat_map(|(g, seen)| {
        seen.iter().filter_map(move |s| match &s.viewer {
            Viewer::Player(p) => Some((g, s, p)),
            _ => None,
        })
    })
}

#[test]
fn scrambled_player_view_shows_no_troops_the_text_hides() {
    let mut fogged = 0;
    for (g, s, _) in player_views() {
        let v = view_of(s);
        let l = leaks(v, &s.report.body);
        assert!(l.is_empty(), "{} {}: {l:#?}", g.name, who(s));
        fogged += v["territories"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t.get("troops").is_none())
            .count();
    }
    assert!(fogged > 100, "the games have fog of war to keep");
}

#[test]
fn scrambled_a_planted_leak_is_caught() {
    let (g, s, me) = player_views()
        .find(|(_, s, _)| s.turn >= 3)
        .expect("a player's report after turn 3");
    let view = view_of(s);
    let other = view["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] != me.as_str())
        .unwrap()["id"]
        .clone();
    let fogged = view["territories"]
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t.get("troops").is_none())
        .expect("a fogged territory");
    let id = view["territories"][fogged]["id"].clone();
    // Foreign troops in a territory the text shows as `?`.
    let mut planted = view.clone();
    planted["territories"][fogged]["troops"] = json!([{ "player": other, "count": 4321 }]);
    assert!(
        !leaks(&planted, &s.report.body).is_empty(),
        "{} {}: a planted stack went unnoticed",
        g.name,
        who(s)
    );
    // An activity row (troops seen leaving) in a fogged territory.
    let mut planted = view.clone();
    planted["activity"].as_array_mut().unwrap().push(json!({
        "territory": id, "moves_in": [], "moves_out": [], "events": [],
        "end": [{ "player": other, "count": 17, "supremacy": true }]
    }));
    assert!(!leaks(&planted, &s.report.body).is_empty());
    // A stack with a count the text does not give.
    let mut planted = view.clone();
    let shown = view["territories"]
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t["troops"].as_array().is_some_and(|a| !a.is_empty()))
        .expect("a territory with troops in sight");
    planted["territories"][shown]["troops"][0]["count"] = json!(987_654);
    assert!(!leaks(&planted, &s.report.body).is_empty());
}

#[test]
fn scrambled_echeck_state_from_view_gives_no_false_error() {
    let e = Adapter(Scrambled);
    let mut checked = 0;
    let mut differences = Vec::new();
    for (g, s, p) in player_views() {
        let real: State = serde_json::from_str(&s.state).unwrap();
        if real.over || !real.players[p].active() {
            continue;
        }
        let rebuilt = Scrambled.state_from_view(view_of(s), p).unwrap();
        let mut texts = vec![e.bot_orders(&s.state, g.cfg.seed, p).unwrap()];
        // The fixture's own order mails for the next turn, too.
        if let Some(Some(o)) = g.turns.get(s.turn as usize) {
            texts.extend(o.get(p).cloned());
        }
        for text in texts {
            let want = Scrambled.parse_orders(&real, p, &text);
            let got = Scrambled.parse_orders(&rebuilt, p, &text);
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
    assert!(checked > 50, "only {checked} order sets");
    // Fog may change a warning (a retreat from a stack whose supremacy the
    // player cannot see); list them for the record.
    eprintln!("{} verdict differences (warnings):", differences.len());
    for d in &differences {
        eprintln!("  {d}");
    }
}

#[test]
fn scrambled_state_from_view_refuses_another_players_or_no_view() {
    let (_, s, p) = player_views().next().unwrap();
    let other = PlayerId::from(format!("{p}-not").as_str());
    assert!(Scrambled.state_from_view(view_of(s), &other).is_err());
    assert!(Scrambled.state_from_view(&json!({"turn": 1}), p).is_err());
}

/// Issue 22 item 5: a turn's reports share what every viewer sees alike;
/// each must still be, byte for byte, the report rendered from its whole
/// view (text and view's JSON), as every report was before the sharing.
#[test]
fn scrambled_shared_reports_are_those_of_the_whole_view() {
    let mut compared = 0;
    for (game, seen) in games() {
        for s in seen {
            let state: State = serde_json::from_str(&s.state).unwrap();
            let whole = arbitre_scrambled::view::build(&state, &s.viewer);
            assert_eq!(
                s.report.body,
                report::text(&whole),
                "{} {}",
                game.name,
                who(s)
            );
            let want = arbitre_core::ViewJson::of(&whole).unwrap();
            let got = s.report.view.as_ref().unwrap();
            assert!(*got == want, "{} {}: views differ", game.name, who(s));
            compared += 1;
        }
    }
    assert!(compared > 100, "only {compared} reports");
}
