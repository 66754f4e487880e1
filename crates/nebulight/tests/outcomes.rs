//! Outcomes before text (issue 23 item 4): phase 12 decides its orders as a
//! typed plan (fires, moves, refusals), works direct fire out as typed losses
//! and marks, and only then writes the state; refusals are worded by the
//! report module.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_nebulight::combat::{check_orders, direct_fire, Refusal, Snap};
use arbitre_nebulight::model::{FleetId, Mark, WorldId};
use arbitre_nebulight::orders::Shooter;
use arbitre_nebulight::NebState;
use common::*;

const HOME: &str = "[[world]]\nnumber = 1\nlinks = [2, 3]\nowner = 1\ncounter = 2\nindustries = 10\npopulation = 40\npop_limit = 60\nmp = 20\ncm = 2\nvi = 1\nvp = 1\n\n\
[[world]]\nnumber = 2\nlinks = [1, 3]\npopulation = 30\npop_limit = 40\nmp = 5\ncm = 3\n\n\
[[world]]\nnumber = 3\nlinks = [1, 2, 4]\nowner = 2\ncounter = 2\nindustries = 10\npopulation = 40\npop_limit = 60\nmp = 20\ncm = 2\nvi = 1\nvp = 1\n\n\
[[world]]\nnumber = 4\nlinks = [3]\npopulation = 5\npop_limit = 5\n\n\
[[fleet]]\nnumber = 7\nworld = 2\nowner = 1\nvc = 10\n\n[[fleet]]\nnumber = 8\nworld = 2\nowner = 1\nvc = 5\n\n\
[[fleet]]\nnumber = 9\nworld = 2\nowner = 2\nvc = 4\n";

fn plan_of(s: &NebState, orders: &[(usize, &str, &str)]) -> arbitre_nebulight::combat::Plan {
    let mut list = vec![];
    for (slot, _player, text) in orders {
        // The parser alone: what the check at receipt refuses already
        // (issue 17 item 8) is here the phase's own typed refusal to test.
        let parsed = arbitre_nebulight::parser::parse(text);
        for o in parsed.orders {
            if o.order.phase() == 12 {
                list.push((*slot, o));
            }
        }
    }
    check_orders(s, &list)
}

#[test]
fn neb_35_direct_fire_is_decided_as_summed_losses_before_any_is_applied() {
    let mut s = position(HOME);
    // What phase 1 notes of every fleet: where it stood when the turn began.
    for (id, fl) in s.fleets.clone() {
        s.flog(id).world_start = fl.world;
    }
    let plan = plan_of(
        &s,
        &[
            (0, "maxtor", "F_7 * F_9\nF_8 * F_9"),
            (1, "miria", "F_9 * F_7"),
        ],
    );
    assert_eq!(plan.fires.len(), 3);
    assert!(plan.refused.is_empty(), "{:?}", plan.refused);
    let snap = Snap {
        fleets: s.fleets.clone(),
        worlds: s.worlds.clone(),
    };
    let loss = direct_fire(&s, &snap, &plan);
    // F_7 does 5 and F_8 3 to F_9 (8 in all, capped at its 4 VC only when
    // applied); F_9 fires from the snapshot and does 2 to F_7.
    assert_eq!(loss.vc.get(&FleetId(9)), Some(&8));
    assert_eq!(loss.vc.get(&FleetId(7)), Some(&2));
    assert!(loss
        .marks
        .contains(&(Shooter::Fleet(FleetId(8)), Mark::Fleet(FleetId(9)))));
    assert_eq!(s.fleets[&FleetId(9)].vc, 4, "deciding changes nothing");
}

#[test]
fn neb_40_refused_orders_are_typed_and_worded_by_the_report() {
    let s = position(HOME);
    let plan = plan_of(&s, &[(0, "maxtor", "F_9 * F_7\nF_7 M_4\nF_8 M_1")]);
    let why: Vec<Refusal> = plan.refused.iter().map(|r| r.why).collect();
    assert_eq!(
        why,
        vec![
            Refusal::NotYourFleet(FleetId(9)),
            Refusal::NotLinked {
                to: WorldId(4),
                from: WorldId(2)
            }
        ]
    );
    assert_eq!(plan.moves.get(&FleetId(8)), Some(&vec![WorldId(1)]));
    assert_eq!(why[0].to_string(), "la flotte F_9 ne vous appartient pas");
    assert_eq!(why[1].to_string(), "M_4 n'est pas relié à M_2");
}
