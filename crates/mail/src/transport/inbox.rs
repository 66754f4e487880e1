//! One inbound interface over the two kinds `arbitre.toml` can select:
//! a Maildir (default) or an IMAP folder. The daemon's loop is the same for
//! both: `pending`, `read` (or `read_head` for an oversized mail), record in
//! the journal, `mark_done`, then `wait` for more.
//!
//! The IMAP side reconnects by itself: any connection-level failure drops the
//! session and the next call opens a new one. Because nothing is marked done
//! before the journal has recorded it, a failure anywhere in between only
//! means the message is listed again later, and the journal (SHA-256 of the
//! bytes) recognises it.
//!
//! The daemon opens its inbox with [`Inbox::open_lazy`] (issue 14 item 10):
//! no IMAP login until the inbox is first used, so the commands that only
//! read the database (`arbitre status`, `report`...) work while the IMAP
//! server is down, and `serve` starts and retries instead of exiting.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::error::MailError;
use crate::transport::imap::{ImapConfig, ImapEntry, ImapError, ImapInbox};
use crate::transport::maildir::{Maildir, MaildirEntry};

/// Which inbox to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InboxConfig {
    Maildir(PathBuf),
    Imap(ImapConfig),
}

/// A message waiting in an [`Inbox`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InboxEntry {
    Maildir(MaildirEntry),
    Imap(ImapEntry),
}

impl InboxEntry {
    /// A short, stable name for logs: the Maildir file name, or
    /// `imap:<uidvalidity>:<uid>`.
    pub fn name(&self) -> String {
        match self {
            InboxEntry::Maildir(e) => e.name.clone(),
            InboxEntry::Imap(e) => format!("imap:{}:{}", e.uid_validity, e.uid),
        }
    }
}

/// A Maildir or a (self-reconnecting) IMAP folder.
#[derive(Debug)]
pub enum Inbox {
    Maildir(Maildir),
    Imap {
        config: Box<ImapConfig>,
        session: Option<Box<ImapInbox>>,
    },
}

fn imap_err(e: ImapError) -> MailError {
    match e {
        ImapError::TooLarge { size, limit } => MailError::TooLarge { size, limit },
        other => MailError::Imap(other),
    }
}

impl Inbox {
    /// Opens the inbox. A Maildir is created if missing; an IMAP inbox logs in
    /// now, so a wrong host or password is reported at start-up.
    pub fn open(config: &InboxConfig) -> Result<Inbox, MailError> {
        match config {
            InboxConfig::Maildir(root) => Ok(Inbox::Maildir(Maildir::open(root)?)),
            InboxConfig::Imap(cfg) => Ok(Inbox::Imap {
                config: Box::new(cfg.clone()),
                session: Some(Box::new(ImapInbox::connect(cfg).map_err(imap_err)?)),
            }),
        }
    }

    /// Opens the inbox without connecting: a Maildir is opened (created if
    /// missing) as by [`Inbox::open`]; an IMAP inbox logs in on first use.
    pub fn open_lazy(config: &InboxConfig) -> Result<Inbox, MailError> {
        match config {
            InboxConfig::Maildir(root) => Ok(Inbox::Maildir(Maildir::open(root)?)),
            InboxConfig::Imap(cfg) => Ok(Inbox::Imap {
                config: Box::new(cfg.clone()),
                session: None,
            }),
        }
    }

    /// Logs in now if this is an IMAP inbox without a session (a Maildir has
    /// nothing to connect). `serve` calls it at start to report a wrong host
    /// or password early, without stopping.
    pub fn connect(&mut self) -> Result<(), MailError> {
        match self {
            Inbox::Maildir(_) => Ok(()),
            Inbox::Imap { .. } => self.with_session(|_| Ok(())),
        }
    }

    /// True when an IMAP session is open (always true for a Maildir).
    pub fn is_connected(&self) -> bool {
        match self {
            Inbox::Maildir(_) => true,
            Inbox::Imap { session, .. } => session.is_some(),
        }
    }

