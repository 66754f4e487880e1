//! The game state (spec section 2) and the per-turn bookkeeping (2.9).
//!
//! The per-turn bookkeeping lives *in* the state (`NebState::log`) rather than
//! in the core's per-turn scratch: a report must be renderable again from a
//! stored state alone (the daemon re-sends reports), and the marks, traces and
//! deaths of the last turn are part of that report.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A world number as shown in reports and used in orders.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct WorldId(pub u32);

/// A fleet number as shown in reports and used in orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FleetId(pub u32);

impl fmt::Display for WorldId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "M_{}", self.0)
    }
}
impl fmt::Display for FleetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "F_{}", self.0)
    }
}

/// A player slot: 0 for the first player of the game's TOML, 1 for the second.
pub type Slot = usize;

/// Who owns a world or a fleet: `None` is the neutral player (2.8).
pub type Owner = Option<Slot>;

/// The three technologies of Nébulight (2.7). RAD is implicitly at maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Tech {
    Dep,
    Att,
    Def,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TechLevel {
    pub level: u32,
    pub progress: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The handle of the game's TOML (`maxtor`).
    pub id: String,
    /// The name shown in reports between quotes ("Maxtor").
    pub name: String,
    pub dep: TechLevel,
    pub att: TechLevel,
    pub def: TechLevel,
    pub score_total: i64,
    /// Worlds shown in full in one of this player's reports so far (9.13).
    pub discovered: BTreeSet<WorldId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct World {
    pub links: Vec<WorldId>,
    #[serde(default)]
    pub is_start: bool,
    #[serde(default)]
    pub black_hole: bool,
    #[serde(default)]
    pub coords: Option<(i64, i64)>,
    pub owner: Owner,
    pub counter: u32,
    pub industries: u32,
    pub vi: u32,
    pub population: u32,
    pub limit: u32,
    pub vp: u32,
    pub mp: u32,
    pub cm: u32,
    /// UP available this turn (computed in phase 14 of the previous turn),
    /// the `a` of `I=a/b`.
    pub up: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Fleet {
    pub world: WorldId,
    pub owner: Owner,
    pub vc: u32,
    pub cargo_mp: u32,
    pub cargo_n: u32,
}

impl Fleet {
    pub fn free_holds(&self) -> u32 {
        self.vc.saturating_sub(self.cargo_mp + self.cargo_n)
    }
}

/// A fire mark (9.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mark {
    Fleet(FleetId),
    M,
    P,
    I,
    N,
    Ambush,
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mark::Fleet(g) => write!(f, "*{g}"),
            Mark::M => f.write_str("*M"),
            Mark::P => f.write_str("*P"),
            Mark::I => f.write_str("*I"),
            Mark::N => f.write_str("*N"),
            Mark::Ambush => f.write_str("**"),
        }
    }
}

