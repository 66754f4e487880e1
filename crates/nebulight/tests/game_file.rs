//! Issue 19, the ruleset's side of a game file: `[rules]` and
//! `[players.rules]` deny unknown keys and list the valid ones (item 1; before,
//! `mapp = "duel-petit"` silently gave the 41-world map), an unknown map lists
//! the built-in names (item 2), and docs/nebulight.md lists exactly the
//! `[rules]` keys and the built-in maps (item 8).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig, SetupError};
use arbitre_nebulight::Nebulight;
use std::collections::BTreeSet;

fn config(rules: &str) -> SetupConfig {
    SetupConfig {
        game_id: "g".into(),
        seed: 1,
        players: ["maxtor", "miria"]
            .iter()
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
    Nebulight.setup(c, &mut Rng::for_setup(1)).unwrap_err()
}

#[test]
fn nebulight_rules_unknown_key_is_refused_with_the_valid_keys() {
    let e = refusal(&config("mapp = \"duel-petit\""));
    assert_eq!(
        e.to_string(),
        "unknown key 'mapp' in [rules] (valid keys: enforce_known_worlds, hide_foreign_cargo, map, map_file, position, position_file, turns)"
    );
    // A typo must not hide behind the player count either.
    let mut c = config("tunrs = 5");
    c.players.truncate(1);
    assert!(refusal(&c).to_string().contains("unknown key 'tunrs'"));
}

#[test]
fn nebulight_players_rules_unknown_key_is_refused() {
    let mut c = config("map = \"duel-petit\"");
    c.players[0].options.insert("solt".into(), 1.into());
    let e = refusal(&c);
    assert_eq!(
        e.to_string(),
        "unknown key 'solt' in [players.rules] of player maxtor (valid keys: slot)"
    );
}

#[test]
fn nebulight_unknown_map_lists_the_builtin_names() {
    let e = refusal(&config("map = \"duel-moyen\""));
    assert_eq!(
        e.to_string(),
        "unknown map or scenario 'duel-moyen' (built-in: duel-petit, duel, exemple-ouverture, exemple-combat, exemple-embuscade, exemple-paralysie)"
    );
}

/// First-column backticked words of the table after `heading`.
fn first_column(doc: &str, heading: &str) -> BTreeSet<String> {
    doc.lines()
        .skip_while(|l| !l.starts_with(heading))
        .skip_while(|l| !l.starts_with('|'))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .flat_map(|l| {
            l.split('|')
                .nth(1)
                .unwrap_or("")
                .split('`')
                .skip(1)
                .step_by(2)
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn nebulight_docs_list_exactly_the_rules_keys_and_maps() {
    let doc = include_str!("../../../docs/nebulight.md");
    let keys: BTreeSet<String> = arbitre_nebulight::setup::RULES_KEYS
        .iter()
        .map(|k| k.to_string())
        .collect();
    assert_eq!(first_column(doc, "### Les clés de `[rules]`"), keys);
    let maps: BTreeSet<String> = arbitre_nebulight::setup::builtin_names()
        .into_iter()
        .collect();
    assert_eq!(first_column(doc, "### Cartes et positions intégrées"), maps);
    // The world counts the table gives are the maps' own.
    for (name, text) in arbitre_nebulight::setup::BUILTIN {
        let worlds = text.matches("[[world]]").count();
        assert!(
            doc.contains(&format!("| `{name}` | {worlds} |")),
            "{name}: {worlds} worlds"
        );
    }
}

/// Issue 19 item 7: a position whose items are wrong is refused, naming the
/// item; "7" and "07" are one world and may not both be given.
#[test]
fn nebulight_position_errors_name_the_item() {
    let base = arbitre_nebulight::setup::BUILTIN
        .iter()
        .find(|(n, _)| *n == "exemple-paralysie")
        .map(|(_, t)| t.to_string())
        .unwrap();
    let load = |text: String| {
        let mut c = config("");
        c.files.insert("position_file".into(), text);
        Nebulight.setup(&c, &mut Rng::for_setup(1)).map(|_| ())
    };
    load(base.clone()).unwrap();
    for (extra, reason) in [
        (
            "[[world]]\nnumber = 100\nlinks = [234]\n",
            "world 100 appears twice",
        ),
        (
            "[[world]]\nnumber = \"0100\"\nlinks = [234]\n",
            "world 100 appears twice",
        ),
        (
            "[[fleet]]\nnumber = 25\nworld = 100\nowner = 2\nvc = 1\n",
            "fleet 25 appears twice",
        ),
        ("[[world]]\nnumber = 500\nlinks = [999]\n", "999"),
    ] {
        let e = load(format!("{base}\n{extra}")).unwrap_err().to_string();
        assert!(e.contains(reason), "{reason}: {e}");
    }
}

/// Loads the rulebook position `exemple-paralysie` with `extra` appended
/// (or `edit` applied), returning the refusal.
fn position_refusal(edit: impl Fn(String) -> String) -> SetupError {
    let base = arbitre_nebulight::setup::BUILTIN
        .iter()
        .find(|(n, _)| *n == "exemple-paralysie")
        .map(|(_, t)| t.to_string())
        .unwrap();
    let mut c = config("");
    c.files.insert("position_file".into(), edit(base));
    refusal(&c)
}

/// Issue 19 item 7, one test per kind of error in a Nébulight position: each
/// names the item and the limit it breaks, as a typed kind.
#[test]
fn position_nebulight_errors_per_kind() {
    use arbitre_core::setup_error::{Item, Load, Role};
    // Coordinates outside the drawing grid of the player's map (0..99).
    let e = position_refusal(|b| b.replacen("vp = 1\n", "vp = 1\ncoords = [120, 3]\n", 1));
    assert_eq!(
        e,
        SetupError::OffMap {
            item: Item::World,
            id: "100".into(),
            x: 120,
            y: 3,
            min: 0,
            max_x: 99,
            max_y: 99
        },
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "world 100: position (120,3) outside the map (0..99, 0..99)"
    );
    // Two worlds drawn on one point.
    let e = position_refusal(|b| {
        b.replacen("vp = 1\n", "vp = 1\ncoords = [4, 4]\n", 1)
            .replacen("pop_limit = 10\n", "pop_limit = 10\ncoords = [4, 4]\n", 1)
    });
    assert!(
        matches!(&e, SetupError::SamePlace { item: Item::World, id, .. } if id == "234"),
        "{e}"
    );
    // Cargo above the hold (VC).
    let e = position_refusal(|b| {
        format!("{b}\n[[fleet]]\nnumber = 26\nworld = 234\nowner = 1\nvc = 2\ncargo_mp = 3\n")
    });
    assert_eq!(
        e,
        SetupError::OverCapacity {
            item: Item::Fleet,
            id: "26".into(),
            load: Load::Cargo,
            amount: 3,
            capacity: 2
        },
        "{e}"
    );
    // A link to a world the position lacks names both ends.
    let e = position_refusal(|b| format!("{b}\n[[world]]\nnumber = 500\nlinks = [999]\n"));
    assert_eq!(
        e,
        SetupError::UnknownRef {
            item: Item::World,
            id: "500".into(),
            role: Role::Link,
            target: Item::World,
            name: "999".into()
        },
        "{e}"
    );
    // A fleet on a world the position lacks.
    let e = position_refusal(|b| {
        format!("{b}\n[[fleet]]\nnumber = 27\nworld = 998\nowner = 1\nvc = 2\n")
    });
    assert!(
        matches!(&e, SetupError::UnknownRef { item: Item::Fleet, role: Role::Place, name, .. } if name == "998"),
        "{e}"
    );
}

/// Issue 19 item 7: a map that gives a player no world is refused naming
/// the player (a position may show a player who lost everything).
#[test]
fn position_nebulight_player_without_a_home() {
    let map = "[map]\nname = \"solo\"\n\n[[world]]\nnumber = 1\nlinks = [2]\nstart_of = 1\npopulation = 10\npop_limit = 10\n\n[[world]]\nnumber = 2\nlinks = [1]\n";
    let mut c = config("");
    c.files.insert("map_file".into(), map.into());
    let e = refusal(&c);
    assert_eq!(e, SetupError::NoHome { player: "2".into() }, "{e}");
}
