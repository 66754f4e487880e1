//! The referee's outgoing mail: formatting (lettre's builder) and the three
//! transports selected in `arbitre.toml` (file, sendmail, SMTP).
//!
//! Formatting is deterministic for a given [`OutgoingMail`]: the daemon
//! chooses the Message-ID and the Date, and the MIME boundary is derived from
//! the Message-ID, so archived fixtures compare byte for byte. Every header
//! value is checked for control characters before it reaches lettre: a
//! player-controlled string (a subject echoing theirs, a display name) can
//! never inject a header.
//!
//! Transports report [`SendError::Transient`] (retry this mail later with
//! backoff: 4xx), [`SendError::Permanent`] (5xx after MAIL, RCPT or DATA,
//! an invalid address: this mail fails at once, the server's words kept)
//! or [`SendError::Installation`] (issue 14 item 6: the relay refuses our
//! login, TLS or the connection fails — nothing is wrong with the mail, the
//! daemon pauses sending instead of failing it). The file transport is
//! idempotent on the Message-ID, so a retry after a crash does not duplicate.
//!
//! [`Mailer`] keeps one SMTP transport (lettre's pool) for the daemon's
//! life, so a cycle's mails share one connection (one TCP connection,
//! STARTTLS and AUTH) instead of one each (issue 14 item 14).

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use lettre::message::header::ContentTransferEncoding;
use lettre::message::header::{self, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{Address as LettreAddress, SmtpTransport};
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
    value
        .parse::<Mailbox>()
        .map_err(|e| MailError::Format(format!("{field} {value:?} is not an address: {e}")))
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

    let mut builder = lettre::Message::builder()
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
            let mime = ContentType::parse(&a.mime).map_err(|e| {
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
fn attachment_body(a: &Attachment) -> Body {
    let text = a
        .mime
        .trim_start()
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("text/"));
    match std::str::from_utf8(&a.content) {
        Ok(s) if text => Body::new(to_crlf(s)),
        _ => Body::new_with_encoding(a.content.clone(), ContentTransferEncoding::Base64)
            // Never refused for base64; lettre's own choice if it were.
            .unwrap_or_else(Body::new),
    }
}

/// The decoded text/plain body of a mail produced by [`format_mail`].
pub fn body_of(raw: &[u8]) -> Option<String> {
    let message = mail_parser::MessageParser::default().parse(raw)?;
    let body = message.body_text(0)?;
    Some(body.replace("\r\n", "\n"))
}

/// How the SMTP connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// Plain text (loopback relays only).
    None,
    /// Plain connection upgraded with STARTTLS (port 587); required, never optional.
    StartTls,
    /// Implicit TLS (port 465).
    Tls,
}

/// SMTP submission settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub user: Option<String>,
    /// Resolved by the daemon from an environment variable or a file, never
    /// from the command line.
    pub password: Option<String>,
    pub timeout_secs: u64,
    /// The name given in EHLO (issue 14 item 14); `None`: lettre's default
    /// (the short host name). The daemon defaults it to the referee's domain.
    pub hello_name: Option<String>,
    /// A PEM file of extra trusted certificates (a private CA), as
    /// `[inbound] ca_file`; the system's roots are trusted as well.
    pub ca_file: Option<PathBuf>,
}

/// Where outgoing mail goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// Writes `<dir>/<message-id>.eml` (tests, demos, dry runs).
    File { dir: PathBuf },
    /// Pipes to a sendmail-compatible command (`/usr/sbin/sendmail`).
    Sendmail { command: PathBuf },
    /// SMTP submission with lettre.
    Smtp(SmtpConfig),
}

/// A failed send, classified for the outbox's retry loop.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Try again later (4xx, connection refused, timeout, TLS hiccup).
    #[error("temporary failure: {0}")]
    Transient(String),
    /// Do not retry (5xx, invalid address, unusable mail).
    #[error("permanent failure: {0}")]
    Permanent(String),
    /// The installation's fault, not the mail's: the relay refuses our
    /// credentials (530, 534, 535, 538), TLS or the connection fails.
    /// Sending pauses; no mail is failed for it.
    #[error("mail set-up failure: {0}")]
    Installation(String),
}

impl SendError {
    pub fn is_permanent(&self) -> bool {
        matches!(self, SendError::Permanent(_))
    }

    pub fn is_installation(&self) -> bool {
        matches!(self, SendError::Installation(_))
    }
}

impl Transport {
    /// Sends `raw` (as produced by [`format_mail`]) from `from` to `to`
    /// (envelope addresses, bare `local@domain`).
    pub fn send(&self, from: &str, to: &str, raw: &[u8]) -> Result<(), SendError> {
        match self {
            Transport::File { dir } => send_file(dir, raw),
            Transport::Sendmail { command } => {
                use lettre::Transport as _;
                let envelope = envelope(from, to)?;
                lettre::SendmailTransport::new_with_command(command.as_os_str())
                    .send_raw(&envelope, raw)
                    .map_err(|e| {
                        SendError::Transient(format!("sendmail {}: {e}", command.display()))
                    })
            }
            Transport::Smtp(cfg) => {
                use lettre::Transport as _;
                let envelope = envelope(from, to)?;
                smtp_transport(cfg)?
                    .send_raw(&envelope, raw)
                    .map(|_| ())
                    .map_err(classify_smtp_error)
            }
        }
    }
}