/// A movement trace left on a world (9.11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    pub fleet: FleetId,
    pub owner: Slot,
    /// `None` for a departure, `Some(prev)` when passing through.
    pub from: Option<WorldId>,
    pub to: WorldId,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WorldLog {
    pub owner_start: Owner,
    pub acquired: bool,
    pub deaths: u32,
    pub employed: u32,
    /// UP still available during the turn (spent one by one).
    pub up_left: u32,
    pub vi_mark: Option<Mark>,
    pub vp_mark: Option<Mark>,
    pub traces: Vec<Trace>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FleetLog {
    pub owner_start: Owner,
    pub world_start: WorldId,
    pub acquired: bool,
    pub mark: Option<Mark>,
    pub arrived_from: Option<WorldId>,
}

/// One line of the "Ordres non exécutés" section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejection {
    pub line: usize,
    pub text: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlayerLog {
    /// Worlds seen this turn through probes, emigration, unloading or movement
    /// (visibility rules 5 to 7 of 9.13).
    pub seen: BTreeSet<WorldId>,
    pub kills: u32,
    pub points: i64,
    pub rejections: Vec<Rejection>,
}

/// What happened during the last resolved turn, for its reports.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TurnLog {
    pub worlds: BTreeMap<WorldId, WorldLog>,
    pub fleets: BTreeMap<FleetId, FleetLog>,
    pub players: Vec<PlayerLog>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    pub hide_foreign_cargo: bool,
    pub enforce_known_worlds: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hide_foreign_cargo: true,
            enforce_known_worlds: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NebState {
    pub game: String,
    pub turn: u32,
    pub max_turns: u32,
    pub options: Options,
    pub players: Vec<Player>,
    pub worlds: BTreeMap<WorldId, World>,
    pub fleets: BTreeMap<FleetId, Fleet>,
    pub log: TurnLog,
}

impl NebState {
    pub fn slot_of(&self, id: &str) -> Option<Slot> {
        self.players.iter().position(|p| p.id == id)
    }

    pub fn tech(&self, slot: Slot, t: Tech) -> &TechLevel {
        let p = &self.players[slot];
        match t {
            Tech::Dep => &p.dep,
            Tech::Att => &p.att,
            Tech::Def => &p.def,
        }
    }

    pub fn tech_mut(&mut self, slot: Slot, t: Tech) -> &mut TechLevel {
        let p = &mut self.players[slot];
        match t {
            Tech::Dep => &mut p.dep,
            Tech::Att => &mut p.att,
            Tech::Def => &mut p.def,
        }
    }

    pub fn wlog(&mut self, w: WorldId) -> &mut WorldLog {
        self.log.worlds.entry(w).or_default()
    }

    pub fn flog(&mut self, f: FleetId) -> &mut FleetLog {
        self.log.fleets.entry(f).or_default()
    }

    pub fn plog(&mut self, slot: Slot) -> &mut PlayerLog {
        while self.log.players.len() <= slot {
            self.log.players.push(PlayerLog::default());
        }
        &mut self.log.players[slot]
    }

    pub fn reject(&mut self, slot: Slot, line: usize, text: &str, reason: impl Into<String>) {
        self.plog(slot).rejections.push(Rejection {
            line,
            text: text.to_string(),
            reason: reason.into(),
        });
    }

    /// A world whose population reached 0 belongs to nobody, at once, with
    /// its VI/VP (2.10 invariant 1, 6.3).
    pub fn neutralise_if_empty(&mut self, w: WorldId) {
        if let Some(world) = self.worlds.get_mut(&w) {
            if world.population == 0 && world.owner.is_some() {
                world.owner = None;
                world.counter = 0;
            }
        }
    }

    /// The cargo check of 4.9: MP are lost before populations.
    pub fn cargo_check(&mut self, f: FleetId) {
        if let Some(fl) = self.fleets.get_mut(&f) {
            let load = fl.cargo_mp + fl.cargo_n;
            if load > fl.vc {
                let excess = load - fl.vc;
                let lost_mp = excess.min(fl.cargo_mp);
                fl.cargo_mp -= lost_mp;
                fl.cargo_n -= excess - lost_mp;
            }
        }
    }

    /// Spend one UP of world `w` (7.3): 1 MP used, one population employed.
    pub fn spend_up(&mut self, w: WorldId, n: u32) {
        if let Some(world) = self.worlds.get_mut(&w) {
            world.mp = world.mp.saturating_sub(n);
        }
        let l = self.wlog(w);
        l.up_left = l.up_left.saturating_sub(n);
        l.employed += n;
    }

    pub fn up_left(&self, w: WorldId) -> u32 {
        self.log.worlds.get(&w).map(|l| l.up_left).unwrap_or(0)
    }

    pub fn owns_world(&self, slot: Slot, w: WorldId) -> bool {
        self.worlds
            .get(&w)
            .is_some_and(|x| x.owner == Some(slot) && !x.black_hole)
    }

    pub fn owns_fleet(&self, slot: Slot, f: FleetId) -> bool {
        self.fleets.get(&f).is_some_and(|x| x.owner == Some(slot))
    }

    pub fn linked(&self, from: WorldId, to: WorldId) -> bool {
        self.worlds
            .get(&from)
            .is_some_and(|w| w.links.contains(&to))
    }

    /// `known(X)` of 9.13: discovered worlds and every world linked from a
    /// discovered world that is not a black hole.
    pub fn known(&self, slot: Slot) -> BTreeSet<WorldId> {
        let mut out = BTreeSet::new();
        for w in &self.players[slot].discovered {
            out.insert(*w);
            if let Some(world) = self.worlds.get(w) {
                if !world.black_hole {
                    out.extend(world.links.iter().copied());
                }
            }
        }
        out
    }

    pub fn name_of(&self, owner: Owner) -> &str {
        match owner {
            Some(s) => &self.players[s].name,
            None => "",
        }
    }
}

/// The invariants of spec 2.10, checked after the phases that can break them
/// (debug builds only: a violation is a referee bug, never a player's fault).
pub fn debug_invariants(s: &NebState) {
    if !cfg!(debug_assertions) {
        return;
    }
    for (id, w) in &s.worlds {
        debug_assert!(
            w.population > 0 || w.owner.is_none(),
            "{id}: P = 0 but owned"
        );
        debug_assert!(w.cm <= 10, "{id}: CM {}", w.cm);
        debug_assert!(
            w.owner.is_some() || w.counter == 0,
            "{id}: neutral with counter"
        );
        debug_assert!(!w.black_hole || w.owner.is_none(), "{id}: owned black hole");
    }
    for (id, f) in &s.fleets {
        debug_assert!(f.cargo_mp + f.cargo_n <= f.vc, "{id}: cargo above VC");
        debug_assert!(
            s.worlds.get(&f.world).is_some_and(|w| !w.black_hole),
            "{id}: on a black hole"
        );
    }
    for p in &s.players {
        for (t, tl) in [
            (Tech::Dep, &p.dep),
            (Tech::Att, &p.att),
            (Tech::Def, &p.def),
        ] {
            debug_assert!(
                (crate::tech::initial(t)..=crate::tech::max(t)).contains(&tl.level),
                "{}: {t:?} level {}",
                p.name,
                tl.level
            );
        }
    }
}
