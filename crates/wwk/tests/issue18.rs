//! Issue 18, items 1–5: WWK playable from the mail. A map and a zone table
//! in every player's report, nations assigned as the game's TOML says,
//! inline maps in positions, and the report's missing details.

use crate::common;

use arbitre_core::{Attachment, PlayerId, PlayerSetup, Report, Rng, Ruleset, SetupConfig, Viewer};
use arbitre_wwk::model::Status;
use arbitre_wwk::turn::Event;
use arbitre_wwk::{economy, State, Wwk};
use common::*;
use std::collections::{BTreeMap, BTreeSet};

fn report(st: &State, events: &[Event], player: &str) -> Report {
    Wwk.report(st, events, &Viewer::Player(PlayerId::from(player)))
}

fn attachment<'a>(r: &'a Report, prefix: &str) -> &'a Attachment {
    r.attachments
        .iter()
        .find(|a| a.name.starts_with(prefix))
        .unwrap_or_else(|| panic!("no attachment {prefix}"))
}

fn text_of(a: &Attachment) -> String {
    String::from_utf8(a.content.clone()).expect("utf-8")
}

/// Lines of a report section, from `== TITLE ==` to the next `==` line.
fn section<'a>(body: &'a str, title: &str) -> Vec<&'a str> {
    body.lines()
        .skip_while(|l| *l != format!("== {title} =="))
        .skip(1)
        .take_while(|l| !l.starts_with("=="))
        .collect()
}

/// Zone code of a `[XXX] ...` line.
fn code(line: &str) -> Option<&str> {
    line.strip_prefix('[')?.split(']').next()
}

/// A parsed line of the zone table: (land neighbours, sea neighbours, control).
type Row = (Vec<String>, Vec<String>, String);

fn zone_table(body: &str) -> BTreeMap<String, Row> {
    section(body, "TABLE DES ZONES")
        .into_iter()
        .filter_map(|l| {
            let c = code(l)?;
            let mut parts = l.split(" | ");
            let head = parts.next()?;
            let land = parts.next()?.strip_prefix("terre : ")?;
            let sea = parts.next()?.strip_prefix("mer : ")?;
            let list = |s: &str| -> Vec<String> {
                s.split_whitespace()
                    .filter(|w| *w != "-")
                    .map(String::from)
                    .collect()
            };
            let control = head.rsplit(") ").next()?.to_string();
            Some((c.to_string(), (list(land), list(sea), control)))
        })
        .collect()
}

/// `data-zone`/`data-owner` pairs of the SVG's zone groups.
fn svg_owners(svg: &str) -> BTreeMap<String, String> {
    svg.lines()
        .filter(|l| l.starts_with("<g class=\"zone\""))
        .filter_map(|l| {
            let z = l.split("data-zone=\"").nth(1)?.split('"').next()?;
            let o = l.split("data-owner=\"").nth(1)?.split('"').next()?;
            Some((z.to_string(), o.to_string()))
        })
        .collect()
}

#[test]
fn wwk_map_fog_matches_text() {
    let mut st = trio();
    // Turkey holds BUL too, and has a unit in neutral MAC.
    hold(&mut st, "TUR", "BUL");
    st.add_unit("TUR", "INF", "MAC");
    let r = report(&st, &[], "tur");
    let svg = text_of(attachment(&r, "carte-t00"));
    assert_eq!(attachment(&r, "carte-t00").mime, "image/svg+xml");
    let owners = svg_owners(&svg);
    assert_eq!(owners.len(), st.map.zones.len(), "every zone is drawn");
    // The zones whose control the map shows are exactly the ZONES section's.
    let shown: BTreeSet<&str> = owners
        .iter()
        .filter(|(_, o)| !o.is_empty())
        .map(|(z, _)| z.as_str())
        .collect();
    let listed: BTreeSet<&str> = section(&r.body, "ZONES")
        .into_iter()
        .filter_map(code)
        .collect();
    assert_eq!(shown, listed);
    assert_eq!(
        shown,
        ["BUL", "IST", "MAC"].into_iter().collect::<BTreeSet<_>>()
    );
    assert_eq!(owners["MAC"], "neutre");
    // Egypt's and Greece's capitals are hidden: no owner, no capital star
    // but Turkey's own, no foreign unit.
    assert_eq!(owners["CAI"], "");
    assert_eq!(owners["ATH"], "");
    assert_eq!(
        svg.matches('★').count(),
        2,
        "Turkey's capital and the legend"
    );
    assert!(!svg.contains("EGY") && !svg.contains("GRE"));
    // A label is never below 10 px.
    for size in svg.split("font-size=\"").skip(1) {
        let px: u32 = size
            .split('"')
            .next()
            .and_then(|s| s.parse().ok())
            .expect("size");
        assert!(px >= 10, "label of {px} px");
    }
    // The table says the same thing as the map.
    let table = zone_table(&r.body);
    assert_eq!(table["CAI"].2, "?");
    assert_eq!(table["IST"].2, "TUR [CAPITAL]");
    assert_eq!(table["MAC"].2, "neutre");
}

