//! Issue 14 item 8: `arbitre backup` while the daemon runs, a restore into
//! a fresh folder, and a kill during a backup.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::backup::{backup, BEFORE_RENAME};
use arbitre::{Daemon, FixedClock};
use arbitre_core::Lang;
use arbitre_store::{journal, outbox, OutboxStatus, Store};
use common::*;
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

const MAILS: usize = 60;

fn order_mail(i: usize) -> Vec<u8> {
    let (who, pw) = if i & 1 == 0 {
        ("alice", "wonderland")
    } else {
        ("bob", "builder")
    };
    mail(
        &format!("{who}@example.org"),
        &format!("orders {i}"),
        &orders("g1", who, pw, &format!("ADD {}", i % 10 + 1)),
    )
}

fn shas(c: &rusqlite::Connection) -> BTreeSet<String> {
    let mut st = c.prepare("SELECT sha256 FROM mail_journal").unwrap();
    st.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Confirmations by Message-ID: (status, sent_at).
fn confirms(c: &rusqlite::Connection) -> BTreeMap<String, (OutboxStatus, Option<i64>)> {
    outbox::all(c)
        .unwrap()
        .into_iter()
        .filter(|r| r.mail.kind == "confirm")
        .map(|r| (r.mail.message_id, (r.status, r.sent_at)))
        .collect()
}

#[test]
fn backup_during_order_flow_restores() {
    let a = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut d = Daemon::open(config(a.path()), registry(), clock.clone()).unwrap();
    d.create_game(&tally_toml("g1", "early = false"), a.path())
        .unwrap();
    let dest = a.path().join("backups/arbitre-backup.db");
    let db = a.path().join("arbitre.db");
    let mut taker = None;
    for round in 0..MAILS / 6 {
        for i in round * 6..round * 6 + 6 {
            d.deliver(&order_mail(i)).unwrap();
        }
        d.cycle().unwrap();
        if round == 3 {
            // Another process's connection, as `arbitre backup` is, while
            // this daemon goes on handling mail.
            let (db, dest) = (db.clone(), dest.clone());
            taker = Some(std::thread::spawn(move || {
                backup(&Store::open(&db).unwrap(), &dest, Lang::En).unwrap()
            }));
        }
    }
    let done = taker.unwrap().join().unwrap();
    assert!(done.bytes > 0);
    let all_a = shas(d.store.conn());
    assert_eq!(all_a.len(), MAILS);

    let saved = Store::open(&dest).unwrap();
    let before = shas(saved.conn());
    assert!(
        before.len() >= 24,
        "the backup holds every mail journaled before it started: {}",
        before.len()
    );
    let saved_confirms = confirms(saved.conn());
    drop(saved);
    assert!(
        !dest.with_extension("db-wal").exists(),
        "the backup is one self-contained file"
    );

    // Restore into a fresh folder; the whole flow of mails arrives again
    // (the mail store copied back, or the MTA redelivering).
    let b = tempfile::tempdir().unwrap();
    std::fs::copy(&dest, b.path().join("arbitre.db")).unwrap();
    let mut r = Daemon::open(config(b.path()), registry(), clock).unwrap();
    for i in 0..MAILS {
        r.deliver(&order_mail(i)).unwrap();
    }
    r.cycle().unwrap();
    let c = r.store.conn();
    assert!(
        before.is_subset(&shas(c)),
        "every mail journaled before the backup is there"
    );
    assert_eq!(shas(c), all_a, "every mail journaled once");
    for sha in &before {
        assert!(journal::seen(c, sha).unwrap());
    }
    let after = confirms(c);
    assert_eq!(after.len(), MAILS, "one confirmation per mail, none twice");
    for (id, was) in &saved_confirms {
        assert_eq!(
            after.get(id),
            Some(was),
            "{id}: as in the backup, not answered again"
        );
    }
    // On the wire: the restored referee mailed only what the backup had not sent.
    let files: BTreeSet<String> = std::fs::read_dir(b.path().join("outbox"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("confirm."))
        .collect();
    let sent_before = saved_confirms
        .values()
        .filter(|(s, _)| *s == OutboxStatus::Sent)
        .count();
    assert_eq!(
        files.len(),
        MAILS - sent_before,
        "nothing the backup had sent is sent again"
    );
    for (id, (s, _)) in &saved_confirms {
        if *s == OutboxStatus::Sent {
            assert!(
                !files.iter().any(|f| f.starts_with(id.as_str())),
                "{id} sent twice"
            );
        }
    }
}

const CHILD: &str = "ARBITRE_BACKUP_CHILD";

/// The `arbitre backup` process of `crash_during_backup`: backs up over
/// and over until killed (or aborted at a failpoint).
#[test]
#[ignore = "the child of crash_during_backup; runs only with ARBITRE_BACKUP_CHILD set"]
fn child_backup() {
    let Ok(dir) = std::env::var(CHILD) else {
        return;
    };
    let dir = Path::new(&dir);
    let store = Store::open(&dir.join("arbitre.db")).unwrap();
    loop {
        backup(&store, &dir.join("backup.db"), Lang::En).unwrap();
    }
}

fn child(dir: &Path, failpoint: Option<&str>) -> std::process::Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--exact",
        &common::test_name(module_path!(), "child_backup"),
        "--ignored",
        "--nocapture",
        "--test-threads",
        "1",
    ])
    .env(CHILD, dir)
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null());
    if let Some(fp) = failpoint {
        cmd.env("ARBITRE_FAILPOINT", fp);
    }
    cmd.spawn().unwrap()
}

