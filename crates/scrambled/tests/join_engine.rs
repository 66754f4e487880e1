//! SCN-62 through the engine face the daemon uses: a player joins a game in
//! progress between two turns, gets a territory, troops and a capital, and
//! is then a player like the others.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, SetupConfig};

fn setup(allow: bool) -> (Box<dyn Engine>, String) {
    let e = Adapter::boxed(arbitre_scrambled::Scrambled);
    let mut options = toml::Table::new();
    options.insert("world".into(), toml::Value::String("hexagone".into()));
    options.insert("allow_join_midgame".into(), toml::Value::Boolean(allow));
    let players = ["anne", "bruno", "chloe"]
        .iter()
        .map(|p| PlayerSetup {
            id: PlayerId::from(*p),
            name: p.to_string(),
            options: Default::default(),
        })
        .collect();
    let cfg = SetupConfig {
        game_id: "j".into(),
        seed: 5,
        players,
        options,
        files: Default::default(),
    };
    let snap = e.setup(&cfg).unwrap();
    (e, snap.state)
}

fn newcomer() -> PlayerSetup {
    PlayerSetup {
        id: PlayerId::from("denis"),
        name: "Denis".into(),
        options: Default::default(),
    }
}

#[test]
fn scn_62_a_player_joins_between_turns_through_the_engine() {
    let (e, s) = setup(true);
    let s = e
        .resolve(&s, 5, &Default::default())
        .unwrap()
        .snapshot
        .state;
    let joined = e.join(&s, 5, &newcomer()).unwrap();
    let players = e.players(&joined.state).unwrap();
    assert!(players.iter().any(|p| p.id.as_str() == "denis" && p.active));
    let report = e
        .report(&joined.state, &arbitre_core::Viewer::Player("denis".into()))
        .unwrap();
    assert!(report.body.contains("Denis"), "{}", report.body);
    // Same seed, same state: the same territory (the draw is seeded).
    assert_eq!(e.join(&s, 5, &newcomer()).unwrap(), joined);
    // The newcomer's orders are judged like anyone's.
    let checked = e.check(&joined.state, &"denis".into(), "READY").unwrap();
    assert_eq!(checked.errors, 0);
}

#[test]
fn scn_62_joining_is_refused_when_the_game_does_not_allow_it() {
    let (e, s) = setup(false);
    let err = e.join(&s, 5, &newcomer()).unwrap_err();
    assert!(
        matches!(
            err,
            arbitre_core::EngineError::Setup(arbitre_core::SetupError::Join(
                arbitre_core::setup_error::JoinRefusal::NotAllowed
            ))
        ),
        "{err:?}"
    );
}