#[test]
fn wwk_map_shows_espionage_revealed_zone() {
    let st = trio();
    let ev = vec![Event {
        to: arbitre_wwk::turn::Vis::Nation("TUR".into()),
        sec: arbitre_wwk::turn::Sec::Espionage,
        text: "IN [CAI] : 7 INF".into(),
    }];
    let svg = text_of(attachment(&report(&st, &ev, "tur"), "carte-"));
    let cai = svg
        .split("data-zone=\"CAI\"")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("CAI drawn");
    assert!(cai.contains(">R</text>"), "CAI marked as revealed");
    // Egypt does not see Turkey's espionage.
    let svg = text_of(attachment(&report(&st, &ev, "egy"), "carte-"));
    let cai = svg
        .split("data-zone=\"CAI\"")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("CAI drawn");
    assert!(!cai.contains(">R</text>"));
}

#[test]
fn wwk_map_layout_without_coordinates_is_deterministic() {
    let mut st = trio();
    for z in &mut st.map.zones {
        z.x = None;
        z.y = None;
    }
    let a = arbitre_wwk::svg::layout(&st.map);
    let b = arbitre_wwk::svg::layout(&st.map);
    assert_eq!(a, b);
    let places: BTreeSet<(i32, i32)> = a.values().copied().collect();
    assert_eq!(places.len(), st.map.zones.len(), "no two zones on one spot");
}

#[test]
fn wwk_zone_table_lists_neighbours() {
    let st = trio();
    let r = report(&st, &[], "tur");
    let table = zone_table(&r.body);
    assert_eq!(table.len(), st.map.zones.len());
    for d in &st.map.zones {
        let (land, sea, _) = &table[&d.code];
        let mut all: Vec<String> = land.iter().chain(sea).cloned().collect();
        all.sort();
        assert_eq!(all, st.neighbours(&d.code), "{}", d.code);
        assert!(sea.iter().all(|z| st.kind(z).is_sea()));
        assert!(land.iter().all(|z| !st.kind(z).is_sea()));
    }
    // The red-line crossing IST-ANK is a land neighbour.
    assert!(table["IST"].0.contains(&"ANK".to_string()));
    assert_eq!(table["IST"].1, vec!["AEG", "BLA"]);
}

#[test]
fn wwk_order_template_lists_reachable_zones() {
    let st = trio();
    let r = report(&st, &[], "tur");
    let tpl = text_of(attachment(&r, "ordres-t01"));
    // Infantry steps 1 over land; light tanks 2 (not into the mountains);
    // destroyers 3 through seas and coastal zones.
    assert!(tpl.contains("#   7 INF -> ANK BUL\n"), "{tpl}");
    let lt = tpl
        .lines()
        .find(|l| l.starts_with("#   4 LT -> "))
        .expect("LT line");
    assert!(
        lt.contains("SYR") && lt.contains("MAC") && !lt.contains("TAU"),
        "{lt}"
    );
    let dd = tpl
        .lines()
        .find(|l| l.starts_with("#   2 DD -> "))
        .expect("DD line");
    assert!(
        dd.contains("AEG") && dd.contains("EMD") && dd.contains("ION"),
        "{dd}"
    );
    assert!(!tpl.contains("FAC ->"), "bases do not move");
}

