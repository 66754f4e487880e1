//! What the order parser looks up of the territories, found once per state
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
use rustc_hash::FxHashMap;

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
    by_id: FxHashMap<Box<str>, u32>,
    rows: Vec<Row>,
}

/// `input` upper-cased on the stack, when it can be an id (ids are at most
/// 16 upper-case ASCII characters, `world.rs`).
fn upper(input: &str, buf: &mut [u8; 16]) -> Option<usize> {
    let up = buf.get_mut(..input.len())?;
    up.copy_from_slice(input.as_bytes());
    up.make_ascii_uppercase();
    Some(input.len())
}

impl Index {
    pub fn build(st: &State) -> Index {
        let n = st.world.territories.len();
        let mut by_id = FxHashMap::with_capacity_and_hasher(n, Default::default());
        for (i, id) in st.world.territories.keys().enumerate() {
            by_id.insert(Box::from(id.as_str()), i as u32);
        }
        let rows = st
            .world
            .territories
            .values()
            .map(|t| {
                let mut neighbours: Vec<u32> = t
                    .neighbours
                    .iter()
                    .filter_map(|n| by_id.get(n.as_str()).copied())
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
        Index { by_id, rows }
    }

    /// The row of the territory whose id is `input`, ASCII case ignored
    /// (stage 1 of §6.3, as [`crate::world::World::find`] reads it).
    pub(crate) fn by_id(&self, input: &str) -> Option<u32> {
        let mut buf = [0u8; 16];
        let n = upper(input, &mut buf)?;
        // Only ASCII bytes changed: still UTF-8.
        let key = std::str::from_utf8(&buf[..n]).ok()?;
        self.by_id.get(key).copied()
    }

    pub(crate) fn row(&self, i: u32) -> &Row {
        &self.rows[i as usize]
    }

    /// `b` is a neighbour of `a`.
    pub(crate) fn adjacent(&self, a: u32, b: u32) -> bool {
        self.row(a).neighbours.binary_search(&b).is_ok()
    }
}
