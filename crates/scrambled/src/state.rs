//! The game state between two resolutions (spec §2.2–§2.3).
//!
//! Everything is in `BTreeMap`s so that the JSON the store keeps and every
//! report iteration are deterministic. The world travels inside the state.
//! The log of the last resolution is kept here too, so a report sent again
//! from a stored state is byte-identical to the first one.

use crate::events::Event;
use crate::params::Params;
use crate::world::{TerrId, Territory, World};
use arbitre_core::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A one-way diplomatic mark (§1.1): only its holder changes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Ally,
    Enemy,
}

impl Mark {
    pub fn french(self) -> &'static str {
        match self {
            Mark::Ally => "ALLIÉ",
            Mark::Enemy => "ENNEMI",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "status", content = "turn")]
pub enum Status {
    Active,
    Quit(u32),
    Eliminated(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub status: Status,
    pub start_territory: TerrId,
    pub capital: Option<TerrId>,
    /// (target, resolution at whose R10 the move completes).
    pub pending_capital: Option<(TerrId, u32)>,
    /// Marks this player holds toward the others; a missing entry means Ally.
    #[serde(default)]
    pub marks: BTreeMap<PlayerId, Mark>,
}

impl Player {
    pub fn active(&self) -> bool {
        self.status == Status::Active
    }
    pub fn mark(&self, other: &PlayerId) -> Mark {
        self.marks.get(other).copied().unwrap_or(Mark::Ally)
    }
}

/// The changing part of one territory.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrState {
    pub owner: Option<PlayerId>,
    pub economy: u32,
    pub conflict: bool,
    pub contested: bool,
    pub suppression: u32,
    pub troops: BTreeMap<PlayerId, u64>,
    /// Supremacy of each player present, from the final counts (§3.5.4).
    #[serde(default)]
    pub supremacy: BTreeMap<PlayerId, bool>,
}

impl TerrState {
    pub fn troops_of(&self, p: &PlayerId) -> u64 {
        self.troops.get(p).copied().unwrap_or(0)
    }
    pub fn total(&self) -> u64 {
        self.troops.values().sum()
    }
    /// Adds (or removes, never below zero) troops; empty stacks vanish.
    pub fn add(&mut self, p: &PlayerId, n: u64) {
        if n > 0 {
            *self.troops.entry(p.clone()).or_default() += n;
        }
    }
    pub fn remove(&mut self, p: &PlayerId, n: u64) -> u64 {
        let have = self.troops_of(p);
        let gone = n.min(have);
        if have - gone == 0 {
            self.troops.remove(p);
        } else {
            self.troops.insert(p.clone(), have - gone);
        }
        gone
    }
}

/// A planned multi-turn move (§3.4.3): steps `route[i] → route[i+1]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    pub number: u32,
    pub player: PlayerId,
    pub route: Vec<TerrId>,
    /// Index of the next step to carry out (0-based: step number `next + 1`).
    pub next: usize,
    /// Troops planned for the next step; `None` = ALL.
    pub planned: Option<u64>,
}

impl Chain {
    pub fn done(&self) -> bool {
        self.next + 1 >= self.route.len()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub game_id: String,
    pub turn: u32,
    pub params: Params,
    pub world: World,
    /// Bureaucracy quota, fixed at the start (§2.6, D21).
    pub quota: u32,
    pub players: BTreeMap<PlayerId, Player>,
    pub territories: BTreeMap<TerrId, TerrState>,
    pub chains: Vec<Chain>,
    pub next_chain: u32,
    /// What happened during the last resolution (for reports).
    #[serde(default)]
    pub log: Vec<Event>,
    /// True once the game is over (turn limit or nobody left).
    #[serde(default)]
    pub over: bool,
    /// Map coordinates for the SVG map, computed once at setup.
    #[serde(default)]
    pub layout: BTreeMap<TerrId, (i64, i64)>,
    /// The borders of the SVG map, drawn once and shared by every report of
    /// the state (they depend only on the world and `layout`, which setup
    /// fixes); never stored.
    #[serde(skip)]
    pub(crate) map_borders: Cache<String>,
}

/// A value derived from the rest of the state, kept only in memory: two
/// states are equal whether or not either has computed it.
#[derive(Clone, Default)]
pub(crate) struct Cache<T>(pub(crate) std::sync::OnceLock<T>);

impl<T> PartialEq for Cache<T> {
    fn eq(&self, _: &Cache<T>) -> bool {
        true
    }
}

impl<T> std::fmt::Debug for Cache<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cache")
    }
}

