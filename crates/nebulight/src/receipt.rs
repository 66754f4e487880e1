//! The check at receipt against the state (issue 17 item 8, spec 3.3–3.5).
//!
//! A line the parser accepted is refused in the confirmation when the
//! current state already decides that the turn will refuse it, with the
//! words the turn's refusal uses (`combat::Refusal`, the phases'
//! `reject` texts), and kept as [`Order::Rejected`] so that the turn's
//! report still lists it (AMB-15).
//!
//! What the state decides, and nothing more (the whole order set is seen):
//! * a fleet that does not exist, or is not the player's: fleets change
//!   owner only in phase 13, after every order has run (6.3), and no order
//!   creates one;
//! * a world named as the subject of an order that does not exist (the map
//!   never changes); its owner is NOT checked, since an emigration or an
//!   unloading of populations of phase 5 can capture it for the later
//!   phases of the same set (3.3, "owner at the moment the phase executes");
//! * a move along no link (4.12): fleets move only in phase 12, from where
//!   they stand now; the DEP limit and `known(X)` are NOT checked, since a
//!   research order or a probe of the same set can raise or widen them;
//! * a fleet fired at that is not on the shooter's world now (5.1: it must
//!   have been there at the start of the turn);
//! * a second exclusive order for a firing point whose first one passes
//!   these checks (3.4, AMB-16): both stand or fall on the same ships.
//!
//! Quantities above what exists are NOT refused: the turn carries out as
//! much as is possible when the order runs (3.5), and builds and transfers
//! of the same set change what exists by then.
//!
//! A state rebuilt from a player's report (`state_from_view`) lacks what the
//! player does not see: a world or fleet missing there is only refused where
//! the turn refuses it whichever it is (the player's own fleets and worlds
//! are always in their report).

use crate::combat::Refusal;
use crate::model::{FleetId, NebState, Slot, WorldId};
use crate::orders::{Container, Order, Shooter, Target};
use crate::parse_index::Facts;
use arbitre_core::Parsed;
use rustc_hash::FxHashSet;
use std::cell::OnceCell;
use std::collections::BTreeSet;

/// Refuses, in `parsed`, every order of `slot` that `s` already decides
/// the turn will refuse (see the module docs).
pub fn check(s: &NebState, slot: Slot, parsed: &mut Parsed<Order>) {
    check_with(s, s, slot, parsed);
}

/// [`check`] with the fleets and worlds read from `facts` (the state's
/// parse index, or the state).
pub fn check_with(s: &NebState, facts: &impl Facts, slot: Slot, parsed: &mut Parsed<Order>) {
    // Refused orders are replaced in place: moving every order into a new
    // vector that grew one push at a time was a fifth of a large block's
    // parse (issue 21 item 4).
    let mut orders = std::mem::take(&mut parsed.orders);
    // Only asked whether a firing point is taken, never iterated: a hash
    // set, sized for the block on its first insert (a B-tree insert per
    // fire and move order was a visible part of a 1,100-move block, issue
    // 21 item 4).
    let mut taken = Taken {
        set: FxHashSet::default(),
        hint: orders.len(),
    };
    // The worlds the player knows, built on the first move that needs them
    // and kept for the block: built per move, it made the check quadratic
    // in a large block (issue 21 item 4).
    let known = OnceCell::new();
    for o in orders.iter_mut() {
        if let Some(why) = verdict(s, facts, slot, &o.order, &mut taken, &known) {
            let reason = why.to_string();
            parsed.diagnose_in(o.section.as_deref(), o.line, &o.text, reason.clone(), false);
            o.order = Order::Rejected { reason };
            parsed.kept_refused += 1;
        }
    }
    parsed.orders = orders;
}