/// A [`Transport`] with what it keeps between mails: for SMTP, one lettre
/// transport whose pool holds the open connection, reused by every mail
/// (lettre checks a pooled connection with NOOP before reusing it and
/// opens a new one if it died).
pub struct Mailer {
    transport: Transport,
    smtp: Option<SmtpTransport>,
}

impl Mailer {
    pub fn new(transport: Transport) -> Mailer {
        Mailer {
            transport,
            smtp: None,
        }
    }

    pub fn transport(&self) -> &Transport {
        &self.transport
    }

    fn smtp(&mut self, cfg: &SmtpConfig) -> Result<&SmtpTransport, SendError> {
        if self.smtp.is_none() {
            self.smtp = Some(smtp_transport(cfg)?);
        }
        self.smtp
            .as_ref()
            .ok_or_else(|| SendError::Installation("SMTP transport not built".into()))
    }

    /// Checks the installation's side before a batch of mails: the outbox
    /// folder can be created, the sendmail command exists, the relay
    /// accepts a connection, TLS and our login (then answers NOOP). Every
    /// failure here is [`SendError::Installation`].
    pub fn check(&mut self) -> Result<(), SendError> {
        match self.transport.clone() {
            Transport::File { dir } => fs::create_dir_all(&dir).map_err(|e| {
                SendError::Installation(format!("file transport {}: {e}", dir.display()))
            }),
            Transport::Sendmail { command } => {
                if command.exists() {
                    Ok(())
                } else {
                    Err(SendError::Installation(format!(
                        "sendmail command {} not found",
                        command.display()
                    )))
                }
            }
            Transport::Smtp(cfg) => {
                let who = format!("{}:{}", cfg.host, cfg.port);
                match self.smtp(&cfg)?.test_connection() {
                    Ok(true) => Ok(()),
                    Ok(false) => Err(SendError::Installation(format!(
                        "{who} does not answer NOOP"
                    ))),
                    Err(e) => Err(SendError::Installation(format!("{who}: {e}"))),
                }
            }
        }
    }

    /// Sends one mail, like [`Transport::send`], on the kept connection.
    pub fn send(&mut self, from: &str, to: &str, raw: &[u8]) -> Result<(), SendError> {
        match self.transport.clone() {
            Transport::Smtp(cfg) => {
                use lettre::Transport as _;
                let envelope = envelope(from, to)?;
                self.smtp(&cfg)?
                    .send_raw(&envelope, raw)
                    .map(|_| ())
                    .map_err(classify_smtp_error)
            }
            other => other.send(from, to, raw),
        }
    }
}

fn envelope(from: &str, to: &str) -> Result<lettre::address::Envelope, SendError> {
    let parse = |field: &str, v: &str| {
        v.trim()
            .parse::<LettreAddress>()
            .map_err(|e| SendError::Permanent(format!("{field} address {v:?}: {e}")))
    };
    lettre::address::Envelope::new(Some(parse("sender", from)?), vec![parse("recipient", to)?])
        .map_err(|e| SendError::Permanent(format!("envelope: {e}")))
}

/// Builds the lettre SMTP transport for `cfg`. A set-up that cannot be
/// built (an unreadable CA file) is the installation's failure.
pub fn smtp_transport(cfg: &SmtpConfig) -> Result<SmtpTransport, SendError> {
    let tls = || {
        let mut b = TlsParameters::builder(cfg.host.clone());
        if let Some(path) = &cfg.ca_file {
            let pem = fs::read(path).map_err(|e| {
                SendError::Installation(format!("[outbound] ca_file {}: {e}", path.display()))
            })?;
            let cert = Certificate::from_pem(&pem).map_err(|e| {
                SendError::Installation(format!("[outbound] ca_file {}: {e}", path.display()))
            })?;
            b = b.add_root_certificate(cert);
        }
        b.build()
            .map_err(|e| SendError::Installation(format!("TLS setup for {}: {e}", cfg.host)))
    };
    let mut builder = SmtpTransport::builder_dangerous(&cfg.host)
        .port(cfg.port)
        .timeout(Some(Duration::from_secs(cfg.timeout_secs.max(1))));
    if let Some(name) = cfg.hello_name.as_deref().filter(|n| !n.trim().is_empty()) {
        builder = builder.hello_name(ClientId::Domain(name.trim().to_string()));
    }
    builder = match cfg.security {
        Security::None => builder.tls(Tls::None),
        Security::StartTls => builder.tls(Tls::Required(tls()?)),
        Security::Tls => builder.tls(Tls::Wrapper(tls()?)),
    };
    if let (Some(user), Some(password)) = (&cfg.user, &cfg.password) {
        builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
    }
    Ok(builder.build())
}

