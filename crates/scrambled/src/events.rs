//! What happened during a resolution, as data: the reports are rendered from
//! these events (kept in the state as the log of the last resolution).

use crate::world::TerrId;
use arbitre_core::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderStatus {
    Ok,
    /// Automatic correction (§5.1): carried out for less than asked.
    Fixed,
    Failed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    pub attacker: PlayerId,
    pub target: PlayerId,
    pub hits: u64,
    pub surprise: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncomeLine {
    pub terr: TerrId,
    pub capital: bool,
    pub base: u64,
    pub economy: u32,
    pub corruption: u32,
    pub suppression: u32,
    pub income: u64,
}

/// A player's budget for the turn (§3.8–§3.10), every figure of the report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    pub lines: Vec<IncomeLine>,
    pub gross: u64,
    pub territories: u32,
    pub bp: u32,
    pub net: u64,
    pub sent: u64,
    pub received: u64,
    pub available: u64,
    pub home: u64,
    pub away: u64,
    pub upkeep: u64,
    pub budget: i64,
    pub recruits: u64,
    pub recruit_at: Option<TerrId>,
    pub lost: u64,
    pub deserted: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// One order line (or standing path step) and what became of it.
    OrderResult {
        player: PlayerId,
        text: String,
        status: OrderStatus,
        detail: String,
    },
    Quit {
        player: PlayerId,
    },
    TroopsGiven {
        terr: TerrId,
        from: PlayerId,
        to: PlayerId,
        count: u64,
    },
    Moved {
        player: PlayerId,
        from: TerrId,
        to: TerrId,
        count: u64,
    },
    Battle {
        terr: TerrId,
        before: BTreeMap<PlayerId, u64>,
        hits: Vec<Hit>,
        after: BTreeMap<PlayerId, u64>,
    },
    Surprise {
        victim: PlayerId,
        attacker: PlayerId,
        terr: TerrId,
    },
    WipedOut {
        player: PlayerId,
        terr: TerrId,
    },
    Captured {
        terr: TerrId,
        from: Option<PlayerId>,
        to: PlayerId,
        after_desertion: bool,
    },
    CapitalLost {
        player: PlayerId,
        terr: TerrId,
    },
    TerritoryGiven {
        terr: TerrId,
        from: PlayerId,
        to: PlayerId,
    },
    Abandoned {
        terr: TerrId,
        player: PlayerId,
    },
    Tribute {
        from: PlayerId,
        to: PlayerId,
        amount: u64,
    },
    Economy {
        player: PlayerId,
        budget: Budget,
    },
    Deserted {
        player: PlayerId,
        terr: TerrId,
        count: u64,
    },
    Recruited {
        player: PlayerId,
        terr: TerrId,
        count: u64,
    },
    NoCapital {
        player: PlayerId,
    },
    CapitalPending {
        player: PlayerId,
        terr: TerrId,
        due: u32,
    },
    CapitalMoved {
        player: PlayerId,
        terr: TerrId,
    },
    CapitalMoveCancelled {
        player: PlayerId,
        terr: TerrId,
    },
    ChainCancelled {
        player: PlayerId,
        chain: u32,
        from_step: usize,
        why: String,
    },
    Eliminated {
        player: PlayerId,
    },
    /// The vision set of §4.1 for this resolution.
    Vision {
        player: PlayerId,
        terrs: BTreeSet<TerrId>,
    },
    GameOver,
}
