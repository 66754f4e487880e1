//! One daemon per database.
//!
//! Two daemons on one database would both poll the inbox and both send the
//! outbox. The lock is a small SQLite file next to the database
//! (`arbitre.db.lock`) held in an EXCLUSIVE transaction for the daemon's whole
//! life: the operating system drops it when the process dies, even by
//! SIGKILL, so no stale lock survives a crash (a PID file would). The
//! holder's PID is written for the error message.

use crate::{Result, StoreError};
use rusqlite::Connection;
use std::path::{Path, PathBuf};

pub struct DaemonLock {
    _conn: Connection,
    path: PathBuf,
}

impl DaemonLock {
    pub fn acquire(db: &Path) -> Result<DaemonLock> {
        let mut name = db.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let conn = Connection::open(&path)?;
        conn.busy_timeout(std::time::Duration::from_millis(0))?;
        // rollback journal (not WAL): EXCLUSIVE then really excludes readers too.
        let _ = conn.pragma_update(None, "journal_mode", "DELETE");
        let locked = |_| StoreError::Locked(path.display().to_string());
        conn.execute_batch("CREATE TABLE IF NOT EXISTS holder (pid INTEGER)")
            .map_err(locked)?;
        conn.execute_batch("BEGIN EXCLUSIVE").map_err(locked)?;
        conn.execute("DELETE FROM holder", [])?;
        conn.execute("INSERT INTO holder (pid) VALUES (?1)", [std::process::id()])?;
        Ok(DaemonLock { _conn: conn, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_daemon_is_refused_until_the_first_stops() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("x.db");
        let first = DaemonLock::acquire(&db).unwrap();
        let err = DaemonLock::acquire(&db)
            .err()
            .expect("second lock must fail");
        assert!(err.to_string().contains("another arbitre daemon"), "{err}");
        drop(first);
        DaemonLock::acquire(&db).unwrap();
    }
}
