//! A simple bot: legal, sensible orders for one player, from what that player's
//! report shows (its worlds, its fleets, the visible worlds of `visibility`,
//! and the links of discovered worlds). It expands, ferries MP from captured
//! worlds to industrial ones, keeps one VI and one VP at home, researches, and
//! fires when it is stronger. It fills empty seats and drives the fixture games.

use crate::model::*;
use crate::tech;
use crate::visibility;
use arbitre_core::Rng;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write;

struct View<'a> {
    s: &'a NebState,
    slot: Slot,
    visible: BTreeSet<WorldId>,
    holes: BTreeSet<WorldId>,
    known: BTreeSet<WorldId>,
    /// Worlds where a foreign fleet with ships stands, computed once: `safe`
    /// runs for every world of every path search (issue 9: scanning all
    /// fleets there made the bot quadratic on large maps).
    foreign_fleets: BTreeSet<WorldId>,
}

impl View<'_> {
    /// Shortest path over known links, avoiding black holes; `None` if unreachable.
    fn path(&self, from: WorldId, goal: impl Fn(WorldId) -> bool) -> Option<Vec<WorldId>> {
        let mut prev: BTreeMap<WorldId, WorldId> = BTreeMap::new();
        let mut seen = BTreeSet::from([from]);
        let mut q = VecDeque::from([from]);
        while let Some(w) = q.pop_front() {
            if w != from && goal(w) {
                let mut path = vec![w];
                let mut c = w;
                while let Some(p) = prev.get(&c) {
                    if *p == from {
                        break;
                    }
                    path.push(*p);
                    c = *p;
                }
                path.reverse();
                return Some(path);
            }
            // Links are only known from discovered worlds that are not black holes.
            if !self.s.players[self.slot].discovered.contains(&w) || self.holes.contains(&w) {
                continue;
            }
            // Never pass through a world whose visible ships would ambush.
            if w != from && !self.safe(w) {
                continue;
            }
            for l in &self.s.worlds[&w].links {
                if self.known.contains(l) && !self.holes.contains(l) && seen.insert(*l) {
                    prev.insert(*l, w);
                    q.push_back(*l);
                }
            }
        }
        None
    }

    /// A world the player can see holds no foreign protection or fleet.
    fn safe(&self, w: WorldId) -> bool {
        if !self.visible.contains(&w) {
            return true;
        }
        let x = &self.s.worlds[&w];
        let guarded = x.owner != Some(self.slot) && x.vi + x.vp > 0;
        !guarded && !self.foreign_fleets.contains(&w)
    }

    /// The owned industrial world that lacks the most MP (industries − stock).
    fn neediest(&self) -> Option<WorldId> {
        self.s
            .worlds
            .iter()
            .filter(|(k, w)| self.industrial(**k) && w.industries > w.mp)
            .max_by_key(|(k, w)| (w.industries - w.mp, std::cmp::Reverse(**k)))
            .map(|(k, _)| *k)
    }

    fn mine(&self, w: WorldId) -> bool {
        self.s.worlds[&w].owner == Some(self.slot)
    }

    fn industrial(&self, w: WorldId) -> bool {
        self.mine(w) && self.s.worlds[&w].industries >= 5
    }
}