    fn with_session<T>(
        &mut self,
        f: impl FnOnce(&mut ImapInbox) -> Result<T, ImapError>,
    ) -> Result<T, MailError> {
        let Inbox::Imap { config, session } = self else {
            return Err(MailError::Unparseable("not an IMAP inbox".into()));
        };
        if session.is_none() {
            *session = Some(Box::new(ImapInbox::connect(config).map_err(imap_err)?));
        }
        let Some(s) = session.as_mut() else {
            return Err(MailError::Imap(ImapError::Lost("no session".into())));
        };
        let result = f(s);
        if let Err(e) = &result {
            // After a lost connection, a protocol surprise or renumbering, start
            // over with a fresh session (and a fresh UIDVALIDITY).
            if !matches!(e, ImapError::TooLarge { .. } | ImapError::Gone { .. }) {
                *session = None;
            }
        }
        result.map_err(imap_err)
    }

    /// Messages waiting, in arrival order.
    pub fn pending(&mut self) -> Result<Vec<InboxEntry>, MailError> {
        match self {
            Inbox::Maildir(m) => Ok(m.pending()?.into_iter().map(InboxEntry::Maildir).collect()),
            Inbox::Imap { .. } => Ok(self
                .with_session(|s| s.pending())?
                .into_iter()
                .map(InboxEntry::Imap)
                .collect()),
        }
    }

    /// The raw message, or [`MailError::TooLarge`] without reading it.
    pub fn read(&mut self, e: &InboxEntry, max_size: usize) -> Result<Vec<u8>, MailError> {
        match (self, e) {
            (Inbox::Maildir(m), InboxEntry::Maildir(e)) => m.read(e, max_size),
            (this @ Inbox::Imap { .. }, InboxEntry::Imap(e)) => {
                this.with_session(|s| s.read(e, max_size))
            }
            _ => Err(MailError::Unparseable(
                "entry from another kind of inbox".into(),
            )),
        }
    }

    /// The first `n` bytes of a message (for answering an oversized mail).
    pub fn read_head(&mut self, e: &InboxEntry, n: usize) -> Result<Vec<u8>, MailError> {
        match (self, e) {
            (Inbox::Maildir(_), InboxEntry::Maildir(e)) => {
                use std::io::Read;
                let mut head = Vec::new();
                std::fs::File::open(&e.path)?
                    .take(n as u64)
                    .read_to_end(&mut head)?;
                Ok(head)
            }
            (this @ Inbox::Imap { .. }, InboxEntry::Imap(e)) => {
                this.with_session(|s| s.read_head(e, n))
            }
            _ => Err(MailError::Unparseable(
                "entry from another kind of inbox".into(),
            )),
        }
    }

    /// Marks a message recorded (Maildir: moved to `cur/`; IMAP: flagged,
    /// and moved if a processed folder is configured). Idempotent.
    pub fn mark_done(&mut self, e: &InboxEntry) -> Result<(), MailError> {
        match (self, e) {
            (Inbox::Maildir(m), InboxEntry::Maildir(e)) => m.mark_done(e),
            (this @ Inbox::Imap { .. }, InboxEntry::Imap(e)) => {
                this.with_session(|s| s.mark_done(e))
            }
            _ => Err(MailError::Unparseable(
                "entry from another kind of inbox".into(),
            )),
        }
    }

    /// Waits up to `timeout` for new mail: IMAP IDLE where offered, else a
    /// plain sleep (the caller polls `pending` afterwards either way).
    pub fn wait(&mut self, timeout: Duration) -> Result<(), MailError> {
        self.wait_or_stop(timeout, None)
    }

    /// [`Inbox::wait`] that ends at `timeout` whatever the server sends, and
    /// within a quarter of a second once `stop` is set (SIGTERM).
    pub fn wait_or_stop(
        &mut self,
        timeout: Duration,
        stop: Option<&Arc<AtomicBool>>,
    ) -> Result<(), MailError> {
        match self {
            Inbox::Maildir(_) => {
                sleep_or_stop(timeout, stop);
                Ok(())
            }
            Inbox::Imap { .. } => self
                .with_session(|s| s.wait_or_stop(timeout, stop))
                .map(|_| ()),
        }
    }
}

/// Sleeps `timeout`, in short slices so that `stop` is noticed quickly.
pub fn sleep_or_stop(timeout: Duration, stop: Option<&Arc<AtomicBool>>) {
    let until = std::time::Instant::now() + timeout;
    loop {
        let now = std::time::Instant::now();
        if now >= until || stop.is_some_and(|f| f.load(std::sync::atomic::Ordering::SeqCst)) {
            return;
        }
        std::thread::sleep((until - now).min(Duration::from_millis(250)));
    }
}