/// Why the turn will refuse `order`, where the state already decides it.
fn verdict(
    s: &NebState,
    facts: &impl Facts,
    slot: Slot,
    order: &Order,
    taken: &mut Taken,
    known: &OnceCell<BTreeSet<WorldId>>,
) -> Option<Refusal> {
    let fleet = |f: FleetId| match facts.fleet(f) {
        None => Some(Refusal::UnknownFleet(f)),
        Some((owner, _)) if owner != Some(slot) => Some(Refusal::NotYourFleet(f)),
        Some(_) => None,
    };
    let world = |w: WorldId| (!facts.has_world(w)).then_some(Refusal::UnknownWorld(w));
    let container = |c: &Container| match *c {
        Container::Fleet(f) => fleet(f),
        Container::Group(w, _) => world(w),
    };
    match order {
        Order::Probe { from, .. } => container(from),
        Order::Build { world: w, .. } | Order::Convert { world: w, .. } => world(*w),
        Order::Emigrate { from, .. } => world(*from),
        Order::Unload { fleet: f, .. } | Order::Load { fleet: f, .. } => fleet(*f),
        Order::Transfer { from, .. } => container(from),
        Order::Fire { shooter, target } => {
            let at = match *shooter {
                Shooter::Fleet(f) => {
                    if let Some(why) = fleet(f) {
                        return Some(why);
                    }
                    facts.fleet(f).map(|(_, at)| at)
                }
                Shooter::Group(w, _) => {
                    if let Some(why) = world(w) {
                        return Some(why);
                    }
                    Some(w)
                }
            };
            if let (Target::Fleet(g), Some(at)) = (target, at) {
                let elsewhere = facts.fleet(*g).is_some_and(|(_, w)| w != at);
                if elsewhere || Shooter::Fleet(*g) == *shooter {
                    return Some(Refusal::TargetAbsent {
                        fleet: *g,
                        world: at,
                    });
                }
            }
            exclusive(taken, *shooter)
        }
        Order::Move { fleet: f, path } => {
            // Each map is asked once per fleet and per step (issue 21
            // item 4): in a 10,000-world game every lookup is a walk of a
            // large B-tree.
            let start = match facts.fleet(*f) {
                None => return Some(Refusal::UnknownFleet(*f)),
                Some((owner, _)) if owner != Some(slot) => return Some(Refusal::NotYourFleet(*f)),
                Some((_, at)) => at,
            };
            let mut prev = start;
            for w in path {
                // A world missing from a rebuilt state may lie beyond what
                // the player sees: the rest of the path is the turn's to judge.
                let Some((links, _)) = facts.world(prev) else {
                    break;
                };
                if !links.contains(w) {
                    return Some(Refusal::NotLinked { to: *w, from: prev });
                }
                prev = *w;
            }
            // A move refused at the turn for `known(X)` leaves the fleet
            // free for a later exclusive order: only then is it not taken.
            if s.options.enforce_known_worlds {
                // A world discovered, or linked from the discovered world the
                // fleet steps from, is known without building the whole set.
                let discovered = &s.players[slot].discovered;
                let mut from = start;
                for w in path {
                    let linked_from_known = || {
                        discovered.contains(&from)
                            && facts
                                .world(from)
                                .is_some_and(|(links, hole)| !hole && links.contains(w))
                    };
                    if !(discovered.contains(w)
                        || linked_from_known()
                        || known.get_or_init(|| s.known(slot)).contains(w))
                    {
                        return None;
                    }
                    from = *w;
                }
            }
            exclusive(taken, Shooter::Fleet(*f))
        }
        Order::Rejected { .. } => None,
    }
}

/// The firing points already given an exclusive order in the block, and
/// how many orders the block has (the set's size when first needed).
struct Taken {
    set: FxHashSet<Shooter>,
    hint: usize,
}

/// The first exclusive order of a firing point takes it (3.4).
fn exclusive(taken: &mut Taken, shooter: Shooter) -> Option<Refusal> {
    if taken.set.capacity() == 0 {
        taken.set.reserve(taken.hint);
    }
    if taken.set.insert(shooter) {
        None
    } else {
        Some(Refusal::AlreadyOrdered)
    }
}
