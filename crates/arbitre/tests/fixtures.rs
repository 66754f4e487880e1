//! Issue 2 item 7: the regression harness.
//!
//! * every fixture under the workspace's `fixtures/` replays identically
//!   (none yet is fine: the lead fills `fixtures/<ruleset>/`);
//! * the daemon's own Tally fixture (`tests/fixtures/tally-duel`) replays
//!   identically, and a changed expected file fails with a unified diff;
//! * `record` with bots writes a fixture that replays.
//!
//! To regenerate the Tally fixture after an intended change of the daemon's
//! texts: `cargo test -p arbitre --test fixtures -- --ignored bless`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::fixture::{find_fixtures, record, replay, FixtureError, OrdersSource};
use arbitre::Registry;
use common::registry;
use std::path::{Path, PathBuf};

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn every_fixture_under_fixtures_replays_identically() {
    let root = here("../../fixtures");
    let mut failures = Vec::new();
    for dir in find_fixtures(&root) {
        if let Err(e) = replay(&dir, Registry::builtin(), false) {
            failures.push(e.to_string());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn tally_fixture_replays_identically() {
    let s = replay(&here("tests/fixtures/tally-duel"), registry(), false)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.turns, 3);
    assert!(s.mails >= 15, "{s:?}");
}

#[test]
fn a_changed_expected_file_fails_with_a_readable_diff() {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&here("tests/fixtures/tally-duel"), tmp.path());
    let f = tmp.path().join("turn-002/expected/alice-report.txt");
    let body = std::fs::read_to_string(&f).unwrap();
    assert!(body.contains("alice added 1\n"));
    std::fs::write(&f, body.replace("alice added 1\n", "alice added 7\n")).unwrap();
    match replay(tmp.path(), registry(), false) {
        Err(FixtureError::Mismatch { turn, diff, .. }) => {
            assert_eq!(turn, "turn-002");
            assert!(diff.contains("--- expected/alice-report.txt"), "{diff}");
            assert!(diff.contains("-alice added 7\n+alice added 1\n"), "{diff}");
        }
        other => panic!("expected a mismatch, got {other:?}"),
    }
    // A missing mail fails too.
    std::fs::remove_file(tmp.path().join("turn-001/expected/bob-confirm.txt")).unwrap();
    let e = replay(tmp.path(), registry(), false)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("turn-001") && e.contains("+++ actual/bob-confirm.txt"),
        "{e}"
    );
    // --bless rewrites expected/, after which the replay passes.
    replay(tmp.path(), registry(), true).unwrap();
    replay(tmp.path(), registry(), false).unwrap();
}

#[test]
fn recorded_bot_game_replays() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("rec");
    let s = record(
        &here("tests/fixtures/tally-duel/game.toml"),
        OrdersSource::Bots,
        &out,
        10,
        registry(),
    )
    .unwrap();
    assert_eq!(s.turns, 3, "Tally ends after 3 turns");
    let inbox = std::fs::read_to_string(out.join("turn-002/inbox/bob.eml")).unwrap();
    assert!(
        inbox.contains("GAME tally-duel PLAYER bob PASSWORD builder\r\nADD "),
        "{inbox}"
    );
    let confirm = std::fs::read_to_string(out.join("turn-002/expected/bob-confirm.txt")).unwrap();
    assert!(
        confirm.contains("1 order(s) accepted, 0 error(s)"),
        "{confirm}"
    );
    replay(&out, registry(), false).unwrap_or_else(|e| panic!("{e}"));
    // Recording over an existing fixture is refused.
    assert!(record(
        &here("tests/fixtures/tally-duel/game.toml"),
        OrdersSource::Bots,
        &out,
        10,
        registry()
    )
    .is_err());
}

#[test]
#[ignore = "rewrites tests/fixtures/tally-duel/*/expected; run by hand after an intended change"]
fn bless_tally_fixture() {
    replay(&here("tests/fixtures/tally-duel"), registry(), true).unwrap();
}

/// Every built-in ruleset plays two bot turns through the real mail loop
/// (examples/<ruleset>/game.toml), and the recording replays byte for byte:
/// the daemon and the ruleset together are deterministic.
#[test]
fn every_builtin_ruleset_records_and_replays_identically() {
    for id in Registry::builtin().ids() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join(id);
        let game = here(&format!("../../docs/examples/{id}/game.toml"));
        let s = record(&game, OrdersSource::Bots, &out, 2, Registry::builtin())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(s.turns >= 1, "{id}: {s:?}");
        let confirms = find_confirms(&out.join("turn-001/expected"));
        assert!(!confirms.is_empty(), "{id}: no confirmation in turn 1");
        replay(&out, Registry::builtin(), false).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

fn find_confirms(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with("-confirm.txt"))
        .collect()
}
