//! The life of one inbound mail (issue 2 item 4; exactly once, issue 8).
//!
//! 1. read it from `new/` (refused unread if larger than `max_mail_size`);
//! 2. its SHA-256 is looked up in the journal: a hit means it was handled
//!    before a crash, and only step 6 is repeated;
//! 3. prepare, outside any write lock (issue 14 item 1): MIME decoding, the
//!    order block, the DKIM verdict (then the raw bytes are dropped) and,
//!    for a block naming a seat with its right password, the ruleset's
//!    check and the echoed lines of the confirmation, read from a snapshot;
//! 4. decide, inside one IMMEDIATE transaction: journal row, orders (if
//!    any) and the reply in the outbox. The prepared check is used only when the
//!    state, seat and block it was made for are still the ones the
//!    transaction reads; else it is done again there, so the decision is
//!    the one a mail handled wholly inside the transaction would get;
//! 5. commit;
//! 6. move the file to `cur/`.
//!
//! A crash before 5 handles the mail again from scratch (nothing was
//! written); a crash between 5 and 6 only repeats the move. Replies are
//! never sent from here: the outbox sender does that after the commit.
//!
//! Three threads share a Maildir pass (issue 22 item 1): a reader does
//! steps 1 and 3's decoding and DKIM (one batch ahead of the daemon's
//! thread), the daemon's thread does 2, the check, 4 and 5, and a mover
//! does 6. They hand mails on in the inbox's order, so a mail still sees
//! the writes of the mails before it. An IMAP pass runs on one thread,
//! its connection being one.
//!
//! A mail whose Message-ID and sender are already in the journal is a
//! duplicate delivery (issue 14 item 12): journaled as ignored, nothing else.
//!
//! Never answered (no mail loops): bounces, Auto-Submitted mail, list and
//! bulk mail, mail from the referee's own address, mail without a sender.
//! Answered but nothing stored: no order block, a malformed header, an
//! unknown game or player, a wrong password, a finished game.

use crate::config::DaemonConfig;
use crate::daemon::{Daemon, GameView};
use crate::error::Result;
use crate::failpoint;
use crate::loaded::Loaded;
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use crate::registry::Registry;
use crate::services::authenticity::Channel;
use crate::services::command::{split_commands, starts_with_command};
use crate::services::texts::{svc_text, SvcMsg};
use arbitre_core::{Lang, PlayerId};
use arbitre_mail::{
    parse_mail, AutoKind, DkimVerdict, EnvelopeError, InboundMail, InboxEntry, MailError,
};
use arbitre_store::Connection;
use arbitre_store::{games, journal, JournalEntry};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// Moved with the order decision to request/orders.rs (issue 16 item 1).
pub use crate::request::orders::{confirmation, confirmation_lines, NewOrders};
use crate::request::orders::{sha_of, OrdersKey, PreChecked};
/// What became of a mail: the journal's `outcome`, one enum of the store
/// (issue 16 item 2).
pub use arbitre_store::JournalOutcome as Disposition;

/// Mails handled in one transaction (issue 9): one durable commit (an fsync
/// of the WAL) for up to this many mails instead of one each, which capped
/// the inbox at the disk's commit rate (~1,000 mails/s on the test machine).
pub const BATCH_MAILS: usize = 64;
/// A batch is also committed once the mails read for it hold this many
/// bytes, so that 64 mails near `max_mail_size` are never in memory at once.
pub const BATCH_BYTES: usize = 4 * 1024 * 1024;
/// An inbox pass keeps the decoded states of at most about this many
/// games (it forgets them all between two batches past it), so a pass
/// over thousands of games does not hold all their states at once.
pub const LOADED_GAMES: usize = 256;

impl Daemon {
    /// Handles every mail waiting in `new/`, in file-name order. Returns how
    /// many were handled. A mail that fails for a reason of its own is
    /// logged and left for the next cycle; a database error stops the cycle.
    ///
    /// Mails are handled in batches (issue 9): up to [`BATCH_MAILS`] mails
    /// are decided one after the other inside ONE IMMEDIATE transaction,
    /// each under its own savepoint, then committed together, and only then
    /// moved to `cur/`. Exactly once still holds: a crash before the commit
    /// leaves every mail of the batch in `new/` with nothing written, so all
    /// are handled again from scratch; a crash after it finds each of them in
    /// the journal (by SHA-256) and only repeats the move. Each mail still
    /// sees the writes of the mails before it (same transaction), so the
    /// outcome is the one of handling them one by one, in the same order.
    /// A mail whose handling fails for a reason that is not the database's
    /// (a state the ruleset cannot load: the referee's fault) is rolled back
    /// to its savepoint and left in `new/`; the rest of the batch commits.
    /// A database error rolls the whole batch back, which is then handled
    /// again one transaction per mail ([`Daemon::handle_entry`]), so the
    /// mails before the failing one are kept and the cycle stops at it, as
    /// before batching.
    pub fn process_inbox(&mut self) -> Result<usize> {
        let entries = self.inbox.pending()?;
        if entries.is_empty() {
            return Ok(0);
        }
        // Yesterday's rate-limit counters are of no use (issue 14 item 2);
        // the current and previous hour are kept.
        let hour = arbitre_store::counters::hour(self.now().timestamp());
        arbitre_store::counters::prune(self.store.conn(), hour - 1)?;
        let maildir = match &self.inbox {
            arbitre_mail::Inbox::Maildir(m) => Some(m.clone()),
            arbitre_mail::Inbox::Imap { .. } => None,
        };
        std::thread::scope(|scope| {
            // A Maildir is read, hashed and decoded on a thread of its
            // own, one batch ahead, and its committed mails are moved on
            // another (issue 22 item 1): the daemon's thread only checks,
            // decides and writes. An IMAP inbox is read here, in order, on
            // its one connection.
            let (source, mover) = match maildir {
                Some(m) => {
                    let cur = m.root().join("cur");
                    let source = Source::reader(scope, m, entries, self.config.clone());
                    (source, Some(Mover::start(scope, cur)))
                }
                None => (Source::Here(entries.into_iter()), None),
            };
            let (n, mover) = self.process_entries(source, mover)?;
            let Some(mover) = mover else {
                return Ok(n);
            };
            // Renames the mover could not do go through `mark_done`, which
            // tells a file already in cur/ from one gone.
            let mut n = n;
            for e in mover.finish() {
                if let Err(err) = self.inbox.mark_done(&e) {
                    n -= 1;
                    tracing::error!(entry = %e.name(), error = %err, "mail recorded but not moved to cur/; the next cycle moves it");
                }
            }
            failpoint::hit("after-move");
            Ok(n)
        })
    }

