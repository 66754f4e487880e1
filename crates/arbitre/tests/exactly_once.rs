//! Issue 2, "done when" 2 (and the core of issue 8): killing the daemon
//! between any two steps of handling a mail loses nothing and answers
//! nothing twice.
//!
//! Each crash run re-executes this test binary as the daemon child
//! (`child_serve_once`, ignored unless called with its env var), with
//! `ARBITRE_FAILPOINT` naming the step at which the child calls
//! `std::process::abort()` — as abrupt as SIGKILL: no unwinding, no flush.
//! A second child without failpoint then restarts on the same folder. The
//! final database and file outbox must equal those of a run that never
//! crashed. The toy ruleset lives in this test binary only.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::failpoint::POINTS;
use arbitre::{Daemon, FixedClock};
use common::*;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

const CHILD_DIR: &str = "ARBITRE_TEST_CHILD_DIR";

#[test]
#[ignore = "the daemon child of the crash tests; runs only with ARBITRE_TEST_CHILD_DIR set"]
fn child_serve_once() {
    let Ok(dir) = std::env::var(CHILD_DIR) else {
        return;
    };
    let clock = Arc::new(FixedClock::new(t0()));
    let mut d = Daemon::open(config(Path::new(&dir)), registry(), clock).unwrap();
    let _lock = d.lock().unwrap();
    d.cycle().unwrap();
}

fn child(dir: &Path, failpoint: Option<&str>) -> std::process::ExitStatus {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--exact",
        &common::test_name(module_path!(), "child_serve_once"),
        "--nocapture",
        "--ignored",
        "--test-threads",
        "1",
    ])
    .env(CHILD_DIR, dir)
    .env_remove("ARBITRE_FAILPOINT")
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null());
    if let Some(fp) = failpoint {
        cmd.env("ARBITRE_FAILPOINT", fp);
    }
    cmd.status().unwrap()
}

/// A game with three mails waiting: two valid order mails (the turn then
/// resolves early) and one with a wrong password.
fn prepare() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut d = Daemon::open(config(dir.path()), registry(), clock).unwrap();
    d.create_game(&tally_toml("g1", ""), dir.path()).unwrap();
    for m in [
        mail(
            "alice@example.org",
            "o",
            &orders("g1", "alice", "wonderland", "ADD 3\nADD 4"),
        ),
        mail(
            "bob@example.org",
            "o",
            &orders("g1", "bob", "nope", "ADD 10"),
        ),
        mail(
            "bob@example.org",
            "o",
            &orders("g1", "bob", "builder", "ADD 10"),
        ),
    ] {
        d.deliver(&m).unwrap();
    }
    dir
}

/// Everything that must come out identical.
#[derive(Debug, PartialEq)]
struct Outcome {
    journal: Vec<(String, String)>,
    orders: Vec<(String, u32, String)>,
    turns: Vec<(u32, String)>,
    outbox: Vec<(String, String, String, String)>,
    files: Vec<String>,
    pending: usize,
    cur: usize,
}

fn outcome(dir: &Path) -> Outcome {
    let c = rusqlite::Connection::open(dir.join("arbitre.db")).unwrap();
    let q = |sql: &str| -> Vec<Vec<String>> {
        let mut st = c.prepare(sql).unwrap();
        let n = st.column_count();
        st.query_map([], |r| {
            (0..n)
                .map(|i| {
                    r.get::<_, rusqlite::types::Value>(i)
                        .map(|v| format!("{v:?}"))
                })
                .collect()
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    };
    let mut files: Vec<String> = std::fs::read_dir(dir.join("outbox"))
        .map(|rd| {
            rd.map(|e| e.unwrap().file_name().to_string_lossy().to_string())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let count = |sub: &str| {
        std::fs::read_dir(dir.join("inbox").join(sub))
            .unwrap()
            .count()
    };
    Outcome {
        journal: q("SELECT sha256, outcome FROM mail_journal ORDER BY sha256")
            .into_iter()
            .map(|r| (r[0].clone(), r[1].clone()))
            .collect(),
        orders: q("SELECT player, turn, text FROM orders ORDER BY player, id")
            .into_iter()
            .map(|r| {
                (
                    r[0].clone(),
                    r[1].trim_start_matches("Integer(")
                        .trim_end_matches(')')
                        .parse()
                        .unwrap(),
                    r[2].clone(),
                )
            })
            .collect(),
        turns: q("SELECT turn, state FROM turns ORDER BY turn")
            .into_iter()
            .map(|r| {
                (
                    r[0].trim_start_matches("Integer(")
                        .trim_end_matches(')')
                        .parse()
                        .unwrap(),
                    r[1].clone(),
                )
            })
            .collect(),
        outbox: q("SELECT message_id, kind, status, body FROM outbox ORDER BY message_id")
            .into_iter()
            .map(|r| (r[0].clone(), r[1].clone(), r[2].clone(), r[3].clone()))
            .collect(),
        files,
        pending: count("new"),
        cur: count("cur"),
    }
}

#[test]
fn sigkill_between_any_two_steps_loses_nothing_and_answers_nothing_twice() {
    let reference = prepare();
    assert!(child(reference.path(), None).success());
    let want = outcome(reference.path());
    assert_eq!(want.journal.len(), 3);
    assert_eq!(
        want.orders.len(),
        2,
        "the wrong-password mail stores nothing"
    );
    assert_eq!(want.turns.len(), 2, "turn 0 and the early-resolved turn 1");
    assert_eq!(
        want.outbox
            .iter()
            .filter(|o| o.1.contains("report"))
            .count(),
        2 + 2
    );
    assert!(want.outbox.iter().all(|o| o.2.contains("sent")));
    assert_eq!(want.files.len(), want.outbox.len());
    assert_eq!((want.pending, want.cur), (0, 3));

    for fp in POINTS {
        let dir = prepare();
        let crashed = child(dir.path(), Some(fp));
        assert_eq!(
            crashed.signal(),
            Some(6),
            "failpoint {fp} was never reached (child ended with {crashed})"
        );
        // Restart (twice: the second must find nothing left to do).
        assert!(child(dir.path(), None).success(), "restart after {fp}");
        assert!(
            child(dir.path(), None).success(),
            "second restart after {fp}"
        );
        assert_eq!(outcome(dir.path()), want, "after a crash at {fp}");
    }
}

#[test]
fn a_second_daemon_on_the_same_database_is_refused() {
    let dir = prepare();
    let clock = Arc::new(FixedClock::new(t0()));
    let first = Daemon::open(config(dir.path()), registry(), clock.clone()).unwrap();
    let _held = first.lock().unwrap();
    let second = Daemon::open(config(dir.path()), registry(), clock).unwrap();
    let err = second.lock().err().expect("second daemon must not start");
    assert!(
        err.to_string()
            .contains("another arbitre daemon already serves this database"),
        "{err}"
    );
    // And the child process (a real second daemon) fails too.
    assert!(!child(dir.path(), None).success());
}
