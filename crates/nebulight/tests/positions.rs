//! Issue 19 item 6: `arbitre game export` writes a Nébulight state as a
//! position that `game create` loads back to the same game. Every turn of
//! every fixture game under `fixtures/nebulight/` (played from its inbox mails)
//! goes through export → load → export: the texts byte-identical and the
//! states equal in what the game uses.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::testkit_positions::round_trip_fixtures;
use std::path::Path;

#[test]
fn position_export_round_trips_every_fixture_turn() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let n = round_trip_fixtures(
        &arbitre_nebulight::Nebulight,
        &repo,
        "nebulight",
        &["map", "map_file", "position"],
        |v| {
            // The last turn's log renders the report of a turn already played; a position starts the next one.
            if let Some(o) = v.as_object_mut() {
                o.remove("log");
            }
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 10, "only {n} states checked");
}