    /// The body of [`Daemon::process_inbox`]: the mails of `source`, batch
    /// after batch. Returns how many were handled (moved, or handed to
    /// `mover`) and the mover, to be waited for.
    fn process_entries<'s>(
        &mut self,
        mut source: Source,
        mut mover: Option<Mover<'s>>,
    ) -> Result<(usize, Option<Mover<'s>>)> {
        // Each game's state is decoded once for the whole pass (issue 22
        // item 1), by the checks outside the lock and inside it alike, and
        // recognised by its stamp in the next batches.
        use std::mem::take;
        let registry = Arc::clone(&self.registry);
        let loaded = Loaded::new();
        let mut n = 0;
        let mut batch: Vec<ReadMail> = Vec::new();
        let mut bytes = 0;
        while let Some(read) = source.next(&mut self.inbox, &self.config) {
            let (mail, size) = match read {
                Read::Mail(mail, size) => (mail, size),
                Read::Failed(entry, MailError::TooLarge { size, limit }) => {
                    // Its own transaction, in its place in the order.
                    n += self.commit_batch(take(&mut batch), &registry, &loaded, mover.as_mut())?;
                    bytes = 0;
                    let _span = tracing::info_span!("mail", entry = %entry.name()).entered();
                    match self.too_large(&entry, size, limit, self.now()) {
                        Ok(()) => n += 1,
                        Err(crate::error::DaemonError::Store(e)) => return Err(e.into()),
                        Err(e) => {
                            tracing::error!(error = %e, "mail left in new/ for the next cycle")
                        }
                    }
                    continue;
                }
                Read::Failed(_, e) if crate::serve::is_connection_failure(&e) => {
                    // The server went away mid-pass: keep what was read,
                    // and let the serve loop back off (issue 14 item 10).
                    n += self.commit_batch(take(&mut batch), &registry, &loaded, mover.as_mut())?;
                    tracing::info!(handled = n, "inbox pass cut short");
                    return Err(e.into());
                }
                Read::Failed(entry, e) => {
                    tracing::error!(entry = %entry.name(), error = %e, "mail unreadable, left in new/ for the next cycle");
                    continue;
                }
            };
            bytes += size;
            batch.push(*mail);
            if batch.len() >= BATCH_MAILS || bytes >= BATCH_BYTES {
                n += self.commit_batch(take(&mut batch), &registry, &loaded, mover.as_mut())?;
                bytes = 0;
                if loaded.len() > LOADED_GAMES {
                    loaded.clear();
                }
            }
        }
        n += self.commit_batch(batch, &registry, &loaded, mover.as_mut())?;
        Ok((n, mover))
    }

    /// One batch of read mails: decided in one transaction, committed, moved.
    /// Returns how many were handled (moved to `cur/`).
    fn commit_batch<'r>(
        &mut self,
        batch: Vec<ReadMail>,
        registry: &'r Registry,
        loaded: &Loaded<'r>,
        mover: Option<&mut Mover<'_>>,
    ) -> Result<usize> {
        if batch.is_empty() {
            return Ok(0);
        }
        let _span = tracing::info_span!("batch", mails = batch.len()).entered();
        // The ruleset's check is made before the write lock is taken (issue
        // 14 item 1), from one read snapshot for the batch (`Store::read`),
        // so a long check does not hold up the GM's commands. A mail already
        // in the journal (handled before a crash, so rare) is checked too,
        // for nothing: looking each mail up twice cost more (issue 22 item 1).
        let Daemon {
            store,
            config,
            clock,
            ..
        } = self;
        let (entries, mut prepared): (Vec<(InboxEntry, String)>, Vec<Prepared>) = batch
            .into_iter()
            .map(|m| ((m.entry, m.sha), m.prepared))
            .unzip();
        // The game and seat rows the checks read are kept for the
        // decisions (issue 22 item 1) while nothing can have changed them:
        // no other connection committed between the two transactions (the
        // same `data_version`), and every mail decided since they were read
        // was one that changes no game and no seat (`keeps_rows`).
        loaded.keep_rows();
        let version = store.read(|c| -> Result<i64> {
            for p in prepared.iter_mut() {
                precheck(c, registry, config, p, loaded)?;
            }
            Ok(arbitre_store::data_version(c)?)
        });
        let version = match version {
            Ok(v) => v,
            Err(e) => {
                loaded.stop_rows();
                return Err(e);
            }
        };
        let decided = store.tx(|tx| -> Result<Vec<bool>> {
            if arbitre_store::data_version(tx)? != version {
                loaded.forget_rows();
            }
            let mut done = vec![false; entries.len()];
            for (i, ((entry, sha), p)) in entries.iter().zip(prepared).enumerate() {
                let _span = tracing::info_span!("mail", entry = %entry.name()).entered();
                if journal::seen(tx, sha)? {
                    tracing::info!(sha256 = %sha, "already handled before a restart: only moving it to cur/");
                    done[i] = true;
                    continue;
                }
                failpoint::hit("after-read");
                let now = clock.now();
                let step = arbitre_store::Savepoint::begin(tx)?;
                let one_block = p.more.is_empty();
                let decided = decide_prepared(tx, registry, config, p, sha, now, loaded).and_then(|d| {
                    if !(one_block && d.keeps_rows()) {
                        loaded.forget_rows();
                    }
                    apply(tx, config, now, d)
                });
                match decided {
                    Ok(()) => {
                        step.release()?;
                        done[i] = true;
                    }
                    Err(crate::error::DaemonError::Store(e)) => return Err(e.into()),
                    Err(e) => {
                        step.roll_back()?;
                        // A rolled-back write of a turn gave out a stamp
                        // that the next write gives again, maybe to another
                        // state: no handle loaded since may be trusted.
                        loaded.clear();
                        // A ruleset panic stops its game, not the batch
                        // (issue 14 item 7): recorded in the batch's
                        // transaction, the mail waits for `arbitre resume`.
                        if crate::fault::record_if_panic(tx, config, &e, now)? {
                            tracing::warn!(error = %e, "mail left in new/ until the game is resumed");
                        } else if let crate::error::DaemonError::Faulted(_) = e {
                            tracing::info!(error = %e, "mail left in new/");
                        } else {
                            tracing::error!(error = %e, "mail left in new/ for the next cycle");
                        }
                    }
                }
            }
            failpoint::hit("before-commit");
            Ok(done)
        });
        loaded.stop_rows();
        let done = match decided {
            Ok(done) => done,
            Err(crate::error::DaemonError::Store(e)) => {
                loaded.clear();
                tracing::warn!(error = %e, "database error in a batch: handling its mails one transaction each");
                let mut n = 0;
                for (entry, _) in &entries {
                    let _span = tracing::info_span!("mail", entry = %entry.name()).entered();
                    match self.handle_entry(entry) {
                        Ok(()) => n += 1,
                        Err(crate::error::DaemonError::Store(e)) => return Err(e.into()),
                        Err(e) => {
                            tracing::error!(error = %e, "mail left in new/ for the next cycle")
                        }
                    }
                }
                return Ok(n);
            }
            Err(e) => return Err(e),
        };
        failpoint::hit("after-commit-before-move");
        let entries: Vec<InboxEntry> = entries.into_iter().map(|(e, _)| e).collect();
        let n = match mover {
            Some(mover) => mover.hand_over(entries, &done),
            None => {
                let n = self.move_to_cur(&entries, &done);
                failpoint::hit("after-move");
                n
            }
        };
        Ok(n)
    }

    /// Moves the committed mails of a batch out of `new/`; returns how many.
    /// In a Maildir the renames are not flushed by a directory fsync: the
    /// journal, committed before, is what makes a mail handled, and a move
    /// lost to a power cut only shows the mail again in `new/`, where the
    /// journal recognises it and the move is repeated (`journal::seen`).
    /// The two fsyncs a batch used to pay were 6 % of the inbox's time
    /// (issue 22 item 1). A rename that fails (the file moved by someone
    /// else) and an IMAP inbox go through `mark_done`. A failed move is
    /// repeated by the next cycle.
    fn move_to_cur(&mut self, batch: &[InboxEntry], done: &[bool]) -> usize {
        let mut n = 0;
        for (entry, ok) in batch.iter().zip(done) {
            if !ok {
                continue;
            }
            if let (arbitre_mail::Inbox::Maildir(m), InboxEntry::Maildir(e)) = (&self.inbox, entry)
            {
                if std::fs::rename(
                    &e.path,
                    m.root().join("cur").join(format!("{}:2,S", e.name)),
                )
                .is_ok()
                {
                    n += 1;
                    continue;
                }
            }
            match self.inbox.mark_done(entry) {
                Ok(()) => n += 1,
                Err(e) => {
                    tracing::error!(entry = %entry.name(), error = %e, "mail recorded but not moved to cur/; the next cycle moves it")
                }
            }
        }
        n
    }

    /// One mail in its own transaction: the path of a batch that met a
    /// database error (see [`Daemon::process_inbox`]).
    fn handle_entry(&mut self, entry: &InboxEntry) -> Result<()> {
        let now = self.now();
        let raw = match self.inbox.read(entry, self.config.max_mail_size) {
            Ok(raw) => raw,
            Err(MailError::TooLarge { size, limit }) => {
                return self.too_large(entry, size, limit, now)
            }
            Err(e) => return Err(e.into()),
        };
        let sha = hex::encode(Sha256::digest(&raw));
        if journal::seen(self.store.conn(), &sha)? {
            tracing::info!(sha256 = %sha, "already handled before a restart: only moving it to cur/");
            self.inbox.mark_done(entry)?;
            return Ok(());
        }
        failpoint::hit("after-read");
        let mut p = prepare(&raw, &self.config);
        drop(raw);
        let Daemon {
            store,
            registry,
            config,
            ..
        } = self;
        let registry = &*registry;
        let loaded = Loaded::new();
        precheck(store.conn(), registry, config, &mut p, &loaded)?;
        let handled = store.tx(|tx| -> Result<()> {
            let d = decide_prepared(tx, registry, config, p, &sha, now, &loaded)?;
            apply(tx, config, now, d)?;
            failpoint::hit("before-commit");
            Ok(())
        });
        if let Err(e) = handled {
            store.tx(|tx| crate::fault::record_if_panic(tx, config, &e, now))?;
            return Err(e);
        }
        failpoint::hit("after-commit-before-move");
        self.inbox.mark_done(entry)?;
        failpoint::hit("after-move");
        Ok(())
    }

    /// A mail over the size limit is never read whole: its first 64 KiB
    /// give its headers (to answer the sender) and, with its size, the
    /// journal key — stable for the same message, so a crash before the
    /// move never answers it twice.
    fn too_large(
        &mut self,
        entry: &InboxEntry,
        size: usize,
        limit: usize,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let head = self.inbox.read_head(entry, 64 * 1024)?;
        let mut hasher = Sha256::new();
        hasher.update(b"too-large\0");
        hasher.update((size as u64).to_le_bytes());
        hasher.update(&head);
        let sha = hex::encode(hasher.finalize());
        if journal::seen(self.store.conn(), &sha)? {
            self.inbox.mark_done(entry)?;
            return Ok(());
        }
        tracing::warn!(size, limit, "mail larger than max_mail_size refused unread");
        let detail = format!("too large: {size} bytes (limit {limit})");
        let parsed = parse_mail(&head, usize::MAX).ok();
        let config = &self.config;
        let lang = config.language;
        let d = match parsed.as_ref().and_then(|m| answerable(m, config).ok()) {
            Some(to) => Decision::reject(
                &sha,
                parsed.as_ref(),
                detail,
                None,
                Draft::new(
                    Kind::Error,
                    &to,
                    text(lang, &Msg::ErrorSubject),
                    signed(
                        lang,
                        &text(
                            lang,
                            &Msg::TooLarge {
                                size: size / 1024,
                                limit: limit / 1024,
                            },
                        ),
                    ),
                ),
            ),
            None => Decision::ignore(&sha, parsed.as_ref(), detail),
        };
        self.store.tx(|tx| apply(tx, config, now, d))?;
        self.inbox.mark_done(entry)?;
        Ok(())
    }
}