pub fn orders(s: &NebState, slot: Slot, rng: &mut Rng) -> String {
    let v = View {
        s,
        slot,
        visible: visibility::visible(s, slot),
        holes: s.players[slot]
            .discovered
            .iter()
            .copied()
            .filter(|w| s.worlds[w].black_hole)
            .collect(),
        known: s.known(slot),
        foreign_fleets: s
            .fleets
            .values()
            .filter(|f| f.vc > 0 && f.owner != Some(slot))
            .map(|f| f.world)
            .collect(),
    };
    let mut out = String::new();
    let next_turn = s.turn + 1;
    // Fleets that will move this turn and their targets (to spread out).
    let mut claimed: BTreeSet<WorldId> = BTreeSet::new();
    let my_fleets: Vec<(FleetId, Fleet)> = s
        .fleets
        .iter()
        .filter(|(_, f)| f.owner == Some(slot))
        .map(|(k, f)| (*k, f.clone()))
        .collect();
    let mut fleet_lines = String::new();
    let mut vc_after: BTreeMap<FleetId, u32> = my_fleets.iter().map(|(k, f)| (*k, f.vc)).collect();

    // Production, world by world.
    let mut researched: BTreeMap<Tech, u32> = BTreeMap::new();
    // MP each world will have left when loads run (phase 10): 1 MP per UP spent.
    let mut mp_left: BTreeMap<WorldId, u32> = BTreeMap::new();
    for (id, w) in s.worlds.iter().filter(|(_, w)| w.owner == Some(slot)) {
        let mut up = w.up.min(w.population);
        let spend = |out: &mut String, n: u32, what: &str, up: &mut u32| {
            if n > 0 {
                let _ = writeln!(out, "M_{} C {n} {what}", id.0);
                *up -= n;
            }
        };
        if w.vi == 0 {
            spend(&mut out, up.min(1), "VI", &mut up);
        }
        if w.vp == 0 {
            spend(&mut out, up.min(1), "VP", &mut up);
        }
        let mut built = 0;
        for (f, fl) in my_fleets.iter().filter(|(_, fl)| fl.world == *id) {
            if up == 0 || built >= 3 {
                break;
            }
            if fl.vc < 10 {
                let n = (10 - fl.vc).min(up);
                spend(&mut out, n, &format!("VC F_{}", f.0), &mut up);
                *vc_after.get_mut(f).expect("fleet") += n;
                built += 1;
            }
        }
        if w.population + 2 >= w.limit && up >= 2 {
            spend(&mut out, 2, "P", &mut up);
        }
        if w.industries < w.population && w.mp > w.industries + 12 && up >= 4 {
            let _ = writeln!(out, "M_{} C 1 I", id.0);
            up -= 4;
        }
        if up > 0 {
            // Research what is not at its maximum yet (each order is capped at
            // what the level cap still takes); the rest raises the limit.
            let p = &s.players[slot];
            let mut prefs = vec![Tech::Att, Tech::Def];
            if next_turn.is_multiple_of(2) {
                prefs.reverse();
            }
            if p.dep.level < 5 && next_turn.is_multiple_of(3) {
                prefs.insert(0, Tech::Dep);
            }
            prefs.push(Tech::Dep);
            for t in prefs {
                let room = tech::room(t, s.tech(slot, t))
                    .saturating_sub(*researched.get(&t).unwrap_or(&0));
                let n = up.min(room);
                if n > 0 {
                    *researched.entry(t).or_default() += n;
                    spend(&mut out, n, tech::keyword(t), &mut up);
                }
            }
            spend(&mut out, up, "P", &mut up);
        }
        mp_left.insert(*id, w.mp - w.up.min(w.population).min(w.mp));
    }

    // Fleets. The neediest world and the enemy fleets of each world depend
    // on the state only, not on the orders written so far: computed once.
    let dep = s.players[slot].dep.level as usize;
    let needy = v.neediest();
    let mut foes_at: BTreeMap<WorldId, Vec<(FleetId, u32)>> = BTreeMap::new();
    for (k, g) in &s.fleets {
        if g.vc > 0 && g.owner.is_some() && g.owner != Some(slot) {
            foes_at.entry(g.world).or_default().push((*k, g.vc));
        }
    }
    for (index, (f, fl)) in my_fleets.iter().enumerate() {
        let vc = vc_after[f];
        if vc == 0 {
            continue;
        }
        let w = fl.world;
        let world = &s.worlds[&w];
        let foes: &[(FleetId, u32)] = foes_at.get(&w).map_or(&[], |v| v.as_slice());
        if let Some((g, _)) = foes.iter().filter(|(_, n)| *n < vc).max_by_key(|(_, n)| *n) {
            let _ = writeln!(fleet_lines, "F_{} * F_{}", f.0, g.0);
            continue;
        }
        if world.owner != Some(slot) && world.population > 0 && world.vi + world.vp > 0 && vc >= 3 {
            let _ = writeln!(fleet_lines, "F_{} * M", f.0);
            continue;
        }
        let mut carrying = fl.cargo_mp;
        if carrying > 0 && (Some(w) == needy || (v.industrial(w) && world.industries > world.mp)) {
            let _ = writeln!(fleet_lines, "F_{} D MP", f.0);
            carrying = 0;
        } else if carrying == 0
            && needy.is_some()
            && v.mine(w)
            && !v.industrial(w)
            && mp_left.get(&w).copied().unwrap_or(0) >= 6
            && vc >= 3
        {
            let _ = writeln!(fleet_lines, "F_{} C MP", f.0);
            carrying = mp_left[&w].min(vc);
            *mp_left.get_mut(&w).expect("checked") -= carrying;
        }
        let path = if carrying > 0 {
            match needy {
                Some(n) => v.path(w, |x| x == n),
                None => v.path(w, |x| v.industrial(x)),
            }
        } else {
            let target = |x: WorldId| {
                if claimed.contains(&x) || v.holes.contains(&x) || v.mine(x) {
                    return false;
                }
                if !v.visible.contains(&x) {
                    return !s.players[slot].discovered.contains(&x);
                }
                let t = &s.worlds[&x];
                t.population > 0 && t.vi + t.vp < vc
            };
            // Every third fleet is a freighter while an owned world has MP to
            // spare and an industrial world lacks them; so is any fleet with
            // nowhere left to conquer.
            let rich = |x: WorldId| {
                v.mine(x)
                    && !v.industrial(x)
                    && !claimed.contains(&x)
                    && mp_left.get(&x).copied().unwrap_or(0) >= 10
            };
            let freighter = needy.is_some() && vc >= 5 && index % 3 == 2;
            let conquest = if freighter { None } else { v.path(w, target) };
            conquest.or_else(|| {
                if needy.is_some() {
                    v.path(w, rich)
                } else {
                    None
                }
            })
        };
        if let Some(mut p) = path {
            // Sometimes wait a turn at home with a fresh fleet to pile up ships.
            if carrying == 0 && vc < 5 && v.mine(w) && rng.chance(1, 2) {
                continue;
            }
            claimed.insert(*p.last().expect("non-empty"));
            p.truncate(dep);
            let steps: Vec<String> = p.iter().map(|x| x.0.to_string()).collect();
            let _ = writeln!(fleet_lines, "F_{} MM {}", f.0, steps.join(" "));
        }
    }
    out.push_str(&fleet_lines);
    out
}

