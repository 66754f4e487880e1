//! The referee's outgoing mail as bytes: [`format_mail`] (lettre's message
//! builder, no transport), and its inverses [`body_of`] (tests) and
//! [`attachments_of`] (RESEND mails a report again as it was mailed).
//!
//! A mail without attachments (every confirmation and error answer) is
//! written directly, without the builder, and its bytes are the bytes
//! lettre writes: the same headers in the same order, encoded and folded by
//! the same `email-encoding` functions, the body by the same transfer
//! encoding (email-encoding's choice, copied) and the same bytes of
//! quoted-printable (`qp.rs`, the `quoted_printable` crate's output).
//! `tests::direct_path_is_lettres_bytes` holds this on thousands of random
//! mails against [`format_mail_by_lettre`]. A mail with attachments goes
//! through lettre's builder, its texts encoded the same way
//! (`tests::text_bodies_are_lettres`).
//!
//! Formatting is deterministic for a given [`OutgoingMail`]: the daemon
//! chooses the Message-ID and the Date, and the MIME boundary is derived from
//! the Message-ID, so archived fixtures compare byte for byte. Every header
//! value is checked for control characters before it reaches lettre: a
//! player-controlled string (a subject echoing theirs, a display name) can
//! never inject a header. Sending is [`crate::outbound`]'s other half, in the
//! I/O tree (`transport::send`).

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use email_encoding::body::Encoding;
use email_encoding::headers::writer::EmailWriter;
use lettre::message::header::ContentTransferEncoding;
use lettre::message::header::{self, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, Mailboxes, MultiPart, SinglePart};
use sha2::{Digest, Sha256};

use crate::error::MailError;

/// A file attached to a report (a map as SVG, a machine-readable report).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub mime: String,
    pub content: Vec<u8>,
}

/// A mail the daemon wants to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub from: String,
    pub to: String,
    pub subject: String,
    pub body: String,
    /// Without angle brackets; chosen deterministically by the daemon.
    pub message_id: String,
    /// Without angle brackets; also sets References.
    pub in_reply_to: Option<String>,
    /// `auto-replied` (answers to a player's mail) or `auto-generated`
    /// (reports, reminders), RFC 3834.
    pub auto_submitted: &'static str,
    /// RFC 2822 date chosen by the daemon.
    pub date: String,
    pub attachments: Vec<Attachment>,
}

/// The `Auto-Submitted` header (RFC 3834), which lettre does not define.
#[derive(Debug, Clone)]
struct AutoSubmitted(String);

impl header::Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }
    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted(s.to_owned()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

fn reject_controls(field: &str, value: &str) -> Result<(), MailError> {
    if value.chars().any(char::is_control) {
        return Err(MailError::Format(format!(
            "{field} contains a control character (line break?): {value:?}"
        )));
    }
    Ok(())
}

/// Subjects often echo a player's subject: line breaks and other controls are
/// replaced by spaces rather than refusing to answer.
fn clean_subject(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Message-ID without brackets: printable ASCII, no spaces, no brackets, one `@`.
fn check_message_id(field: &str, id: &str) -> Result<(), MailError> {
    let ok = !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>' && b != b'"' && b != b'\\')
        && id.matches('@').count() == 1;
    if ok {
        Ok(())
    } else {
        Err(MailError::Format(format!(
            "{field} must look like local@domain without brackets or spaces: {id:?}"
        )))
    }
}

/// A parsed address as the cache keeps it.
#[derive(Debug)]
struct Parsed {
    mailbox: Mailbox,
    /// Whether lettre's `build` accepts this mailbox as the whole From:
    /// it parses the From header it has written back out of its display
    /// form, and fails (MissingFrom, TooManyFrom) when that is not one
    /// mailbox. Asked only of the From, once per address.
    alone_in_from: OnceCell<bool>,
}

impl Parsed {
    fn alone_in_from(&self) -> bool {
        *self.alone_in_from.get_or_init(|| {
            self.mailbox
                .to_string()
                .parse::<Mailboxes>()
                .is_ok_and(|all| all.iter().count() <= 1)
        })
    }
}

fn mailbox(field: &str, value: &str) -> Result<Rc<Parsed>, MailError> {
    reject_controls(field, value)?;
    if let Some(m) = MAILBOXES.with(|c| c.borrow().get(value).cloned()) {
        return Ok(m);
    }
    let m = value
        .parse::<Mailbox>()
        .map_err(|e| MailError::Format(format!("{field} {value:?} is not an address: {e}")))?;
    let m = Rc::new(Parsed {
        mailbox: m,
        alone_in_from: OnceCell::new(),
    });
    MAILBOXES.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= MAILBOX_CACHE {
            c.clear();
        }
        c.insert(value.to_owned(), Rc::clone(&m));
    });
    Ok(m)
}

/// How many parsed addresses a thread keeps (a few hundred bytes each).
const MAILBOX_CACHE: usize = 4096;

thread_local! {
    /// Addresses already parsed: the referee's own From on every mail, a
    /// player's on each of theirs. lettre's address parser was a fifth of
    /// formatting a confirmation (issue 22 item 1); a parse is a pure
    /// function of the text, so a hit gives what parsing would. Only
    /// addresses that parsed are kept.
    static MAILBOXES: RefCell<HashMap<String, Rc<Parsed>>> = RefCell::new(HashMap::new());
}

/// True when [`format_mail`] accepts `to` as the recipient: the same check,
/// without building a message (the daemon asks it of every mail it may
/// answer, issue 22 item 1).
pub fn valid_recipient(to: &str) -> bool {
    mailbox("To", to).is_ok()
}

/// What [`format_mail`] has checked of a mail, for either way of writing it.
struct Checked {
    from: Rc<Parsed>,
    to: Rc<Parsed>,
    /// The Date, in seconds since 1970.
    date: u64,
}