/// A mail read from the inbox, hashed and [`prepare`]d.
struct ReadMail {
    entry: InboxEntry,
    /// SHA-256 of the raw bytes, the journal's key.
    sha: String,
    prepared: Prepared,
}

/// What reading one inbox entry gave: the mail and its size in bytes, or
/// the error that left it unread.
enum Read {
    /// Boxed: a prepared mail is some 850 bytes, passed through a channel.
    Mail(Box<ReadMail>, usize),
    Failed(InboxEntry, MailError),
}

impl Read {
    fn of(
        entry: InboxEntry,
        raw: std::result::Result<Vec<u8>, MailError>,
        config: &DaemonConfig,
    ) -> Read {
        match raw {
            Ok(raw) => {
                let sha = hex::encode(Sha256::digest(&raw));
                // The raw bytes are dropped once prepared: nothing after
                // needs them, and a 10 MiB mail must not be held twice
                // (raw and decoded).
                let prepared = prepare(&raw, config);
                Read::Mail(
                    Box::new(ReadMail {
                        entry,
                        sha,
                        prepared,
                    }),
                    raw.len(),
                )
            }
            Err(e) => Read::Failed(entry, e),
        }
    }
}

/// Where an inbox pass takes its mails from, in the inbox's order.
enum Source {
    /// Read on this thread (IMAP: one connection, used in order).
    Here(std::vec::IntoIter<InboxEntry>),
    /// Read, hashed and decoded by a reader thread (a Maildir), at most
    /// a batch ahead: [`BATCH_MAILS`] mails, and [`BATCH_BYTES`] of raw
    /// mail (`Budget`), so that memory stays that of two batches. MIME
    /// decoding and the DKIM lookups (which may wait on DNS) run there
    /// while this thread decides and commits the batch before.
    Thread(std::sync::mpsc::Receiver<Read>, Arc<Budget>),
}

/// The bytes of raw mail the reader thread has read and this thread not
/// yet taken. The reader waits while a mail would take them past
/// [`BATCH_BYTES`] (one mail alone always passes), and stops when the
/// pass has ended (`closed`).
#[derive(Default)]
struct Budget {
    state: std::sync::Mutex<(usize, bool)>,
    changed: std::sync::Condvar,
}

impl Budget {
    /// Takes `n` bytes; false when the pass has ended.
    fn take(&self, n: usize) -> bool {
        let Ok(mut s) = self.state.lock() else {
            return false;
        };
        while !s.1 && s.0 > 0 && s.0 + n > BATCH_BYTES {
            s = match self.changed.wait(s) {
                Ok(s) => s,
                Err(_) => return false,
            };
        }
        s.0 += n;
        !s.1
    }

    fn give_back(&self, n: usize) {
        if let Ok(mut s) = self.state.lock() {
            s.0 = s.0.saturating_sub(n);
            self.changed.notify_all();
        }
    }

    fn close(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.1 = true;
            self.changed.notify_all();
        }
    }
}

impl Drop for Source {
    /// A pass that ends early (an error) frees a reader waiting for room,
    /// so that the pass's scope, which waits for its threads, ends.
    fn drop(&mut self) {
        if let Source::Thread(_, budget) = self {
            budget.close();
        }
    }
}

impl Source {
    fn reader<'s>(
        scope: &'s std::thread::Scope<'s, '_>,
        maildir: arbitre_mail::Maildir,
        entries: Vec<InboxEntry>,
        config: DaemonConfig,
    ) -> Source {
        let (out, mails) = std::sync::mpsc::sync_channel(BATCH_MAILS);
        let budget = Arc::new(Budget::default());
        let room = Arc::clone(&budget);
        scope.spawn(move || {
            for entry in entries {
                let raw = match &entry {
                    InboxEntry::Maildir(e) => maildir.read(e, config.max_mail_size),
                    InboxEntry::Imap(_) => Err(MailError::Unparseable(
                        "IMAP entry in a Maildir pass".into(),
                    )),
                };
                let size = raw.as_ref().map_or(0, Vec::len);
                // Stops when the pass does (an error, its end).
                if !room.take(size) || out.send(Read::of(entry, raw, &config)).is_err() {
                    return;
                }
            }
        });
        Source::Thread(mails, budget)
    }

    fn next(&mut self, inbox: &mut arbitre_mail::Inbox, config: &DaemonConfig) -> Option<Read> {
        match self {
            Source::Here(entries) => {
                let entry = entries.next()?;
                let raw = inbox.read(&entry, config.max_mail_size);
                Some(Read::of(entry, raw, config))
            }
            Source::Thread(mails, budget) => {
                let read = mails.recv().ok()?;
                if let Read::Mail(_, size) = &read {
                    budget.give_back(*size);
                }
                Some(read)
            }
        }
    }
}

/// Moves the committed mails of a Maildir from `new/` to `cur/` on a
/// thread of its own, while the next batch is decided (issue 22 item 1:
/// the renames were a tenth of the inbox's time, all of it waiting on the
/// file system, and nothing after the commit depends on them).
///
/// Exactly once does not rest on the move: the journal, committed before a
/// mail is handed over, is what makes it handled. A crash with renames
/// still queued leaves those mails in `new/`, where the next cycle finds
/// them in the journal and only moves them, as after a crash between the
/// commit and the move. The renames are not flushed by a directory fsync,
/// for the same reason (see [`Daemon::move_to_cur`]).
struct Mover<'s> {
    queue: std::sync::mpsc::Sender<InboxEntry>,
    thread: std::thread::ScopedJoinHandle<'s, Vec<InboxEntry>>,
}

impl<'s> Mover<'s> {
    fn start<'e>(scope: &'s std::thread::Scope<'s, 'e>, cur: std::path::PathBuf) -> Mover<'s> {
        let (queue, todo) = std::sync::mpsc::channel::<InboxEntry>();
        let thread = scope.spawn(move || {
            let mut failed = Vec::new();
            for entry in todo {
                let moved = match &entry {
                    InboxEntry::Maildir(e) => {
                        std::fs::rename(&e.path, cur.join(format!("{}:2,S", e.name))).is_ok()
                    }
                    InboxEntry::Imap(_) => false,
                };
                if !moved {
                    failed.push(entry);
                }
            }
            failed
        });
        Mover { queue, thread }
    }

    /// Queues the batch's committed mails; returns how many.
    fn hand_over(&mut self, batch: Vec<InboxEntry>, done: &[bool]) -> usize {
        let mut n = 0;
        for (entry, ok) in batch.into_iter().zip(done) {
            if !ok {
                continue;
            }
            n += 1;
            // The thread only ends when the queue is dropped, or by a
            // panic, when the entry is in the journal and the next cycle
            // moves it.
            if let Err(std::sync::mpsc::SendError(e)) = self.queue.send(entry) {
                tracing::error!(entry = %e.name(), "mover gone: the next cycle moves the mail to cur/");
                n -= 1;
            }
        }
        n
    }

    /// Waits for the queued renames; returns the mails not moved.
    fn finish(self) -> Vec<InboxEntry> {
        drop(self.queue);
        self.thread.join().unwrap_or_else(|_| {
            tracing::error!("the mover thread panicked: the next cycle moves its mails to cur/");
            Vec::new()
        })
    }
}

