//! The pure half of the mail crate (issue 16 item 6): bytes in, values out,
//! no file, socket, process or clock. What the daemon decides from a mail
//! is decided from these; tests/layering.rs fails if a file here names the
//! I/O tree or an I/O API.
//!
//! - [`parse`]: MIME decoding of one raw mail into candidate texts, with the
//!   charset, transfer-encoding and hostile-input guards players' clients
//!   need ([`decode`] the byte-level decoders, [`html`] HTML to text);
//! - [`envelope`]: the `GAME … PLAYER … PASSWORD …` block inside a text;
//! - [`dkim`]: the DKIM verdict from the signatures' results, alignment,
//!   the pinned key records (the DNS answers given to the verification);
//! - [`format`]: the referee's answers as RFC 5322 bytes (lettre's bytes:
//!   written directly for text mails, by lettre's builder with attachments).

pub mod decode;
pub mod dkim;
pub mod envelope;
pub mod format;
pub mod html;
pub mod parse;
mod qp;
