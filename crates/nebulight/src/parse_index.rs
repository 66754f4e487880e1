//! What the check at receipt ([`crate::receipt`]) reads of the state,
//! found once per state (issue 21): each fleet's owner and world, each
//! world's links and whether it is a black hole.
//!
//! Read from the state, each is a search of a `BTreeMap`: at 10,000 worlds
//! the receipt's searches were a fifth of a parse. The turn's parse and a
//! loaded game's checks build the index once
//! ([`arbitre_core::Ruleset::parse_index`]); a block without one reads the
//! state, with the same verdicts (`tests/parse_index.rs`).

use crate::model::{FleetId, NebState, Owner, WorldId};
// Keys are the state's own numbers, not text of a mail: a fast hash (Fx).
use rustc_hash::FxHashMap as HashMap;

/// The facts of the state the receipt asks for, from the state itself or
/// from an [`Index`] of it.
pub trait Facts {
    /// A fleet's owner and the world it stands on.
    fn fleet(&self, f: FleetId) -> Option<(Owner, WorldId)>;
    /// Whether the world exists.
    fn has_world(&self, w: WorldId) -> bool;
    /// A world's links and whether it is a black hole.
    fn world(&self, w: WorldId) -> Option<(&[WorldId], bool)>;
}

impl Facts for NebState {
    fn fleet(&self, f: FleetId) -> Option<(Owner, WorldId)> {
        self.fleets.get(&f).map(|fl| (fl.owner, fl.world))
    }
    fn has_world(&self, w: WorldId) -> bool {
        self.worlds.contains_key(&w)
    }
    fn world(&self, w: WorldId) -> Option<(&[WorldId], bool)> {
        self.worlds
            .get(&w)
            .map(|x| (x.links.as_slice(), x.black_hole))
    }
}

/// The index of one state.
#[derive(Clone, Debug, Default)]
pub struct Index {
    fleets: HashMap<FleetId, (Owner, WorldId)>,
    /// Where each world's links start in `links`, its end, and whether it
    /// is a black hole.
    worlds: HashMap<WorldId, (u32, u32, bool)>,
    links: Vec<WorldId>,
}

impl Index {
    pub fn build(s: &NebState) -> Index {
        let fleets = s
            .fleets
            .iter()
            .map(|(&f, fl)| (f, (fl.owner, fl.world)))
            .collect();
        let mut links = Vec::new();
        let mut worlds = HashMap::default();
        worlds.reserve(s.worlds.len());
        for (&w, x) in &s.worlds {
            let start = links.len() as u32;
            links.extend_from_slice(&x.links);
            worlds.insert(w, (start, links.len() as u32, x.black_hole));
        }
        Index {
            fleets,
            worlds,
            links,
        }
    }
}

impl Facts for Index {
    fn fleet(&self, f: FleetId) -> Option<(Owner, WorldId)> {
        self.fleets.get(&f).copied()
    }
    fn has_world(&self, w: WorldId) -> bool {
        self.worlds.contains_key(&w)
    }
    fn world(&self, w: WorldId) -> Option<(&[WorldId], bool)> {
        self.worlds
            .get(&w)
            .and_then(|&(a, b, hole)| Some((self.links.get(a as usize..b as usize)?, hole)))
    }
}
