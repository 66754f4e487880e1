//! Outcomes before text (issue 23 item 4): a battle is fought as a typed
//! [`BattleOutcome`] by `combat::fight` and its Kampfbericht is written from
//! that outcome alone by `report::render_battle`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use arbitre_core::Rng;
use arbitre_eds::combat::{battle, fight, BattleCounter, BattleOutcome};
use arbitre_eds::events::Event;
use arbitre_eds::model::State;
use arbitre_eds::report::render_battle;
use common::*;

/// CV-1: ANTORIDA (ruler 1) against a Großraumtransporter (ruler 2) at (20,10).
fn cv1() -> State {
    let mut s = base();
    add_ship(&mut s, 20, 1, "D,10,5,20,15,0,0,30,20,0,0,1", 20, 10, 4);
    s.ships.get_mut(&20).unwrap().name = "ANTORIDA".into();
    add_ship(&mut s, 21, 2, "B,5,0,20,0,0,0,20,0,0,0,2", 20, 10, 0);
    s.rulers[1].status.insert(1, 3);
    s
}

/// Both lasers and the thermo salvo at scatter 1,0, no explosion.
fn script() -> Vec<u64> {
    vec![u64::MAX, u64::MAX, u64::MAX, 0]
}

fn fought() -> (State, BattleOutcome) {
    let mut s = cv1();
    let o = fight(
        &mut s,
        (2, 1),
        20,
        10,
        "Hypersprünge",
        3,
        &mut BattleCounter::default(),
        &mut Rng::scripted_rolls(script()),
    );
    (s, o)
}

#[test]
fn eds_74_battle_outcome_names_who_was_hit_and_destroyed() {
    let (s, o) = fought();
    assert_eq!(
        [o.sides[0].ruler, o.sides[1].ruler],
        [1, 2],
        "side one is the lower ruler"
    );
    assert_eq!(o.sides[0].weapons, [true, true, false, false]);
    assert_eq!(o.rounds.len(), 1);
    let hit: Vec<(usize, u32, u32, bool)> = o.rounds[0]
        .ships
        .iter()
        .map(|h| (h.side, h.number, h.hits, h.destroyed))
        .collect();
    assert_eq!(hit, vec![(1, 21, 4, true)]);
    assert_eq!(o.rounds[0].standing, [(1, [0, 0]), (0, [0, 0])]);
    assert_eq!(o.fighters, [None, None]);
    assert!(o.fled.is_empty());
    assert!(
        !s.ships.contains_key(&21),
        "the state agrees with the outcome"
    );
}

#[test]
fn eds_74_kampfbericht_is_the_rendering_of_the_outcome() {
    let (s, o) = fought();
    let (text, short) = render_battle(&s.params, &o);
    assert!(text.starts_with("KAMPFBERICHT 1 · "), "{text}");
    assert!(text.contains("Runde 1: SCHIFF 21(B)****✗\n"), "{text}");
    assert!(short.contains("2: vernichtet 1 B"), "{short}");
    // battle() writes exactly what render_battle makes of fight()'s outcome.
    let mut s2 = cv1();
    let mut ev = Vec::new();
    battle(
        &mut s2,
        (2, 1),
        20,
        10,
        "Hypersprünge",
        3,
        &mut BattleCounter::default(),
        &mut Rng::scripted_rolls(script()),
        &mut ev,
    );
    let Some(Event::Battle(b)) = ev.first() else {
        panic!("no battle event: {ev:?}");
    };
    assert_eq!(
        (b.text.as_str(), b.short.as_str()),
        (text.as_str(), short.as_str())
    );
}
