//! # arbitre-store: everything the referee must not forget
//!
//! One SQLite database (WAL, `synchronous=FULL`) holds the games, their players
//! (argon2id password hashes only), every resolved turn's state, every order
//! mail's raw text with its per-line verdicts, the inbound mail journal and the
//! outbox.
//!
//! ## Why the API is "functions over a connection"
//! Exactly-once handling of a mail needs several writes (journal, orders,
//! reply) to commit together, and a turn needs its new state, its archived
//! orders and every report to commit together. The daemon therefore opens one
//! transaction with [`Store::tx`] and calls the table modules' functions on it;
//! nothing in this crate commits behind the caller's back. Every function takes
//! `&Connection` (a `Transaction` derefs to one).
//!
//! ## Invariants
//! * a mail's SHA-256 appears at most once in the journal (primary key): a mail
//!   seen again after a crash is recognised, never answered twice;
//! * `(game, turn)` is unique in `turns`: the same turn cannot resolve twice;
//! * an outbox row's Message-ID is unique: a reply is queued at most once;
//! * passwords are stored only as argon2id PHC strings, compared in constant time
//!   by the argon2 crate;
//! * time is whatever the caller passes (unix seconds): the store never reads a clock.

pub mod absences;
pub mod counters;
pub mod error;
pub mod faults;
pub mod games;
pub mod journal;
pub mod kinds;
pub mod lock;
pub mod migrations;
pub mod orders;
pub mod outbox;
pub mod password;
pub mod press;
mod raw_text;
pub mod reminders;
pub mod seats;
pub mod sessions;
pub mod settings;
pub mod signups;
pub mod turns;
pub mod wrong_passwords;

pub use error::StoreError;
pub use faults::{Fault, SendingPause};
pub use games::{GameRow, GameStatus, PlayerRow};
pub use journal::JournalEntry;
pub use kinds::{JournalOutcome, MailKind, PreviewMode, SeatChangeKind, SignupStatus};
pub use lock::DaemonLock;
pub use orders::OrderRow;
pub use outbox::{NewMail, OutboxRow, OutboxStatus};
pub use password::PasswordHasher;
pub use raw_text::RawPart;
pub use turns::TurnRow;
pub use wrong_passwords::WrongPassword;

/// The handle every table function takes: the database, or the caller's
/// transaction (a `Transaction` derefs to one). Re-exported so that the
/// daemon passes it along without depending on rusqlite itself (issue 16
/// item 2): SQL is written in this crate only, which
/// `crates/arbitre/tests/store_boundary.rs` checks.
pub use rusqlite::Connection;
use rusqlite::{Transaction, TransactionBehavior};
use std::path::{Path, PathBuf};

/// Statements kept prepared per connection (issue 22 item 1): compiling
/// the SQL of every query again for every mail was 14 % of the inbox's
/// time. rusqlite's cache holds [`STATEMENT_CACHE`] statements, keyed by
/// their SQL text, and re-prepares one by itself if the schema changed.
pub(crate) trait Cached {
    /// [`Connection::execute`] through the statement cache.
    fn execute_cached<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize>;
    /// [`Connection::query_row`] through the statement cache.
    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>;
}

impl Cached for Connection {
    fn execute_cached<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_row(params, f)
    }
}

/// How many prepared statements a connection keeps (the store has fewer
/// distinct queries than this on any one path).
const STATEMENT_CACHE: usize = 256;

pub type Result<T> = std::result::Result<T, StoreError>;

/// SQLite's `PRAGMA data_version` of this connection: a number that
/// changes when another connection (another process, the CLI, the web
/// face's) commits, and only then; this connection's own commits leave it
/// as it is. Two equal readings around a gap tell that nobody else wrote in
/// between (the inbox keeps the rows its checks read for its write
/// transaction on that ground, issue 22 item 1).
pub fn data_version(c: &Connection) -> Result<i64> {
    Ok(c.query_row_cached("PRAGMA data_version", [], |r| r.get(0))?)
}