impl State {
    pub fn terr(&self, t: &TerrId) -> &TerrState {
        &self.territories[t]
    }

    pub fn terr_mut(&mut self, t: &TerrId) -> &mut TerrState {
        self.territories.get_mut(t).expect("territory of the world")
    }

    pub fn owner(&self, t: &TerrId) -> Option<&PlayerId> {
        self.territories.get(t).and_then(|s| s.owner.as_ref())
    }

    /// `mark[a][b]`.
    pub fn mark(&self, a: &PlayerId, b: &PlayerId) -> Mark {
        self.players.get(a).map(|p| p.mark(b)).unwrap_or(Mark::Ally)
    }

    pub fn hostile(&self, a: &PlayerId, b: &PlayerId) -> bool {
        a != b && (self.mark(a, b) == Mark::Enemy || self.mark(b, a) == Mark::Enemy)
    }

    pub fn active_players(&self) -> Vec<PlayerId> {
        self.players
            .values()
            .filter(|p| p.active())
            .map(|p| p.id.clone())
            .collect()
    }

    /// Every territory of the world with its state, in id order: the two
    /// maps are walked side by side (they hold the same ids) instead of a
    /// search per territory; a search is the fallback should they differ.
    pub fn rows(&self) -> impl Iterator<Item = (&TerrId, &Territory, &TerrState)> {
        let mut st = self.territories.iter();
        self.world.territories.iter().map(move |(id, terr)| {
            let ts = match st.next() {
                Some((k, v)) if k == id => v,
                _ => self.terr(id),
            };
            (id, terr, ts)
        })
    }

    pub fn owned_by(&self, p: &PlayerId) -> Vec<TerrId> {
        self.territories
            .iter()
            .filter(|(_, s)| s.owner.as_ref() == Some(p))
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// Territories held and their area, for every owner, in one pass over the
    /// map (the standings of every report; a per-player scan made them
    /// O(players × territories) for each report).
    pub fn holdings(&self) -> BTreeMap<&PlayerId, (usize, u64)> {
        let mut h: BTreeMap<&PlayerId, (usize, u64)> = BTreeMap::new();
        for (t, s) in &self.territories {
            if let Some(o) = &s.owner {
                let e = h.entry(o).or_default();
                e.0 += 1;
                e.1 += self.world.area(t);
            }
        }
        h
    }

    pub fn area_owned(&self, p: &PlayerId) -> u64 {
        self.owned_by(p).iter().map(|t| self.world.area(t)).sum()
    }

    pub fn troops_total(&self, p: &PlayerId) -> u64 {
        self.territories.values().map(|s| s.troops_of(p)).sum()
    }

    pub fn player_name(&self, p: &PlayerId) -> String {
        self.players
            .get(p)
            .map(|x| x.name.clone())
            .unwrap_or_else(|| p.0.clone())
    }

    /// [`State::player_name`] without the copy.
    pub fn player_name_str<'a>(&'a self, p: &'a PlayerId) -> &'a str {
        self.players
            .get(p)
            .map(|x| x.name.as_str())
            .unwrap_or(p.0.as_str())
    }

    /// "Lorraine (LOR)".
    pub fn tname(&self, t: &TerrId) -> String {
        format!("{} ({})", self.world.name(t), t)
    }

    /// Players whose names are taken as capitals, for the CAP flag.
    pub fn capitals(&self) -> BTreeSet<TerrId> {
        self.players
            .values()
            .filter(|p| p.active())
            .filter_map(|p| p.capital.clone())
            .collect()
    }
}
