//! Shared plumbing of the Monatszug: the per-month scratch counters (§4.1) and
//! the order list of one phase in execution order (rulers ascending, entries in
//! input order, §3.1).

use crate::model::{RulerNr, ShipNr, StarNr};
use crate::orders::Order;
use crate::Eds;
use arbitre_core::TurnCtx;
use std::collections::{BTreeMap, BTreeSet};

/// Counters that live for one month only.
#[derive(Default)]
pub struct Scratch {
    pub repaired: BTreeMap<StarNr, u32>,
    pub fighters_built: BTreeMap<StarNr, u32>,
    pub ship_built: BTreeSet<StarNr>,
    pub jumped: BTreeSet<ShipNr>,
    pub colonised: BTreeSet<StarNr>,
    pub scrapped_at: BTreeSet<StarNr>,
    pub battles: crate::combat::BattleCounter,
}

/// One entry to execute: the ruler, the entry as written, the order.
pub type Entry = (RulerNr, String, Order);

/// The entries of `phase` for every active ruler, ascending ruler number.
pub fn entries(ctx: &TurnCtx<'_, Eds>, phase: u8) -> Vec<Entry> {
    let mut out = Vec::new();
    for r in &ctx.state.rulers {
        if !r.active {
            continue;
        }
        if let Some(list) = ctx.orders.get(&r.id) {
            for o in list {
                if o.order.phase() == phase {
                    out.push((r.number, o.text.to_string(), o.order.clone()));
                }
            }
        }
    }
    out
}

/// The entries of one ruler for `phase`.
pub fn entries_of(ctx: &TurnCtx<'_, Eds>, ruler: RulerNr, phase: u8) -> Vec<Entry> {
    entries(ctx, phase)
        .into_iter()
        .filter(|e| e.0 == ruler)
        .collect()
}

pub fn m04(ship: ShipNr) -> String {
    format!("Schiff {ship} gehört Dir nicht oder existiert nicht – Befehl verworfen")
}

pub fn m03(star: StarNr) -> String {
    format!("Stern {star} gehört Dir nicht – Befehl verworfen")
}
