//! The turn, step by step in the rulebook's order (spec §3.0): one phase per
//! step, each in its own module (`freeze`, `quit`, `movement`, `combat`,
//! `capture`, `territory_gift`, `revenue`, `capital`, `housekeeping`).
//! Phase keys `R0`…`R11` are the spec's step numbers and name the RNG streams;
//! no step draws at present (the rules are deterministic once orders are in;
//! start and join positions use the setup stream or the caller's).

use crate::events::Budget;
use crate::state::{State, TerrState};
use crate::world::TerrId;
use crate::{capture, combat, movement, revenue, Scrambled};
use arbitre_core::{Phase, PlayerId, TurnCtx};
use std::collections::{BTreeMap, BTreeSet};

/// Working data of one resolution.
#[derive(Default)]
pub struct Scratch {
    /// S0: the start-of-turn territories (after R0's diplomacy changes).
    pub s0: BTreeMap<TerrId, TerrState>,
    pub given_away: BTreeMap<(TerrId, PlayerId), u64>,
    /// (player, line of the PATH order) → chain number created at R0.
    pub new_chains: BTreeMap<(PlayerId, usize), u32>,
    pub captured: BTreeSet<TerrId>,
    pub budgets: BTreeMap<PlayerId, Budget>,
    pub vision: BTreeMap<PlayerId, BTreeSet<TerrId>>,
}

type Ctx<'a> = TurnCtx<'a, Scrambled>;

pub fn phases() -> Vec<Phase<Scrambled>> {
    vec![
        Phase {
            key: "R0",
            run: crate::freeze::run,
        },
        Phase {
            key: "R1",
            run: crate::quit::run,
        },
        Phase {
            key: "R2",
            run: r2_give_troops,
        },
        Phase {
            key: "R3",
            run: r3_move,
        },
        Phase {
            key: "R4",
            run: r4_combat,
        },
        Phase {
            key: "R5",
            run: r5_ownership,
        },
        Phase {
            key: "R6",
            run: crate::territory_gift::run,
        },
        Phase {
            key: "R7",
            run: r7_income,
        },
        Phase {
            key: "R8",
            run: r8_tribute,
        },
        Phase {
            key: "R9",
            run: r9_recruit,
        },
        Phase {
            key: "R10",
            run: crate::capital::run,
        },
        Phase {
            key: "R11",
            run: crate::housekeeping::run,
        },
    ]
}

pub(crate) fn see_troops(state: &State, vision: &mut BTreeMap<PlayerId, BTreeSet<TerrId>>) {
    for (t, ts) in &state.territories {
        for p in ts.troops.keys() {
            vision.entry(p.clone()).or_default().insert(t.clone());
        }
    }
}

pub(crate) fn see_owned(state: &State, vision: &mut BTreeMap<PlayerId, BTreeSet<TerrId>>) {
    for (t, ts) in &state.territories {
        if let Some(o) = &ts.owner {
            vision.entry(o.clone()).or_default().insert(t.clone());
        }
    }
}

fn r2_give_troops(ctx: &mut Ctx<'_>) {
    movement::give_troops(
        ctx.state,
        ctx.orders,
        &mut ctx.scratch.given_away,
        ctx.events,
    );
    see_troops(ctx.state, &mut ctx.scratch.vision);
}

fn r3_move(ctx: &mut Ctx<'_>) {
    let s0 = std::mem::take(&mut ctx.scratch.s0);
    movement::move_troops(
        ctx.state,
        &s0,
        ctx.orders,
        &ctx.scratch.new_chains,
        &ctx.scratch.given_away,
        ctx.events,
    );
    ctx.scratch.s0 = s0;
    see_troops(ctx.state, &mut ctx.scratch.vision);
}

fn r4_combat(ctx: &mut Ctx<'_>) {
    combat::resolve_all(ctx.state, ctx.events);
}

/// R5: ownership, contested flags, suppression, then economic ratios (§3.6.5).
fn r5_ownership(ctx: &mut Ctx<'_>) {
    let captured = capture::change_ownership(ctx.state, ctx.events);
    let prm = ctx.state.params.clone();
    let land: Vec<TerrId> = ctx.state.world.land().map(|t| t.id.clone()).collect();
    for t in land {
        let ts = ctx.state.terr_mut(&t);
        ts.economy = crate::economy::next_economy(
            ts.economy,
            ts.conflict,
            captured.contains(&t),
            prm.economy_modifier_conflict,
            prm.economy_modifier_peace,
        );
    }
    ctx.scratch.captured = captured;
}

fn r7_income(ctx: &mut Ctx<'_>) {
    ctx.scratch.budgets = revenue::compute_income(ctx.state);
}

fn r8_tribute(ctx: &mut Ctx<'_>) {
    revenue::tributes(ctx.state, ctx.orders, &mut ctx.scratch.budgets, ctx.events);
}

fn r9_recruit(ctx: &mut Ctx<'_>) {
    revenue::upkeep_and_recruit(ctx.state, &mut ctx.scratch.budgets, ctx.events);
}
