//! Issue 19 item 6: `arbitre game export` writes a WWK state as a
//! position that `game create` loads back to the same game. Every turn of
//! every fixture game under `fixtures/wwk/` (played from its inbox mails)
//! goes through export → load → export: the texts byte-identical and the
//! states equal in what the game uses.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::testkit_positions::round_trip_fixtures;
use std::path::Path;

#[test]
fn position_export_round_trips_every_fixture_turn() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let n = round_trip_fixtures(
        &arbitre_wwk::Wwk,
        &repo,
        "wwk",
        &["scenario", "map", "scenario_file", "map_file", "position"],
        |v| {
            let _ = v;
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 10, "only {n} states checked");
}
