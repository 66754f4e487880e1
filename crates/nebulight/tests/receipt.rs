//! Issue 17 item 8: the confirmation refuses what the state already decides
//! (an unknown or foreign fleet, an unknown world, a move along no link, a
//! fleet fired at that is elsewhere, a second exclusive order), with the
//! words and the verdict of the turn, and nothing that another order of the
//! same set can make valid (ownership won by emigration, VC built this turn,
//! DEP raised by research).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use arbitre_core::{Parsed, PlayerId, Ruleset};
use arbitre_nebulight::orders::Order;
use arbitre_nebulight::{NebState, Nebulight};
use common::*;

const MAP: &str = "[[world]]\nnumber = 1\nlinks = [2, 3]\nowner = 1\ncounter = 2\nindustries = 10\npopulation = 40\npop_limit = 60\nmp = 20\ncm = 2\nvi = 1\nvp = 1\n\n\
[[world]]\nnumber = 2\nlinks = [1, 3]\npopulation = 30\npop_limit = 40\nmp = 5\ncm = 3\nvi = 2\n\n\
[[world]]\nnumber = 3\nlinks = [1, 2, 4]\nowner = 2\ncounter = 2\nindustries = 10\npopulation = 40\npop_limit = 60\nmp = 20\ncm = 2\nvi = 1\nvp = 1\n\n\
[[world]]\nnumber = 4\nlinks = [3]\npopulation = 5\npop_limit = 5\n\n\
[[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 5\n\n\
[[fleet]]\nnumber = 8\nworld = 3\nowner = 2\nvc = 2\n\n\
[[fleet]]\nnumber = 9\nworld = 1\nowner = 1\n\n\
[[player]]\nslot = 1\ndiscovered = [1, 2, 3, 4]\n";

fn state() -> NebState {
    position(MAP)
}

fn parse(s: &NebState, text: &str) -> Parsed<Order> {
    Nebulight.parse_orders(s, &PlayerId::from("maxtor"), text)
}

/// (line, reason) of every error of the confirmation.
fn errors(p: &Parsed<Order>) -> Vec<(usize, String)> {
    p.diagnostics
        .iter()
        .filter(|d| !d.warning)
        .map(|d| (d.line, d.reason.clone()))
        .collect()
}

/// The confirmation's errors are the turn's refusals, word for word, and
/// what the confirmation accepts is not refused by the turn for a reason the
/// state already decided.
fn same_verdict_as_the_turn(text: &str) -> Vec<(usize, String)> {
    let mut s = state();
    let p = parse(&s, text);
    let errs = errors(&p);
    play(&mut s, &[("maxtor", text)]);
    let r = report(&s, "maxtor");
    for (line, why) in &errs {
        let order = text.lines().nth(line - 1).unwrap();
        assert!(
            r.contains(&format!("{order} : {why}")),
            "{order} : {why}\n{r}"
        );
    }
    errs
}

#[test]
fn issue17_8_neb_receipt_unknown_and_foreign_fleets_and_worlds() {
    let errs = same_verdict_as_the_turn("F_99 M_2\nF_8 C MP\nM_99 C 1 VI\nF_7 M_2\n");
    assert_eq!(
        errs,
        vec![
            (1, "flotte F_99 inconnue".to_string()),
            (2, "la flotte F_8 ne vous appartient pas".to_string()),
            (3, "monde M_99 inconnu".to_string()),
        ]
    );
    let p = parse(&state(), "F_99 M_2\nF_8 C MP\nM_99 C 1 VI\nF_7 M_2\n");
    assert_eq!((p.accepted_count(), p.error_count()), (1, 3));
}

#[test]
fn neb_40_move_along_no_link_refused_at_receipt() {
    // M_4 is linked from M_3 only: F_7 stands on M_1.
    let errs = same_verdict_as_the_turn("F_7 MM 2 4\n");
    assert_eq!(errs, vec![(1, "M_4 n'est pas relié à M_2".to_string())]);
}

#[test]
fn neb_11_second_exclusive_order_refused_at_receipt() {
    // F_8 is on M_3, not on M_1: the fire is void, the move is the first
    // valid exclusive order, the fire at the protection comes too late.
    let errs = same_verdict_as_the_turn("F_7 * F_8\nF_7 M_2\nF_7 * M\n");
    assert_eq!(
        errs,
        vec![
            (
                1,
                "la flotte F_8 n'était pas sur M_1 au début du tour".to_string()
            ),
            (3, "ordre exclusif déjà donné".to_string()),
        ]
    );
}

#[test]
fn neb_10_what_the_set_makes_valid_is_not_refused_at_receipt() {
    // M_2 is neutral now and becomes Maxtor's by the emigration of phase 5,
    // before its VI are transferred in phase 9 (NEB-10); F_9 has no VC now
    // and gets 2 in phase 3; the path is longer than DEP 3 now but research
    // of phase 3 may raise DEP (the turn cuts it, never the confirmation).
    let text = "M_2 T 2 VI VP\nM_1 E 5 N M_2\nM_1 C 2 VC F_9\nF_9 M_2\nF_7 MM 2 1 2 1\n";
    let p = parse(&state(), text);
    assert!(errors(&p).is_empty(), "{:?}", p.diagnostics);
    assert_eq!(p.accepted_count(), 5);
    let mut s = state();
    play(&mut s, &[("maxtor", text)]);
    assert_eq!(s.worlds[&arbitre_nebulight::model::WorldId(2)].vp, 2);
    assert_eq!(
        s.fleets[&arbitre_nebulight::model::FleetId(9)].world,
        arbitre_nebulight::model::WorldId(2)
    );
}