/// The order template attached to each report: the header line to send
/// back, the turn it is for, the player's worlds and fleets as comment
/// lines ready to be filled in, and `FIN` (issue 17 item 8). The `TOUR`
/// line makes a stale template sent again a refused block, never one that
/// replaces the orders already stored (item 7).
pub fn order_template(s: &NebState, slot: Slot) -> String {
    let mut out = format!(
        "PARTIE {} JOUEUR {} MOT-DE-PASSE <mot-de-passe>\nTOUR {}\n# Ordres de {} pour le tour {}\n",
        s.game,
        s.players[slot].id,
        s.turn + 1,
        s.players[slot].name,
        s.turn + 1
    );
    for (id, w) in s.worlds.iter().filter(|(_, w)| w.owner == Some(slot)) {
        let links: Vec<String> = w.links.iter().map(|l| l.0.to_string()).collect();
        let _ = writeln!(
            out,
            "# M_{} : {} UP, {} MP, VI={}, VP={} ; liaisons {}",
            id.0,
            w.up,
            w.mp,
            w.vi,
            w.vp,
            links.join(",")
        );
    }
    for (id, f) in s.fleets.iter().filter(|(_, f)| f.owner == Some(slot)) {
        let _ = writeln!(
            out,
            "# F_{} sur M_{} : {} VC, {} MP, {} N",
            id.0, f.world.0, f.vc, f.cargo_mp, f.cargo_n
        );
    }
    out.push_str("FIN\n");
    out
}
