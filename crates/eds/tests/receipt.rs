//! Issue 17 item 8 for EDS: the confirmation refuses every order on a ship
//! that is not the ruler's (or does not exist), in each phase that moves a
//! ship, with the words of the Monatsbericht; and nothing that the month's
//! other orders can still make good (what a ship or star holds, a star's
//! owner, scrapping a ship that phase 13 may build).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use arbitre_core::Ruleset;
use arbitre_eds::Eds;
use common::*;

const FOREIGN: &str = "[2]\n9,Beute\n[4]\n9 / 99\n[5]\n9,5\n[6]\n9,0\n[7 SPRUNG]\n9,A,1,1\n[8]\n9,E,10\n[9]\n9,G,5\n[10]\n9,1,1\n[11]\n9,1,1\n";

#[test]
fn issue17_8_eds_receipt_every_ship_order_checks_the_owner() {
    let mut s = base();
    // Ship 9 is ruler 2's, ship 99 nobody's.
    add_ship(&mut s, 9, 2, "A,2,0,1,0,0,0,1,0,0,0,2", 5, 5, 1);
    let p = Eds.parse_orders(&s, &pid(1), FOREIGN);
    let errors: Vec<_> = p.diagnostics.iter().filter(|d| !d.warning).collect();
    assert_eq!(errors.len(), 10, "{:?}", p.diagnostics);
    for d in &errors {
        let ship = if d.text == "99" { 99 } else { 9 };
        assert_eq!(
            d.reason,
            format!("Schiff {ship} gehört Dir nicht oder existiert nicht – Befehl verworfen"),
            "{d:?}"
        );
    }
    assert_eq!(p.accepted_count(), 0, "refused entries are never accepted");
    // The month refuses each of them with the same words.
    let ev = month(&mut s, &[(1, FOREIGN)]);
    let refused = lines(&ev, 1)
        .iter()
        .filter(|l| l.contains("gehört Dir nicht oder existiert nicht"))
        .count();
    assert_eq!(refused, 10, "{:#?}", lines(&ev, 1));
}

#[test]
fn issue17_8_eds_receipt_nothing_more_than_the_state_decides() {
    let s = base();
    // Ship 2 is ruler 1's: unloading goods it may not hold, loading, and
    // scrapping a ship number not yet built are the month's to judge.
    let p = Eds.parse_orders(&s, &pid(1), "[8]\n2,E,10\n[9]\n2,G,5\n[14]\n77\n");
    assert_eq!(p.error_count(), 0, "{:?}", p.diagnostics);
    assert_eq!(p.accepted_count(), 3);
}
