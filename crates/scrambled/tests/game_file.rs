//! Issue 19, the ruleset's side of a game file: `[rules]`,
//! `[rules.parameters]` and `[players.rules]` deny unknown keys and list the
//! valid ones (item 1), an unknown world or scenario lists the built-in
//! names (item 2), and docs/scrambled.md lists exactly the `[rules]` keys
//! and the built-in worlds and scenarios (item 8).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig, SetupError};
use arbitre_scrambled::Scrambled;
use std::collections::BTreeSet;

fn config(n: usize, rules: &str) -> SetupConfig {
    SetupConfig {
        game_id: "g".into(),
        seed: 1,
        players: (1..=n)
            .map(|i| PlayerSetup {
                id: PlayerId::new(format!("p{i}")),
                name: format!("p{i}"),
                options: toml::Table::new(),
            })
            .collect(),
        options: toml::from_str(rules).unwrap(),
        ..Default::default()
    }
}

fn refusal(c: &SetupConfig) -> SetupError {
    Scrambled.setup(c, &mut Rng::for_setup(1)).unwrap_err()
}

#[test]
fn scrambled_rules_unknown_key_is_refused_with_the_valid_keys() {
    let e = refusal(&config(3, "wrold = \"testland\""));
    let SetupError::UnknownKey { table, key, valid } = &e else {
        panic!("{e}");
    };
    assert_eq!((table.as_str(), key.as_str()), ("[rules]", "wrold"));
    for k in ["world", "map_file", "turn_limit", "start_economy"] {
        assert!(valid.contains(&k.to_string()), "{e}");
    }
    // In [rules.parameters] only the parameters are valid.
    let e = refusal(&config(3, "[parameters]\nworld = \"testland\""));
    assert!(
        e.to_string()
            .starts_with("unknown key 'world' in [rules.parameters] (valid keys: "),
        "{e}"
    );
    // The typo is named even with no player at all.
    let e = refusal(&config(0, "turn_limt = 3"));
    assert!(e.to_string().contains("unknown key 'turn_limt'"), "{e}");
}

#[test]
fn scrambled_players_rules_unknown_key_is_refused() {
    let mut c = config(3, "world = \"testland\"");
    c.players[2].options.insert("strat".into(), "LOR".into());
    let e = refusal(&c);
    assert_eq!(
        e.to_string(),
        "unknown key 'strat' in [players.rules] of player p3 (valid keys: start)"
    );
}

#[test]
fn scrambled_unknown_world_or_scenario_lists_the_builtin_names() {
    let e = refusal(&config(3, "world = \"france\""));
    assert_eq!(
        e.to_string(),
        "unknown map or scenario 'france' (built-in: testland, hexagone)"
    );
    let e = refusal(&config(3, "scenario = \"lorraine\""));
    assert_eq!(
        e.to_string(),
        "unknown map or scenario 'lorraine' (built-in: alsace)"
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
fn scrambled_docs_list_exactly_the_rules_keys_and_worlds() {
    let doc = include_str!("../../../docs/scrambled.md");
    let keys: BTreeSet<String> = arbitre_scrambled::setup::rules_keys()
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(first_column(doc, "### Les clés de `[rules]`"), keys);
    let names: BTreeSet<String> = arbitre_scrambled::world::builtin_names()
        .into_iter()
        .chain(arbitre_scrambled::world::scenario_names())
        .collect();
    assert_eq!(first_column(doc, "### Mondes et scénarios intégrés"), names);
    // The territory counts are the worlds' own.
    for (name, text) in arbitre_scrambled::world::BUILTIN {
        let all = text.matches("[[territory]]").count();
        let land = text.matches("terrain = \"land\"").count();
        assert!(
            doc.contains(&format!("| `{name}` | {all} ({land}) |")),
            "{name}: {all} ({land})"
        );
    }
}
