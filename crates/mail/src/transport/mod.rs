//! The I/O half of the mail crate (issue 16 item 6): everything that
//! touches a file, a socket, a process or DNS, and nothing that decides
//! what a mail means (that is [`crate::message`]).
//!
//! - [`maildir`]: the inbound Maildir (`new/` is the queue, `cur/` holds
//!   what the journal has recorded);
//! - [`imap`]: the inbound IMAP inbox (same list / read / mark-done
//!   protocol), [`inbox`] uniting both behind one interface;
//! - [`send`]: the file, sendmail and SMTP transports and [`send::Mailer`];
//! - [`dns`]: the resolver and runtime of DKIM verification;
//! - [`secret`]: the IMAP and SMTP passwords (files, environment).

pub mod dns;
pub mod imap;
pub mod inbox;
pub mod maildir;
pub mod secret;
pub mod send;
