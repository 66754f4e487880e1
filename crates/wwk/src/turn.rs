//! Turn machinery (spec §4): the per-turn scratch data, report events, the
//! activation order and the list of steps. Every step ID of §4 is a phase key
//! and therefore the name of its RNG stream (§5.16), so a change in one step
//! never shifts another step's dice.

use crate::model::*;
use crate::orders::Order;
use crate::Wwk;
use arbitre_core::{Phase, TurnCtx};
use std::collections::{BTreeMap, BTreeSet};

pub type Ctx<'a, 'b> = TurnCtx<'a, Wwk>;

/// Who may read an event.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Vis {
    All,
    Nation(NationCode),
    Nations(Vec<NationCode>),
    Gm,
}

/// Report sections (§8.3), in the order they are printed.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Sec {
    News,
    Diplo,
    Orders,
    Economy,
    Combat,
    Espionage,
    Recon,
    Research,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub to: Vis,
    pub sec: Sec,
    pub text: String,
}

impl Event {
    pub fn visible(&self, n: Option<&str>) -> bool {
        match (&self.to, n) {
            (Vis::All, _) => true,
            (_, None) => false,
            (Vis::Nation(x), Some(n)) => x == n,
            (Vis::Nations(v), Some(n)) => v.iter().any(|x| x == n),
            (Vis::Gm, _) => false,
        }
    }
}

/// The turn's roll log; `step` is set by the phase wrapper before each step.
#[derive(Default, Debug)]
pub struct RollLog {
    pub step: &'static str,
    pub rolls: Vec<Roll>,
    /// Rolls logged so far per step (the next `seq` without rescanning `rolls`).
    counts: BTreeMap<&'static str, u32>,
}

impl RollLog {
    pub fn push(&mut self, die: u32, result: u32) {
        if self.rolls.is_empty() {
            // The log was handed over (`mem::take`): seq restarts.
            self.counts.clear();
        }
        let c = self
            .counts
            .entry(self.step)
            .or_insert_with(|| self.rolls.iter().filter(|r| r.step == self.step).count() as u32);
        *c += 1;
        let seq = *c;
        self.rolls.push(Roll {
            step: self.step.to_string(),
            seq,
            die,
            result,
            purpose: purpose(self.step).to_string(),
        });
    }
}

/// What the rolls of a step are for (§5.16 roll catalogue).
pub fn purpose(step: &str) -> &'static str {
    match step {
        "0.2" => "R1 crise de l'IA",
        "0.3" => "R2 initiative",
        "2.2" => "R4-R7 espionnage",
        "3.3" => "R8 combat spatial",
        "3.4" => "R9 attaque satellite au sol",
        "3.5" => "R10-R11 missiles et nucléaire",
        "3.6" => "R11-R13 missions aériennes",
        "3.8" => "R12-R13 HMOV",
        "3.9" => "R14-R15 blocage, garnisons neutres",
        "3.10" => "R11 R13 R16 combat",
        "4.1" => "R17 guérilla",
        "4.3" => "R18 usines capturées",
        "4.5" => "R15 forces neutres",
        "5.1" => "R19 limite 20 + L",
        "5.7" => "R20 entretien",
        "5.8" => "R21 recherche",
        _ => "",
    }
}

/// A logged die roll: `1dn`.
pub fn d(rng: &mut arbitre_core::Rng, log: &mut RollLog, n: u32) -> u32 {
    let r = rng.d(n);
    log.push(n, r);
    r
}

/// One accepted order line.
#[derive(Clone, Debug)]
pub struct Item {
    pub nation: NationCode,
    pub line: usize,
    pub text: String,
    pub order: Order,
}

/// A unit an order took, with the army it belonged to before (restored if
/// the order fails without effect).
pub type Claim = (UnitId, Option<String>);

