//! One raw inbound mail to an [`InboundMail`]: sender, subject, automatic-mail
//! classification and every candidate text that may hold an order block.
//!
//! mail-parser 0.11 does the MIME structure (it is iterative, so deep
//! multipart nesting cannot overflow the stack, and it caps nested
//! `message/rfc822` at 3 levels). We then walk its flat part list in document
//! order and re-decode each text part ourselves (see [`crate::decode`]) so
//! that charset lies do not destroy accents. Hostile input is bounded: the
//! size is checked before parsing, at most [`MAX_PARTS`] parts are examined
//! and nested messages are followed at most [`MAX_DEPTH`] levels.
//!
//! Preference order of the texts, because the daemon takes the first one with
//! a block: text/plain body parts, then text/plain attachments (players who
//! attach `orders.txt`), then HTML parts converted to text.

use mail_parser::{Encoding, Message, MessageParser, MessagePart, MimeHeaders, PartType};
use sha2::{Digest, Sha256};
use std::borrow::Cow;

use crate::error::MailError;
use crate::message::decode::{
    base64_lenient, decode_charset_cow, normalize_text, quoted_printable_lenient, unflow,
};
use crate::message::html::html_to_text;

/// Parts examined per mail, all levels together: enough for any real mail,
/// small enough that a mail with 10 000 parts costs nothing.
pub const MAX_PARTS: usize = 200;
/// Levels of attached `message/rfc822` followed.
pub const MAX_DEPTH: usize = 3;

/// A mailbox: display name and address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    pub name: Option<String>,
    pub email: String,
}

/// Whether a human wrote the mail. Anything else must never be answered (RFC
/// 3834), or two robots would mail each other forever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoKind {
    Human,
    /// `Auto-Submitted` other than `no` (vacation replies, other robots).
    AutoSubmitted,
    /// Delivery status notifications: `multipart/report`, MAILER-DAEMON or
    /// postmaster senders, empty `Return-Path: <>`.
    Bounce,
    /// Mailing-list traffic (`List-Id`).
    List,
    /// `Precedence: bulk`, `junk` or `list`.
    Precedence,
}

/// A decoded inbound mail.
#[derive(Debug, Clone)]
pub struct InboundMail {
    /// Lowercase hex SHA-256 of the raw bytes: the journal's idempotency key.
    pub sha256: String,
    pub message_id: Option<String>,
    pub from: Option<Address>,
    pub reply_to: Option<Address>,
    pub subject: String,
    /// The Date header as sent (diagnostic only; the daemon uses its own clock).
    pub date: Option<String>,
    pub auto: AutoKind,
    /// Candidate texts in preference order, UTF-8, LF line endings, no BOM.
    pub texts: Vec<String>,
    /// How many of the first `texts` come from text/plain parts; the others
    /// were converted from HTML (a ruleset may refuse HTML-only mail, SCN §6.1).
    pub plain_texts: usize,
    /// Size of the raw mail in bytes.
    pub size: usize,
}

impl InboundMail {
    /// The mail has text only in HTML parts.
    pub fn is_html_only(&self) -> bool {
        self.plain_texts == 0 && !self.texts.is_empty()
    }
}

/// Parses a raw mail. Fails only when it is larger than `max_size` (checked
/// before any parsing) or when it is not a mail at all (no header and no body).
pub fn parse_mail(raw: &[u8], max_size: usize) -> Result<InboundMail, MailError> {
    if raw.len() > max_size {
        return Err(MailError::TooLarge {
            size: raw.len(),
            limit: max_size,
        });
    }
    let sha256 = hex::encode(Sha256::digest(raw));
    if raw.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(MailError::Unparseable("empty mail".into()));
    }
    let message = MessageParser::default()
        .parse(raw)
        .ok_or_else(|| MailError::Unparseable("no header or body found".into()))?;

    let mut texts = Texts::default();
    let mut budget = MAX_PARTS;
    collect_texts(&message, 0, &mut budget, &mut texts);
    let plain_texts = texts.bodies.len() + texts.attachments.len();

    Ok(InboundMail {
        sha256,
        message_id: message.message_id().map(clean_header),
        from: message.from().and_then(first_address),
        reply_to: message.reply_to().and_then(first_address),
        subject: message.subject().map(clean_header).unwrap_or_default(),
        date: message
            .header_raw("Date")
            .map(clean_header)
            .filter(|d| !d.is_empty()),
        auto: classify(&message),
        texts: texts.into_vec(),
        plain_texts,
        size: raw.len(),
    })
}