/// A player who reads only the report and its attachments: units from the
/// order template, neighbours from the zone table, one MOVE per stack to a
/// listed neighbour; every order is accepted and carried out.
#[test]
fn wwk_player_moves_from_report_only() {
    let mut st = trio();
    let r = report(&st, &[], "tur");
    let table = zone_table(&r.body);
    let tpl = text_of(attachment(&r, "ordres-t01"));
    let mut orders = String::new();
    let mut zone = String::new();
    let mut moves = vec![];
    // The template states the budget of local orders per zone.
    let budget: usize = tpl
        .lines()
        .find_map(|l| l.strip_prefix("# Budget : "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|k| k.parse().ok())
        .expect("budget line");
    let mut used = 0;
    for l in tpl.lines() {
        if let Some(z) = l.strip_prefix("# [").and_then(|s| s.split(']').next()) {
            zone = z.to_string();
            used = 0;
        } else if let Some(rest) = l.strip_prefix("#   ") {
            if used == budget {
                continue;
            }
            used += 1;
            let (stack, reach) = rest.split_once(" -> ").expect("stack line");
            let (k, unit) = stack.split_once(' ').expect("count and code");
            let (land, sea, _) = &table[&zone];
            // A neighbour the table lists that the template says is reachable.
            let to = reach
                .split_whitespace()
                .find(|z| land.iter().chain(sea).any(|n| n == z))
                .expect("a listed neighbour");
            orders.push_str(&format!("{zone} {k} {unit} MOVE {to}\n"));
            moves.push((zone.clone(), unit.to_string(), to.to_string()));
        }
    }
    assert!(moves.len() >= 4, "{orders}");
    let parsed = Wwk.parse_orders(&st, &PlayerId::from("tur"), &orders);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(parsed.orders.len(), moves.len());
    let ev = turn(&mut st, &[("tur", &orders)], &[]);
    let log = texts(&ev);
    // Every order is reported OK (neutral garrisons may then fight them).
    let answers: Vec<&Event> = ev
        .iter()
        .filter(|e| e.sec == arbitre_wwk::turn::Sec::Orders)
        .collect();
    assert_eq!(answers.len(), moves.len(), "{log}");
    assert!(
        answers.iter().all(|e| e.text.contains("... OK ")),
        "{answers:?}"
    );
    // And the stacks left their zone.
    for (from, unit, to) in moves {
        assert_eq!(
            count(&st, "TUR", &unit, &from),
            0,
            "{unit} {from} -> {to}\n{log}"
        );
    }
}

fn cfg(players: &[(&str, &str, Option<&str>)]) -> SetupConfig {
    SetupConfig {
        game_id: "g".into(),
        seed: 1,
        players: players
            .iter()
            .map(|(id, name, nation)| {
                let mut options = toml::Table::new();
                if let Some(n) = nation {
                    options.insert("nation".into(), toml::Value::String(n.to_string()));
                }
                PlayerSetup {
                    id: PlayerId::from(*id),
                    name: name.to_string(),
                    options,
                }
            })
            .collect(),
        ..Default::default()
    }
}

fn nation_of(st: &State, player: &str) -> String {
    st.nation_of_player(player)
        .map(|n| n.code.clone())
        .unwrap_or_default()
}

fn refusal(c: &SetupConfig) -> String {
    Wwk.setup(c, &mut Rng::for_setup(1))
        .expect_err("refused")
        .to_string()
}

/// Every refusal lists the scenario's nations, so the GM can fix the seat.
fn lists_nations(e: &str) {
    assert!(
        e.contains("TUR (Turquie), EGY (Égypte), GRE (Grèce)"),
        "the reason lists the nations: {e}"
    );
}

#[test]
fn wwk_nation_the_scenario_lacks_is_refused() {
    let e = refusal(&cfg(&[("a", "A", Some("GER")), ("b", "B", Some("TUR"))]));
    assert!(
        e.contains("player a: nation \"GER\" is not in the scenario"),
        "{e}"
    );
    lists_nations(&e);
}

#[test]
fn wwk_nation_named_by_two_players_is_refused() {
    // By code and by name: the same nation.
    let e = refusal(&cfg(&[("a", "A", Some("EGY")), ("b", "B", Some("Égypte"))]));
    assert!(
        e.contains("nation EGY is named by two players, a and b"),
        "{e}"
    );
    lists_nations(&e);
}

#[test]
fn wwk_seat_without_nation_or_matching_name_is_refused() {
    // "c" names no nation and is no nation's code or name: before issue 18
    // it silently took the scenario's first free nation.
    let e = refusal(&cfg(&[
        ("a", "A", Some("TUR")),
        ("b", "Égypte", None),
        ("c", "C", None),
    ]));
    assert!(
        e.contains("player c names no nation: add nation = \"<code>\" under [players.rules]"),
        "{e}"
    );
    lists_nations(&e);
    // A seat whose name matches a nation another seat named is refused too,
    // not moved to another nation.
    let e = refusal(&cfg(&[("a", "A", Some("TUR")), ("b", "Turquie", None)]));
    assert!(
        e.contains("player b: its id or name matches nation TUR, which player a plays"),
        "{e}"
    );
    // More players than nations.
    let e = refusal(&cfg(&[
        ("tur", "A", None),
        ("egy", "B", None),
        ("gre", "C", None),
        ("d", "D", Some("TUR")),
    ]));
    assert!(e.contains("wrong number of players: 4"), "{e}");
    lists_nations(&e);
}

#[test]
fn wwk_nation_assignment_follows_the_game_toml() {
    let setup = |c: &SetupConfig| Wwk.setup(c, &mut Rng::for_setup(1)).expect("setup");
    // `nation` by name, any case, and seats named after a nation by name
    // or by id.
    let st = setup(&cfg(&[
        ("a", "A", Some("grèce")),
        ("b", "Turquie", None),
        ("egy", "C", None),
    ]));
    assert_eq!(nation_of(&st, "a"), "GRE");
    assert_eq!(nation_of(&st, "b"), "TUR");
    assert_eq!(nation_of(&st, "egy"), "EGY");
    // Two seats: the third nation stays out.
    let st = setup(&cfg(&[("x", "X", Some("GRE")), ("y", "Y", Some("EGY"))]));
    assert_eq!(nation_of(&st, "x"), "GRE");
    assert_eq!(nation_of(&st, "y"), "EGY");
    assert!(!st.nations.contains_key("TUR"));
    // The report's header says which nation the player plays.
    let r = report(&st, &[], "y");
    assert!(r
        .body
        .lines()
        .next()
        .is_some_and(|l| l.ends_with("nation=EGY (Égypte)")));
}

const INLINE: &str = r#"
turn = 2
[nations.AAA]
name = "Alpha"
player = "alpha"
specialty = "I"
home = "ONE"
[nations.BBB]
player = "beta"
specialty = "V"
home = "TWO"
[[map.zone]]
code = "ONE"
name = "Un"
coastal = true
adjacent = ["TWO", "SEA"]
[[map.zone]]
code = "TWO"
name = "Deux"
adjacent = ["ONE"]
[[map.zone]]
code = "SEA"
name = "La mer"
kind = "sea"
adjacent = ["ONE"]
[zones.ONE]
status = { kind = "controlled", by = "AAA" }
[zones.TWO]
status = { kind = "controlled", by = "BBB" }
[[units]]
id = 1
owner = "AAA"
code = "INF"
at = "ONE"
"#;

#[test]
fn wwk_inline_map_position_loads() {
    let c = SetupConfig {
        game_id: "p".into(),
        seed: 1,
        files: [("position_file".to_string(), INLINE.to_string())].into(),
        ..Default::default()
    };
    let st = Wwk
        .setup(&c, &mut Rng::for_setup(1))
        .expect("inline map loads");
    assert_eq!(st.map.zones.len(), 3);
    assert_eq!(st.neighbours("ONE"), vec!["SEA", "TWO"]);
    assert_eq!(
        st.zone("TWO").status,
        Status::Controlled { by: "BBB".into() }
    );
    // Inline in the game's [rules] too (`position = { ... }`).
    let pos: toml::Table = toml::from_str(INLINE).expect("toml");
    // "alpha" is the player the position's nation AAA carries.
    let mut c2 = cfg(&[("b", "B", Some("BBB")), ("alpha", "A", None)]);
    c2.options
        .insert("position".into(), toml::Value::Table(pos));
    let st = Wwk
        .setup(&c2, &mut Rng::for_setup(1))
        .expect("inline in rules");
    assert_eq!(nation_of(&st, "b"), "BBB");
    assert_eq!(nation_of(&st, "alpha"), "AAA");
    // Its report has a map (computed layout) and a zone table.
    let r = report(&st, &[], "alpha");
    assert!(svg_owners(&text_of(attachment(&r, "carte-"))).contains_key("SEA"));
    assert_eq!(zone_table(&r.body)["ONE"].0, vec!["TWO"]);
    // A bad inline map is refused with a reason, not a crash.
    let bad = INLINE.replace(
        "adjacent = [\"ONE\"]\n[[map.zone]]",
        "adjacent = []\n[[map.zone]]",
    );
    let c3 = SetupConfig {
        files: [("position_file".to_string(), bad)].into(),
        ..Default::default()
    };
    let e = Wwk.setup(&c3, &mut Rng::for_setup(1)).expect_err("refused");
    assert!(e.to_string().contains("has no link back"), "{e}");
}

#[test]
fn wwk_report_bases_grouped_capital_spaced_legend() {
    let mut st = trio();
    for _ in 0..12 {
        st.add_unit("TUR", "IRBM", "IST");
    }
    let abm = st.add_unit("TUR", "ABMP", "IST");
    if let Some(u) = st.units.values_mut().find(|u| u.id == abm) {
        u.ammo = 7;
    }
    let body = report(&st, &[], "tur").body;
    assert!(body.contains("12 IRBM"), "{body}");
    assert!(!body.contains("IRBM, IRBM"));
    assert!(body.contains("1 ABMP(7 tirs)"), "{body}");
    assert!(body.contains("TUR [CAPITAL]"));
    assert!(!body.contains("TUR[CAPITAL]"));
    assert!(body.contains("Légende : I infanterie, V véhicules, A aviation, Nv naval"));
    // A nation without a name: no empty "()".
    if let Some(n) = st.nations.get_mut("TUR") {
        n.name.clear();
    }
    let body = report(&st, &[], "tur").body;
    assert!(
        body.lines()
            .next()
            .is_some_and(|l| l.ends_with("nation=TUR")),
        "{body}"
    );
    assert!(!body.contains("()"));
}

#[test]
fn wwk_research_drift_without_weakness_has_no_trailing_comma() {
    let mut st = trio();
    for n in st.nations.values_mut() {
        n.weaknesses.clear();
    }
    let ev = turn(&mut st, &[], &[]);
    let line = ev
        .iter()
        .find(|e| e.text.contains("dérive"))
        .map(|e| e.text.clone())
        .expect("research line");
    assert!(line.trim_end().ends_with("+1"), "{line}");
}

#[test]
fn wwk_emergency_maintenance_names_paying_zone() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    for _ in 0..4 {
        st.add_unit("TUR", "FAC", "ANK");
    }
    for _ in 0..10 {
        st.add_unit("TUR", "INF", "ANK");
    }
    st.ledger_mut("TUR", "ANK").ec = 3;
    st.ledger_mut("TUR", "ANK").n = 0;
    let mut sc = arbitre_wwk::Scratch::default();
    let ev = step(&mut st, &mut sc, economy::maintenance, vec![]);
    let t = texts(&ev);
    assert!(t.contains("en urgence payées par [IST] 2"), "{t}");
}

