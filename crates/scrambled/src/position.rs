//! Writing the current state as a position TOML (the format `setup` reads
//! from `position_file`, see docs/scrambled.md §5), so that a game master can
//! save a game, edit it and resume it, and a test can start from any turn.
//! The world and the parameters are not part of a position: they come from
//! the game's `[rules]` as usual.

use crate::state::{Mark, State, Status};
use toml::{Table, Value};

fn s(v: &str) -> Value {
    Value::String(v.to_string())
}

fn int(v: u64) -> Value {
    Value::Integer(v.min(i64::MAX as u64) as i64)
}

pub fn to_toml(state: &State) -> String {
    let mut root = Table::new();
    root.insert("turn".into(), int(u64::from(state.turn)));
    if state.over {
        root.insert("over".into(), Value::Boolean(true));
    }
    root.insert("quota".into(), int(u64::from(state.quota)));
    root.insert("next_chain".into(), int(u64::from(state.next_chain)));
    let mut players = Vec::new();
    for p in state.players.values() {
        let mut t = Table::new();
        t.insert("id".into(), s(p.id.as_str()));
        t.insert("start".into(), s(p.start_territory.as_str()));
        if let Some(c) = &p.capital {
            t.insert("capital".into(), s(c.as_str()));
        }
        if let Some((c, due)) = &p.pending_capital {
            t.insert("pending_capital".into(), s(c.as_str()));
            t.insert("pending_due".into(), int(u64::from(*due)));
        }
        let (status, turn) = match p.status {
            Status::Active => ("active", None),
            Status::Quit(n) => ("quit", Some(n)),
            Status::Eliminated(n) => ("eliminated", Some(n)),
        };
        t.insert("status".into(), s(status));
        if let Some(n) = turn {
            t.insert("status_turn".into(), int(u64::from(n)));
        }
        let enemies: Vec<Value> = p
            .marks
            .iter()
            .filter(|(_, m)| **m == Mark::Enemy)
            .map(|(q, _)| s(q.as_str()))
            .collect();
        t.insert("enemies".into(), Value::Array(enemies));
        let allies: Vec<Value> = p
            .marks
            .iter()
            .filter(|(_, m)| **m == Mark::Ally)
            .map(|(q, _)| s(q.as_str()))
            .collect();
        if !allies.is_empty() {
            t.insert("allies".into(), Value::Array(allies));
        }
        players.push(Value::Table(t));
    }
    root.insert("player".into(), Value::Array(players));
    let mut terrs = Vec::new();
    for (id, ts) in &state.territories {
        let default_eco = if state.world.get(id).map(|t| t.is_land()).unwrap_or(false) {
            state.params.neutral_initial_economy
        } else {
            0
        };
        let plain = ts.owner.is_none()
            && ts.troops.is_empty()
            && !ts.conflict
            && !ts.contested
            && ts.suppression == 0
            && ts.economy == default_eco;
        if plain {
            continue;
        }
        let mut t = Table::new();
        t.insert("id".into(), s(id.as_str()));
        if let Some(o) = &ts.owner {
            t.insert("owner".into(), s(o.as_str()));
        }
        t.insert("economy".into(), int(u64::from(ts.economy)));
        t.insert("suppression".into(), int(u64::from(ts.suppression)));
        t.insert("conflict".into(), Value::Boolean(ts.conflict));
        t.insert("contested".into(), Value::Boolean(ts.contested));
        let troops: Table = ts
            .troops
            .iter()
            .map(|(p, n)| (p.0.clone(), int(*n)))
            .collect();
        t.insert("troops".into(), Value::Table(troops));
        terrs.push(Value::Table(t));
    }
    root.insert("territory".into(), Value::Array(terrs));
    let chains: Vec<Value> = state
        .chains
        .iter()
        .map(|c| {
            let mut t = Table::new();
            t.insert("number".into(), int(u64::from(c.number)));
            t.insert("player".into(), s(c.player.as_str()));
            t.insert(
                "route".into(),
                Value::Array(c.route.iter().map(|r| s(r.as_str())).collect()),
            );
            t.insert("next".into(), int(c.next as u64));
            if let Some(n) = c.planned {
                t.insert("planned".into(), int(n));
            }
            Value::Table(t)
        })
        .collect();
    root.insert("chain".into(), Value::Array(chains));
    toml::to_string(&root).unwrap_or_default()
}
