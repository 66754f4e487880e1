//! Mail for the arbitre referee: reading players' mail, finding the order
//! block in it, and formatting and sending the referee's answers.
//!
//! The crate is split by job, in the order a mail travels through the daemon:
//! - [`maildir`]: the inbound Maildir (`new/` is the queue, `cur/` holds what
//!   the journal has recorded);
//! - [`parse`]: MIME decoding of one raw mail into candidate texts, with the
//!   charset, transfer-encoding and hostile-input guards players' clients need;
//! - [`envelope`]: the `GAME … PLAYER … PASSWORD …` block inside a text;
//! - [`outbound`]: formatting replies (lettre) and the file / sendmail / SMTP
//!   transports;
//! - [`imap`]: the inbound IMAP inbox (same list / read / mark-done protocol
//!   as the Maildir), [`inbox`] uniting both behind one interface, and
//!   [`secret`] for the IMAP and SMTP passwords;
//! - [`dkim`]: DKIM verification of a raw mail (issue 10);
//! - [`config`]: the `[inbound]` table of `arbitre.toml`.
//!
//! Nothing here keeps state between calls: idempotency is the daemon's journal
//! (keyed by the SHA-256 of the raw bytes, see [`InboundMail::sha256`]).

pub mod config;
pub mod decode;
pub mod dkim;
pub mod envelope;
pub mod error;
pub mod html;
pub mod imap;
pub mod inbox;
pub mod maildir;
pub mod outbound;
pub mod parse;
pub mod secret;

pub use dkim::{DkimConfig, DkimVerdict, DkimVerifier, FailReason};
pub use envelope::{find_envelope, find_in_mail, BlockKind, Envelope, EnvelopeError};
pub use error::MailError;
pub use imap::{ImapConfig, ImapEntry, ImapError, ImapInbox};
pub use inbox::{Inbox, InboxConfig, InboxEntry};
pub use maildir::{Maildir, MaildirEntry};
pub use outbound::{
    body_of, clean_stale_temp_files, format_mail, retry_delay, Attachment, Mailer, OutgoingMail,
    Security, SendError, SmtpConfig, Transport, STALE_TMP_AGE,
};
pub use parse::{parse_mail, Address, AutoKind, InboundMail};
pub use secret::{read_secret, SecretError, SecretSource};

/// Largest raw mail accepted (10 MiB): bigger mails are refused before any
/// parsing so a hostile sender cannot make the daemon allocate without bound.
pub const DEFAULT_MAX_SIZE: usize = 10 * 1024 * 1024;