#[test]
fn wwk_forced_demobilisation_names_zone_and_units() {
    let mut st = trio();
    // Egyptian units inside Turkish BUL when peace is made.
    hold(&mut st, "TUR", "BUL");
    st.add_unit("EGY", "INF", "BUL");
    st.add_unit("EGY", "INF", "BUL");
    st.add_unit("EGY", "LT", "BUL");
    let mut sc = arbitre_wwk::Scratch::default();
    sc.demob_pairs.push(("EGY".into(), "TUR".into()));
    let ev = step(&mut st, &mut sc, arbitre_wwk::admin::forced_demob, vec![]);
    let t = texts(&ev);
    assert!(t.contains("démobilisée(s) : [BUL] 2 INF, 1 LT"), "{t}");
    assert_eq!(count(&st, "EGY", "INF", "BUL"), 0);
}

/// docs/wwk.md's table of built-in scenarios is generated from
/// `rulesets/wwk/scenarios/` (through `setup::SCENARIOS`): every scenario,
/// its other names, map name, zone count, player count and nations with
/// their capitals. On a failure the expected rows are printed to paste.
#[test]
fn wwk_docs_list_every_builtin_scenario_and_its_nations() {
    let doc = include_str!("../../../docs/wwk.md");
    let mut rows = Vec::new();
    for b in arbitre_wwk::setup::SCENARIOS {
        let t: toml::Table = toml::from_str(b.text).expect("scenario TOML");
        let map = t["game"]["name"].as_str().expect("game.name");
        let zones = t["zone"].as_array().expect("zones").len();
        let nations = t["nation"].as_array().expect("nations");
        let aliases = b
            .aliases
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let list = nations
            .iter()
            .map(|n| {
                format!(
                    "`{}` {} ({})",
                    n["code"].as_str().unwrap_or(""),
                    n["name"].as_str().unwrap_or(""),
                    n["home"].as_str().unwrap_or("")
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        rows.push(format!(
            "| `{}` ({aliases}) | {map}, {zones} zones | 1 à {} | {list} |",
            b.name,
            nations.len()
        ));
    }
    let missing: Vec<&String> = rows.iter().filter(|r| !doc.contains(r.as_str())).collect();
    assert!(
        missing.is_empty(),
        "docs/wwk.md must list these rows:\n{}",
        rows.join("\n")
    );
    // And no other scenario row.
    let documented = doc
        .lines()
        .skip_while(|l| !l.starts_with("### Scénarios et cartes intégrés"))
        .skip(3)
        .take_while(|l| l.starts_with("| `"))
        .count();
    assert_eq!(documented, rows.len(), "one row per built-in scenario");
}
