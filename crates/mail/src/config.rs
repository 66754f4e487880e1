//! The `[inbound]` and `[outbound]` tables of `arbitre.toml`, ready for the
//! daemon's configuration to embed (`inbound: Option<arbitre_mail::config::InboundToml>`,
//! `outbound: Option<arbitre_mail::config::OutboundToml>`) and resolve into an
//! [`InboxConfig`] and a [`Transport`]. Keys are documented in
//! docs/operations.md. It lives here, next to [`ImapConfig`], so that a new
//! IMAP option is added in one crate.
//!
//! Passwords are named, never written: `password_env` (an environment
//! variable) or `password_file` (first line of a file), as issue 7 requires.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::transport::imap::ImapConfig;
use crate::transport::inbox::InboxConfig;
use crate::transport::secret::read_secret;
use crate::transport::send::{Security, SmtpConfig, Transport};

/// `[inbound]`: where order mail is read from.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum InboundToml {
    /// A Maildir (the directory holding `new/`, `cur/`, `tmp/`).
    Maildir { path: PathBuf },
    /// An IMAP folder.
    Imap {
        host: String,
        port: Option<u16>,
        /// `tls` (default), `starttls` or `none` (loopback test servers only).
        security: Option<String>,
        user: String,
        password_env: Option<String>,
        password_file: Option<PathBuf>,
        folder: Option<String>,
        processed_folder: Option<String>,
        ca_file: Option<PathBuf>,
        timeout_secs: Option<u64>,
    },
}

/// True for a host name that can only mean this machine: `localhost`,
/// `*.localhost` (RFC 6761) or a loopback address. Names are not resolved:
/// what a name resolves to can change after the check.
pub fn is_loopback_host(host: &str) -> bool {
    let h = host.trim().trim_end_matches('.');
    let h = h
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(h);
    if h.eq_ignore_ascii_case("localhost") || h.to_ascii_lowercase().ends_with(".localhost") {
        return true;
    }
    h.parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_loopback())
}

/// `security = "none"` sends the password (and the mail) in clear: allowed
/// for loopback only (issue 14 item 15), where nothing crosses a network.
fn refuse_clear_text_to_remote(
    section: &str,
    security: Security,
    host: &str,
) -> Result<(), String> {
    if security == Security::None && !is_loopback_host(host) {
        return Err(format!(
            "{section} security = \"none\" sends the password in clear: it is allowed only for a loopback host \
             (localhost, 127.0.0.1, ::1), not '{host}'; use \"tls\" or \"starttls\""
        ));
    }
    Ok(())
}

/// Parses a `security` value shared by `[inbound]` and `[outbound]`.
pub fn parse_security(value: &str) -> Result<Security, String> {
    match value.to_ascii_lowercase().as_str() {
        "tls" => Ok(Security::Tls),
        "starttls" => Ok(Security::StartTls),
        "none" => Ok(Security::None),
        other => Err(format!(
            "security '{other}' (expected tls, starttls or none)"
        )),
    }
}

impl InboundToml {
    /// Resolves relative paths against `base` (the folder of `arbitre.toml`)
    /// and reads the password. Errors are messages for the game master.
    pub fn resolve(&self, base: &Path) -> Result<InboxConfig, String> {
        let rel = |p: &Path| {
            if p.is_absolute() {
                p.to_path_buf()
            } else {
                base.join(p)
            }
        };
        match self {
            InboundToml::Maildir { path } => Ok(InboxConfig::Maildir(rel(path))),
            InboundToml::Imap {
                host,
                port,
                security,
                user,
                password_env,
                password_file,
                folder,
                processed_folder,
                ca_file,
                timeout_secs,
            } => {
                let security = parse_security(security.as_deref().unwrap_or("tls"))
                    .map_err(|e| format!("[inbound] {e}"))?;
                refuse_clear_text_to_remote("[inbound]", security, host)?;
                let file = password_file.as_deref().map(rel);
                let password = read_secret(password_env.as_deref(), file.as_deref())
                    .map_err(|e| format!("[inbound] {e}"))?
                    .ok_or("[inbound] imap needs password_env or password_file")?;
                Ok(InboxConfig::Imap(ImapConfig {
                    host: host.clone(),
                    port: port.unwrap_or(match security {
                        Security::Tls => 993,
                        Security::StartTls | Security::None => 143,
                    }),
                    security,
                    user: user.clone(),
                    password,
                    folder: folder.clone().unwrap_or_else(|| "INBOX".into()),
                    processed_folder: processed_folder.clone(),
                    ca_file: ca_file.as_deref().map(rel),
                    timeout_secs: timeout_secs.unwrap_or(60),
                }))
            }
        }
    }
}

/// `[outbound]`: how the referee's mail leaves.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum OutboundToml {
    /// One `<message-id>.eml` per mail in `dir`.
    File { dir: PathBuf },
    /// A sendmail-compatible command (default `/usr/sbin/sendmail`).
    Sendmail { command: Option<PathBuf> },
    /// SMTP submission.
    Smtp {
        host: String,
        port: Option<u16>,
        /// `starttls` (default), `tls` or `none`.
        security: Option<String>,
        user: Option<String>,
        /// Accepted for small setups; prefer `password_env` or `password_file`
        /// so the configuration can be shared without the secret.
        password: Option<String>,
        password_env: Option<String>,
        password_file: Option<PathBuf>,
        timeout_secs: Option<u64>,
        /// The name given in EHLO (default: the referee address's domain).
        hello_name: Option<String>,
        /// Extra trusted certificates (PEM), for a relay with a private CA.
        ca_file: Option<PathBuf>,
    },
}

impl OutboundToml {
    /// Resolves relative paths against `base` and reads the password.
    pub fn resolve(&self, base: &Path) -> Result<Transport, String> {
        let rel = |p: &Path| {
            if p.is_absolute() {
                p.to_path_buf()
            } else {
                base.join(p)
            }
        };
        match self {
            OutboundToml::File { dir } => Ok(Transport::File { dir: rel(dir) }),
            OutboundToml::Sendmail { command } => Ok(Transport::Sendmail {
                command: command
                    .clone()
                    .unwrap_or_else(|| PathBuf::from("/usr/sbin/sendmail")),
            }),
            OutboundToml::Smtp {
                host,
                port,
                security,
                user,
                password,
                password_env,
                password_file,
                timeout_secs,
                hello_name,
                ca_file,
            } => {
                let security = parse_security(security.as_deref().unwrap_or("starttls"))
                    .map_err(|e| format!("[outbound] smtp {e}"))?;
                refuse_clear_text_to_remote("[outbound]", security, host)?;
                let file = password_file.as_deref().map(rel);
                let named = read_secret(password_env.as_deref(), file.as_deref())
                    .map_err(|e| format!("[outbound] {e}"))?;
                let password = match (password, named) {
                    (Some(_), Some(_)) => {
                        return Err(
                            "[outbound] give password or password_env/password_file, not both"
                                .into(),
                        )
                    }
                    (p, n) => p.clone().or(n),
                };
                if password.is_some() && user.is_none() {
                    return Err("[outbound] a password needs a user".into());
                }
                Ok(Transport::Smtp(SmtpConfig {
                    host: host.clone(),
                    port: port.unwrap_or(match security {
                        Security::Tls => 465,
                        Security::StartTls => 587,
                        Security::None => 25,
                    }),
                    security,
                    user: user.clone(),
                    password,
                    timeout_secs: timeout_secs.unwrap_or(30),
                    hello_name: hello_name.clone(),
                    ca_file: ca_file.as_deref().map(rel),
                }))
            }
        }
    }
}