fn check(m: &OutgoingMail) -> Result<Checked, MailError> {
    let from = mailbox("From", &m.from)?;
    let to = mailbox("To", &m.to)?;
    check_message_id("Message-ID", &m.message_id)?;
    if let Some(parent) = &m.in_reply_to {
        check_message_id("In-Reply-To", parent)?;
    }
    if !matches!(m.auto_submitted, "auto-replied" | "auto-generated" | "no") {
        return Err(MailError::Format(format!(
            "Auto-Submitted must be auto-replied or auto-generated, not {:?}",
            m.auto_submitted
        )));
    }
    reject_controls("Date", &m.date)?;
    let date = chrono::DateTime::parse_from_rfc2822(m.date.trim())
        .map_err(|e| MailError::Format(format!("Date {:?} is not RFC 2822: {e}", m.date)))?;
    let date = u64::try_from(date.timestamp())
        .map_err(|_| MailError::Format(format!("Date {:?} is before 1970", m.date)))?;
    Ok(Checked { from, to, date })
}

/// Formats `m` as RFC 5322 bytes (CRLF line endings).
pub fn format_mail(m: &OutgoingMail) -> Result<Vec<u8>, MailError> {
    let checked = check(m)?;
    if let Some(raw) = format_direct(m, &checked) {
        return Ok(raw);
    }
    format_checked_by_lettre(m, &checked, text_body, None)
}

/// A piece of a formatted mail (see [`format_mail_parts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MailPart {
    /// Bytes of the mail as they are.
    Bytes(Vec<u8>),
    /// An attachment's content, which the mail carries as
    /// [`base64_lines`] of it: lines of 76 characters joined by CRLF,
    /// none after the last.
    Base64(Vec<u8>),
}

/// [`format_mail`]'s bytes in pieces, each base64 attachment kept as its
/// content (issue 22 item 4): the outbox stores a report so, and encodes
/// the attachments when the mail is read to be sent. A report's SVG map
/// and JSON view are most of its mail; their base64 cost a third of
/// formatting it, and LZ4 compressed the base64 text at a quarter of
/// the speed and to a third more than the content it encodes.
///
/// [`render_parts`] of the result is exactly `format_mail(m)` (test
/// `parts_render_as_format_mail`). A mail without base64 attachments is
/// one [`MailPart::Bytes`].
pub fn format_mail_parts(m: &OutgoingMail) -> Result<Vec<MailPart>, MailError> {
    let checked = check(m)?;
    if let Some(raw) = format_direct(m, &checked) {
        return Ok(vec![MailPart::Bytes(raw)]);
    }
    // Each base64 attachment's body is a marker that no other byte of the
    // mail holds: the header fields and the text parts are written from
    // our strings, and a marker found anywhere but once per attachment,
    // in order, falls back to the whole bytes.
    let nonce = format!(
        "=arbitre-part-{}-",
        &hex::encode(Sha256::digest(format!("parts {}", m.message_id).as_bytes()))[..24]
    );
    let raw = format_checked_by_lettre(m, &checked, text_body, Some(&nonce))?;
    let base64: Vec<&Attachment> = m.attachments.iter().filter(|a| is_base64(a)).collect();
    let found: Vec<usize> = memchr::memmem::find_iter(&raw, nonce.as_bytes()).collect();
    let in_order = found.len() == base64.len()
        && found.iter().enumerate().all(|(i, &at)| {
            raw.get(at + nonce.len()..)
                .is_some_and(|rest| rest.starts_with(marker_index(i).as_bytes()))
        });
    if !in_order {
        return format_checked_by_lettre(m, &checked, text_body, None)
            .map(|raw| vec![MailPart::Bytes(raw)]);
    }
    let mut parts = Vec::with_capacity(2 * base64.len() + 1);
    let mut from = 0;
    for (i, (at, a)) in found.iter().zip(base64).enumerate() {
        parts.push(MailPart::Bytes(raw[from..*at].to_vec()));
        parts.push(MailPart::Base64(a.content.clone()));
        from = at + nonce.len() + marker_index(i).len();
    }
    parts.push(MailPart::Bytes(raw[from..].to_vec()));
    Ok(parts)
}

/// The bytes of a mail given in parts by [`format_mail_parts`].
pub fn render_parts(parts: &[MailPart]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts {
        match p {
            MailPart::Bytes(b) => out.extend_from_slice(b),
            MailPart::Base64(content) => out.extend_from_slice(&base64_lines(content)),
        }
    }
    out
}

fn marker_index(i: usize) -> String {
    format!("{i:05}=")
}

/// [`format_mail`] through lettre's message builder whatever the mail, its
/// texts encoded by lettre's `Body::new` too: the reference the direct path
/// and [`text_body`] are tested against.
#[doc(hidden)]
pub fn format_mail_by_lettre(m: &OutgoingMail) -> Result<Vec<u8>, MailError> {
    format_checked_by_lettre(m, &check(m)?, Body::new::<String>, None)
}

/// The way mails with attachments are written: lettre's builder, each text
/// (CRLF line ends) made a body by `text`; with a `marker`, each base64
/// attachment's body is the marker and its index instead
/// ([`format_mail_parts`]).
fn format_checked_by_lettre(
    m: &OutgoingMail,
    checked: &Checked,
    text: fn(String) -> Body,
    marker: Option<&str>,
) -> Result<Vec<u8>, MailError> {
    let from = checked.from.mailbox.clone();
    let to = checked.to.mailbox.clone();
    let date = SystemTime::UNIX_EPOCH + Duration::from_secs(checked.date);

    // The envelope given, lettre's `build` does not read it back out of
    // the From and To headers it has just written (a second parse of each
    // address). It only serves lettre's own transports; the bytes are the
    // same.
    let envelope = lettre::address::Envelope::new(Some(from.email.clone()), vec![to.email.clone()])
        .map_err(|e| MailError::Format(format!("envelope: {e}")))?;
    let mut builder = lettre::Message::builder()
        .envelope(envelope)
        .from(from)
        .to(to)
        .subject(clean_subject(&m.subject))
        .date(date)
        .message_id(Some(format!("<{}>", m.message_id)))
        .header(AutoSubmitted(m.auto_submitted.to_owned()));
    if let Some(parent) = &m.in_reply_to {
        builder = builder
            .in_reply_to(format!("<{parent}>"))
            .references(format!("<{parent}>"));
    }

    // Always UTF-8; lettre picks 7bit, quoted-printable or base64 from the
    // content, so French and German text arrives intact. The line ends are
    // made CRLF here in one pass (issue 14 item 1): lettre's own conversion
    // inserts each CR into the string in place, quadratic in the number of
    // lines (150 s of CPU for a 10 MB confirmation); given CRLF text it only
    // scans it.
    let text_part = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(text(to_crlf(&m.body)));

    let message = if m.attachments.is_empty() {
        builder.singlepart(text_part)
    } else {
        let boundary = format!(
            "arbitre-{}",
            &hex::encode(Sha256::digest(m.message_id.as_bytes()))[..32]
        );
        let mut multi = MultiPart::mixed().boundary(boundary).singlepart(text_part);
        let mut base64_index = 0;
        for a in &m.attachments {
            reject_controls("attachment name", &a.name)?;
            let name = a.name.replace(['"', '\\', '/'], "_");
            let mime = ContentType::parse(&attachment_mime(a)).map_err(|e| {
                MailError::Format(format!("attachment MIME type {:?}: {e}", a.mime))
            })?;
            let body = match marker {
                Some(marker) if is_base64(a) => {
                    let at = format!("{marker}{}", marker_index(base64_index));
                    base64_index += 1;
                    Body::dangerous_pre_encoded(at.into_bytes(), ContentTransferEncoding::Base64)
                }
                _ => attachment_body(a, text),
            };
            multi = multi.singlepart(lettre::message::Attachment::new(name).body(body, mime));
        }
        builder.multipart(multi)
    }
    .map_err(|e| MailError::Format(e.to_string()))?;
    Ok(message.formatted())
}