fn integrity(path: &Path) -> String {
    let c = rusqlite::Connection::open(path).unwrap();
    c.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

/// A backup killed at any instant never leaves half a backup under the
/// final name, never harms the database, and the next backup succeeds.
#[test]
fn crash_during_backup() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut d = Daemon::open(config(dir.path()), registry(), clock).unwrap();
    d.create_game(&tally_toml("g1", "early = false"), dir.path())
        .unwrap();
    for i in 0..40 {
        d.deliver(&order_mail(i)).unwrap();
    }
    d.cycle().unwrap();
    let journaled = shas(d.store.conn());
    let backup_path = dir.path().join("backup.db");

    // Aborted between the checked copy and the rename: no backup yet.
    let status = child(dir.path(), Some(BEFORE_RENAME)).wait().unwrap();
    assert_eq!(
        status.signal(),
        Some(6),
        "the child aborted at the failpoint: {status:?}"
    );
    assert!(!backup_path.exists(), "no half backup under the final name");
    // A complete backup, then one aborted before its rename: the previous stays.
    backup(&d.store, &backup_path, Lang::En).unwrap();
    let first = std::fs::read(&backup_path).unwrap();
    let status = child(dir.path(), Some(BEFORE_RENAME)).wait().unwrap();
    assert_eq!(status.signal(), Some(6));
    assert_eq!(
        std::fs::read(&backup_path).unwrap(),
        first,
        "the previous backup is intact"
    );

    // SIGKILL at seeded instants while the child backs up over and over,
    // and the daemon goes on writing meanwhile.
    let mut killed = 0;
    for k in 0..12u64 {
        let mut c = child(dir.path(), None);
        std::thread::sleep(Duration::from_millis(5 + (k * 37) % 60));
        d.deliver(&order_mail(100 + k as usize)).unwrap();
        d.cycle().unwrap();
        if c.try_wait().unwrap().is_none() {
            c.kill().unwrap();
            killed += 1;
        }
        c.wait().unwrap();
        assert_eq!(
            integrity(&backup_path),
            "ok",
            "after kill {k}: the backup under its name is whole"
        );
        assert_eq!(integrity(&dir.path().join("arbitre.db")), "ok");
    }
    assert!(
        killed >= 6,
        "most children were killed while running: {killed}"
    );
    // The daemon's database is unharmed and the next backup works.
    assert!(journaled.is_subset(&shas(d.store.conn())));
    backup(&d.store, &backup_path, Lang::En).unwrap();
    let restored = Store::open(&backup_path).unwrap();
    assert_eq!(shas(restored.conn()), shas(d.store.conn()));
}