/// Working data of one turn (§2.7 per-turn flags and more).
#[derive(Default, Debug)]
pub struct Scratch {
    pub items: Vec<Item>,
    pub log: RollLog,
    /// (nation, line) → "OK" / "FAILED : …".
    pub results: BTreeMap<(NationCode, usize), String>,
    pub deleted: BTreeSet<(NationCode, usize)>,
    pub initiative: BTreeMap<NationCode, i64>,
    /// Nations in activation order (initiative, AI first handled per zone).
    pub nation_order: Vec<NationCode>,
    pub ec_start: BTreeMap<(NationCode, ZoneCode), i64>,
    pub ordered: BTreeSet<UnitId>,
    pub immobilised: BTreeSet<UnitId>,
    pub landed: BTreeSet<UnitId>,
    /// Unit → zone it must retreat from (resolved after step 3.10).
    pub retreat: BTreeMap<UnitId, ZoneCode>,
    pub retreated: BTreeSet<UnitId>,
    pub came_from: BTreeMap<UnitId, ZoneCode>,
    /// CAP aircraft → patrol zone.
    pub caps: BTreeMap<UnitId, ZoneCode>,
    /// Aircraft flying a TRSF: A and D halved in any engagement (S l.405).
    pub trsf: BTreeSet<UnitId>,
    pub acm_used: BTreeSet<UnitId>,
    pub abm_sat_used: BTreeSet<UnitId>,
    pub ecm_used: BTreeSet<UnitId>,
    pub recon: BTreeSet<(NationCode, ZoneCode)>,
    /// (nation, zone, label, phase) snapshots to report.
    pub snapshots: Vec<(NationCode, ZoneCode, String)>,
    /// RC successes: second snapshot at end of phase 4.
    pub rc_second: Vec<(NationCode, ZoneCode)>,
    /// Space RECN: second snapshot in 4.6.
    pub space_recn: Vec<(NationCode, ZoneCode)>,
    /// Land/naval RECN: snapshot in 4.8.
    pub land_recn: Vec<(NationCode, ZoneCode)>,
    pub sc_hit: BTreeSet<ZoneCode>,
    /// Zones hit by an AI crisis: they act after the SC-hit zones (S l.685).
    pub crisis: BTreeSet<ZoneCode>,
    /// Infantry carried by land vehicles this turn (ARM protection, landing).
    pub carried: BTreeSet<UnitId>,
    pub invaded: BTreeSet<ZoneCode>,
    pub st_halved: BTreeMap<NationCode, BTreeSet<Field>>,
    pub civil_fac: BTreeMap<NationCode, u32>,
    pub income: BTreeMap<NationCode, i64>,
    pub neutralised: BTreeSet<UnitId>,
    pub assault_halved: BTreeSet<UnitId>,
    pub taco_units: BTreeSet<UnitId>,
    /// Units unable to retreat: settled at 4.3 (true = captured).
    pub no_retreat: BTreeMap<UnitId, bool>,
    pub status_before: BTreeMap<ZoneCode, Status>,
    pub infantry_killed: BTreeMap<ZoneCode, u32>,
    /// Pairs whose cease-fire or alliance break forces demobilisation (1.2).
    pub demob_pairs: Vec<(NationCode, NationCode)>,
    /// Zones attacked this turn (defensive bombardment, TACD).
    pub attacked: BTreeSet<ZoneCode>,
    /// Units that fought or moved into each zone this turn, for reports.
    /// AID sent so far per (sending nation, zone): each nation's cap counts
    /// only its own lines (§7.2.2, D-9).
    pub aid_used: BTreeMap<(NationCode, ZoneCode), i64>,
    /// Units each order line has taken (with the army each belonged to), so
    /// that an order without effect gives them back (§3.7).
    pub claims: BTreeMap<(NationCode, usize), Vec<Claim>>,
    /// Order lines that failed after acting: their units stay used up.
    pub spent: BTreeSet<(NationCode, usize)>,
    /// Factories / engineers already busy this turn, per (nation, zone).
    pub fac_used: BTreeMap<(NationCode, ZoneCode), usize>,
    pub eng_used: BTreeMap<(NationCode, ZoneCode), usize>,
}

impl Scratch {
    pub fn set(&mut self, it: &Item, res: impl Into<String>) {
        self.results
            .entry((it.nation.clone(), it.line))
            .or_insert_with(|| res.into());
    }
    /// The order fails without effect: the units it took are free again for
    /// a later order (§3.7: an order without effect uses nothing up).
    pub fn fail(&mut self, it: &Item, why: impl std::fmt::Display) {
        self.release(it);
        self.set(it, format!("FAILED : {why}"));
    }
    /// The order acted (dice were rolled, units stopped or lost) but achieved
    /// nothing: it fails and its units stay used up.
    pub fn spent(&mut self, it: &Item, why: impl std::fmt::Display) {
        self.spent.insert((it.nation.clone(), it.line));
        self.set(it, format!("FAILED : {why}"));
    }
    /// Unit `id` is taken by order `it` (it acts no more this turn unless
    /// `it` fails without effect).
    pub fn claim(&mut self, it: &Item, id: UnitId, army: Option<String>) {
        if self.ordered.insert(id) {
            self.claims
                .entry((it.nation.clone(), it.line))
                .or_default()
                .push((id, army));
        }
    }
    /// Give back the units order `it` took; returns them with their former army.
    pub fn release(&mut self, it: &Item) -> Vec<Claim> {
        let back = self
            .claims
            .remove(&(it.nation.clone(), it.line))
            .unwrap_or_default();
        for (id, _) in &back {
            self.ordered.remove(id);
        }
        back
    }
    pub fn ok(&mut self, it: &Item) {
        self.set(it, "OK");
    }
    pub fn nation_rank(&self, n: &str) -> usize {
        self.nation_order
            .iter()
            .position(|x| x == n)
            .unwrap_or(usize::MAX)
    }
}

