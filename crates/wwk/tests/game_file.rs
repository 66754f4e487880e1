//! Issue 19, the ruleset's side of a game file: every table denies unknown
//! keys and lists the valid ones (item 1), an unknown scenario lists the
//! built-in names and a typo is never hidden behind another message
//! (item 2), and docs/wwk.md lists exactly the `[rules]` keys (item 8).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig, SetupError};
use arbitre_wwk::Wwk;
use std::collections::BTreeSet;

/// `n` seats named after the world scenario's nations (matched by id).
fn config(n: usize, rules: &str) -> SetupConfig {
    SetupConfig {
        game_id: "g".into(),
        seed: 1,
        players: ["fra", "gbr", "ger", "rus", "ita", "esp", "tur", "egy"]
            .iter()
            .take(n)
            .map(|p| PlayerSetup {
                id: PlayerId::from(*p),
                name: p.to_string(),
                options: toml::Table::new(),
            })
            .collect(),
        options: toml::from_str(rules).unwrap(),
        ..Default::default()
    }
}

fn refusal(c: &SetupConfig) -> SetupError {
    Wwk.setup(c, &mut Rng::for_setup(1)).unwrap_err()
}

#[test]
fn wwk_rules_unknown_key_is_refused_with_the_valid_keys() {
    // Before issue 19 `mapp` was ignored and the game got the default map.
    let e = refusal(&config(2, "mapp = \"monde\""));
    let SetupError::UnknownKey { table, key, valid } = &e else {
        panic!("{e}");
    };
    assert_eq!((table.as_str(), key.as_str()), ("[rules]", "mapp"));
    for k in ["map", "scenario", "national_actions", "max_turns"] {
        assert!(valid.contains(&k.to_string()), "{e}");
    }
    assert!(
        e.to_string()
            .starts_with("unknown key 'mapp' in [rules] (valid keys: "),
        "{e}"
    );
}

#[test]
fn wwk_mapp_typo_is_named_before_the_player_count() {
    // 5 players on the 3-nation default map: the typo is what is wrong.
    let e = refusal(&config(5, "mapp = \"monde\""));
    assert!(e.to_string().contains("unknown key 'mapp'"), "{e}");
    // Spelt right, the same game is fine.
    assert!(Wwk
        .setup(&config(5, "map = \"monde\""), &mut Rng::for_setup(1))
        .is_ok());
}

#[test]
fn wwk_players_rules_unknown_key_is_refused() {
    let mut c = config(2, "map = \"monde\"");
    c.players[1].options.insert("nattion".into(), "GBR".into());
    let e = refusal(&c);
    assert!(
        e.to_string().contains(
            "unknown key 'nattion' in [players.rules] of player gbr (valid keys: nation)"
        ),
        "{e}"
    );
}

#[test]
fn wwk_unknown_scenario_lists_the_builtin_names() {
    let e = refusal(&config(2, "scenario = \"mondial\""));
    assert_eq!(
        e.to_string(),
        "unknown map or scenario 'mondial' (built-in: trio, duel, petit, monde, world)"
    );
    // A scenario file's own [rules] table denies unknown keys too.
    let mut c = config(1, "");
    c.files.insert(
        "scenario_file".into(),
        arbitre_wwk::setup::TRIO.replace("[rules]", "[rules]\nnational_action = 4"),
    );
    let e = refusal(&c);
    assert!(e.to_string().contains("national_action"), "{e}");
}