/// Header values may carry folded line breaks; we never want them.
fn clean_header(s: &str) -> String {
    s.split(['\r', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn first_address(a: &mail_parser::Address<'_>) -> Option<Address> {
    let addr = a.first()?;
    let email = clean_header(addr.address()?);
    if email.is_empty() {
        return None;
    }
    Some(Address {
        name: addr.name().map(clean_header).filter(|n| !n.is_empty()),
        email,
    })
}

fn classify(m: &Message<'_>) -> AutoKind {
    let raw = |name: &str| {
        m.header_raw(name)
            .map(|v| clean_header(v).to_ascii_lowercase())
    };

    let is_report = m.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    let from = m
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_ascii_lowercase();
    let local = from.split('@').next().unwrap_or("");
    let empty_return_path = raw("Return-Path").is_some_and(|v| v == "<>" || v.is_empty());
    if is_report || local == "mailer-daemon" || local == "postmaster" || empty_return_path {
        return AutoKind::Bounce;
    }
    if raw("Auto-Submitted").is_some_and(|v| {
        let token = v.split(';').next().unwrap_or("").trim().to_owned();
        !token.is_empty() && token != "no"
    }) || m.header_raw("X-Autoreply").is_some()
        || m.header_raw("X-Autorespond").is_some()
    {
        return AutoKind::AutoSubmitted;
    }
    if m.header_raw("List-Id").is_some() {
        return AutoKind::List;
    }
    if raw("Precedence").is_some_and(|v| matches!(v.as_str(), "bulk" | "junk" | "list")) {
        return AutoKind::Precedence;
    }
    AutoKind::Human
}

#[derive(Default)]
struct Texts {
    bodies: Vec<String>,
    attachments: Vec<String>,
    html: Vec<String>,
}

impl Texts {
    fn into_vec(self) -> Vec<String> {
        let mut v = self.bodies;
        v.extend(self.attachments);
        v.extend(self.html);
        v
    }
}

/// Walks the flat part list of `message` (document order) and sorts text
/// parts into the three preference classes.
fn collect_texts(message: &Message<'_>, depth: usize, budget: &mut usize, out: &mut Texts) {
    let raw = message.raw_message();
    for part in &message.parts {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        match &part.body {
            PartType::Message(nested) => {
                if depth < MAX_DEPTH {
                    collect_texts(nested, depth + 1, budget, out);
                }
            }
            PartType::Text(_) | PartType::Html(_) => {
                let (is_html, is_attachment) = text_kind(part);
                let text = decode_part(raw, part, is_html);
                if text.trim().is_empty() {
                    continue;
                }
                if is_html {
                    out.html.push(text);
                } else if is_attachment {
                    out.attachments.push(text);
                } else {
                    out.bodies.push(text);
                }
            }
            // A text/plain attachment with an odd disposition may arrive as
            // binary; keep it if it names a .txt file.
            PartType::Binary(_) | PartType::InlineBinary(_) => {
                let named_txt = part
                    .attachment_name()
                    .is_some_and(|n| n.to_ascii_lowercase().ends_with(".txt"));
                if named_txt {
                    let text = decode_part(raw, part, false);
                    if !text.trim().is_empty() {
                        out.attachments.push(text);
                    }
                }
            }
            PartType::Multipart(_) => {}
        }
    }
}

/// (is HTML, is an attachment rather than a body).
fn text_kind(part: &MessagePart<'_>) -> (bool, bool) {
    let is_html = matches!(part.body, PartType::Html(_));
    let disposition_attachment = part
        .content_disposition()
        .is_some_and(|d| d.ctype().eq_ignore_ascii_case("attachment"));
    (
        is_html,
        disposition_attachment || part.attachment_name().is_some(),
    )
}

/// Decodes one text part from its raw bytes: transfer encoding, charset,
/// line endings, format=flowed, and HTML conversion.
fn decode_part(raw: &[u8], part: &MessagePart<'_>, is_html: bool) -> String {
    let start = (part.offset_body as usize).min(raw.len());
    let end = (part.offset_end as usize).clamp(start, raw.len());
    let body = &raw[start..end];
    // Borrowed where no decoding is needed: a 10 MiB body is not copied
    // on its way to the one text kept (issue 14 item 1).
    let bytes: Cow<'_, [u8]> = match part.encoding {
        Encoding::Base64 => Cow::Owned(base64_lenient(body)),
        Encoding::QuotedPrintable => Cow::Owned(quoted_printable_lenient(body)),
        Encoding::None => Cow::Borrowed(body),
    };
    let ct = part.content_type();
    let charset = ct.and_then(|c| c.attribute("charset"));
    let mut text = normalize_text(&decode_charset_cow(&bytes, charset));
    drop(bytes);
    let flowed = ct
        .and_then(|c| c.attribute("format"))
        .is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
    if flowed && !is_html {
        let delsp = ct
            .and_then(|c| c.attribute("delsp"))
            .is_some_and(|d| d.eq_ignore_ascii_case("yes"));
        text = unflow(&text, delsp);
    }
    if is_html {
        text = html_to_text(&text);
    }
    text
}
