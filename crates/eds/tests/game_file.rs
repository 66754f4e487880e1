//! Issue 19, the ruleset's side of a game file: `[rules]` and
//! `[players.rules]` deny unknown keys and list the valid ones (item 1), an
//! unknown galaxy lists the built-in names before any other check (item 2),
//! and docs/eds.md lists exactly the `[rules]` keys and the built-in
//! galaxies (item 8).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig, SetupError};
use arbitre_eds::Eds;
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
    Eds.setup(c, &mut Rng::for_setup(1)).unwrap_err()
}

#[test]
fn eds_rules_unknown_key_is_refused_with_the_valid_keys() {
    // One player and a typo: the typo is named, not the player count.
    let e = refusal(&config(1, "mapp = \"duel\""));
    let SetupError::UnknownKey { table, key, valid } = &e else {
        panic!("{e}");
    };
    assert_eq!((table.as_str(), key.as_str()), ("[rules]", "mapp"));
    for k in ["map", "galaxy", "start_we", "order_limits"] {
        assert!(valid.contains(&k.to_string()), "{e}");
    }
}

#[test]
fn eds_players_rules_unknown_key_is_refused() {
    let mut c = config(2, "map = \"duel\"");
    c.players[1].options.insert("home".into(), 3.into());
    let e = refusal(&c);
    assert_eq!(
        e.to_string(),
        "unknown key 'home' in [players.rules] of player p2 (this table takes no key)"
    );
}

#[test]
fn eds_unknown_map_lists_the_builtin_names() {
    let e = refusal(&config(2, "map = \"duo\""));
    assert_eq!(
        e.to_string(),
        "unknown map or scenario 'duo' (built-in: generate, duel, trio, standard)"
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
fn eds_docs_list_exactly_the_rules_keys_and_galaxies() {
    let doc = include_str!("../../../docs/eds.md");
    let keys: BTreeSet<String> = arbitre_eds::setup::rules_keys().into_iter().collect();
    assert_eq!(first_column(doc, "### Die Schlüssel von `[rules]`"), keys);
    let names: BTreeSet<String> = arbitre_eds::setup::SCENARIOS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(first_column(doc, "### Eingebaute Galaxien"), names);
    // Each row's rulers, size and star count are the scenario's own.
    for (name, text) in arbitre_eds::setup::SCENARIOS {
        let sc: arbitre_eds::setup::Scenario = toml::from_str(text).unwrap();
        let row = format!(
            "| `{name}` | {} | {} × {} | {} |",
            sc.game.players,
            sc.game.width.unwrap(),
            sc.game.height.unwrap(),
            sc.stars.len()
        );
        assert!(doc.contains(&row), "{row}");
    }
}

/// One way to spoil a good position.
type Change = Box<dyn Fn(&mut arbitre_eds::setup::Position)>;

/// Issue 19 item 7: a position whose items are wrong is refused, naming the
/// item (the loader used to keep the last of two stars with one number).
#[test]
fn position_eds_errors_name_the_item() {
    use arbitre_eds::setup::{position_toml, Position};
    let st = Eds
        .setup(&config(2, "map = \"duel\""), &mut Rng::for_setup(1))
        .unwrap();
    let good: Position = toml::from_str(&position_toml(&st)).unwrap();
    let load = |p: &Position| {
        let mut c = config(2, "");
        c.options
            .insert("position".into(), toml::Value::try_from(p).unwrap());
        Eds.setup(&c, &mut Rng::for_setup(1)).map(|_| ())
    };
    load(&good).unwrap();
    let cases: Vec<(Change, String)> = vec![
        (
            Box::new(|p| {
                let mut twin = p.stars[1].clone();
                twin.number = p.stars[0].number;
                twin.x = p.width;
                twin.y = p.height;
                p.stars.push(twin);
            }),
            format!("star {} appears twice", good.stars[0].number),
        ),
        (
            Box::new(|p| {
                let twin = p.ships[0].clone();
                p.ships.push(twin);
            }),
            format!("ship {} appears twice", good.ships[0].number),
        ),
        (
            Box::new(|p| p.stars[2].x = p.width + 1),
            format!("star {}: position (", good.stars[2].number),
        ),
        (
            Box::new(|p| p.ships[0].y = 0),
            format!("ship {}: position (", good.ships[0].number),
        ),
        (
            Box::new(|p| p.ships[0].sp = p.ships[0].tk + 1),
            format!(
                "ship {}: fuel {} above its tank",
                good.ships[0].number,
                good.ships[0].tk + 1
            ),
        ),
        (
            Box::new(|p| {
                let lr = p.ships[0].lr;
                p.ships[0].cargo = Some((arbitre_eds::model::Good::E, lr + 1));
            }),
            format!("ship {}: cargo", good.ships[0].number),
        ),
        // Issue 19 item 7, players without a home: a ruler in play whose
        // home star the position leaves out.
        (
            Box::new(|p| p.rulers[1].home_star = 0),
            "player 2 has no home".into(),
        ),
        (
            Box::new(|p| p.ships[0].owner = 9),
            format!(
                "ship {}: owner ruler 9 does not exist",
                good.ships[0].number
            ),
        ),
    ];
    for (change, reason) in cases {
        let mut p = good.clone();
        change(&mut p);
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(&reason), "{reason}: {e}");
    }
}

/// The complete small position of docs/eds.md loads, as the docs say: month
/// 3 resolved, rulers named, orders next for month 4.
#[test]
fn eds_docs_position_example_loads() {
    let doc = include_str!("../../../docs/eds.md");
    let text: String = doc
        .lines()
        .skip_while(|l| !l.starts_with("### Eine Stellung (Position)"))
        .skip_while(|l| *l != "```toml")
        .skip(1)
        .take_while(|l| *l != "```")
        .map(|l| format!("{l}\n"))
        .collect();
    let mut c = config(2, "");
    c.files.insert("position_file".into(), text);
    let st = Eds.setup(&c, &mut Rng::for_setup(1)).unwrap();
    assert_eq!(st.month, 3);
    assert_eq!(st.rulers[0].name, "ORION");
    assert_eq!(st.ships[&1].cargo.map(|(_, n)| n), Some(2));
    assert_eq!(
        Eds.turn(&st),
        3,
        "the turn number is the last resolved month"
    );
}
