//! Issue 22 item 1: the inbox keeps the game and seat rows its checks read
//! (outside the write lock) for its write transaction only when
//! `data_version` reads the same in both. That holds only if the number
//! moves with every other connection's commit and never with the
//! connection's own.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_store::{data_version, Store};
use rusqlite::Connection;

#[test]
fn data_version_moves_with_other_connections_commits_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.db");
    let mut store = Store::open(&path).unwrap();
    let other = Connection::open(&path).unwrap();
    let insert = "INSERT INTO games (id, ruleset, seed, lang, config, created_at) VALUES (?1, 'eds', 1, 'de', '', 0)";

    let v0 = store.read(data_version).unwrap();
    // Our own commit: the same number.
    store
        .tx(|tx| -> arbitre_store::Result<()> {
            tx.execute(insert, ["ours"])?;
            Ok(())
        })
        .unwrap();
    let v1 = store.tx(|tx| data_version(tx)).unwrap();
    assert_eq!(v0, v1, "a connection's own commit leaves data_version");

    // Another connection's commit between a read transaction and a write
    // one: a different number in the write transaction.
    let before = store.read(data_version).unwrap();
    other.execute(insert, ["theirs"]).unwrap();
    let after = store.tx(|tx| data_version(tx)).unwrap();
    assert_ne!(
        before, after,
        "another connection's commit moves data_version"
    );

    // Another connection's commit while the read transaction is open (its
    // snapshot began before): read at the end of that transaction, the
    // number still differs from the write transaction's.
    let inside = store
        .read(|c| -> arbitre_store::Result<i64> {
            let _: i64 = c.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
            other.execute(insert, ["during"]).unwrap();
            data_version(c)
        })
        .unwrap();
    let later = store.tx(|tx| data_version(tx)).unwrap();
    assert_ne!(inside, later, "a commit during the read snapshot is seen");

    // Nothing in between: equal again.
    let again = store.read(data_version).unwrap();
    let in_tx = store.tx(|tx| data_version(tx)).unwrap();
    assert_eq!(again, in_tx);
}