/// The first second httpdate cannot write (year 10000): lettre's Date
/// header panics there, and the direct path leaves that to it.
const HTTPDATE_END: u64 = 253_402_300_800;

/// Whether [`format_direct`] writes `m` itself rather than leaving it to
/// lettre: a mail without attachments, with a text of at most
/// [`DIRECT_BODY_MAX`] bytes, whose From lettre accepts (see
/// [`Parsed::alone_in_from`]) and whose Date httpdate can write.
fn direct_path_applies(m: &OutgoingMail, checked: &Checked) -> bool {
    m.attachments.is_empty()
        && m.body.len() <= DIRECT_BODY_MAX
        && checked.date < HTTPDATE_END
        && checked.from.alone_in_from()
}

/// The longest text the direct path writes. The confirmation of a 10 MB
/// order mail (a 3 MB text) written directly raised the daemon's resident
/// peak from 4.92 to 5.15 times the mail (big_order_mail_peak_rss_bounded,
/// bound 5; the same number of copies, laid out otherwise by the C
/// allocator): such texts keep lettre's path, whose peak that test holds,
/// and where the builder's cost is small beside the encoding.
const DIRECT_BODY_MAX: usize = 1 << 20;

/// `m` as lettre's builder writes it (From, To, Subject, Date, Message-ID,
/// Auto-Submitted, In-Reply-To, References, MIME-Version, then the text
/// part's Content-Type and Content-Transfer-Encoding), without the builder:
/// it set each header by value, parsed some of them back, cloned them into
/// the message and dropped it, three quarters of formatting a confirmation.
/// None when `m` is not [`direct_path_applies`].
fn format_direct(m: &OutgoingMail, checked: &Checked) -> Option<Vec<u8>> {
    if !direct_path_applies(m, checked) {
        return None;
    }
    let (body, encoding) = encoded_text(to_crlf(&m.body)).ok()?;
    let encoding = match encoding {
        ContentTransferEncoding::SevenBit => "7bit",
        ContentTransferEncoding::QuotedPrintable => "quoted-printable",
        ContentTransferEncoding::Base64 => "base64",
        _ => return None,
    };

    let mut head = String::with_capacity(640);
    write_headers(m, checked, &mut head).ok()?;
    head.push_str("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: ");
    head.push_str(encoding);
    head.push_str("\r\n\r\n");

    let mut out = Vec::with_capacity(head.len() + body.len() + 2);
    out.extend_from_slice(head.as_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(b"\r\n");
    Some(out)
}

/// What `Body::new` does with a String whose lines already end in CRLF
/// ([`to_crlf`]): `MaybeString::encoding(false)`, then the encoder of that
/// encoding, without its scan for bare line ends. The text is consumed or
/// dropped as soon as it is encoded. 8bit, which that choice never makes
/// (no SMTPUTF8), gives the text back.
fn encoded_text(text: String) -> Result<(Vec<u8>, ContentTransferEncoding), String> {
    Ok(match body_encoding(&text) {
        Encoding::SevenBit => (text.into_bytes(), ContentTransferEncoding::SevenBit),
        Encoding::QuotedPrintable => (
            super::qp::encode(text.as_bytes()),
            ContentTransferEncoding::QuotedPrintable,
        ),
        Encoding::Base64 => {
            let encoded = base64_lines(text.as_bytes());
            drop(text);
            (encoded, ContentTransferEncoding::Base64)
        }
        Encoding::EightBit => return Err(text),
    })
}

/// `Body::new(text)` for a text with CRLF line ends, the same bytes:
/// quoted-printable by `qp.rs`, any other encoding by lettre itself.
/// Base64 stays lettre's because it encodes into one buffer, where
/// [`base64_lines`] holds a second copy: a 10 MB confirmation's peak
/// (big_order_mail_peak_rss_bounded) would pass its bound.
fn text_body(text: String) -> Body {
    match body_encoding(&text) {
        Encoding::QuotedPrintable => Body::dangerous_pre_encoded(
            super::qp::encode(text.as_bytes()),
            ContentTransferEncoding::QuotedPrintable,
        ),
        _ => Body::new(text),
    }
}

/// email-encoding's `Encoding::choose(text, false)`, the choice of lettre's
/// `Body::new` for a String, with a byte count the compiler vectorises:
/// the crate's byte filter was an eighth of the direct formatter.
/// `tests::body_encoding_is_email_encodings_choice` holds it to the crate's.
fn body_encoding(text: &str) -> Encoding {
    let b = text.as_bytes();
    // The crate's `line_too_long`, quirks kept: the first line is measured
    // without its LF, the others with the LF before them.
    let mut last = 0;
    let too_long = memchr::memchr_iter(b'\n', b).any(|i| {
        let previous = std::mem::replace(&mut last, i);
        i - previous >= 76
    }) || b.len() - last >= 76;
    if !too_long && b.is_ascii() {
        return Encoding::SevenBit;
    }
    // A byte to escape is one outside TAB and SP..=`~`. Counted without
    // branches, in u8 counters over chunks of 255 (none can overflow), so
    // that it is done sixteen bytes at a time.
    let escaped: usize = b
        .chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &c| {
                n + u8::from((c.wrapping_sub(b' ') > b'~' - b' ') & (c != b'\t'))
            });
            usize::from(n)
        })
        .sum();
    if escaped <= b.len() / 3 {
        Encoding::QuotedPrintable
    } else {
        Encoding::Base64
    }
}

