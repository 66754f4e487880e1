//! WAL checkpoints taken off the writer's thread during a burst of commits
//! (issue 22 item 1).
//!
//! SQLite folds the write-ahead log back into the database file from the
//! thread whose commit crosses `wal_autocheckpoint` pages: in an inbox pass
//! that is the daemon's thread, between two batches, and it cost 5–7 % of
//! that thread (the copy and its fsync). [`Store::checkpoint_aside`] turns
//! the automatic checkpoint off on the daemon's connection and gives the
//! checkpoints to a thread with its own connection, nudged after each
//! commit. A PASSIVE checkpoint never takes the write lock and never waits
//! for a reader: it copies the frames no reader still needs and stops, so
//! the writer goes on committing meanwhile.
//!
//! Durability does not change: a commit is durable once its frames are in
//! the WAL and synced (`synchronous=FULL`), whoever copies them later.

use crate::{Result, Store};
use rusqlite::Connection;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::thread::JoinHandle;

/// The checkpoint thread of a [`Store`], and what to set back when it
/// goes.
pub(crate) struct Aside {
    to: Option<SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
    /// The connection's `wal_autocheckpoint` before it was turned off.
    pub(crate) pages: i64,
}

impl Aside {
    /// Asks for a checkpoint after the commits made so far; false when the
    /// thread is gone (it panicked), so the caller checkpoints again
    /// itself. Never blocks: nudges sent while a checkpoint runs make one
    /// more checkpoint, not one each, so the thread is never more than one
    /// checkpoint behind.
    pub(crate) fn nudge(&self) -> bool {
        match &self.to {
            Some(to) => !matches!(to.try_send(()), Err(TrySendError::Disconnected(()))),
            None => false,
        }
    }
}

impl Drop for Aside {
    /// The thread takes its last checkpoint and is waited for.
    fn drop(&mut self) {
        drop(self.to.take());
        if let Some(t) = self.thread.take() {
            if t.join().is_err() {
                tracing::warn!("the WAL checkpoint thread panicked");
            }
        }
    }
}

/// The checkpoint thread's loop: one PASSIVE checkpoint a nudge, and one
/// after the last, when the channel closes.
fn run(conn: Connection, nudges: Receiver<()>) {
    let checkpoint = || {
        // A failure here loses nothing: the frames stay in the WAL and the
        // next checkpoint (this thread's or the connection's own, once set
        // back) copies them.
        if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::warn!(error = %e, "WAL checkpoint failed; the next one copies the frames");
        }
    };
    while nudges.recv().is_ok() {
        checkpoint();
    }
    checkpoint();
}

impl Store {
    /// From now on, for the life of this `Store`, this connection does not
    /// checkpoint at commit: each [`Store::tx`] that commits nudges a
    /// thread with its own connection, which takes a PASSIVE checkpoint.
    /// The thread takes a last one and is joined when the `Store` is
    /// dropped. Calling it again does nothing; a database without a file
    /// (in memory) has no WAL and no thread. Should the thread die, the
    /// next commit sets the automatic checkpoint back.
    pub fn checkpoint_aside(&mut self) -> Result<()> {
        if self.aside.is_some() {
            return Ok(());
        }
        let Some(path) = self.path.clone() else {
            return Ok(());
        };
        let pages: i64 = self
            .conn
            .query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))?;
        let other = Connection::open(&path)?;
        other.busy_timeout(std::time::Duration::from_secs(10))?;
        let (to, nudges) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("checkpoint".into())
            .spawn(move || run(other, nudges))
            .map_err(|e| crate::StoreError::Io("the WAL checkpoint thread".into(), e))?;
        self.aside = Some(Aside {
            to: Some(to),
            thread: Some(thread),
            pages,
        });
        self.conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        Ok(())
    }

    /// After a commit: the checkpoint thread nudged, or, if it died, the
    /// connection's own checkpoint set back.
    pub(crate) fn after_commit(&mut self) -> Result<()> {
        let Some(aside) = &self.aside else {
            return Ok(());
        };
        if aside.nudge() {
            return Ok(());
        }
        let pages = aside.pages;
        self.aside = None;
        self.conn.pragma_update(None, "wal_autocheckpoint", pages)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn autocheckpoint(s: &Store) -> i64 {
        s.conn()
            .query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))
            .unwrap()
    }

    fn insert(s: &mut Store, i: usize) {
        s.tx(|tx| {
            tx.execute(
                "INSERT INTO scratch (k, v) VALUES (?1, ?2)",
                rusqlite::params![format!("k{i}"), "x".repeat(3000)],
            )
            .map(|_| ())
            .map_err(crate::StoreError::from)
        })
        .unwrap();
    }

    /// Rows of `db`'s file alone: what was checkpointed into it.
    fn rows_in_file(dir: &std::path::Path, db: &str) -> i64 {
        let alone = dir.join("alone.db");
        let _ = std::fs::remove_file(&alone);
        std::fs::copy(dir.join(db), &alone).unwrap();
        Connection::open(&alone)
            .unwrap()
            .query_row("SELECT COUNT(*) FROM scratch", [], |r| r.get(0))
            .unwrap_or(0)
    }

    #[test]
    fn checkpoint_aside_copies_the_wal_into_the_file_from_its_thread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.db");
        let mut s = Store::open(&path).unwrap();
        assert_eq!(autocheckpoint(&s), 1000);
        s.conn()
            .execute_batch("CREATE TABLE scratch (k TEXT, v TEXT)")
            .unwrap();
        s.checkpoint_aside().unwrap();
        s.checkpoint_aside().unwrap();
        assert_eq!(autocheckpoint(&s), 0);
        for i in 0..200 {
            insert(&mut s, i);
        }
        // The store still open (closing the last connection would
        // checkpoint by itself): the thread, nudged by the last commit,
        // copies every frame, and the database file alone, without its
        // WAL, comes to hold every row.
        let start = std::time::Instant::now();
        while rows_in_file(dir.path(), "a.db") < 200 {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "the checkpoint thread never copied the WAL"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        drop(s);
        // A store opened again checkpoints at commit, as before.
        let s = Store::open(&path).unwrap();
        assert_eq!(autocheckpoint(&s), 1000);
    }

    #[test]
    fn without_checkpoint_aside_nothing_reaches_the_file_below_the_automatic_threshold() {
        // The control of the test above: the same commits, fewer pages
        // than `wal_autocheckpoint`, the store still open (closing the
        // last connection checkpoints).
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.db");
        let mut s = Store::open(&path).unwrap();
        s.conn()
            .execute_batch("CREATE TABLE scratch (k TEXT, v TEXT)")
            .unwrap();
        s.conn()
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        for i in 0..200 {
            insert(&mut s, i);
        }
        assert!(rows_in_file(dir.path(), "b.db") < 200);
    }

    #[test]
    fn checkpoint_aside_in_memory_has_no_thread() {
        let mut s = Store::in_memory().unwrap();
        s.checkpoint_aside().unwrap();
        assert!(s.aside.is_none());
        s.tx(|tx| {
            tx.execute_batch("CREATE TABLE t (x)")
                .map_err(crate::StoreError::from)
        })
        .unwrap();
    }
}
