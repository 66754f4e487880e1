//! The capacity simulation's limits (`arbitre_benches::limits`) redo the
//! daemon's own work and nothing less: the same states from the same turns,
//! the same files from the same mails. A limit that did less would make
//! the daemon's ratio to it look worse than it is, one that did more,
//! better.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_benches::limits;
use arbitre_benches::mail::{Lab, MIX};
use arbitre_store::{outbox, PasswordHasher};
use std::collections::BTreeMap;
use std::path::Path;

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_limits_redo_the_daemons_turns_and_mails() {
    let mut lab = Lab::with_config(&MIX, 4, PasswordHasher::fast(), |c| c.png_maps = false);
    lab.rotate_files();
    let first = outbox::last_id(lab.daemon.store.conn()).unwrap() + 1;
    // Every seat sends: every game resolves in this one cycle.
    let mails = lab.order_mails();
    lab.deliver(&mails);
    let report = lab.daemon.cycle().unwrap();
    assert_eq!(report.resolved.len(), 4, "every game resolved");
    let sent = report.sent;
    assert!(sent > 4, "reports and confirmations were sent");

    let c = lab.daemon.store.conn();
    let games: Vec<&str> = lab.games.iter().map(|g| g.id.as_str()).collect();
    // Panics if a state differs from the one the daemon stored.
    limits::rulesets(
        c,
        &arbitre::registry::Registry::builtin(),
        games.iter().copied(),
        lab.daemon.now(),
    );

    let last = outbox::last_id(c).unwrap();
    let limit_dir = lab.dir.path().join("limit");
    let written = limits::transport(c, first, last, &limit_dir, &lab.daemon.config.referee);
    assert_eq!(written.mails, sent);
    let daemon_files = files(&lab.dir.path().join("outbox"));
    assert_eq!(daemon_files.len(), sent);
    assert_eq!(
        written.bytes,
        daemon_files.values().map(|b| b.len() as u64).sum::<u64>()
    );
    assert_eq!(
        files(&limit_dir),
        daemon_files,
        "the same files, byte for byte"
    );
}