fn write_headers(m: &OutgoingMail, checked: &Checked, out: &mut String) -> fmt::Result {
    out.push_str("From: ");
    write_mailbox(&checked.from.mailbox, "From", out)?;
    out.push_str("\r\nTo: ");
    write_mailbox(&checked.to.mailbox, "To", out)?;
    out.push_str("\r\n");
    write_text_header("Subject", &clean_subject(&m.subject), out)?;

    // lettre's `Date` header: httpdate's IMF-fixdate with `GMT` replaced by
    // `+0000`.
    let date = httpdate::fmt_http_date(SystemTime::UNIX_EPOCH + Duration::from_secs(checked.date));
    out.push_str("Date: ");
    match date.strip_suffix(" GMT") {
        Some(utc) => {
            out.push_str(utc);
            out.push_str(" +0000");
        }
        None => out.push_str(&date),
    }
    out.push_str("\r\n");

    let mut id = String::with_capacity(m.message_id.len() + 2);
    bracketed(&m.message_id, &mut id);
    write_text_header("Message-ID", &id, out)?;
    write_text_header("Auto-Submitted", m.auto_submitted, out)?;
    if let Some(parent) = &m.in_reply_to {
        bracketed(parent, &mut id);
        write_text_header("In-Reply-To", &id, out)?;
        write_text_header("References", &id, out)?;
    }
    out.push_str("MIME-Version: 1.0\r\n");
    Ok(())
}

fn bracketed(id: &str, out: &mut String) {
    out.clear();
    out.push('<');
    out.push_str(id);
    out.push('>');
}

/// A From or To header's value as lettre's `Mailboxes::encode` writes one
/// mailbox (that function is crate-private): the display name through
/// email-encoding's quoted-string encoder, folded from after `name: `.
fn write_mailbox(mailbox: &Mailbox, name: &str, out: &mut String) -> fmt::Result {
    let mut w = EmailWriter::new(out, name.len() + ": ".len(), 0, false);
    if let Some(display) = &mailbox.name {
        email_encoding::headers::quoted_string::encode(display, &mut w)?;
        w.space();
        w.write_char('<')?;
    }
    w.write_str(mailbox.email.as_ref())?;
    if mailbox.name.is_some() {
        w.write_char('>')?;
    }
    Ok(())
}

/// `name: value` CRLF as lettre's `HeaderValue::new` writes it (its
/// `HeaderValueEncoder`, crate-private): the value cut after each space;
/// words of ASCII written as they are, folded; each run of words with other
/// characters (or NUL, CR, LF) written as RFC 2047 encoded words, its
/// trailing spaces kept as spaces.
fn write_text_header(name: &str, value: &str, out: &mut String) -> fmt::Result {
    out.push_str(name);
    out.push_str(": ");
    {
        let mut w = EmailWriter::new(out, name.len() + ": ".len(), 0, false);
        let mut pending = String::new();
        for word in value.split_inclusive(' ') {
            if word.bytes().all(lettre_allowed_byte) {
                flush_encoded(&mut pending, &mut w)?;
                w.folding().write_str(word)?;
            } else {
                pending.push_str(word);
            }
        }
        flush_encoded(&mut pending, &mut w)?;
        // Dropping the writer writes the spaces it still holds, as lettre's.
    }
    out.push_str("\r\n");
    Ok(())
}

fn flush_encoded(pending: &mut String, w: &mut EmailWriter<'_>) -> fmt::Result {
    if pending.is_empty() {
        return Ok(());
    }
    let words = pending.trim_end_matches(' ');
    email_encoding::headers::rfc2047::encode(words, w)?;
    for _ in words.len()..pending.len() {
        w.space();
    }
    pending.clear();
    Ok(())
}

/// lettre's `allowed_char` (header/mod.rs): the bytes a header word may
/// keep unencoded.
const fn lettre_allowed_byte(c: u8) -> bool {
    matches!(c, 1..=9 | 11 | 12 | 14..=127)
}

/// `s` with every line end (CR LF, a lone LF, a lone CR) as CR LF, in one
/// linear pass. SMTP knows no other line end: Postfix with
/// `smtpd_forbid_bare_newline = reject` refuses a whole mail for one bare LF
/// (issue 14 item 13).
pub fn to_crlf(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len() + s.len() / 32 + 2);
    let mut start = 0;
    // memchr2 rather than a byte loop: a text is mostly long runs between
    // line ends, and this pass was a tenth of the direct formatter.
    while let Some(found) = memchr::memchr2(b'\r', b'\n', &bytes[start..]) {
        let i = start + found;
        let end = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i + 2
        } else {
            i + 1
        };
        // CR and LF are ASCII, so `i` and `end` are character boundaries.
        out.push_str(&s[start..i]);
        out.push_str("\r\n");
        start = end;
    }
    out.push_str(&s[start..]);
    out
}

/// The encoded body of an attachment. lettre sends bytes that happen to be
/// short-lined ASCII as 7bit with their line ends untouched, so an order
/// template with `\n` line ends left with bare LFs (issue 14 item 13).
/// A `text/*` attachment in UTF-8 is text: its line ends become CRLF (the
/// canonical form of text in MIME, RFC 2046 4.1.1) and lettre picks 7bit
/// or quoted-printable. Anything else is base64, which keeps every byte and
/// has no line end of its own to get wrong.
/// The attachment's MIME type, with `charset=utf-8` added to a text type
/// that names no charset: its content is a Rust string, and without the
/// parameter mail clients read the part as US-ASCII and show the accents of
/// a French or German order sheet as garbage.
fn attachment_mime(a: &Attachment) -> String {
    let text = a
        .mime
        .trim_start()
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("text/"));
    let has_charset = a.mime.to_ascii_lowercase().contains("charset=");
    if text && !has_charset && std::str::from_utf8(&a.content).is_ok() {
        format!("{}; charset=utf-8", a.mime.trim_end().trim_end_matches(';'))
    } else {
        a.mime.clone()
    }
}

