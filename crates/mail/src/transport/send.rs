//! Sending the referee's formatted mail: the three transports selected in
//! `arbitre.toml` (file, sendmail, SMTP).
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

use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{Address as LettreAddress, SmtpTransport};
use sha2::{Digest, Sha256};

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
///
/// For the file transport it keeps the batch written since the last
/// [`Mailer::sync`]: each mail is written to its temporary name unsynced,
/// and `sync` then syncs them all, renames them and syncs the folder. One
/// journal commit of the filesystem covers the whole batch, where a sync
/// per file cost one disk flush per mail, most of the capacity
/// simulation's sending (issue 22 item 3). A mail is in the folder only
/// once `sync` has returned, and the daemon marks mails sent only then.
pub struct Mailer {
    transport: Transport,
    smtp: Option<SmtpTransport>,
    /// The file transport's mails written but not yet synced and renamed:
    /// (temporary name, final name).
    staged: Vec<(PathBuf, PathBuf)>,
}

impl Mailer {
    pub fn new(transport: Transport) -> Mailer {
        Mailer {
            transport,
            smtp: None,
            staged: Vec::new(),
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

    /// Makes a batch of the file transport's renames durable with one
    /// fsync of its folder (issue 22 item 3), before the batch is marked
    /// sent; each file's own data was synced when it was written. Nothing
    /// to do for the other transports.
    pub fn sync(&mut self) -> Result<(), SendError> {
        let Transport::File { dir } = &self.transport else {
            return Ok(());
        };
        let staged = std::mem::take(&mut self.staged);
        // Every file's data first (the first sync commits the filesystem's
        // journal for all of them; the others find nothing left to write),
        // then the renames, then the folder: a reader or a crash never
        // finds a final name over unsynced data.
        let done = sync_files_together(&staged)
            .and_then(|()| {
                staged
                    .iter()
                    .try_for_each(|(tmp, path)| fs::rename(tmp, path))
            })
            .and_then(|()| fs::File::open(dir).and_then(|d| d.sync_all()));
        if let Err(e) = done {
            // The batch stays pending in the outbox and is written again.
            remove_staged(&staged);
            return Err(SendError::Transient(format!(
                "file transport {}: {e}",
                dir.display()
            )));
        }
        Ok(())
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
            Transport::File { dir } => {
                if let Some(staged) = stage_file(&dir, raw)? {
                    self.staged.push(staged);
                }
                Ok(())
            }
            other => other.send(from, to, raw),
        }
    }
}

impl Drop for Mailer {
    /// A batch never synced was never sent: its temporary files go (the
    /// outbox still holds its mails as pending).
    fn drop(&mut self) {
        remove_staged(&self.staged);
    }
}

/// How many files' syncs are in flight at once in [`Mailer::sync`].
const SYNCS_IN_FLIGHT: usize = 32;

/// Syncs the staged files' data, many at once: one after the other, each
/// sync waited for its own journal commit (0.3–4 ms each on the
/// capacity simulation's disk); in flight together, the filesystem commits
/// them in a few shared commits. The threads only wait on the disk.
fn sync_files_together(staged: &[(PathBuf, PathBuf)]) -> std::io::Result<()> {
    let chunk = staged.len().div_ceil(SYNCS_IN_FLIGHT).max(1);
    std::thread::scope(|scope| {
        let syncs: Vec<_> = staged
            .chunks(chunk)
            .map(|files| {
                scope.spawn(move || {
                    files
                        .iter()
                        .try_for_each(|(tmp, _)| fs::File::open(tmp).and_then(|f| f.sync_all()))
                })
            })
            .collect();
        syncs.into_iter().try_for_each(|s| {
            s.join()
                .unwrap_or_else(|_| Err(std::io::Error::other("a sync thread panicked")))
        })
    })
}

fn remove_staged(staged: &[(PathBuf, PathBuf)]) {
    for (tmp, _) in staged {
        let _ = fs::remove_file(tmp);
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
/// `older_than` go, or those whose writer (the pid in the name) is no
/// longer running, so a write in progress in another process is never
/// touched. A batch staged by [`Mailer`] and killed before its sync is
/// such a file, and the restart writes the mail again under its own pid.
/// Returns how many were removed; errors only skip a file.
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
        let dead = writer_is_gone(name);
        if (old || dead)
            && e.file_type().is_ok_and(|t| t.is_file())
            && fs::remove_file(e.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// The process that wrote `.<name>.<pid>.tmp` is not running (Linux: no
/// `/proc/<pid>`). False when unsure: no pid, our own, or no `/proc`.
fn writer_is_gone(tmp_name: &str) -> bool {
    let Some(pid) = tmp_name
        .strip_suffix(".tmp")
        .and_then(|n| n.rsplit_once('.'))
        .and_then(|(_, pid)| pid.parse::<u32>().ok())
    else {
        return false;
    };
    let proc = std::path::Path::new("/proc");
    pid != std::process::id() && proc.join("self").exists() && !proc.join(pid.to_string()).exists()
}

/// Whether this is the first mail this process writes to `dir`: the
/// folder is then made and cleaned, once per process, not at every send (a
/// folder of thousands of archived mails is not re-listed for each one,
/// and issue 22 item 4: a `mkdir -p` per mail was a twentieth of writing
/// it).
fn clean_once(dir: &std::path::Path) -> bool {
    use std::collections::BTreeSet;
    use std::sync::{Mutex, OnceLock};
    static CLEANED: OnceLock<Mutex<BTreeSet<PathBuf>>> = OnceLock::new();
    CLEANED
        .get_or_init(|| Mutex::new(BTreeSet::new()))
        .lock()
        .map(|mut set| set.insert(dir.to_path_buf()))
        .unwrap_or(true)
}

/// The Message-ID of a mail as arbitre writes it, on one line of its own
/// as `Message-ID: <id>` with nothing in `id` that mail-parser would read
/// otherwise, found without parsing every header (issue 22 item 4: the
/// parse was a share of writing each mail). `None` for anything else,
/// which mail-parser then reads.
fn plain_message_id(raw: &[u8]) -> Option<&str> {
    let mut lines = raw.split(|&b| b == b'\n');
    while let Some(line) = lines.next() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return None;
        }
        let Some(value) = line
            .get(..11)
            .filter(|name| name.eq_ignore_ascii_case(b"message-id:"))
            .and_then(|_| line.get(11..))
        else {
            continue;
        };
        // A folded header goes on, on the next line.
        if lines
            .clone()
            .next()
            .is_some_and(|next| next.first().is_some_and(|b| *b == b' ' || *b == b'\t'))
        {
            return None;
        }
        let id = value.trim_ascii().strip_prefix(b"<")?.strip_suffix(b">")?;
        let plain = |b: &u8| b.is_ascii_alphanumeric() || b"@.-_+=$%".contains(b);
        return if !id.is_empty() && id.iter().all(plain) {
            std::str::from_utf8(id).ok()
        } else {
            None
        };
    }
    None
}

/// File transport: `<dir>/<sanitised message-id>.eml`, written to a temporary
/// name and renamed, so a reader never sees half a mail; an existing file
/// means this mail was already "sent".
fn send_file(dir: &std::path::Path, raw: &[u8]) -> Result<(), SendError> {
    let io =
        |e: std::io::Error| SendError::Transient(format!("file transport {}: {e}", dir.display()));
    let Some((tmp, path)) = stage_file(dir, raw)? else {
        return Ok(());
    };
    let done = fs::File::open(&tmp)
        .and_then(|f| f.sync_all())
        .and_then(|()| fs::rename(&tmp, &path));
    if let Err(e) = done {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}

/// Writes `raw` under its temporary name in `dir`, unsynced, and returns
/// (temporary name, final name); `None` if the final name exists already
/// (this mail was sent).
fn stage_file(dir: &std::path::Path, raw: &[u8]) -> Result<Option<(PathBuf, PathBuf)>, SendError> {
    let io =
        |e: std::io::Error| SendError::Transient(format!("file transport {}: {e}", dir.display()));
    if clean_once(dir) {
        fs::create_dir_all(dir).map_err(io)?;
        clean_stale_temp_files(dir, STALE_TMP_AGE);
    }
    let id = plain_message_id(raw)
        .map(str::to_owned)
        .or_else(|| {
            mail_parser::MessageParser::default()
                .parse_headers(raw)
                .and_then(|m| m.message_id().map(str::to_owned))
        })
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
        return Ok(None);
    }
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    // A failed write (disk full, quota) removes its own temporary file
    // (issue 14 item 9): the retry writes a new one, and a full disk must
    // not also fill up with empty leftovers.
    let mut written = write_unsynced(&tmp, raw);
    if written
        .as_ref()
        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    {
        // The folder was made at the first mail; made again if it has
        // gone since.
        written = fs::create_dir_all(dir).and_then(|()| write_unsynced(&tmp, raw));
    }
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(Some((tmp, path)))
}

fn write_unsynced(path: &std::path::Path, raw: &[u8]) -> std::io::Result<()> {
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?
        .write_all(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 22 item 4: the file transport's name for a mail comes from a
    /// plain scan where it can, and is always the name mail-parser's
    /// Message-ID gave it, so a mail written before is still found sent.
    #[test]
    fn a_plain_message_id_is_the_one_mail_parser_reads() {
        let parsed = |raw: &[u8]| {
            mail_parser::MessageParser::default()
                .parse_headers(raw)
                .and_then(|m| m.message_id().map(str::to_owned))
        };
        let plain = [
            "From: a@b\r\nMessage-ID: <r.neb1.3.ann@arbitre.example>\r\nSubject: x\r\n\r\nbody",
            "message-id:   <A+b=c$1%2@x-y_z>  \r\n\r\n",
            "Subject: y\nMessage-Id: <id@host>\n\nMessage-ID: <not@this>",
        ];
        for raw in plain {
            let fast = plain_message_id(raw.as_bytes()).map(str::to_owned);
            assert!(fast.is_some(), "{raw:?} is plain");
            assert_eq!(fast, parsed(raw.as_bytes()), "{raw:?}");
        }
        // Left to mail-parser: folded, commented, quoted, bracketless,
        // empty, in the body only, or no header at all.
        let other = [
            "Message-ID:\r\n <folded@host>\r\n\r\n",
            "Message-ID: <a@b> (comment)\r\n\r\n",
            "Message-ID: <\"q u\"@b>\r\n\r\n",
            "Message-ID: bare@host\r\n\r\n",
            "Message-ID: <>\r\n\r\n",
            "Subject: z\r\n\r\nMessage-ID: <in@body>\r\n",
            "",
        ];
        for raw in other {
            assert_eq!(plain_message_id(raw.as_bytes()), None, "{raw:?}");
        }
    }

    /// The folder of the file transport is made at its first mail, and
    /// again when it has gone since.
    #[test]
    fn the_file_transport_remakes_a_folder_gone_since_its_first_mail() {
        let root = std::env::temp_dir().join(format!("arbitre-stage-{}", std::process::id()));
        let dir = root.join("out");
        let _ = fs::remove_dir_all(&root);
        let raw = b"Message-ID: <one@x>\r\n\r\nbody";
        send_file(&dir, raw).unwrap();
        assert!(dir.join("one@x.eml").exists());
        fs::remove_dir_all(&dir).unwrap();
        send_file(&dir, b"Message-ID: <two@x>\r\n\r\nbody").unwrap();
        assert!(dir.join("two@x.eml").exists());
        // The first mail again, twice: one file, and no temporary left.
        send_file(&dir, raw).unwrap();
        send_file(&dir, raw).unwrap();
        let mut names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["one@x.eml", "two@x.eml"]);
        let _ = fs::remove_dir_all(&root);
    }
}
