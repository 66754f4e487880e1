//! What the order parser looks up of the territories (and whether the
//! sender is still in the game), found once per state
//! (issue 21, [`arbitre_core::Ruleset::parse_index`]).
//!
//! A `MOVE` names two territories; read from the world's and the state's
//! `BTreeMap<TerrId, _>`, each was three or four searches of ten string
//! compares (a fifth of a parse in `memcmp`). [`Index`] holds, per
//! territory, what the checks read (terrain, neighbours, the territory's
//! state at receipt), found by its id with one hash of the upper-cased
//! code. The turn's parse and a loaded game's checks build it once for the
//! state; a lone block reads the state's maps as before, and both give the
//! same verdicts (`grammar_differential_parse_index_same_verdicts`).

use crate::state::{State, TerrState};
use crate::world::{TerrId, Terrain};
use arbitre_core::PlayerId;
use rustc_hash::{FxHashMap, FxHashSet};

/// One territory of the world, in id order.
#[derive(Debug)]
pub(crate) struct Row {
    pub id: TerrId,
    pub terrain: Terrain,
    /// Rows of the neighbours, ascending. A neighbour the world does not
    /// hold (never in a checked world) is left out: no territory found by
    /// a lookup can be it.
    neighbours: Vec<u32>,
    /// The territory's state at receipt; `None` when the state lacks it
    /// (the parser then asks the state, as a lone block does).
    pub state: Option<TerrState>,
}

/// Every territory's [`Row`], and the row of each id.
#[derive(Debug, Default)]
pub struct Index {
    /// Keyed by the id packed into 16 bytes ([`key`]): one multiply to
    /// hash, one compare to match, where a string key cost a byte-wise
    /// hash and a `memcmp`.
    by_id: FxHashMap<u128, u32>,
    rows: Vec<Row>,
    /// The players still in the game: each block's sender is asked, and the
    /// state's `BTreeMap` of 100 players took a dozen string compares.
    active: FxHashSet<PlayerId>,
}

/// `input` upper-cased and packed into a number (NUL-padded), when it can
/// be an id: ids are at most 16 ASCII characters (`world.rs`); an input
/// holding a NUL is none (NUL is the padding), so two inputs pack alike
/// only when they are equal once upper-cased.
fn key(input: &str) -> Option<u128> {
    if input.len() > 16 {
        return None;
    }
    // Built in a register: bytes stored one by one into a buffer read back
    // as one number stalled the load (store forwarding fails), a quarter of
    // the lookup's samples.
    let mut k = 0u128;
    for (i, &b) in input.as_bytes().iter().enumerate() {
        if b == 0 {
            return None;
        }
        k |= u128::from(b.to_ascii_uppercase()) << (8 * i);
    }
    Some(k)
}

impl Index {
    /// `None` for a world with an id that does not fit a key (longer than
    /// 16 bytes, holding a NUL or a lower-case letter: no world file allows
    /// one): the parser then reads the state's maps.
    pub fn build(st: &State) -> Option<Index> {
        let n = st.world.territories.len();
        let mut by_id = FxHashMap::with_capacity_and_hasher(n, Default::default());
        for (i, id) in st.world.territories.keys().enumerate() {
            // World ids are upper case; one that is not (a state from
            // elsewhere) is never found by the upper-cased input.
            if id.as_str().bytes().any(|b| b.is_ascii_lowercase()) {
                return None;
            }
            by_id.insert(key(id.as_str())?, i as u32);
        }
        let rows = st
            .world
            .territories
            .values()
            .map(|t| {
                let mut neighbours: Vec<u32> = t
                    .neighbours
                    .iter()
                    .filter_map(|n| by_id.get(&key(n.as_str())?).copied())
                    .collect();
                neighbours.sort_unstable();
                Row {
                    id: t.id.clone(),
                    terrain: t.terrain,
                    neighbours,
                    state: st.territories.get(&t.id).cloned(),
                }
            })
            .collect();
        let active = st
            .players
            .iter()
            .filter(|(_, p)| p.active())
            .map(|(id, _)| id.clone())
            .collect();
        Some(Index {
            by_id,
            rows,
            active,
        })
    }

    /// The row of the territory whose id is `input`, ASCII case ignored
    /// (stage 1 of §6.3, as [`crate::world::World::find`] reads it).
    pub(crate) fn by_id(&self, input: &str) -> Option<u32> {
        self.by_id.get(&key(input)?).copied()
    }

    /// [`Index::by_id`] of an id already packed as [`key`] packs it (an
    /// upper-case id of ASCII letters and digits, `crate::fast_path`).
    pub(crate) fn by_key(&self, k: u128) -> Option<u32> {
        self.by_id.get(&k).copied()
    }

    pub(crate) fn row(&self, i: u32) -> &Row {
        &self.rows[i as usize]
    }

    /// `p` is a player still in the game.
    pub(crate) fn active(&self, p: &PlayerId) -> bool {
        self.active.contains(p)
    }

    /// `b` is a neighbour of `a`.
    pub(crate) fn adjacent(&self, a: u32, b: u32) -> bool {
        self.row(a).neighbours.binary_search(&b).is_ok()
    }
}