#[test]
fn wwk_docs_list_exactly_the_rules_keys() {
    let doc = include_str!("../../../docs/wwk.md");
    let documented: BTreeSet<String> = doc
        .lines()
        .skip_while(|l| !l.starts_with("### Les clés de `[rules]`"))
        .skip_while(|l| !l.starts_with('|'))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .flat_map(|l| {
            let first = l.split('|').nth(1).unwrap_or("");
            first
                .split('`')
                .skip(1)
                .step_by(2)
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    let accepted: BTreeSet<String> = arbitre_wwk::setup::rules_keys().into_iter().collect();
    assert_eq!(documented, accepted);
}

/// Issue 19 item 7: a position whose items are wrong is refused, naming the
/// item (two units with one id used to leave only the last).
#[test]
fn position_wwk_errors_name_the_item() {
    let base = "map = \"trio\"\nturn = 2\n[nations.TUR]\nplayer = \"tur\"\nspecialty = \"L\"\nhome = \"IST\"\n[zones.IST]\nstatus = { kind = \"controlled\", by = \"TUR\" }\n";
    let unit = |id: u32, owner: &str, at: &str| {
        format!("[[units]]\nid = {id}\nowner = \"{owner}\"\ncode = \"INF\"\nat = \"{at}\"\n")
    };
    let load = |text: String| {
        let c = SetupConfig {
            game_id: "p".into(),
            files: [("position_file".to_string(), text)].into(),
            ..Default::default()
        };
        Wwk.setup(&c, &mut Rng::for_setup(1)).map(|_| ())
    };
    load(format!(
        "{base}{}{}",
        unit(1, "TUR", "IST"),
        unit(2, "TUR", "ANK")
    ))
    .unwrap();
    for (text, reason) in [
        (
            format!("{base}{}{}", unit(1, "TUR", "IST"), unit(1, "TUR", "ANK")),
            "unit 1 appears twice",
        ),
        (
            format!("{base}{}", unit(3, "TUR", "ROM")),
            "unit 3 (TUR INF): stands on zone ROM, which does not exist",
        ),
        (
            format!("{base}{}", unit(4, "GER", "IST")),
            "unit 4 (INF): owner nation GER does not exist",
        ),
        (
            base.replace("home = \"IST\"", "home = \"BER\""),
            "nation TUR: home zone BER does not exist",
        ),
        (
            format!("{base}[zones.ANK]\nstatus = {{ kind = \"controlled\", by = \"EGY\" }}\n"),
            "zone ANK: owner nation EGY does not exist",
        ),
        (
            format!("{base}[zones.XYZ]\nstatus = {{ kind = \"neutral\" }}\n"),
            "unknown zone 'XYZ'",
        ),
    ] {
        let e = load(text).unwrap_err().to_string();
        assert!(e.contains(reason), "{reason}: {e}");
    }
}

/// Issue 19 item 7: an inline map of a position whose zones are given twice
/// or link to a zone the map lacks is refused naming the zone.
#[test]
fn position_wwk_map_zone_twice_and_link_to_unknown_zone() {
    use arbitre_core::setup_error::{Item, Role};
    let zone = |code: &str, adj: &str| {
        format!("[[map.zones]]\ncode = \"{code}\"\nname = \"{code}\"\nkind = \"land\"\nadjacent = [{adj}]\n")
    };
    let load = |zones: String| {
        let text = format!("turn = 1\n[nations.TUR]\nplayer = \"tur\"\nspecialty = \"L\"\n{zones}");
        let c = SetupConfig {
            game_id: "p".into(),
            files: [("position_file".to_string(), text)].into(),
            ..Default::default()
        };
        Wwk.setup(&c, &mut Rng::for_setup(1)).map(|_| ())
    };
    load(format!(
        "{}{}",
        zone("AAA", "\"BBB\""),
        zone("BBB", "\"AAA\"")
    ))
    .unwrap();
    let e = load(format!(
        "{}{}{}",
        zone("AAA", "\"BBB\""),
        zone("BBB", "\"AAA\""),
        zone("AAA", "")
    ))
    .unwrap_err();
    assert_eq!(
        e,
        SetupError::Duplicate {
            item: Item::Zone,
            id: "AAA".into()
        },
        "{e}"
    );
    let e = load(format!(
        "{}{}",
        zone("AAA", "\"BBB\", \"CCC\""),
        zone("BBB", "\"AAA\"")
    ))
    .unwrap_err();
    assert_eq!(
        e,
        SetupError::UnknownRef {
            item: Item::Zone,
            id: "AAA".into(),
            role: Role::Link,
            target: Item::Zone,
            name: "CCC".into()
        },
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "zone AAA: link to zone CCC, which does not exist"
    );
    // A zone drawn off the map attachment's 0..1000 grid.
    let e = load(format!(
        "{}x = 1200\ny = 5\n{}",
        zone("AAA", "\"BBB\""),
        zone("BBB", "\"AAA\"")
    ))
    .unwrap_err();
    assert!(
        matches!(&e, SetupError::OffMap { item: Item::Zone, id, x: 1200, .. } if id == "AAA"),
        "{e}"
    );
}

/// Found in a user trial: a game started from another game's exported
/// position printed the source game's id (`partie=wwk-src`) in every
/// report. The position leaves the id out, and the game file's id wins
/// over a `game_id` written by an older export.
#[test]
fn position_game_id_comes_from_the_game_file() {
    let src = Wwk
        .setup(&config(3, "map = \"monde\""), &mut Rng::for_setup(1))
        .unwrap();
    assert_eq!(src.game_id, "g");
    let exported = Wwk.export_position(&src).unwrap();
    assert!(!exported.contains("game_id"), "{exported}");
    let load = |text: String| {
        let c = SetupConfig {
            game_id: "copy".into(),
            files: [("position_file".to_string(), text)].into(),
            ..config(3, "")
        };
        Wwk.setup(&c, &mut Rng::for_setup(1)).unwrap()
    };
    let copy = load(exported.clone());
    assert_eq!(copy.game_id, "copy");
    assert_eq!(Wwk.export_position(&copy).unwrap(), exported);
    let older = load(format!("game_id = \"g\"\n{exported}"));
    assert_eq!(older.game_id, "copy");
}
