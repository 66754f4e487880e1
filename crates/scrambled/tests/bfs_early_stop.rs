//! Routes (§3.4.3, D29) and hop counts (§2.1) stop their breadth-first search
//! once the territory they need is reached (issue 9). On random worlds with
//! mountains and blocked territories they give exactly what a search of the
//! whole world gives.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_scrambled::world::{TerrId, World};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A world of `n` territories `T0…`, mountains where `mountain[i]`, links
/// from the pairs (made two-way).
fn world(n: usize, mountain: &[bool], links: &[(usize, usize)]) -> World {
    let mut nb: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for &(a, b) in links {
        let (a, b) = (a % n, b % n);
        if a != b {
            nb[a].insert(b);
            nb[b].insert(a);
        }
    }
    let mut t = String::from("[world]\nname = \"w\"\n");
    for i in 0..n {
        let terrain = if mountain[i % mountain.len()] {
            "mountain"
        } else {
            "land"
        };
        let list: Vec<String> = nb[i].iter().map(|j| format!("\"T{j}\"")).collect();
        t.push_str(&format!(
            "[[territory]]\nid = \"T{i}\"\nname = \"Terre {i}\"\nterrain = \"{terrain}\"\narea = 100\nneighbours = [{}]\n",
            list.join(", ")
        ));
    }
    World::from_toml(&t).unwrap()
}

/// The whole-world search, written independently of the crate's.
fn full_distances(
    w: &World,
    from: &TerrId,
    skip: &dyn Fn(&TerrId) -> bool,
) -> BTreeMap<TerrId, u32> {
    let mut d = BTreeMap::new();
    if !w.passable(from) {
        return d;
    }
    d.insert(from.clone(), 0);
    let mut q = VecDeque::from([from.clone()]);
    while let Some(t) = q.pop_front() {
        let k = d[&t];
        for n in &w.territories[&t].neighbours {
            if w.passable(n) && !d.contains_key(n) && !skip(n) {
                d.insert(n.clone(), k + 1);
                q.push_back(n.clone());
            }
        }
    }
    d
}

/// The route of D29 from whole-world distances to the destination.
fn full_route(
    w: &World,
    from: &TerrId,
    to: &TerrId,
    blocked: &dyn Fn(&TerrId) -> bool,
) -> Option<Vec<TerrId>> {
    if from == to || !w.passable(from) || !w.passable(to) {
        return None;
    }
    let dist = full_distances(w, to, &|t| t != from && blocked(t));
    let mut d = *dist.get(from)?;
    let mut path = vec![from.clone()];
    let mut cur = from.clone();
    while d > 0 {
        let next = w.territories[&cur]
            .neighbours
            .iter()
            .filter(|n| dist.get(*n) == Some(&(d - 1)))
            .min()?
            .clone();
        path.push(next.clone());
        cur = next;
        d -= 1;
    }
    Some(path)
}

proptest! {
    #[test]
    fn routes_and_hops_match_a_search_of_the_whole_world(
        n in 2usize..40,
        mountain in prop::collection::vec(prop::bool::weighted(0.15), 1..40),
        links in prop::collection::vec((0usize..40, 0usize..40), 0..90),
        blocked in prop::collection::btree_set(0usize..40, 0..10),
        pairs in prop::collection::vec((0usize..40, 0usize..40), 1..8),
    ) {
        let w = world(n, &mountain, &links);
        let blocked: BTreeSet<TerrId> = blocked.iter().map(|i| TerrId(format!("T{}", i % n).into())).collect();
        let is_blocked = |t: &TerrId| blocked.contains(t);
        for (a, b) in pairs {
            let (a, b) = (TerrId(format!("T{}", a % n).into()), TerrId(format!("T{}", b % n).into()));
            prop_assert_eq!(w.route(&a, &b, &is_blocked), full_route(&w, &a, &b, &is_blocked));
            prop_assert_eq!(w.route(&a, &b, &|_| false), full_route(&w, &a, &b, &|_| false));
            prop_assert_eq!(w.hops(&a, &b), full_distances(&w, &a, &|_| false).get(&b).copied());
            prop_assert_eq!(w.distances(&a, &is_blocked), full_distances(&w, &a, &is_blocked));
        }
    }
}