/// Everything one mail causes, written in one transaction.
pub struct Decision {
    pub journal: JournalEntry,
    /// The orders to store: one per stored block (several blocks in one
    /// mail, issue 17 item 6).
    pub orders: Vec<NewOrders>,
    pub reply: Option<Draft>,
    /// Further mails: the answers to service commands (issue 10).
    pub extra: Vec<Draft>,
}

impl Decision {
    /// True when this decision changed no game row and no seat, so that
    /// the rows an inbox batch keeps ([`Loaded::keep_rows`]) still hold
    /// after it: orders or a CHECK without service commands, or a refusal.
    /// Service commands (a PASSWORD, a TIMEZONE, an ABSENCE), the game
    /// master's mails and sign-ups answer with more than one mail or as
    /// `service`, and any of them may write a game or a seat.
    pub(crate) fn keeps_rows(&self) -> bool {
        matches!(
            self.journal.outcome,
            Disposition::Stored
                | Disposition::Checked
                | Disposition::Rejected
                | Disposition::Ignored
                | Disposition::RateLimited
                | Disposition::RateLimitedSilent
        ) && self.extra.iter().all(|d| d.kind == Kind::Notice)
    }

    pub(crate) fn base(
        sha: &str,
        mail: Option<&InboundMail>,
        outcome: Disposition,
        detail: String,
        game: Option<String>,
    ) -> JournalEntry {
        JournalEntry {
            sha256: sha.to_string(),
            message_id: mail.and_then(|m| m.message_id.clone()),
            sender: mail.and_then(|m| m.from.as_ref().map(|a| a.email.clone())),
            received_at: 0,
            game_id: game,
            outcome,
            detail,
        }
    }

    fn ignore(sha: &str, mail: Option<&InboundMail>, detail: String) -> Decision {
        tracing::info!(%detail, "mail ignored, not answered");
        Decision {
            journal: Self::base(sha, mail, Disposition::Ignored, detail, None),
            orders: Vec::new(),
            reply: None,
            extra: Vec::new(),
        }
    }

    pub(crate) fn reject(
        sha: &str,
        mail: Option<&InboundMail>,
        detail: String,
        game: Option<String>,
        reply: Draft,
    ) -> Decision {
        tracing::warn!(%detail, "mail refused, nothing stored");
        let reply = reply
            .replying_to(mail.and_then(|m| m.message_id.as_deref()))
            .discriminator(&sha[..16]);
        Decision {
            journal: Self::base(sha, mail, Disposition::Rejected, detail, game),
            orders: Vec::new(),
            reply: Some(reply),
            extra: Vec::new(),
        }
    }
}

/// The address to answer, or why not to answer at all.
fn answerable(m: &InboundMail, config: &DaemonConfig) -> std::result::Result<String, String> {
    if m.auto != AutoKind::Human {
        return Err(format!("automatic mail ({:?})", m.auto));
    }
    let own = |a: &Option<arbitre_mail::Address>| {
        a.as_ref()
            .is_some_and(|a| a.email.trim().eq_ignore_ascii_case(config.referee.trim()))
    };
    if own(&m.from) {
        return Err("mail from the referee's own address".into());
    }
    // A Reply-To naming the referee itself (a misconfigured client, or a
    // player replying to a report and keeping its headers) would make the
    // answer a mail to ourselves: answer the From instead (issue 14 item 9).
    let reply_to = m.reply_to.as_ref().filter(|_| !own(&m.reply_to));
    match reply_to.or(m.from.as_ref()) {
        Some(a)
            if a.email.contains('@')
                && !a.email.contains(char::is_whitespace)
                && formattable(&a.email) =>
        {
            Ok(a.email.trim().to_string())
        }
        _ => Err("no usable sender address".into()),
    }
}

/// True when the outbound formatter accepts `to` as a recipient. Checked
/// here, not left to `queue`: an address it refuses (`a@b@c`, a NUL byte)
/// would fail the mail's transaction on every cycle and leave the mail in
/// `new/` forever (found by the fuzz loop, issue 8). Such a mail is
/// journaled as ignored instead.
fn formattable(to: &str) -> bool {
    arbitre_mail::valid_recipient(to.trim())
}

/// A mail decoded outside the write lock (issue 14 item 1): MIME decoding,
/// the search for the order block, the DKIM verdict and the ruleset's check
/// take time linear in the mail's size (or wait on DNS), so the batch's
/// transaction only decides and writes.
///
/// Memory (issue 14 item 1: under 5x the mail's size): the decoded texts
/// are dropped once the block is found (only the header's language is
/// kept from them), and the raw bytes are not needed after [`prepare`].
pub struct Prepared {
    mail: std::result::Result<InboundMail, MailError>,
    found: std::result::Result<arbitre_mail::Envelope, EnvelopeError>,
    /// The language of the header's keywords (`PARTIE`, `SPIEL`...), for
    /// the refusal of a mail naming no known game.
    header_lang: Option<Lang>,
    /// DKIM verdict of the raw mail, when it has a block.
    dkim: DkimVerdict,
    pre: Option<PreChecked>,
    /// The password check made outside the lock: (seat, its stored hash,
    /// right or not). A pure function of the three, so the decision reuses
    /// it for the same seat and hash instead of hashing the password again
    /// (issue 22 item 1; a wrong password's Argon2id is paid once, not
    /// twice).
    verified: Option<(String, String, bool)>,
    /// HELP or LIST written without a block (issue 17 item 2).
    bare: Option<crate::services::help::Bare>,
    /// The blocks after the first, each after the END of the one before
    /// (several blocks in one mail, issue 17 item 6).
    more: Vec<arbitre_mail::Envelope>,
    /// A mail from the inbox, or a web form of a logged-in player
    /// (issue 24): the latter's sender is proven by the login, so the
    /// game's DKIM policy does not apply to it.
    channel: Channel,
}

/// Decodes `raw`, finds its order block and verifies its DKIM signature
/// (no database, no lock). Nothing in the result refers to `raw`.
pub fn prepare(raw: &[u8], config: &DaemonConfig) -> Prepared {
    let mut mail = parse_mail(raw, config.max_mail_size);
    let (found, more, header_lang) = match &mail {
        Ok(m) => find_block(m),
        Err(_) => (Err(EnvelopeError::NoBlock), Vec::new(), None),
    };
    let bare = match (&found, &mail) {
        (Err(EnvelopeError::NoBlock), Ok(m)) => {
            m.texts.first().and_then(|t| crate::services::help::bare(t))
        }
        _ => None,
    };
    // A mail without a block is never authenticated (no DNS for it), but
    // for a JOIN: a `require_dkim` game wants the sign-up signed.
    let dkim = match (&found, &bare) {
        (Ok(_), _) | (_, Some(crate::services::help::Bare::Join { .. })) => config.dkim.verify(raw),
        _ => DkimVerdict::None,
    };
    if let Ok(m) = &mut mail {
        m.texts = Vec::new();
    }
    Prepared {
        mail,
        found,
        header_lang,
        dkim,
        pre: None,
        verified: None,
        bare,
        more,
        channel: Channel::Mail,
    }
}

impl Prepared {
    /// Marks an order mail built from a logged-in player's web form
    /// (web/submit.rs): its block for the logged-in seat needs no password,
    /// token or DKIM (services/authenticity.rs `Channel`).
    /// `game` and `player` are the seat the login proved (canonical ids).
    pub fn from_web_login(mut self, game: &str, player: &str) -> Prepared {
        self.channel = Channel::WebLogin {
            game: game.to_string(),
            player: player.to_string(),
        };
        self
    }
}