/// An open database.
pub struct Store {
    conn: Connection,
    path: Option<PathBuf>,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and migrates it.
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| StoreError::Io(path.display().to_string(), e))?;
            }
        }
        let conn = Connection::open(path)?;
        // WAL lets a CLI command read while the daemon writes; FULL makes a
        // commit durable before we move the mail to cur/ (issue 8).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        Self::configure(conn, Some(path.to_path_buf()))
    }

    /// A private in-memory database, for tests.
    pub fn in_memory() -> Result<Store> {
        Self::configure(Connection::open_in_memory()?, None)
    }

    fn configure(conn: Connection, path: Option<PathBuf>) -> Result<Store> {
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // The savepoint journal of a batch's mails (issue 22 item 1): a
        // statement journal past 64 KiB spilled to a temporary file, and
        // its writes were 14 % of the inbox's time. It is only ever read to
        // roll a savepoint back in this process, never for durability (the
        // WAL is), so memory loses nothing.
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        let mut store = Store { conn, path };
        migrations::migrate(&mut store.conn)?;
        Ok(store)
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Read access outside a transaction.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Runs `f` in one IMMEDIATE transaction: commits if it returns `Ok`,
    /// rolls back otherwise. IMMEDIATE takes the write lock up front, so two
    /// processes never interleave a read-then-write.
    pub fn tx<T, E>(
        &mut self,
        f: impl FnOnce(&Transaction<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E>
    where
        E: From<StoreError>,
    {
        self.within(TransactionBehavior::Immediate, f)
    }

    /// Runs `f` in one read transaction (DEFERRED, never writing): every
    /// read of `f` sees the database at one instant, and pays the read
    /// lock once instead of once per statement (issue 22 item 1: the
    /// inbox's checks outside the write lock spent a third of their time
    /// taking and dropping it). In WAL mode it blocks no writer.
    pub fn read<T, E>(
        &mut self,
        f: impl FnOnce(&Connection) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E>
    where
        E: From<StoreError>,
    {
        // The commit ends the snapshot; nothing was written, so nothing
        // is synced.
        self.within(TransactionBehavior::Deferred, |tx| f(tx))
    }

    /// `f` in one transaction of `behavior`, committed if `f` succeeds
    /// (dropped, so rolled back, if it fails).
    fn within<T, E>(
        &mut self,
        behavior: TransactionBehavior,
        f: impl FnOnce(&Transaction<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(behavior)
            .map_err(StoreError::from)?;
        let out = f(&tx)?;
        tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// Copies the whole database into a new file at `dest` (issue 14 item
    /// 8), with SQLite's online backup API: every page is copied in ONE
    /// step, under one read transaction, so the copy is the database as it
    /// was at one instant (a commit is in it whole or not at all), while
    /// the daemon goes on writing (WAL: readers never block the writer).
    /// The copy is checked (`PRAGMA integrity_check`) before this returns;
    /// making it durable and giving it its final name is the caller's.
    pub fn backup_to(&self, dest: &Path) -> Result<()> {
        let mut dst = Connection::open(dest)?;
        {
            use rusqlite::backup::{Backup, StepResult};
            let b = Backup::new(&self.conn, &mut dst)?;
            // -1: every page in one step (rusqlite's run_to_completion
            // only takes positive steps, which restart on every write).
            loop {
                match b.step(-1)? {
                    StepResult::Done => break,
                    StepResult::More => {}
                    _ => std::thread::sleep(std::time::Duration::from_millis(50)),
                }
            }
        }
        let check: String = dst.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        if check != "ok" {
            return Err(StoreError::Corrupt(format!(
                "backup {} fails its integrity check: {check}",
                dest.display()
            )));
        }
        // The copy holds the source's WAL flag: fold everything into the
        // main file so the backup is one self-contained file.
        dst.pragma_update(None, "journal_mode", "DELETE")?;
        dst.close().map_err(|(_, e)| StoreError::from(e))?;
        Ok(())
    }

    /// Takes the single-daemon lock next to the database (see [`lock`]).
    pub fn lock_daemon(&self) -> Result<Option<DaemonLock>> {
        match &self.path {
            Some(p) => DaemonLock::acquire(p).map(Some),
            None => Ok(None),
        }
    }
}

/// A savepoint inside the caller's transaction (the daemon keeps one per
/// mail of a batch, issue 9): [`Savepoint::release`] keeps what was written
/// since, [`Savepoint::roll_back`] undoes it and the transaction goes on.
pub struct Savepoint<'c> {
    conn: &'c Connection,
}

impl<'c> Savepoint<'c> {
    pub fn begin(conn: &'c Connection) -> Result<Savepoint<'c>> {
        conn.execute_cached("SAVEPOINT arbitre_step", [])?;
        Ok(Savepoint { conn })
    }

    pub fn release(self) -> Result<()> {
        self.conn.execute_cached("RELEASE arbitre_step", [])?;
        Ok(())
    }

    pub fn roll_back(self) -> Result<()> {
        self.conn
            .execute_batch("ROLLBACK TO arbitre_step; RELEASE arbitre_step")?;
        Ok(())
    }
}