fn attachment_body(a: &Attachment, text_body: fn(String) -> Body) -> Body {
    if !is_base64(a) {
        if let Ok(s) = std::str::from_utf8(&a.content) {
            return text_body(to_crlf(s));
        }
    }
    base64_body(&a.content)
}

/// Whether `a` is written as [`base64_body`]: all but UTF-8 `text/` ones.
fn is_base64(a: &Attachment) -> bool {
    let text = a
        .mime
        .trim_start()
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("text/"));
    !(text && std::str::from_utf8(&a.content).is_ok())
}

/// `content` in base64, as lettre's `Body::new_with_encoding(.., Base64)`
/// writes it (email-encoding: lines of 76 characters joined by CRLF, none
/// after the last), encoded at once: email-encoding encodes 57 bytes a
/// call, and the maps and JSON views of a turn's reports made base64 a
/// tenth of resolving a turn (issue 22 item 4). 57 bytes are 76 characters
/// without padding, so cutting the whole text every 76 characters gives
/// the same lines.
fn base64_body(content: &[u8]) -> Body {
    Body::dangerous_pre_encoded(base64_lines(content), ContentTransferEncoding::Base64)
}

/// The bytes of [`base64_body`].
fn base64_lines(content: &[u8]) -> Vec<u8> {
    use base64::Engine;
    let text = base64::engine::general_purpose::STANDARD.encode(content);
    let mut out = Vec::with_capacity(text.len() + text.len() / 76 * 2);
    for (i, line) in text.as_bytes().chunks(76).enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(line);
    }
    out
}

/// The attachments of a mail produced by [`format_mail`], decoded, in
/// their order (a text attachment keeps the CRLF line ends it was sent
/// with; [`format_mail`] writes them the same again).
pub fn attachments_of(raw: &[u8]) -> Vec<Attachment> {
    use mail_parser::MimeHeaders;
    let Some(message) = mail_parser::MessageParser::default().parse(raw) else {
        return Vec::new();
    };
    message
        .attachments()
        .map(|part| Attachment {
            name: part.attachment_name().unwrap_or_default().to_string(),
            mime: part
                .content_type()
                .map(|t| {
                    let mut mime = match t.subtype() {
                        Some(sub) => format!("{}/{sub}", t.ctype()),
                        None => t.ctype().to_string(),
                    };
                    // The parameters given (`charset`, `method` of an .ics),
                    // not the file name a client may add.
                    for a in t.attributes().unwrap_or_default() {
                        if !a.name.eq_ignore_ascii_case("name") {
                            mime.push_str(&format!("; {}={}", a.name, a.value));
                        }
                    }
                    mime
                })
                .unwrap_or_default(),
            content: part.contents().to_vec(),
        })
        .collect()
}