/// Checks the block of a prepared mail against the current state, read
/// outside any transaction (WAL: a snapshot that blocks no writer), when
/// it names a known seat with its right password and stays within
/// `max_order_lines`. Anything unexpected (a ruleset error, a panic) only
/// leaves the check to be done, and handled, inside the transaction.
pub fn precheck<'a>(
    c: &Connection,
    registry: &'a Registry,
    config: &DaemonConfig,
    p: &mut Prepared,
    loaded: &Loaded<'a>,
) -> Result<()> {
    let Ok(env) = &p.found else {
        return Ok(());
    };
    let Some(row) = loaded.game_nocase(c, &env.game)? else {
        return Ok(());
    };
    let Some(player) = loaded.seat_nocase(c, &row.id, &env.player)? else {
        return Ok(());
    };
    let max = config.limits.max_order_lines;
    if max > 0 && env.orders.lines().count() > max as usize {
        return Ok(());
    }
    if !p.channel.proves(&row.id, &player.id) {
        let ok = games::check_password(&player, &env.password);
        p.verified = Some((player.id.clone(), player.password_hash.clone(), ok));
        if !ok {
            return Ok(());
        }
    }
    let Ok(game) = GameView::new(registry, row) else {
        return Ok(());
    };
    let orders = if starts_with_command(&env.orders) {
        let split = split_commands(&env.orders);
        if split.only_commands {
            return Ok(());
        }
        Some(split.orders)
    } else {
        None
    };
    let orders_key = match &orders {
        Some(text) => OrdersKey::Sha(sha_of(text)),
        None => OrdersKey::WholeBlock,
    };
    let text = orders.as_deref().unwrap_or(&env.orders);
    // Loaded once for the whole inbox pass (issue 22 item 1); a game
    // already loaded is recognised by its stamp, without reading its state.
    let key = loaded.stamp_of(c, &game.row.id)?;
    let (state, g) = match loaded.latest(c, &game, &key) {
        Ok(loaded) => loaded,
        Err(crate::error::DaemonError::Store(e)) => return Err(e.into()),
        Err(_) => return Ok(()),
    };
    let Ok(checked) = g.check(&PlayerId::new(player.id.clone()), text) else {
        return Ok(());
    };
    let echo = confirmation_lines(game.lang, &checked);
    p.pre = Some(PreChecked {
        game: game.row.id.clone(),
        player: player.id,
        state,
        orders: orders_key,
        checked,
        echo,
    });
    Ok(())
}

/// The journal key of an earlier delivery of this mail: same Message-ID,
/// same From address.
fn duplicate_of(c: &Connection, mail: &InboundMail) -> Result<Option<String>> {
    match (mail.message_id.as_deref(), mail.from.as_ref()) {
        (Some(id), Some(from)) => Ok(journal::seen_message(c, id, &from.email)?),
        _ => Ok(None),
    }
}

/// Decides what a mail causes. Reads the database (inside the caller's
/// transaction, so no turn can resolve between the check and the insert).
pub fn decide(
    c: &Connection,
    registry: &Registry,
    config: &DaemonConfig,
    raw: &[u8],
    sha: &str,
    now: DateTime<Utc>,
) -> Result<Decision> {
    let loaded = Loaded::new();
    decide_prepared(c, registry, config, prepare(raw, config), sha, now, &loaded)
}

/// [`decide`] for a mail already [`prepare`]d.
pub fn decide_prepared<'a>(
    c: &Connection,
    registry: &'a Registry,
    config: &DaemonConfig,
    p: Prepared,
    sha: &str,
    now: DateTime<Utc>,
    loaded: &Loaded<'a>,
) -> Result<Decision> {
    if p.more.is_empty() {
        decide_block(c, registry, config, p, sha, now, loaded)
    } else {
        crate::request::blocks::decide_blocks(c, registry, config, p, sha, now, loaded)
    }
}

impl Prepared {
    /// The mail's blocks, each as the one block of a mail of its own (the
    /// same mail otherwise), in order; the first keeps the check made
    /// outside the lock. Empty when the mail is unreadable or has no block.
    pub(crate) fn split_blocks(self) -> Vec<Prepared> {
        let Prepared {
            mail,
            found,
            header_lang,
            dkim,
            pre,
            verified,
            bare,
            more,
            channel,
        } = self;
        let (Ok(mail), Ok(first)) = (mail, found) else {
            return Vec::new();
        };
        let (mut pre, mut verified) = (pre, verified);
        std::iter::once(first)
            .chain(more)
            .map(|env| Prepared {
                mail: Ok(mail.clone()),
                found: Ok(env),
                header_lang,
                dkim: dkim.clone(),
                pre: pre.take(),
                verified: verified.take(),
                bare: bare.clone(),
                more: Vec::new(),
                channel: channel.clone(),
            })
            .collect()
    }

    /// The mail, when it could be read.
    pub(crate) fn mail(&self) -> Option<&InboundMail> {
        self.mail.as_ref().ok()
    }
}

