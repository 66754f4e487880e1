//! Shared helpers: a game from the built-in trio scenario or a position, and
//! running one turn with fixed dice per step.
#![allow(dead_code)]

use arbitre_core::engine::run_turn_with;
use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig};
use arbitre_wwk::model::UnitId;
use arbitre_wwk::turn::Event;
use arbitre_wwk::{Scratch, State, Wwk};
use std::collections::BTreeMap;

pub fn players(n: usize) -> Vec<PlayerSetup> {
    ["tur", "egy", "gre"]
        .iter()
        .take(n)
        .map(|p| PlayerSetup {
            id: PlayerId::from(*p),
            name: p.to_string(),
            options: Default::default(),
        })
        .collect()
}

pub fn trio() -> State {
    let cfg = SetupConfig {
        game_id: "t".into(),
        seed: 1,
        players: players(3),
        ..Default::default()
    };
    Wwk.setup(&cfg, &mut Rng::for_setup(1)).expect("setup")
}

/// A position written in TOML (serde form of the state), on the trio map.
pub fn position(toml_text: &str) -> State {
    let text = format!("map = \"trio\"\n{toml_text}");
    let cfg = SetupConfig {
        game_id: "p".into(),
        seed: 1,
        players: vec![],
        files: [("position_file".to_string(), text)].into(),
        ..Default::default()
    };
    Wwk.setup(&cfg, &mut Rng::for_setup(1)).expect("position")
}

/// Run one turn: orders per nation player; `dice` gives scripted d100/dn rolls
/// per step key; other steps use the seeded stream (seed 7).
pub fn turn(st: &mut State, orders: &[(&str, &str)], dice: &[(&str, Vec<u64>)]) -> Vec<Event> {
    let mut parsed = BTreeMap::new();
    for n in st.nations.values() {
        parsed.insert(PlayerId::new(n.player.clone()), vec![]);
    }
    for (p, text) in orders {
        let pid = PlayerId::from(*p);
        let res = Wwk.parse_orders(st, &pid, text);
        assert!(
            res.diagnostics.iter().all(|d| d.warning),
            "parse errors: {:?}",
            res.diagnostics
        );
        parsed.insert(pid, res.orders);
    }
    let dice: BTreeMap<String, Vec<u64>> = dice
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let t = st.turn + 1;
    run_turn_with(&Wwk, st, &parsed, |key| match dice.get(key) {
        Some(v) => Rng::scripted_rolls(v.clone()),
        None => Rng::for_phase(7, t, key),
    })
}

pub fn texts(ev: &[Event]) -> String {
    ev.iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn count(st: &State, owner: &str, code: &str, z: &str) -> usize {
    st.count(owner, code, z)
}

/// Parsed orders of one nation as turn items (for calling one step directly).
pub fn items(st: &State, player: &str, text: &str) -> Vec<arbitre_wwk::turn::Item> {
    let res = Wwk.parse_orders(st, &PlayerId::from(player), text);
    assert!(res.diagnostics.is_empty(), "{:?}", res.diagnostics);
    let nation = st.nation_of_player(player).expect("player").code.clone();
    res.orders
        .into_iter()
        .map(|o| arbitre_wwk::turn::Item {
            nation: nation.clone(),
            line: o.line,
            text: o.text.into(),
            order: o.order,
        })
        .collect()
}

/// Run one step function directly with scripted rolls.
pub fn step(
    st: &mut State,
    scratch: &mut arbitre_wwk::Scratch,
    f: fn(&mut arbitre_core::TurnCtx<'_, Wwk>),
    rolls: Vec<u64>,
) -> Vec<Event> {
    let orders = BTreeMap::new();
    let mut rng = Rng::scripted_rolls(rolls);
    let mut events = vec![];
    let turn = st.turn + 1;
    let mut ctx = arbitre_core::TurnCtx {
        turn,
        state: st,
        orders: &orders,
        scratch,
        rng: &mut rng,
        events: &mut events,
    };
    f(&mut ctx);
    events
}

/// Give zone `z` to nation `n` with one infantry unit.
pub fn hold(st: &mut State, n: &str, z: &str) {
    st.zone_mut(z).status = arbitre_wwk::model::Status::Controlled { by: n.into() };
    st.add_unit(n, "INF", z);
}

/// Run `f` with a turn context over `st` and `sc`, dice scripted: one
/// phase function tested alone (issue 15 tests).
pub fn with_ctx(
    st: &mut State,
    sc: &mut Scratch,
    rolls: Vec<u64>,
    f: impl FnOnce(&mut arbitre_core::TurnCtx<'_, Wwk>),
) -> Vec<arbitre_wwk::Event> {
    let orders = BTreeMap::new();
    let mut rng = Rng::scripted_rolls(rolls);
    let mut events = vec![];
    let turn = st.turn + 1;
    let mut ctx = arbitre_core::TurnCtx {
        turn,
        state: st,
        orders: &orders,
        scratch: sc,
        rng: &mut rng,
        events: &mut events,
    };
    f(&mut ctx);
    events
}

/// Replaces `owner`'s `code` units in `z` by `k` new ones; returns their ids.
pub fn only(st: &mut State, owner: &str, code: &str, z: &str, k: usize) -> Vec<UnitId> {
    st.units
        .retain(|_, u| !(u.owner == owner && u.code == code && u.at == z));
    (0..k).map(|_| st.add_unit(owner, code, z)).collect()
}

/// The result text of the order on `line`.
pub fn result(sc: &Scratch, line: usize) -> String {
    sc.results
        .iter()
        .find(|((_, l), _)| *l == line)
        .map(|(_, r)| r.clone())
        .unwrap_or_default()
}

/// [`items`] for orders the confirmation already refuses but keeps, so that
/// resolution reports them (a MOVE along no link): returns the items and the
/// receipt's reasons.
pub fn items_refused_at_receipt(
    st: &State,
    player: &str,
    text: &str,
) -> (Vec<arbitre_wwk::turn::Item>, Vec<String>) {
    let res = Wwk.parse_orders(st, &PlayerId::from(player), text);
    let kept: Vec<usize> = res.orders.iter().map(|o| o.line).collect();
    assert!(
        res.diagnostics.iter().all(|d| kept.contains(&d.line)),
        "{:?}",
        res.diagnostics
    );
    let reasons = res.diagnostics.iter().map(|d| d.reason.clone()).collect();
    let nation = st.nation_of_player(player).expect("player").code.clone();
    let items = res
        .orders
        .into_iter()
        .map(|o| arbitre_wwk::turn::Item {
            nation: nation.clone(),
            line: o.line,
            text: o.text.into(),
            order: o.order,
        })
        .collect();
    (items, reasons)
}