/// Order `it` fails without effect: its units are free again and those it
/// took out of an army go back to it (§3.7). Every military order fails
/// through here, so the rule holds for every order kind at once.
pub fn fail(ctx: &mut Ctx, it: &Item, why: impl std::fmt::Display) {
    for (id, army) in ctx.scratch.release(it) {
        if let Some(u) = ctx.state.unit_mut(id) {
            if army.is_some() {
                u.army = army;
            }
        }
    }
    ctx.scratch.set(it, format!("FAILED : {why}"));
}

pub fn ev(ctx: &mut Ctx, to: Vis, sec: Sec, text: impl Into<String>) {
    ctx.events.push(Event {
        to,
        sec,
        text: text.into(),
    });
}

pub fn to_nation(n: &str) -> Vis {
    Vis::Nation(n.to_string())
}

/// Orders matching `f`, in activation order (§4): AI capitals first, then by
/// nation initiative and zone code; SC-hit zones last, AI-crisis zones after
/// them; file order within a zone.
pub fn activation(s: &Scratch, st: &State, f: impl Fn(&Order) -> bool) -> Vec<Item> {
    let mut v: Vec<&Item> = s
        .items
        .iter()
        .filter(|i| !s.deleted.contains(&(i.nation.clone(), i.line)) && f(&i.order))
        .collect();
    v.sort_by_key(|i| {
        let z = i.order.zone().unwrap_or("").to_string();
        let ai_cap =
            st.nations.get(&i.nation).is_some_and(|n| n.options.ai) && st.is_capital(&i.nation, &z);
        (
            s.crisis.contains(&z),
            s.sc_hit.contains(&z),
            !ai_cap,
            s.nation_rank(&i.nation),
            z,
            i.line,
        )
    });
    v.into_iter().cloned().collect()
}

pub fn phases() -> Vec<Phase<Wwk>> {
    use crate::{admin, control, economy, intake, intel, military};
    // Each step names itself in the roll log before it runs.
    macro_rules! p {
        ($k:expr, $f:path) => {
            Phase {
                key: $k,
                run: |ctx| {
                    ctx.scratch.log.step = $k;
                    $f(ctx)
                },
            }
        };
    }
    vec![
        p!("0.1", intake::intake),
        p!("0.2", intake::ai_crisis),
        p!("0.3", intake::initiative),
        p!("1.1", admin::diplomacy),
        p!("1.2", admin::forced_demob),
        p!("1.3", admin::ce_upgrade),
        p!("1.4", admin::demob),
        p!("1.5", admin::xfer),
        p!("1.6", admin::aid),
        p!("1.7", admin::exch),
        p!("1.8", admin::market),
        p!("2.1", intel::space_recn),
        p!("2.2", intel::espionage),
        p!("2.3", intel::snapshots_p2),
        p!("3.1", military::armies),
        p!("3.2", military::caps),
        p!("3.3", military::space),
        p!("3.4", military::sat_ground),
        p!("3.5", military::missiles),
        p!("3.6", military::air),
        p!("3.7", military::cap_recall),
        p!("3.8", military::hmov),
        p!("3.9", military::movement),
        p!("3.10", crate::combat::combat),
        p!("3.11", military::return_to_base),
        p!("4.1", control::guerrilla),
        p!("4.2", control::control),
        p!("4.3", control::control_effects),
        p!("4.4", control::forced_retreat),
        p!("4.5", control::neutrals),
        p!("4.6", control::space_recn2),
        p!("4.7", control::smov),
        p!("4.8", control::recon_end),
        p!("5.1", economy::limits),
        p!("5.2", economy::repairs),
        p!("5.3", economy::bases),
        p!("5.4", economy::production),
        p!("5.5", economy::capitals),
        p!("5.6", economy::accumulation),
        p!("5.7", economy::maintenance),
        p!("5.8", economy::research),
        p!("5.9", economy::milestones),
        p!("5.10", economy::timers),
        p!("5.11", economy::victory),
        p!("5.12", economy::echo),
    ]
}