/// One block's decision: a mail of one block, or one block of several
/// (request/blocks.rs).
pub(crate) fn decide_block<'a>(
    c: &Connection,
    registry: &'a Registry,
    config: &DaemonConfig,
    p: Prepared,
    sha: &str,
    now: DateTime<Utc>,
    loaded: &Loaded<'a>,
) -> Result<Decision> {
    let default_lang = config.language;
    let Prepared {
        mail,
        found,
        header_lang,
        dkim,
        mut pre,
        verified,
        bare,
        more: _,
        channel,
    } = p;
    let mail = match mail {
        Ok(m) => m,
        Err(e) => return Ok(Decision::ignore(sha, None, format!("unreadable mail: {e}"))),
    };
    let m = Some(&mail);
    if let Some(first) = duplicate_of(c, &mail)? {
        // Issue 14 item 12: the same mail delivered again (an MTA retry after
        // a lost "250", a provider's duplicate) differs only by its trace
        // headers. Played once: the copy is journaled, never answered.
        let detail = format!(
            "duplicate delivery of mail {} (same Message-ID and sender)",
            &first[..first.len().min(16)]
        );
        return Ok(Decision::ignore(sha, m, detail));
    }
    let to = match answerable(&mail, config) {
        Ok(to) => to,
        Err(why) => return Ok(Decision::ignore(sha, m, why)),
    };
    let error_mail = |lang: Lang, body: String| {
        Draft::new(
            Kind::Error,
            &to,
            text(lang, &Msg::ErrorSubject),
            signed(lang, &body),
        )
    };
    // The game is looked up before the flood limit, only to answer in its
    // language and to count its mails; nothing else is read (no argon2)
    // for a mail over the limit.
    let game_row = match (&found, &bare) {
        (Ok(env), _) => loaded.game_nocase(c, &env.game)?,
        // A JOIN (issue 17 item 3) is counted with the strangers' mails of
        // the game it names.
        (Err(_), Some(Bare::Join { game, .. })) => loaded.game_nocase(c, game)?,
        _ => None,
    };
    // Seated (issue 14 item 3): the mail comes from the registered address
    // of the seat it names and its answer goes back there. Such a mail is
    // never counted with strangers' mail nor refused by their limits: its
    // own limit is checked once its password is known to be right.
    let seat = match (&found, &game_row) {
        (Ok(env), Some(row)) => loaded.seat_nocase(c, &row.id, &env.player)?,
        _ => None,
    };
    let from = mail.from.as_ref().map(|a| a.email.trim().to_lowercase());
    let seated = seat.as_ref().is_some_and(|p| {
        let registered = p.email.trim().to_lowercase();
        from.as_deref() == Some(registered.as_str()) && to.trim().eq_ignore_ascii_case(&registered)
    });
    if !seated {
        if let Some(d) = flood(
            c,
            registry,
            config,
            &mail,
            sha,
            &to,
            game_row.as_ref(),
            None,
            now,
        )? {
            return Ok(d);
        }
    }
    // Mail naming no known game: in the language of the game where its From
    // is a registered player's address (issue 14 item 9).
    let known_lang = || -> Result<Option<Lang>> {
        let Some(f) = from.as_deref() else {
            return Ok(None);
        };
        Ok(games::game_of_address(c, f)?
            .and_then(|row| GameView::new(registry, row).ok())
            .map(|g| g.lang))
    };
    let env = match found {
        Ok(env) => env,
        Err(EnvelopeError::NoBlock) if bare.is_some() => {
            let lang = known_lang()?;
            if let Some(Bare::Join {
                lang: keyword,
                game,
                name,
            }) = bare
            {
                let j = crate::signup::JoinRequest {
                    game,
                    email: from.clone().unwrap_or_else(|| to.to_lowercase()),
                    name,
                    lang: lang.unwrap_or(keyword),
                };
                return join_mail(c, registry, config, j, &mail, sha, &to, now, &dkim);
            }
            return bare_request(c, registry, config, bare, lang, &mail, sha, &to);
        }
        Err(EnvelopeError::NoBlock) => {
            let lang = known_lang()?.unwrap_or(default_lang);
            return capped(
                c,
                config,
                &to,
                now,
                Decision::reject(
                    sha,
                    m,
                    "no order block".into(),
                    None,
                    error_mail(lang, text(lang, &Msg::NoBlock)),
                ),
            );
        }
        Err(EnvelopeError::Malformed {
            line,
            reason,
            text: written,
        }) => {
            if let Some(d) = near_miss_refusal(
                c,
                registry,
                config,
                &written,
                &reason,
                from.as_deref(),
                &mail,
                sha,
                &to,
                now,
            )? {
                return Ok(d);
            }
            let lang = known_lang()?.unwrap_or(default_lang);
            let body = text(
                lang,
                &Msg::Malformed {
                    line,
                    reason: &reason,
                },
            );
            return capped(
                c,
                config,
                &to,
                now,
                Decision::reject(
                    sha,
                    m,
                    format!("malformed header line {line}: {reason}"),
                    None,
                    error_mail(lang, body),
                ),
            );
        }
    };
    let Some(row) = game_row else {
        // No game: the language of the From's game, else of the header words.
        let lang = known_lang()?.or(header_lang).unwrap_or(default_lang);
        let mut body = text(lang, &Msg::UnknownGame { game: &env.game });
        let open = open_games(c, from.as_deref())?;
        if let Some(id) =
            crate::services::refusal::nearest(&env.game, open.iter().map(|g| g.id.as_str()))
        {
            body.push('\n');
            body.push_str(&crate::services::refusal::suggestion(lang, id));
        }
        return capped(
            c,
            config,
            &to,
            now,
            Decision::reject(
                sha,
                m,
                format!("unknown game '{}'", env.game),
                None,
                error_mail(lang, body),
            ),
        );
    };
    let game = GameView::new(registry, row)?;
    let (gid, lang) = (game.row.id.clone(), game.lang);
    // A game stopped by a ruleset panic (fault.rs): its mails wait in the
    // inbox, unanswered, and are handled after `arbitre resume`.
    if arbitre_store::faults::open_fault(c, &gid)?.is_some() {
        return Err(crate::error::DaemonError::Faulted(gid));
    }
    // The game master's commands by mail (issue 10): player id `gm`, the
    // game's gm_password.
    if env.player.eq_ignore_ascii_case("gm") && seat.is_none() {
        return gm_mail(
            c, registry, config, loaded, &game, &env, &mail, sha, &to, now,
        );
    }
    let Some(player) = seat else {
        let mut body = text(
            lang,
            &Msg::UnknownPlayer {
                game: &gid,
                player: &env.player,
            },
        );
        if open_games(c, from.as_deref())?.iter().any(|g| g.id == gid) {
            let ids: Vec<String> = games::players(c, &gid)?.into_iter().map(|p| p.id).collect();
            if let Some(id) =
                crate::services::refusal::nearest(&env.player, ids.iter().map(String::as_str))
            {
                body.push('\n');
                body.push_str(&crate::services::refusal::suggestion(lang, id));
            }
        }
        let detail = format!("unknown player '{}'", env.player);
        let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, None);
        return capped(
            c,
            config,
            &to,
            now,
            Decision::reject(sha, m, detail, Some(gid), reply),
        );
    };
    // A template's placeholder sent back unchanged (issue 17 item 5): told
    // so, and no wrong-password attempt (no player on the answer).
    // A web login proved the seat: its form's block carries no password.
    let password_ok = channel.proves(&gid, &player.id)
        || match verified {
            Some((id, hash, ok)) if id == player.id && hash == player.password_hash => ok,
            _ => games::check_password(&player, &env.password),
        };
    if crate::services::refusal::is_placeholder(&env.password) && !password_ok {
        let body =
            crate::services::refusal::placeholder_text(lang, &gid, &player.id, env.password.trim());
        let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, None);
        let d = Decision::reject(
            sha,
            m,
            format!("password placeholder for player '{}'", player.id),
            Some(gid),
            reply,
        );
        return if seated {
            Ok(d)
        } else {
            capped(c, config, &to, now, d)
        };
    }
    // The password itself never reaches a log line or a reply.
    if !password_ok {
        let body = text(
            lang,
            &Msg::WrongPassword {
                game: &gid,
                player: &player.id,
            },
        );
        let detail = format!("wrong password for player '{}'", player.id);
        let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, Some(&player.id));
        let d = Decision::reject(sha, m, detail, Some(gid), reply);
        return wrong_password(c, config, &game, &player.id, &to, seated, now, d);
    }
    // The seat's own mail loop guard: a broken client resending for ever
    // still gets one polite answer an hour. Its counter is the seat's and
    // only right-password mails count, so nobody else can exhaust it.
    if seated {
        if let Some(d) = flood(
            c,
            registry,
            config,
            &mail,
            sha,
            &to,
            Some(&game.row),
            Some(&player.id),
            now,
        )? {
            return Ok(d);
        }
    }
    // `[limits] max_order_lines` (issue 14 item 1): refused before the
    // ruleset reads a line, so the work of one mail stays bounded.
    let lines = env.orders.lines().count();
    let max_lines = config.limits.max_order_lines;
    if max_lines > 0 && lines > max_lines as usize {
        let body = text(
            lang,
            &Msg::TooManyLines {
                lines,
                limit: max_lines,
            },
        );
        // No player on the answer: it is no wrong-password attempt (turn.rs).
        let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, None);
        return Ok(Decision::reject(
            sha,
            m,
            format!(
                "order block of {lines} lines from {} (limit {max_lines})",
                player.id
            ),
            Some(gid),
            reply,
        ));
    }
    // Beyond the password (issue 10): the player's token, and DKIM where
    // the game requires it (services/authenticity.rs).
    let auth = match crate::services::authenticity::check(c, &game, &player, &env, dkim, &channel)?
    {
        Ok(a) => a,
        Err(refusal) => {
            // No player on the answer: the password was right, so it must
            // not count as a wrong-password attempt (turn.rs).
            let reply = error_mail(lang, refusal.text(lang, &gid, &player.id)).about(
                &gid,
                game.row.turn + 1,
                None,
            );
            return Ok(Decision::reject(
                sha,
                m,
                refusal.detail(&player.id),
                Some(gid),
                reply,
            ));
        }
    };
    // Service commands (issue 10): the leading lines of the block. Served
    // in a finished game too (RESEND, HISTORY).
    // A block of orders alone is not split: the block is used as it came
    // (no copy of it in `split`: memory, issue 14 item 1).
    let mut split = if starts_with_command(&env.orders) {
        split_commands(&env.orders)
    } else {
        crate::services::command::Split::default()
    };
    let mut extra = Vec::new();
    if !split.commands.is_empty() || !split.errors.is_empty() {
        // The request pipeline (issue 16 item 1): each command line a
        // `Request`, decided then written, in this mail's transaction.
        let ctx = crate::request::Ctx {
            tx: c,
            registry,
            loaded,
            config,
            now,
            tag: &sha[..16],
        };
        let requests = crate::request::parse::player_requests(&gid, &player.id, &to, sha, &split);
        let ans = crate::request::player::serve(&ctx, lang, &requests, &split.errors)?;
        let subject = svc_text(lang, &SvcMsg::CommandsSubject { game: &gid });
        let reply = Draft::new(
            Kind::Confirm,
            &to,
            subject,
            auth.annotate(lang, signed(lang, &ans.text)),
        )
        .about(&gid, game.row.turn + 1, Some(&player.id))
        .discriminator(format!("cmd.{}", &sha[..16]))
        .replying_to(mail.message_id.as_deref());
        extra.push(reply);
        extra.extend(ans.mails);
        if split.only_commands {
            let detail = commands_detail(&player.id, &split.commands, split.errors.len());
            tracing::info!(game = %gid, player = %player.id, %detail, "service commands");
            return Ok(Decision {
                journal: Decision::base(sha, m, Disposition::Service, detail, Some(gid)),
                orders: Vec::new(),
                reply: None,
                extra,
            });
        }
    }
    let no_commands = split.commands.is_empty() && split.errors.is_empty();
    let orders = if no_commands {
        env.orders
    } else {
        std::mem::take(&mut split.orders)
    };
    // The block's orders (or CHECK) as a request, decided over the same
    // transaction (request/orders.rs); the mail's journal entry is made here.
    let ctx = crate::request::Ctx {
        tx: c,
        registry,
        loaded,
        config,
        now,
        tag: &sha[..16],
    };
    let req = crate::request::parse::orders(&gid, &player.id, env.kind, orders);
    let facts = crate::request::orders::Facts {
        reply_to: &to,
        auth: &auth,
        pre: pre.take(),
        // A command (an ABSENCE moving the deadline, a TIMEZONE) may have
        // changed the game's row: read again then.
        game: no_commands.then_some(game),
        whole_block: no_commands,
    };
    let decided = crate::request::orders::handle(&ctx, req, facts)?;
    let reply = decided
        .reply
        .discriminator(&sha[..16])
        .replying_to(mail.message_id.as_deref());
    if decided.refused {
        // Refused before the ruleset read the block: the mail's other
        // answers are dropped, as a refused mail answers once.
        return Ok(Decision::reject(sha, m, decided.detail, Some(gid), reply));
    }
    Ok(Decision {
        journal: Decision::base(sha, m, decided.outcome, decided.detail, Some(gid)),
        orders: decided.orders.into_iter().collect(),
        reply: Some(reply),
        extra,
    })
}

