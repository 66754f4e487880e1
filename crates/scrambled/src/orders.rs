//! The orders of the rulebook ("Ordres"), one enum variant per order (spec §6.4).

use crate::state::Mark;
use crate::world::TerrId;
use arbitre_core::PlayerId;

/// A quantity of troops or money: a number, or `ALL` (whatever is available
/// when the order runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qty {
    N(u64),
    All,
}

impl Qty {
    /// The amount actually used given what is available (automatic correction, §5.1).
    pub fn take(self, available: u64) -> u64 {
        match self {
            Qty::N(n) => n.min(available),
            Qty::All => available,
        }
    }
    pub fn asked(self) -> Option<u64> {
        match self {
            Qty::N(n) => Some(n),
            Qty::All => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Player(PlayerId),
    All,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    Quit,
    Ready,
    GiveTroops {
        qty: Qty,
        terr: TerrId,
        to: PlayerId,
    },
    Move {
        qty: Qty,
        from: TerrId,
        to: TerrId,
    },
    Path {
        qty: Qty,
        from: TerrId,
        to: TerrId,
        avoid: bool,
    },
    GiveTerritory {
        terr: TerrId,
        to: PlayerId,
    },
    Abandon {
        terr: TerrId,
    },
    Tribute {
        qty: Qty,
        to: PlayerId,
    },
    Capital {
        terr: TerrId,
    },
    Diplomacy {
        target: Target,
        mark: Mark,
    },
    CancelChain {
        chain: u32,
        step: Option<usize>,
    },
    CancelCapital,
}