/// The decoded text/plain body of a mail produced by [`format_mail`].
pub fn body_of(raw: &[u8]) -> Option<String> {
    let message = mail_parser::MessageParser::default().parse(raw)?;
    let body = message.body_text(0)?;
    Some(body.replace("\r\n", "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift: seeded, so a failure names the mail that failed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.below(items.len())]
        }
    }

    const SUBJECT_PIECES: &[&str] = &[
        "Re:",
        "Ordres",
        "reçus",
        "partie",
        "neb1",
        "tour",
        "3",
        "—",
        "«",
        "»",
        "été",
        "Bestätigung",
        "Grüße",
        "Œdipe",
        "€5",
        "🎲",
        "🇫🇷",
        "Тема",
        "=?",
        "?=",
        "=?utf-8?q?abc?=",
        "=?utf-8?b?QWRtaW4=?=",
        "a=b",
        "x?y",
        "\n",
        "\r\n",
        "\t",
        "\r",
        "\u{7f}",
        "\u{85}",
        "\u{0}",
        "  ",
        " ",
        "",
        "(comment)",
        "\"quoted\"",
        "a,b",
        ";:",
        "Fwd:",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "ééééééééééééééééééééééééééééééééééééééééééééé",
    ];

    const BODY_PIECES: &[&str] = &[
        "Bonjour,",
        "Vos ordres sont enregistrés :",
        "A Paris -> Bourgogne",
        "Grüße",
        "Œdipe — €5",
        "🎲",
        "Привет мир",
        "\n",
        "\n",
        "\n",
        "\r\n",
        "\r",
        "\n\n",
        "   ",
        " \n",
        "\t\n",
        ".",
        ".\n",
        "From the referee",
        "\nFrom ",
        "=",
        "=3D",
        "==",
        "= \n",
        "a=\n",
        "\u{0}",
        "\u{7f}",
        "\u{c}",
        "x",
        "plain ASCII text",
        "end.",
    ];

    fn subject(rng: &mut Rng) -> String {
        let words = match rng.below(4) {
            0 => 0,
            1 => 1 + rng.below(3),
            2 => 3 + rng.below(10),
            _ => 15 + rng.below(40),
        };
        let mut s = String::new();
        if rng.below(4) == 0 {
            s.push_str(rng.pick(&[" ", "  ", "\t", "\n"]));
        }
        for i in 0..words {
            if i > 0 {
                s.push_str(rng.pick(&[" ", " ", " ", "  ", ""]));
            }
            s.push_str(rng.pick(SUBJECT_PIECES));
        }
        if rng.below(4) == 0 {
            s.push_str(rng.pick(&[" ", "  ", "\r\n"]));
        }
        s
    }

    fn body(rng: &mut Rng) -> String {
        let mut s = String::new();
        match rng.below(8) {
            0 => {}
            1 => s.push_str(rng.pick(BODY_PIECES)),
            2 => {
                // One long line: past 76, sometimes past 998.
                let n = 60 + rng.below(1_200);
                let piece = rng.pick(&["a", "é", "a b ", "=", " ", "x\u{e9}"]);
                while s.len() < n {
                    s.push_str(piece);
                }
            }
            _ => {
                for _ in 0..rng.below(120) {
                    s.push_str(rng.pick(BODY_PIECES));
                    if rng.below(3) == 0 {
                        s.push(' ');
                    }
                }
            }
        }
        s
    }

    fn address(rng: &mut Rng) -> String {
        let email = rng.pick(&[
            "arbitre@example.org",
            "juergen@example.de",
            "a.b-c_d+tag@mail.example.net",
            "x@y.z",
        ]);
        let name = rng.pick(&[
            "Arbitre",
            "Jürgen Groß",
            "Jean Dupont",
            "\"Dupont, Jean\"",
            "\"O'Brien \\\"Pat\\\"\"",
            "\"a\\\\b\"",
            "Ëlise",
            "=?utf-8?b?QWRtaW4=?=",
            "🎲 Joueur",
            "Referee of the very long game name that goes on and on and on",
            "\"Comma, Accent é, and a very long quoted display name that folds\"",
            "",
            "A.B",
            "x-y_z",
        ]);
        match rng.below(6) {
            0 => email.to_owned(),
            1 => format!("<{email}>"),
            2 => {
                // A name of any length, so that folding falls anywhere.
                // Words of plain names (a quoted string), then of names
                // that need escapes or RFC 2047.
                let kinds: &[&str] = if rng.below(2) == 0 {
                    &[
                        "Jean",
                        "de",
                        "la",
                        "Fontaine",
                        "A.",
                        "x-y",
                        "Marie-Claire",
                        "van",
                        "Berg",
                    ]
                } else {
                    &[
                        "Jean",
                        "de",
                        "la",
                        "Groß",
                        "é",
                        "O'Brien",
                        "A.",
                        "x-y",
                        "Ölaf",
                        "\\\"q\\\"",
                    ]
                };
                let words: Vec<&str> = (0..1 + rng.below(25)).map(|_| rng.pick(kinds)).collect();
                let name = words.join(" ");
                if rng.below(2) == 0 {
                    format!(
                        "\"{name}, {}\" <{email}>",
                        rng.pick(&["Jr", "é", "\\\"q\\\""])
                    )
                } else {
                    format!("{name} <{email}>")
                }
            }
            _ if name.is_empty() => email.to_owned(),
            _ => format!("{name} <{email}>"),
        }
    }

    fn message_id(rng: &mut Rng) -> String {
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789.-_=?+$%&'*/^`{|}~!#";
        let max = if rng.below(4) == 0 { 140 } else { 30 };
        let n = 1 + rng.below(max);
        let local: String = (0..n)
            .map(|_| CHARS[rng.below(CHARS.len())] as char)
            .collect();
        format!("{local}@arbitre.example.net")
    }

    fn date(rng: &mut Rng) -> String {
        match rng.below(20) {
            // 10000-01-01 00:30 UTC, past httpdate; then its last second.
            0 => "Fri, 31 Dec 9999 23:30:00 -0100".into(),
            3 => "Fri, 31 Dec 9999 22:59:59 -0100".into(),
            1 => " Sun, 29 Nov 2026 12:00:00 +0000 ".into(),
            2 => "Thu, 01 Jan 1970 00:00:00 +0000".into(),
            _ => {
                let secs = rng.below(4_102_444_800) as i64;
                let offset = (rng.below(27 * 4) as i32 - 12 * 4) * 900;
                let tz = chrono::FixedOffset::east_opt(offset)
                    .unwrap_or(chrono::FixedOffset::east_opt(0).unwrap());
                chrono::DateTime::from_timestamp(secs, 0)
                    .unwrap()
                    .with_timezone(&tz)
                    .to_rfc2822()
            }
        }
    }

    fn random_mail(rng: &mut Rng) -> OutgoingMail {
        OutgoingMail {
            from: if rng.below(3) == 0 {
                address(rng)
            } else {
                "Arbitre <arbitre@example.org>".into()
            },
            to: match rng.below(60) {
                0 => "nobody".into(),
                1 => "Jean\n <x@y.z>".into(),
                _ => address(rng),
            },
            subject: subject(rng),
            body: body(rng),
            message_id: message_id(rng),
            in_reply_to: (rng.below(2) == 0).then(|| message_id(rng)),
            // Now and then a value `check` refuses: both paths must say so.
            auto_submitted: rng.pick(&[
                "auto-replied",
                "auto-generated",
                "no",
                "auto-replied",
                "bogus",
            ]),
            date: date(rng),
            attachments: Vec::new(),
        }
    }

    /// Whether `format_mail` writes `m` without lettre's builder.
    fn takes_direct_path(m: &OutgoingMail) -> bool {
        check(m).is_ok_and(|c| direct_path_applies(m, &c))
    }

    /// The direct formatter against lettre's builder, byte for byte, on
    /// seeded random mails: subjects and bodies mixing ASCII, accents,
    /// emoji, control characters, `=?`, long lines and words, leading and
    /// trailing spaces; display names quoted, accented, encoded, long;
    /// every Auto-Submitted value; with and without In-Reply-To.
    #[test]
    fn direct_path_is_lettres_bytes() {
        let mut rng = Rng(0x5eed_2026_1204);
        let (mut direct, mut valid) = (0, 0);
        for i in 0..6_000 {
            let m = random_mail(&mut rng);
            if m.date.starts_with("Fri, 31 Dec 9999 23:30") {
                // lettre's Date panics past 9999 (UTC): left to lettre.
                assert!(!takes_direct_path(&m), "{m:?}");
                continue;
            }
            let lettre = format_mail_by_lettre(&m);
            let ours = format_mail(&m);
            match (&ours, &lettre) {
                (Ok(a), Ok(b)) => assert!(
                    a == b,
                    "mail {i} {m:?}\nours:\n{}\nlettre:\n{}",
                    String::from_utf8_lossy(a),
                    String::from_utf8_lossy(b)
                ),
                _ => assert_eq!(format!("{ours:?}"), format!("{lettre:?}"), "mail {i} {m:?}"),
            }
            if lettre.is_ok() {
                valid += 1;
                if takes_direct_path(&m) {
                    direct += 1;
                }
            }
        }
        // The generator must reach the direct path, or the comparison above
        // proves nothing.
        assert!(
            valid > 4_000 && direct == valid,
            "{direct} direct of {valid} valid"
        );
    }

    /// A mail with attachments (every report) through lettre's builder with
    /// the texts encoded by [`text_body`] (`qp.rs` for quoted-printable),
    /// against the same builder with lettre's `Body::new`, byte for byte:
    /// the random mails of [`direct_path_is_lettres_bytes`] with a text
    /// attachment of another random body (and a non-UTF-8 one, which goes
    /// to base64), now and then a binary one.
    #[test]
    fn text_bodies_are_lettres() {
        let mut rng = Rng(0x2045_0607);
        let (mut compared, mut qp) = (0, 0);
        for i in 0..3_000 {
            let mut m = random_mail(&mut rng);
            if m.date.starts_with("Fri, 31 Dec 9999 23:30") {
                continue;
            }
            let text = body(&mut rng);
            m.attachments.push(Attachment {
                name: "ordres.txt".into(),
                mime: "text/plain; charset=utf-8".into(),
                content: text.into_bytes(),
            });
            if rng.below(4) == 0 {
                m.attachments.push(Attachment {
                    name: "latin1.txt".into(),
                    mime: "Text/Plain".into(),
                    content: b"r\xe9solu\r\n".to_vec(),
                });
            }
            let lettre = format_mail_by_lettre(&m);
            let ours = format_mail(&m);
            match (&ours, &lettre) {
                (Ok(a), Ok(b)) => {
                    assert!(
                        a == b,
                        "mail {i} {m:?}\nours:\n{}\nlettre:\n{}",
                        String::from_utf8_lossy(a),
                        String::from_utf8_lossy(b)
                    );
                    compared += 1;
                    if memchr::memmem::find(a, b"quoted-printable").is_some() {
                        qp += 1;
                    }
                }
                _ => assert_eq!(format!("{ours:?}"), format!("{lettre:?}"), "mail {i} {m:?}"),
            }
        }
        assert!(
            compared > 2_000 && qp > 500,
            "{compared} compared, {qp} with quoted-printable"
        );
    }

    /// Issue 22 item 4: a mail in parts renders as the bytes of
    /// `format_mail`, whatever its attachments (base64 ones of every
    /// length around a line's 57 bytes, text ones, a text that is not
    /// UTF-8) and whatever its text: bodies and subjects that hold the
    /// marker itself fall back to one piece of bytes, and still render
    /// the same.
    #[test]
    fn parts_render_as_format_mail() {
        let mut rng = Rng(0x9a57_5eed);
        let (mut split, mut whole) = (0, 0);
        for i in 0..3_000 {
            let mut m = random_mail(&mut rng);
            // Lettre's Date panics there (see HTTPDATE_END).
            if m.date.starts_with("Fri, 31 Dec 9999 23:30") {
                continue;
            }
            for _ in 0..rng.below(4) {
                let len = match rng.below(4) {
                    0 => rng.below(3 * 57),
                    1 => 57 * rng.below(4),
                    _ => rng.below(5_000),
                };
                let content: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                let (name, mime) = match rng.below(4) {
                    0 => ("carte.svg", "image/svg+xml"),
                    1 => ("vue.json", "application/json"),
                    2 => ("latin1.txt", "text/plain"),
                    _ => ("carte.png", "image/png"),
                };
                m.attachments.push(Attachment {
                    name: name.into(),
                    mime: mime.into(),
                    content,
                });
            }
            if rng.below(5) == 0 {
                m.attachments.push(Attachment {
                    name: "ordres.txt".into(),
                    mime: "text/plain; charset=utf-8".into(),
                    content: body(&mut rng).into_bytes(),
                });
            }
            if rng.below(20) == 0 {
                // A text that holds this mail's marker: no way to split.
                let nonce = format!(
                    "=arbitre-part-{}-00000=",
                    &hex::encode(Sha256::digest(format!("parts {}", m.message_id).as_bytes()))
                        [..24]
                );
                m.body.push_str(&nonce);
                m.subject.push_str(&nonce);
            }
            let want = format_mail(&m);
            let got = format_mail_parts(&m);
            match (&got, &want) {
                (Ok(parts), Ok(raw)) => {
                    assert!(
                        render_parts(parts) == *raw,
                        "mail {i} {m:?}\nparts:\n{}\nwhole:\n{}",
                        String::from_utf8_lossy(&render_parts(parts)),
                        String::from_utf8_lossy(raw)
                    );
                    let base64 = parts
                        .iter()
                        .filter(|p| matches!(p, MailPart::Base64(_)))
                        .count();
                    if base64 > 0 {
                        split += 1;
                    } else {
                        whole += 1;
                    }
                }
                _ => assert_eq!(format!("{got:?}"), format!("{want:?}"), "mail {i} {m:?}"),
            }
        }
        assert!(split > 1_000 && whole > 300, "{split} split, {whole} whole");
    }

    /// The header writer alone against lettre's `HeaderValue::new`, on raw
    /// values `clean_subject` would never pass on (runs of spaces after
    /// encoded words, controls), under names of several lengths.
    #[test]
    fn text_headers_are_lettres() {
        let mut rng = Rng(0x4ead_e125);
        for i in 0..4_000 {
            let mut value = String::new();
            for _ in 0..rng.below(30) {
                value.push_str(rng.pick(SUBJECT_PIECES));
                value.push_str(rng.pick(&[" ", "  ", "   ", ""]));
            }
            let name = rng.pick(&["Subject", "X", "Auto-Submitted", "In-Reply-To"]);
            let mut headers = header::Headers::new();
            headers.insert_raw(HeaderValue::new(
                HeaderName::new_from_ascii(name.to_owned()).unwrap(),
                value.clone(),
            ));
            let mut ours = String::new();
            write_text_header(name, &value, &mut ours).unwrap();
            assert_eq!(ours, headers.to_string(), "value {i} {value:?}");
        }
    }

    /// `to_crlf` against the plain definition (each CR LF, lone CR and
    /// lone LF becomes CR LF) on seeded random texts of line ends and text.
    #[test]
    fn to_crlf_makes_every_line_end_crlf() {
        fn reference(s: &str) -> String {
            let mut out = String::new();
            let mut chars = s.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\r' => {
                        if chars.peek() == Some(&'\n') {
                            chars.next();
                        }
                        out.push_str("\r\n");
                    }
                    '\n' => out.push_str("\r\n"),
                    c => out.push(c),
                }
            }
            out
        }
        let mut rng = Rng(0xc21f);
        for _ in 0..5_000 {
            let s: String = (0..rng.below(40))
                .map(|_| rng.pick(&["\r", "\n", "\r\n", "\n\r", "a", "é", "long text run", ""]))
                .collect();
            assert_eq!(to_crlf(&s), reference(&s), "{s:?}");
        }
    }

    /// `body_encoding` against email-encoding's `Encoding::choose(_, false)`
    /// on seeded random texts and on texts at its two edges: lines of 74
    /// to 78 bytes, and as many bytes to escape as a third of the length,
    /// one more, one fewer.
    #[test]
    fn body_encoding_is_email_encodings_choice() {
        let mut texts = Vec::new();
        for n in 70..80 {
            for end in ["", "\n", "\r\n", "\nx", "\n\n"] {
                texts.push(format!("{}{end}", "a".repeat(n)));
                texts.push(format!("x\n{}{end}", "a".repeat(n)));
                texts.push(format!("{}\n{}{end}", "b".repeat(n), "a".repeat(n - 5)));
            }
        }
        for len in 1..60 {
            for escaped in 0..=len {
                // 'é' is two bytes to escape, '\u{1}' one.
                let mut t = "\u{1}".repeat(escaped % 2);
                t.push_str(&"é".repeat(escaped / 2));
                while t.len() < len {
                    t.push('a');
                }
                texts.push(t);
            }
        }
        // Every ASCII byte, a third of a line too long for 7bit and one
        // more: whether it is counted as one to escape decides between QP
        // and base64.
        for c in 0..=127u8 {
            for k in [30, 31] {
                let mut t = char::from(c).to_string().repeat(k);
                t.push_str(&"a".repeat(90 - k));
                texts.push(t);
            }
        }
        let mut rng = Rng(0xe4c0);
        let long = "x".repeat(70);
        for _ in 0..3_000 {
            let t: String = (0..rng.below(60))
                .map(|_| {
                    rng.pick(&[
                        "a",
                        "é",
                        "\n",
                        "\r\n",
                        " ",
                        "\t",
                        "=",
                        "\u{0}",
                        "\u{7f}",
                        "Привет",
                        &long,
                    ])
                })
                .collect();
            texts.push(t);
        }
        let mut seen = std::collections::HashSet::new();
        for t in &texts {
            let theirs = Encoding::choose(t.as_str(), false);
            assert_eq!(body_encoding(t), theirs, "{t:?}");
            seen.insert(format!("{theirs:?}"));
        }
        assert_eq!(seen.len(), 3, "{seen:?}");
    }

    /// The daemon's usual mails, each of which must be written directly.
    #[test]
    fn typical_mails_take_the_direct_path() {
        let base = OutgoingMail {
            from: "Arbitre <arbitre@example.org>".into(),
            to: "Jürgen Groß <juergen@example.de>".into(),
            subject: "Bestätigung — partie « neb1 », tour 3".into(),
            body: "Bonjour Jürgen,\n\nVos ordres sont enregistrés : déjà 3 flottes.\n\
                   Grüße, Œdipe — €5\n"
                .into(),
            message_id: "neb1.3.juergen.confirm@arbitre.example.net".into(),
            in_reply_to: Some("CAF=abc123.456@mail.example.net".into()),
            auto_submitted: "auto-replied",
            date: "Sun, 29 Nov 2026 12:00:00 +0100".into(),
            attachments: vec![],
        };
        let mut mails = vec![base.clone()];
        let variants: &[(&str, &str, &str)] = &[
            (
                "juergen@example.de",
                "Re: Orders received",
                "Your orders are recorded.\n",
            ),
            (
                "Jean Dupont <jean@example.fr>",
                "Re: Ordres reçus",
                "Vos ordres :\n  A Paris -> Bourgogne\n",
            ),
            (
                "<jean@example.fr>",
                "Erreur : mot de passe inconnu",
                "Le mot de passe ne correspond pas.\n",
            ),
            (
                "\"Dupont, Jean\" <jean@example.fr>",
                "Fehler: unbekanntes Spiel",
                "Das Spiel »neb2« gibt es nicht.\n",
            ),
            (
                "Ëlise <elise@example.fr>",
                "Rapport du tour 4 — été 1902",
                &"Unités détruites : aucune.\n".repeat(80),
            ),
        ];
        for (to, subject, body) in variants {
            let mut m = base.clone();
            m.to = (*to).into();
            m.subject = (*subject).into();
            m.body = (*body).into();
            mails.push(m.clone());
            m.in_reply_to = None;
            m.auto_submitted = "auto-generated";
            mails.push(m);
        }
        for m in &mails {
            assert!(takes_direct_path(m), "{m:?}");
            assert_eq!(
                format_mail(m).unwrap(),
                format_mail_by_lettre(m).unwrap(),
                "{m:?}"
            );
        }
        // A text over DIRECT_BODY_MAX stays with lettre, and so does a
        // mail with an attachment.
        let mut m = base.clone();
        m.body = "Ordre refusé : unité inconnue.\n".repeat(40_000);
        assert!(!takes_direct_path(&m));
        assert_eq!(format_mail(&m).unwrap(), format_mail_by_lettre(&m).unwrap());
        let mut m = base;
        m.attachments.push(Attachment {
            name: "map.svg".into(),
            mime: "image/svg+xml".into(),
            content: b"<svg/>".to_vec(),
        });
        assert!(!takes_direct_path(&m));
    }

    /// The one-pass base64 against lettre's own (email-encoding), on every
    /// length up to 400 bytes (each remainder of 57, padding or not) and a
    /// map-sized one, of seeded random bytes.
    #[test]
    fn base64_body_is_lettres_base64() {
        let mut seed: u64 = 22;
        let mut byte = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 56) as u8
        };
        let mut lengths: Vec<usize> = (0..400).collect();
        lengths.push(200_003);
        for n in lengths {
            let content: Vec<u8> = (0..n).map(|_| byte()).collect();
            let lettre = Body::new_with_encoding(content.clone(), ContentTransferEncoding::Base64)
                .unwrap()
                .into_vec();
            assert_eq!(base64_body(&content).into_vec(), lettre, "{n} bytes");
        }
    }
}