use crate::services::help::Bare;
use crate::services::requests::{bare_request, join_mail, near_miss_refusal, open_games};

/// The journal's account of a mail of service commands: what was served
/// and what was refused (a player's PAUSE is the game master's, so it is
/// refused, never "PAUSE (0 refused)", issue 14 item 9).
fn commands_detail(
    player: &str,
    commands: &[(usize, crate::services::command::Command)],
    unreadable: usize,
) -> String {
    use crate::services::command::Role;
    let (gm_only, served): (Vec<_>, Vec<_>) = commands
        .iter()
        .map(|(_, c)| c)
        .partition(|c| c.role() == Role::GameMaster);
    let names = |v: &[&crate::services::command::Command]| {
        v.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
    };
    let mut detail = format!(
        "commands from {player}: {}",
        if served.is_empty() {
            "none served".to_string()
        } else {
            names(&served)
        }
    );
    let mut refused = Vec::new();
    if !gm_only.is_empty() {
        refused.push(format!("{} (game master only)", names(&gm_only)));
    }
    if unreadable > 0 {
        refused.push(format!("{unreadable} unreadable line(s)"));
    }
    if !refused.is_empty() {
        detail.push_str(&format!("; refused: {}", refused.join(", ")));
    }
    detail
}

/// The flood rate limit (issues 8 and 14): `None` when the mail may be
/// handled (and then it is counted), else what to journal. Counted in O(1)
/// counter rows (`arbitre_store::counters`, per From, per reply address,
/// per game for strangers; per seat for a seated player's right-password
/// mails, `seat`; per clock hour) inside the mail's own
/// transaction, so a crash repeats the same decision and the polite answer
/// is queued exactly once per reply address and hour (the journal row of
/// that answer is the `rate-limited` outcome; the others are
/// `rate-limited-silent`). A stranger's polite answer also takes the
/// address's hourly refusal answer, so no address gets more than that.
#[allow(clippy::too_many_arguments)]
fn flood(
    c: &Connection,
    registry: &Registry,
    config: &DaemonConfig,
    mail: &InboundMail,
    sha: &str,
    to: &str,
    game: Option<&arbitre_store::GameRow>,
    seat: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Option<Decision>> {
    use arbitre_store::counters::{self, Scope};
    let limits = config.limits;
    let hour = counters::hour(now.timestamp());
    let sender = mail.from.as_ref().map(|a| a.email.trim().to_lowercase());
    let reply = to.trim().to_lowercase();
    let stranger = seat.is_none();
    let gid = game
        .map(|g| g.id.clone())
        .filter(|_| stranger && limits.per_game_per_hour > 0);
    let per = limits.per_sender_per_hour;
    let seat_key = match (seat, game) {
        (Some(p), Some(g)) => Some(counters::seat_key(&g.id, p)),
        _ => None,
    };
    let mut over: Option<(String, Msg<'_>)> = None;
    // A seat's mail is counted as it is checked (one statement); a seat
    // has no other counter here, so nothing is counted when it is over.
    if let (Some(key), true) = (&seat_key, per > 0) {
        if counters::bump_below(c, Scope::SeatServed, key, hour, per)?.is_none() {
            over = Some((
                format!(
                    "more than {per} mails from {} within an hour",
                    sender.as_deref().unwrap_or(&reply)
                ),
                Msg::TooManyFromYou { limit: per },
            ));
        }
    } else if per > 0 {
        if let Some(s) = &sender {
            if counters::get(c, Scope::Sender, s, hour)?.count >= per {
                over = Some((
                    format!("more than {per} mails from {s} within an hour"),
                    Msg::TooManyFromYou { limit: per },
                ));
            }
        }
        if over.is_none() && counters::get(c, Scope::ReplyTo, &reply, hour)?.count >= per {
            over = Some((
                format!("more than {per} mails answered to {reply} within an hour"),
                Msg::TooManyFromYou { limit: per },
            ));
        }
    }
    if over.is_none() {
        if let Some(g) = gid.as_deref() {
            if counters::get(c, Scope::GameStrangers, g, hour)?.count >= limits.per_game_per_hour {
                over = Some((
                    format!(
                        "more than {} mails for game {g} within an hour",
                        limits.per_game_per_hour
                    ),
                    Msg::TooManyForGame {
                        game: g,
                        limit: limits.per_game_per_hour,
                    },
                ));
            }
        }
    }
    let Some((detail, msg)) = over else {
        // A seat's mail was counted above.
        if per > 0 && seat_key.is_none() {
            if let Some(s) = &sender {
                counters::bump(c, Scope::Sender, s, hour)?;
            }
            counters::bump(c, Scope::ReplyTo, &reply, hour)?;
        }
        if let Some(g) = gid.as_deref() {
            counters::bump(c, Scope::GameStrangers, g, hour)?;
        }
        return Ok(None);
    };
    let mut journal = Decision::base(
        sha,
        Some(mail),
        Disposition::Rejected,
        detail.clone(),
        game.map(|g| g.id.clone()),
    );
    if journal.sender.is_none() {
        journal.sender = Some(to.to_string());
    }
    let answer = !counters::get(c, Scope::FloodAnswer, &reply, hour)?.answered
        && (!stranger || refusal_allowed(c, config, &reply, hour)?);
    if !answer {
        tracing::info!(%detail, "flood: mail journaled, not answered (the address was answered within the hour)");
        journal.outcome = journal::RATE_LIMITED_SILENT;
        return Ok(Some(Decision {
            journal,
            orders: Vec::new(),
            reply: None,
            extra: Vec::new(),
        }));
    }
    counters::mark_answered(c, Scope::FloodAnswer, &reply, hour)?;
    tracing::warn!(%detail, "flood: mail refused, one polite answer");
    let lang = match game {
        Some(row) => GameView::new(registry, row.clone())
            .map(|g| g.lang)
            .unwrap_or(config.language),
        None => config.language,
    };
    journal.outcome = journal::RATE_LIMITED;
    let reply = Draft::new(
        Kind::Error,
        to,
        text(lang, &Msg::ErrorSubject),
        signed(lang, &text(lang, &msg)),
    )
    .replying_to(mail.message_id.as_deref())
    .discriminator(&sha[..16]);
    Ok(Some(Decision {
        journal,
        orders: Vec::new(),
        reply: Some(reply),
        extra: Vec::new(),
    }))
}

/// True (and counted) when `reply` may still get a refusal this hour:
/// `[limits] refusals_per_address_per_hour` (issue 14 item 2).
fn refusal_allowed(c: &Connection, config: &DaemonConfig, reply: &str, hour: i64) -> Result<bool> {
    use arbitre_store::counters::{self, Scope};
    let limit = config.limits.refusals_per_address_per_hour;
    if limit == 0 {
        return Ok(true);
    }
    if counters::get(c, Scope::Refusals, reply, hour)?.count >= limit {
        return Ok(false);
    }
    counters::bump(c, Scope::Refusals, reply, hour)?;
    Ok(true)
}

/// A refusal of a mail that names no valid game, player or password
/// (issue 14 item 2): answered at most `refusals_per_address_per_hour`
/// times per reply address and hour, then journaled unanswered, so
/// rotating From addresses with one Reply-To cannot aim a stream of
/// answers at a third party.
pub(crate) fn capped(
    c: &Connection,
    config: &DaemonConfig,
    to: &str,
    now: DateTime<Utc>,
    mut d: Decision,
) -> Result<Decision> {
    let reply = to.trim().to_lowercase();
    if d.reply.is_some()
        && !refusal_allowed(
            c,
            config,
            &reply,
            arbitre_store::counters::hour(now.timestamp()),
        )?
    {
        d.reply = None;
        d.journal.detail.push_str(&format!(
            "; not answered (already answered {reply} this hour)"
        ));
        tracing::info!(detail = %d.journal.detail, "refusal journaled, not answered");
    }
    Ok(d)
}

/// A wrong password naming a seat (issue 14 item 3). Up to
/// `wrong_passwords_per_seat_per_hour` of them are answered (strangers'
/// answers also capped per reply address); beyond that they are journaled
/// unanswered and the game master is told once an hour. Unanswered ones
/// are counted per turn, so the seat's next report still tells how many
/// mails used its name (turn.rs). The right password is always checked,
/// so a guesser never locks the real player out.
#[allow(clippy::too_many_arguments)]
fn wrong_password(
    c: &Connection,
    config: &DaemonConfig,
    game: &GameView<'_>,
    player: &str,
    to: &str,
    seated: bool,
    now: DateTime<Utc>,
    mut d: Decision,
) -> Result<Decision> {
    use arbitre_store::counters::{self, Scope};
    let (gid, lang, turn) = (game.row.id.as_str(), game.lang, game.row.turn + 1);
    let seat = counters::seat_key(gid, player);
    let hour = counters::hour(now.timestamp());
    let limit = config.limits.wrong_passwords_per_seat_per_hour;
    if limit > 0 && counters::bump(c, Scope::SeatWrongPassword, &seat, hour)? > limit {
        d.reply = None;
        d.journal.detail.push_str(&format!(
            "; not answered (more than {limit} wrong passwords for this seat this hour)"
        ));
        tracing::warn!(
            game = gid,
            player,
            "wrong passwords for one seat over the hourly limit: no longer answered"
        );
        if counters::mark_answered(c, Scope::SeatWrongPassword, &seat, hour)? {
            if let Some(gm) = &game.row.gm_email {
                let body = text(
                    lang,
                    &Msg::SeatGuessed {
                        game: gid,
                        player,
                        limit,
                    },
                );
                let notice = Draft::new(
                    Kind::Notice,
                    gm,
                    text(lang, &Msg::SeatGuessedSubject { game: gid }),
                    signed(lang, &body),
                )
                .about(gid, turn, None)
                .discriminator(format!("seat-guessed.{player}.{hour}"));
                d.extra.push(notice);
            }
        }
    }
    if !seated {
        d = capped(c, config, to, now, d)?;
    }
    // Its own record (issue 16 item 2), told in the seat's next report.
    arbitre_store::wrong_passwords::record(
        c,
        &arbitre_store::WrongPassword {
            game_id: gid.to_string(),
            turn,
            player: player.to_string(),
            answered: d.reply.is_some(),
            mail_sha256: Some(d.journal.sha256.clone()),
            at: now.timestamp(),
        },
    )?;
    Ok(d)
}

/// A block from the game master: PAUSE, RESUME, EXTEND, SET DEADLINE,
/// EJECT, TAKEOVER, PREVIEW, RELEASE and ROLLBACK act as on the command
/// line (gm.rs `by_mail`; players are told), STATUS and HISTORY are
/// answered. A wrong password changes nothing.
#[allow(clippy::too_many_arguments)]
fn gm_mail<'a>(
    c: &Connection,
    registry: &'a Registry,
    config: &DaemonConfig,
    loaded: &Loaded<'a>,
    game: &GameView<'_>,
    env: &arbitre_mail::Envelope,
    mail: &InboundMail,
    sha: &str,
    to: &str,
    now: DateTime<Utc>,
) -> Result<Decision> {
    let lang = game.lang;
    let gid = game.row.id.clone();
    let m = Some(mail);
    let ok = game
        .toml
        .services
        .gm_password_hash
        .as_deref()
        .is_some_and(|h| arbitre_store::PasswordHasher::verify(&env.password, h));
    if !ok {
        let body = svc_text(lang, &SvcMsg::GmWrongPassword);
        let reply = Draft::new(
            Kind::Error,
            to,
            text(lang, &Msg::ErrorSubject),
            signed(lang, &body),
        )
        .about(&gid, game.row.turn + 1, Some("gm"));
        return Ok(Decision::reject(
            sha,
            m,
            "wrong game master password".into(),
            Some(gid),
            reply,
        ));
    }
    let split = split_commands(&env.orders);
    let mut lines: Vec<(usize, String)> = Vec::new();
    for e in &split.errors {
        lines.push((e.line, crate::request::player::bad_line(lang, e)));
    }
    for (line, cmd) in &split.commands {
        let t = crate::gm::by_mail(c, registry, config, loaded, &gid, cmd, &sha[..16], now)?;
        lines.push((*line, t));
    }
    let body = lines
        .into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join("\n\n");
    let subject = svc_text(lang, &SvcMsg::CommandsSubject { game: &gid });
    let reply = Draft::new(Kind::Confirm, to, subject, signed(lang, &body))
        .about(&gid, game.row.turn + 1, Some("gm"))
        .discriminator(format!("cmd.{}", &sha[..16]))
        .replying_to(mail.message_id.as_deref());
    let names: Vec<&str> = split.commands.iter().map(|(_, c)| c.name()).collect();
    let detail = format!("game master commands: {}", names.join(", "));
    tracing::info!(game = %gid, %detail, "game master by mail");
    Ok(Decision {
        journal: Decision::base(sha, m, Disposition::Service, detail, Some(gid)),
        orders: Vec::new(),
        reply: None,
        extra: vec![reply],
    })
}

/// [`arbitre_mail::find_in_mail`], with the language of the header's keywords read from
/// the text the block was found in (its texts are dropped after).
/// The blocks after the first are returned apart (issue 17 item 6).
fn find_block(mail: &InboundMail) -> (Found, Vec<arbitre_mail::Envelope>, Option<Lang>) {
    let mut first_error = EnvelopeError::NoBlock;
    for text in &mail.texts {
        match arbitre_mail::find_envelopes(text) {
            Ok(envs) => {
                let mut envs = envs.into_iter();
                let Some(env) = envs.next() else {
                    continue;
                };
                let lang = env
                    .header_line
                    .checked_sub(1)
                    .and_then(|n| text.lines().nth(n))
                    .and_then(header_lang);
                return (Ok(env), envs.collect(), lang);
            }
            Err(e @ EnvelopeError::Malformed { .. }) if first_error == EnvelopeError::NoBlock => {
                first_error = e
            }
            Err(_) => {}
        }
    }
    (Err(first_error), Vec::new(), None)
}

/// A mail's first block, or why it has none.
type Found = std::result::Result<arbitre_mail::Envelope, EnvelopeError>;

/// French for `PARTIE … JOUEUR …`, German for `SPIEL … SPIELER …`.
fn header_lang(line: &str) -> Option<Lang> {
    let words: Vec<String> = line.split_whitespace().map(|w| w.to_uppercase()).collect();
    let has = |w: &str| words.iter().any(|x| x == w);
    if has("JOUEUR") || has("PARTIE") {
        Some(Lang::Fr)
    } else if has("SPIELER") || has("SPIEL") {
        Some(Lang::De)
    } else if has("PLAYER") {
        Some(Lang::En)
    } else {
        None
    }
}

/// Writes a decision (in the caller's transaction).
pub fn apply(
    c: &Connection,
    config: &DaemonConfig,
    now: DateTime<Utc>,
    mut d: Decision,
) -> Result<()> {
    d.journal.received_at = now.timestamp();
    journal::record(c, &d.journal)?;
    // The answers first, then the orders (same transaction, so the order
    // of the writes changes nothing): the answer's body is freed before
    // the block's verdicts are encoded, and never held with them (memory,
    // issue 14 item 1).
    if let Some(r) = d.reply.take() {
        queue(c, config, now, r)?;
    }
    for r in std::mem::take(&mut d.extra) {
        queue(c, config, now, r)?;
    }
    for o in std::mem::take(&mut d.orders) {
        crate::request::orders::write(c, o, now, &d.journal.sha256)?;
    }
    Ok(())
}
