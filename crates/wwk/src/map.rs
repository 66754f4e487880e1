//! The map graph (§2.4, §5.7.1): adjacency, red-line crossings, straits and
//! the "air distance" that replaces the rulebook's ruler (D-46).
//!
//! Distances are breadth-first step counts. Aircraft may not cross mountain
//! zones (D-45); missiles may. Ties between shortest paths go to the
//! lexicographically smallest sequence of zone codes, so paths are stable.

use crate::model::{State, ZoneKind};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Kind of mover, for which links may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Aircraft, helicopters: every zone but mountains.
    Air,
    /// Missiles: every zone.
    Missile,
}

impl State {
    /// Neighbours by plain adjacency plus red-line crossings.
    pub fn neighbours(&self, z: &str) -> Vec<String> {
        if let Some(v) = self.map.neighbours_of(z) {
            return v.to_vec();
        }
        let mut s: BTreeSet<String> = BTreeSet::new();
        if let Some(d) = self.zdef(z) {
            s.extend(d.adjacent.iter().cloned());
        }
        for d in &self.map.zones {
            if d.adjacent.iter().any(|a| a == z) {
                s.insert(d.code.clone());
            }
        }
        for c in &self.map.crossings {
            if c.a == z {
                s.insert(c.b.clone());
            }
            if c.b == z {
                s.insert(c.a.clone());
            }
        }
        s.into_iter().collect()
    }

    #[inline]
    pub fn adjacent(&self, a: &str, b: &str) -> bool {
        if let Some(yes) = self.map.neighbours_include(a, b) {
            return yes;
        }
        self.neighbours(a).iter().any(|n| n == b)
    }

    pub fn is_crossing(&self, a: &str, b: &str) -> bool {
        self.map
            .crossings
            .iter()
            .any(|c| (c.a == a && c.b == b) || (c.a == b && c.b == a))
    }

    pub fn kind(&self, z: &str) -> ZoneKind {
        self.zdef(z).map(|d| d.kind).unwrap_or_default()
    }

    /// Shortest path (inclusive of both ends) under `mode`; ties by smallest codes.
    pub fn path(&self, from: &str, to: &str, mode: Mode) -> Option<Vec<String>> {
        if from == to {
            return Some(vec![from.to_string()]);
        }
        let mut prev: BTreeMap<String, String> = BTreeMap::new();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut q = VecDeque::new();
        seen.insert(from.to_string());
        q.push_back(from.to_string());
        while let Some(z) = q.pop_front() {
            for n in self.neighbours(&z) {
                if seen.contains(&n) {
                    continue;
                }
                if mode == Mode::Air && self.kind(&n) == ZoneKind::Mountain && n != to {
                    continue;
                }
                seen.insert(n.clone());
                prev.insert(n.clone(), z.clone());
                if n == to {
                    let mut p = vec![n.clone()];
                    let mut c = n;
                    while let Some(b) = prev.get(&c) {
                        p.push(b.clone());
                        c = b.clone();
                    }
                    p.reverse();
                    return Some(p);
                }
                q.push_back(n);
            }
        }
        None
    }

    /// Distances from `from` to every zone within `max` steps under `mode`,
    /// by one breadth-first search: `dist(from, z, mode)` for each `z` it
    /// holds, and `dist > max` for every other zone. As in [`State::path`],
    /// a mountain may end an air path but never be flown through (the start
    /// excepted). Used where one origin is measured against many targets
    /// (issue 9: a search per target was O(targets × zones)).
    pub fn distances_within(&self, from: &str, mode: Mode, max: u32) -> BTreeMap<String, u32> {
        let mut d: BTreeMap<String, u32> = BTreeMap::new();
        d.insert(from.to_string(), 0);
        let mut q = VecDeque::new();
        q.push_back((from.to_string(), 0u32));
        while let Some((z, k)) = q.pop_front() {
            if k >= max {
                continue;
            }
            for n in self.neighbours(&z) {
                if d.contains_key(&n) {
                    continue;
                }
                d.insert(n.clone(), k + 1);
                if mode == Mode::Air && self.kind(&n) == ZoneKind::Mountain {
                    continue;
                }
                q.push_back((n, k + 1));
            }
        }
        d
    }

    /// Air distance in steps; `u32::MAX` when unreachable.
    pub fn dist(&self, from: &str, to: &str, mode: Mode) -> u32 {
        self.path(from, to, mode)
            .map(|p| p.len() as u32 - 1)
            .unwrap_or(u32::MAX)
    }

    /// Strait rule (§2.4): BLA↔AEG needs IST, EMD↔RED needs EGY, held by the
    /// mover or its ally.
    pub fn strait_open(&self, a: &str, b: &str, mover: &str) -> bool {
        for s in &self.map.straits {
            if (s.a == a && s.b == b) || (s.a == b && s.b == a) {
                if let Some(r) = &s.requires {
                    let st = &self.zone(r).status;
                    let ok = st.parties().iter().any(|p| self.friendly(mover, p))
                        && !matches!(st, crate::model::Status::Contested { .. });
                    return ok;
                }
            }
        }
        true
    }
}
