//! Issue 8, property tests for the WWK ruleset (proptest). The checks
//! themselves are shared by every ruleset: `arbitre_core::testkit_props`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::testkit_props::PropGame;
use arbitre_core::Adapter;
use proptest::prelude::*;

fn game() -> PropGame {
    PropGame {
        engine: Adapter::boxed(arbitre_wwk::Wwk),
        // Seats named after the trio's nations: WWK refuses a seat that
        // names no nation (issue 18 item 3).
        players: &["tur", "egy", "gre"],
        rules: "",
        turns: 3,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn bot_orders_print_then_parse_with_zero_errors(seed in any::<u64>(), noise in proptest::collection::vec(any::<u8>(), 1..8)) {
        game().bot_orders_print_then_parse_with_zero_errors(seed, &noise).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn same_seed_and_orders_give_the_same_state_hash(seed in any::<u64>()) {
        game().same_seed_and_orders_give_the_same_state_hash(seed).map_err(TestCaseError::fail)?;
    }
}
