//! The orders of the rulebook's Annexe I (spec 3.2, 3.3) as a typed enum.

use crate::model::{FleetId, Tech, WorldId};

/// A protection-ship group of a world: VI or VP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    Vi,
    Vp,
}

/// What `M_m C x ...` builds or pays for (phases 3, 4, 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    Vc(FleetId),
    Vi,
    Vp,
    Research(Tech),
    /// `M_m C x P`: raise the population limit (phase 4).
    Limit,
    /// `M_m C x I`: industries at 4 UP each (phase 6).
    Industry,
}

/// Cargo kind of loads and unloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cargo {
    Mp,
    N,
}

/// Source of a transfer (phase 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Container {
    Group(WorldId, Group),
    Fleet(FleetId),
}

/// Destination of a transfer: a group of the source's world, or a fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Group(Group),
    Fleet(FleetId),
}

/// Who fires (a firing point, 3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shooter {
    Fleet(FleetId),
    Group(WorldId, Group),
}

/// What is fired at (5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Fleet(FleetId),
    /// `*M`: the world's VI and VP together.
    M,
    /// `*P`: VP first, then populations.
    P,
    /// `*I`: VI first, then industries.
    I,
    /// `VP M_m * N`: the VP execute the world's populations.
    N,
}

/// A move's worlds, inline up to the length nearly every move has: a
/// `Vec` was an allocation per move besides the line's own (issue 21
/// item 2).
pub type Path = smallvec::SmallVec<[WorldId; 6]>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Phase 2: `VI M_m S M_n`, `VP M_m S M_n`, `F_f S M_m`.
    Probe { from: Container, target: WorldId },
    /// Phases 3, 4, 6: `M_m C x ...`.
    Build {
        world: WorldId,
        qty: u32,
        what: Build,
    },
    /// Phase 5: `M_a E x N M_b`.
    Emigrate {
        from: WorldId,
        qty: u32,
        to: WorldId,
    },
    /// Phase 7: `VI M_m C x I`.
    Convert { world: WorldId, qty: u32 },
    /// Phases 5 (N) and 8 (MP): `F_f D (x) MP|N`.
    Unload {
        fleet: FleetId,
        qty: Option<u32>,
        cargo: Cargo,
    },
    /// Phase 9: `M_m T x ...`, `F_f T x VC ...`.
    Transfer { from: Container, qty: u32, to: Dest },
    /// Phases 10 (MP) and 11 (N): `F_f C (x) MP|N`.
    Load {
        fleet: FleetId,
        qty: Option<u32>,
        cargo: Cargo,
    },
    /// Phase 12, exclusive.
    Fire { shooter: Shooter, target: Target },
    /// Phase 12, exclusive: `F_f MM m n ...` or `F_f M_m M_n ...`.
    Move { fleet: FleetId, path: Path },
    /// A line the parser refused, kept so the turn's report can list it under
    /// "Ordres non exécutés" (the core hands phases only the parsed orders).
    Rejected { reason: String },
}

impl Order {
    /// The phase (rulebook numbering) in which the order executes.
    pub fn phase(&self) -> u8 {
        match self {
            Order::Probe { .. } => 2,
            Order::Build {
                what: Build::Limit, ..
            } => 4,
            Order::Build {
                what: Build::Industry,
                ..
            } => 6,
            Order::Build { .. } => 3,
            Order::Emigrate { .. } => 5,
            Order::Unload {
                cargo: Cargo::N, ..
            } => 5,
            Order::Convert { .. } => 7,
            Order::Unload {
                cargo: Cargo::Mp, ..
            } => 8,
            Order::Transfer { .. } => 9,
            Order::Load {
                cargo: Cargo::Mp, ..
            } => 10,
            Order::Load {
                cargo: Cargo::N, ..
            } => 11,
            Order::Fire { .. } | Order::Move { .. } => 12,
            Order::Rejected { .. } => 0,
        }
    }
}
