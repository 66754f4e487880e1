//! Mail for the arbitre referee: reading players' mail, finding the order
//! block in it, and formatting and sending the referee's answers.
//!
//! Two module trees, the way Stalwart keeps its protocol parsers apart from
//! its servers (issue 16 item 6):
//! - [`message`], pure: MIME decoding ([`message::parse`],
//!   [`message::decode`], [`message::html`]), the order block
//!   ([`message::envelope`]), the DKIM verdict logic given the key records
//!   ([`message::dkim`]) and the formatting of answers
//!   ([`message::format`]). No file, socket, process or clock: a value in,
//!   a value out. tests/layering.rs holds it.
//! - [`transport`], the I/O: the Maildir and IMAP inboxes, the file,
//!   sendmail and SMTP transports, DNS for DKIM, secrets read from files.
//!
//! [`config`] (the `[inbound]` table of `arbitre.toml`) and [`error`] serve
//! both. The modules' former paths (`arbitre_mail::parse`, `::outbound`,
//! `::dkim`, `::maildir`...) stay as re-exports, so the daemon's code does
//! not change with the split.
//!
//! Nothing here keeps state between calls: idempotency is the daemon's journal
//! (keyed by the SHA-256 of the raw bytes, see [`InboundMail::sha256`]).

pub mod config;
pub mod error;
pub mod message;
pub mod transport;

// The paths from before the split (issue 16 item 6).
pub use message::{decode, envelope, html, parse};
pub use transport::{imap, inbox, maildir, secret};

/// DKIM verification (issue 10): the verdict logic ([`message::dkim`]) and
/// the verifier that looks keys up ([`transport::dns`]), under their
/// former path.
pub mod dkim {
    pub use crate::message::dkim::*;
    pub use crate::transport::dns::*;
}

/// Outgoing mail: formatting ([`message::format`]) and the transports
/// ([`transport::send`]), under their former path.
pub mod outbound {
    pub use crate::message::format::*;
    pub use crate::transport::send::*;
}

pub use dkim::{DkimConfig, DkimVerdict, DkimVerifier, FailReason};
pub use envelope::{
    find_envelope, find_envelopes, find_in_mail, BlockKind, Envelope, EnvelopeError,
};
pub use error::MailError;
pub use imap::{ImapConfig, ImapEntry, ImapError, ImapInbox};
pub use inbox::{Inbox, InboxConfig, InboxEntry};
pub use maildir::{Maildir, MaildirEntry};
pub use outbound::{
    body_of, clean_stale_temp_files, format_mail, format_mail_parts, render_parts, retry_delay,
    valid_recipient, Attachment, MailPart, Mailer, OutgoingMail, Security, SendError, SmtpConfig,
    Transport, STALE_TMP_AGE,
};
pub use parse::{parse_mail, Address, AutoKind, InboundMail};
pub use secret::{read_secret, SecretError, SecretSource};

/// Largest raw mail accepted (10 MiB): bigger mails are refused before any
/// parsing so a hostile sender cannot make the daemon allocate without bound.
pub const DEFAULT_MAX_SIZE: usize = 10 * 1024 * 1024;