/// Delay before retrying a transient failure for the `attempt`-th time
/// (1-based): `base`, doubled at each attempt, capped at `max`. The outbox
/// stores the attempt count and the next try time; this is the curve.
pub fn retry_delay(attempt: u32, base: Duration, max: Duration) -> Duration {
    let factor = 1u32
        .checked_shl(attempt.saturating_sub(1))
        .unwrap_or(u32::MAX);
    base.checked_mul(factor).map_or(max, |d| d.min(max))
}

/// Reply codes that refuse the referee's own login, whichever command
/// they answer (RFC 4954: 530 authentication required, 534 mechanism too
/// weak, 535 credentials invalid, 538 encryption required; 454 temporary
/// authentication failure).
const AUTH_CODES: [u16; 5] = [454, 530, 534, 535, 538];

/// A login refused, TLS, connection, network and timeout failures are the
/// installation's ([`SendError::Installation`]); other 5xx replies (to
/// MAIL, RCPT or DATA) refuse this mail ([`SendError::Permanent`]); other
/// 4xx replies ask to retry it ([`SendError::Transient`]). The server's
/// reply text is kept in each.
pub fn classify_smtp_error(e: lettre::transport::smtp::Error) -> SendError {
    let code = e.status().and_then(|c| c.to_string().parse::<u16>().ok());
    match code {
        Some(c) if AUTH_CODES.contains(&c) => SendError::Installation(e.to_string()),
        Some(_) if e.is_permanent() => SendError::Permanent(e.to_string()),
        Some(_) => SendError::Transient(e.to_string()),
        // Refused by lettre itself for this mail (a non-ASCII address the
        // server cannot take): retrying the same bytes cannot help.
        None if e.is_client() => SendError::Permanent(e.to_string()),
        None if e.is_response() => SendError::Transient(e.to_string()),
        None => SendError::Installation(e.to_string()),
    }
}

/// Age after which a hidden `.tmp` file of the file transport is taken for
/// the leftover of a killed write: a mail is written and renamed in
/// milliseconds, so ten minutes can only be a dead writer.
pub const STALE_TMP_AGE: Duration = Duration::from_secs(10 * 60);

/// Removes the hidden `.<name>.<pid>.tmp` files that a kill during a file
/// send left behind (issue 8; never renamed, so never counted as sent: the
/// outbox retries the mail under its final name). Only files older than
/// `older_than` go, so a write in progress in another process is never
/// touched. Returns how many were removed; errors only skip a file.
pub fn clean_stale_temp_files(dir: &std::path::Path, older_than: Duration) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        if !(name.starts_with('.') && name.ends_with(".tmp")) {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age >= older_than);
        if old && e.file_type().is_ok_and(|t| t.is_file()) && fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Cleans each outbox folder once per process (at its first send), not at
/// every send: a folder of thousands of archived mails is not re-listed
/// for each one.
fn clean_once(dir: &std::path::Path) {
    use std::collections::BTreeSet;
    use std::sync::{Mutex, OnceLock};
    static CLEANED: OnceLock<Mutex<BTreeSet<PathBuf>>> = OnceLock::new();
    let first = CLEANED
        .get_or_init(|| Mutex::new(BTreeSet::new()))
        .lock()
        .map(|mut set| set.insert(dir.to_path_buf()))
        .unwrap_or(false);
    if first {
        clean_stale_temp_files(dir, STALE_TMP_AGE);
    }
}

/// File transport: `<dir>/<sanitised message-id>.eml`, written to a temporary
/// name and renamed, so a reader never sees half a mail; an existing file
/// means this mail was already "sent".
fn send_file(dir: &std::path::Path, raw: &[u8]) -> Result<(), SendError> {
    let io =
        |e: std::io::Error| SendError::Transient(format!("file transport {}: {e}", dir.display()));
    fs::create_dir_all(dir).map_err(io)?;
    clean_once(dir);
    let id = mail_parser::MessageParser::default()
        .parse_headers(raw)
        .and_then(|m| m.message_id().map(str::to_owned))
        .unwrap_or_else(|| hex::encode(Sha256::digest(raw)));
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "@.-_+=".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = if name.starts_with('.') {
        format!("_{name}")
    } else {
        name
    };
    let path = dir.join(format!("{name}.eml"));
    if path.exists() {
        return Ok(());
    }
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    // A failed write (disk full, quota) removes its own temporary file
    // (issue 14 item 9): the retry writes a new one, and a full disk must
    // not also fill up with empty leftovers.
    let written = write_synced(&tmp, raw).and_then(|()| fs::rename(&tmp, &path));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}

fn write_synced(path: &std::path::Path, raw: &[u8]) -> std::io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    file.write_all(raw)?;
    file.sync_all()
}
