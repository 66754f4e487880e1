//! The referee's outgoing mail as bytes: [`format_mail`] (lettre's message
//! builder, no transport), and its inverses [`body_of`] (tests) and
//! [`attachments_of`] (RESEND mails a report again as it was mailed).
//!
//! Formatting is deterministic for a given [`OutgoingMail`]: the daemon
//! chooses the Message-ID and the Date, and the MIME boundary is derived from
//! the Message-ID, so archived fixtures compare byte for byte. Every header
//! value is checked for control characters before it reaches lettre: a
//! player-controlled string (a subject echoing theirs, a display name) can
//! never inject a header. Sending is [`crate::outbound`]'s other half, in the
//! I/O tree (`transport::send`).

use std::time::{Duration, SystemTime};

use lettre::message::header::ContentTransferEncoding;
use lettre::message::header::{self, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};
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

fn mailbox(field: &str, value: &str) -> Result<Mailbox, MailError> {
    reject_controls(field, value)?;
    if let Some(m) = MAILBOXES.with(|c| c.borrow().get(value).cloned()) {
        return Ok(m);
    }
    let m = value
        .parse::<Mailbox>()
        .map_err(|e| MailError::Format(format!("{field} {value:?} is not an address: {e}")))?;
    MAILBOXES.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= MAILBOX_CACHE {
            c.clear();
        }
        c.insert(value.to_owned(), m.clone());
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
    static MAILBOXES: std::cell::RefCell<std::collections::HashMap<String, Mailbox>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// True when [`format_mail`] accepts `to` as the recipient: the same check,
/// without building a message (the daemon asks it of every mail it may
/// answer, issue 22 item 1).
pub fn valid_recipient(to: &str) -> bool {
    mailbox("To", to).is_ok()
}

/// Formats `m` as RFC 5322 bytes (CRLF line endings).
pub fn format_mail(m: &OutgoingMail) -> Result<Vec<u8>, MailError> {
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
    let date = SystemTime::UNIX_EPOCH
        + Duration::from_secs(
            u64::try_from(date.timestamp())
                .map_err(|_| MailError::Format(format!("Date {:?} is before 1970", m.date)))?,
        );

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
        .body(Body::new(to_crlf(&m.body)));

    let message = if m.attachments.is_empty() {
        builder.singlepart(text_part)
    } else {
        let boundary = format!(
            "arbitre-{}",
            &hex::encode(Sha256::digest(m.message_id.as_bytes()))[..32]
        );
        let mut multi = MultiPart::mixed().boundary(boundary).singlepart(text_part);
        for a in &m.attachments {
            reject_controls("attachment name", &a.name)?;
            let name = a.name.replace(['"', '\\', '/'], "_");
            let mime = ContentType::parse(&attachment_mime(a)).map_err(|e| {
                MailError::Format(format!("attachment MIME type {:?}: {e}", a.mime))
            })?;
            multi = multi
                .singlepart(lettre::message::Attachment::new(name).body(attachment_body(a), mime));
        }
        builder.multipart(multi)
    }
    .map_err(|e| MailError::Format(e.to_string()))?;
    Ok(message.formatted())
}

/// `s` with every line end (CR LF, a lone LF, a lone CR) as CR LF, in one
/// linear pass. SMTP knows no other line end: Postfix with
/// `smtpd_forbid_bare_newline = reject` refuses a whole mail for one bare LF
/// (issue 14 item 13).
pub fn to_crlf(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len() + s.len() / 32 + 2);
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
            b'\r' | b'\n' => i + 1,
            _ => {
                i += 1;
                continue;
            }
        };
        // CR and LF are ASCII, so `i` and `end` are character boundaries.
        out.push_str(&s[start..i]);
        out.push_str("\r\n");
        start = end;
        i = end;
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

fn attachment_body(a: &Attachment) -> Body {
    let text = a
        .mime
        .trim_start()
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("text/"));
    if text {
        if let Ok(s) = std::str::from_utf8(&a.content) {
            return Body::new(to_crlf(s));
        }
    }
    base64_body(&a.content)
}

/// `content` in base64, as lettre's `Body::new_with_encoding(.., Base64)`
/// writes it (email-encoding: lines of 76 characters joined by CRLF, none
/// after the last), encoded at once: email-encoding encodes 57 bytes a
/// call, and the maps and JSON views of a turn's reports made base64 a
/// tenth of resolving a turn (issue 22 item 4). 57 bytes are 76 characters
/// without padding, so cutting the whole text every 76 characters gives
/// the same lines.
fn base64_body(content: &[u8]) -> Body {
    use base64::Engine;
    let text = base64::engine::general_purpose::STANDARD.encode(content);
    let mut out = Vec::with_capacity(text.len() + text.len() / 76 * 2);
    for (i, line) in text.as_bytes().chunks(76).enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(line);
    }
    Body::dangerous_pre_encoded(out, ContentTransferEncoding::Base64)
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
