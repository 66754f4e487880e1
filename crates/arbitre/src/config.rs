//! The daemon's configuration, `arbitre.toml` (documented in
//! docs/game-master.md). With no file, everything lives under `./var/`:
//! the Maildir `./var/inbox`, the database `./var/arbitre.db` and the file
//! outbox `./var/outbox`. Relative paths in a config file are relative to the
//! file's folder, so a config works whatever the daemon's working directory.

use crate::game_config::{TomlError, TomlKind};
use arbitre_core::Lang;
use arbitre_mail::config::{InboundToml, OutboundToml};
use arbitre_mail::{InboxConfig, Transport};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigToml {
    /// Shorthand for `[inbound] kind = "maildir"`.
    inbox: Option<PathBuf>,
    inbound: Option<InboundToml>,
    database: Option<PathBuf>,
    referee: Option<String>,
    max_mail_size: Option<usize>,
    language: Option<String>,
    poll_seconds: Option<u64>,
    /// Obsolete (issue 14 item 6): accepted so older files still load;
    /// `send_retry_window` decides when a mail is given up.
    max_send_attempts: Option<u32>,
    /// How long a mail is retried after its first temporary failure ("3d").
    send_retry_window: Option<String>,
    outbound: Option<OutboundToml>,
    argon2: Option<Argon2Toml>,
    limits: Option<LimitsToml>,
    /// `[dkim]`: where signers' keys are looked up (arbitre_mail::dkim).
    dkim: Option<arbitre_mail::dkim::DkimToml>,
    /// Send new seats the welcome mail (issue 17 item 1); default true.
    welcome: Option<bool>,
    /// Mail every SVG map with its PNG twin (issue 18 item 7); default true.
    png_maps: Option<bool>,
    /// Sent mails stay whole this many turns of their game (issue 22
    /// item 4); default 3, 0: for ever.
    keep_sent_mail_turns: Option<u32>,
    /// `[web]`: the web pages served by `serve` too (issue 24).
    web: Option<WebToml>,
}

/// `[web]` (issue 24): `listen = "127.0.0.1:8080"` makes `arbitre serve`
/// serve the web pages too, on a thread of their own.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WebToml {
    listen: Option<String>,
}

/// `[limits]`: the flood rate limit (issue 8), see [`Limits`].
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsToml {
    per_sender_per_hour: Option<u32>,
    per_game_per_hour: Option<u32>,
    refusals_per_address_per_hour: Option<u32>,
    wrong_passwords_per_seat_per_hour: Option<u32>,
    max_order_lines: Option<u32>,
}

/// How many mails one address, and one game, may have handled per clock
/// hour of the daemon (O(1) counter rows, `arbitre_store::counters`, issue
/// 14 item 2). Beyond that a mail is journaled as `rate-limited`, nothing
/// is stored, and the address gets one polite answer per hour. 0 turns a
/// limit off.
///
/// The defaults are far above what a player or a game needs (a player
/// sends a few mails a turn, CHECKs included) and low enough that a
/// mail loop or a broken client costs at most a few dozen answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Counted both by From and by the address the answer goes to
    /// (Reply-To), so rotating From addresses cannot aim answers at a
    /// third party (issue 14 item 2).
    pub per_sender_per_hour: u32,
    /// Mails of strangers only: a seated player writing from their
    /// registered address is never counted nor refused by it (issue 14
    /// item 3).
    pub per_game_per_hour: u32,
    /// Answers to mails that name no valid game, player or password, per
    /// reply address and hour; further ones are journaled unanswered.
    pub refusals_per_address_per_hour: u32,
    /// Wrong passwords naming one seat per hour before they go unanswered
    /// (the game master is told once); the right password is still served.
    pub wrong_passwords_per_seat_per_hour: u32,
    /// Lines of one order block (issue 14 item 1); a longer block is
    /// refused unread. Not a rate limit: [`Limits::off`] keeps it.
    pub max_order_lines: u32,
}

/// Lines of a confirmation beyond which the lines accepted without remark
/// are counted instead of echoed (errors and warnings are always listed).
pub const CONFIRM_ECHO_LINES: usize = 2_000;
/// In such a long confirmation, each listed line is cut after this many
/// characters.
pub const CONFIRM_ECHO_CHARS: usize = 100;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            per_sender_per_hour: 30,
            per_game_per_hour: 300,
            refusals_per_address_per_hour: 1,
            wrong_passwords_per_seat_per_hour: 10,
            max_order_lines: 20_000,
        }
    }
}

impl Limits {
    /// No rate limit at all (tests that send thousands of mails at a frozen
    /// clock); `max_order_lines` stays at its default.
    pub fn off() -> Limits {
        Limits {
            per_sender_per_hour: 0,
            per_game_per_hour: 0,
            refusals_per_address_per_hour: 0,
            wrong_passwords_per_seat_per_hour: 0,
            max_order_lines: Limits::default().max_order_lines,
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Argon2Toml {
    m_cost: u32,
    t_cost: u32,
}

#[derive(Clone, Debug)]
pub struct DaemonConfig {
    pub inbox: InboxConfig,
    pub database: PathBuf,
    pub transport: Transport,
    /// The referee's own address: From of every mail, and never answered.
    pub referee: String,
    pub max_mail_size: usize,
    /// Language of replies to mail that names no known game.
    pub language: Lang,
    pub poll_seconds: u64,
    /// A mail that fails temporarily is retried with backoff for this long
    /// after its first failure, then failed (issue 14 item 6; default 3
    /// days, as Postfix's `maximal_queue_lifetime` is 5).
    pub send_retry_window: chrono::Duration,
    pub hasher: arbitre_store::PasswordHasher,
    pub limits: Limits,
    /// DKIM verification of inbound mail (issue 10): system DNS by default.
    pub dkim: arbitre_mail::DkimVerifier,
    /// The welcome mail to every new seat (issue 17 item 1): on unless
    /// `welcome = false`. The tests of other features turn it off, as they
    /// turn the limits off, so their mail counts stay their feature's.
    pub welcome: bool,
    /// Every SVG map mailed with its PNG twin (issue 18 item 7): on unless
    /// `png_maps = false`. Rasterising costs about 10 ms of CPU a map, most
    /// of a turn's resolution (issue 22 item 4): a server of thousands of
    /// games may mail SVG only.
    pub png_maps: bool,
    /// A sent mail keeps its raw copy (attachments included) until its
    /// game has resolved this many more turns (issue 22 item 4; default 3);
    /// then only its subject and body stay, and a RESEND of it draws the
    /// attachments again from the turn's stored state. 0 keeps every mail
    /// whole for ever, as before: about 1 MB a game-turn.
    pub keep_sent_mail_turns: u32,
    /// `[web] listen`: where `serve` also serves the web pages (issue 24);
    /// `None`: it does not (`arbitre web` serves them on its own).
    pub web_listen: Option<std::net::SocketAddr>,
}

/// Why `arbitre.toml` is refused: kinds with their data. The `Display` is
/// the English of the logs; `error_text::config_text` words the same kinds
/// in the command line's language (issue 16 item 3).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {0}: {1}")]
    Read(String, std::io::Error),
    /// Not TOML, or not the shape of `arbitre.toml`: the file, the line and
    /// column the parser names, its refusal classified, and its own words.
    #[error("{file}: {message}")]
    Toml {
        file: String,
        at: Option<(usize, usize)>,
        kind: Box<TomlKind>,
        message: String,
    },
    #[error("{0}: {1}")]
    Invalid(String, ConfigProblem),
}

/// A value of `arbitre.toml` the daemon refuses.
#[derive(Debug, thiserror::Error)]
pub enum ConfigProblem {
    #[error("give either inbox = \"path\" or an [inbound] table, not both")]
    InboxTwice,
    #[error("referee '{0}' is not an e-mail address")]
    Referee(String),
    #[error("unknown language '{0}'")]
    Language(String),
    #[error("send_retry_window: {0}")]
    RetryWindow(crate::timespec::TimeSpecError),
    #[error("send_retry_window must be positive, not {0:?}")]
    RetryNotPositive(String),
    #[error("[web] listen = {0:?}: expected an address and port such as \"127.0.0.1:8080\"")]
    WebListen(String),
    /// The mail crate's refusal of `[inbound]`, `[outbound]` or `[dkim]`,
    /// in its own (English) words.
    #[error("{0}")]
    Mail(String),
}

impl DaemonConfig {
    /// Everything under `base` (./var by default).
    pub fn under(base: &Path) -> DaemonConfig {
        DaemonConfig {
            inbox: InboxConfig::Maildir(base.join("inbox")),
            database: base.join("arbitre.db"),
            transport: Transport::File {
                dir: base.join("outbox"),
            },
            referee: "arbitre@localhost".into(),
            max_mail_size: 10 * 1024 * 1024,
            language: Lang::En,
            poll_seconds: 60,
            send_retry_window: chrono::Duration::days(3),
            hasher: arbitre_store::PasswordHasher::default(),
            limits: Limits::default(),
            dkim: arbitre_mail::DkimVerifier::default(),
            welcome: true,
            png_maps: true,
            keep_sent_mail_turns: 3,
            web_listen: None,
        }
    }

    pub fn load(path: &Path) -> Result<DaemonConfig, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::Read(path.display().to_string(), e))?;
        let base = path.parent().unwrap_or(Path::new("."));
        Self::parse(&text, base).map_err(|e| match e {
            ConfigError::Toml {
                at, kind, message, ..
            } => ConfigError::Toml {
                file: path.display().to_string(),
                at,
                kind,
                message,
            },
            ConfigError::Invalid(_, m) => ConfigError::Invalid(path.display().to_string(), m),
            e => e,
        })
    }

    pub fn parse(text: &str, base: &Path) -> Result<DaemonConfig, ConfigError> {
        let t: ConfigToml = toml::from_str(text).map_err(|e| ConfigError::Toml {
            file: "arbitre.toml".into(),
            at: e.span().map(|r| crate::spans::line_col(text, r.start)),
            kind: Box::new(TomlError::from_toml(&e).kind),
            message: e.to_string(),
        })?;
        let invalid = |m: ConfigProblem| ConfigError::Invalid("arbitre.toml".into(), m);
        let mail = |m: String| invalid(ConfigProblem::Mail(m));
        let mut c = DaemonConfig::under(&base.join("var"));
        let rel = |p: PathBuf| if p.is_absolute() { p } else { base.join(p) };
        c.inbox = match (t.inbox, t.inbound) {
            (Some(_), Some(_)) => return Err(invalid(ConfigProblem::InboxTwice)),
            (Some(p), None) => InboxConfig::Maildir(rel(p)),
            (None, Some(i)) => i.resolve(base).map_err(mail)?,
            (None, None) => InboxConfig::Maildir(base.join("var").join("inbox")),
        };
        if let Some(p) = t.database {
            c.database = rel(p);
        }
        if let Some(r) = t.referee {
            if !r.contains('@') {
                return Err(invalid(ConfigProblem::Referee(r)));
            }
            c.referee = r;
        }
        if let Some(m) = t.max_mail_size {
            c.max_mail_size = m;
        }
        if let Some(l) = t.language {
            c.language = Lang::parse(&l).ok_or_else(|| invalid(ConfigProblem::Language(l)))?;
        }
        if let Some(p) = t.poll_seconds {
            c.poll_seconds = p.max(1);
        }
        if t.max_send_attempts.is_some() {
            tracing::warn!("arbitre.toml: max_send_attempts is obsolete and ignored; mails are retried for send_retry_window (default 3d)");
        }
        if let Some(w) = t.send_retry_window {
            let d = crate::timespec::parse_duration(&w)
                .map_err(|e| invalid(ConfigProblem::RetryWindow(e)))?;
            if d <= chrono::Duration::zero() {
                return Err(invalid(ConfigProblem::RetryNotPositive(w)));
            }
            c.send_retry_window = d;
        }
        if let Some(a) = t.argon2 {
            c.hasher = arbitre_store::PasswordHasher {
                m_cost: a.m_cost,
                t_cost: a.t_cost,
            };
        }
        if let Some(l) = t.limits {
            let d = Limits::default();
            c.limits = Limits {
                per_sender_per_hour: l.per_sender_per_hour.unwrap_or(d.per_sender_per_hour),
                per_game_per_hour: l.per_game_per_hour.unwrap_or(d.per_game_per_hour),
                refusals_per_address_per_hour: l
                    .refusals_per_address_per_hour
                    .unwrap_or(d.refusals_per_address_per_hour),
                wrong_passwords_per_seat_per_hour: l
                    .wrong_passwords_per_seat_per_hour
                    .unwrap_or(d.wrong_passwords_per_seat_per_hour),
                max_order_lines: l.max_order_lines.unwrap_or(d.max_order_lines),
            };
        }
        if let Some(w) = t.welcome {
            c.welcome = w;
        }
        if let Some(p) = t.png_maps {
            c.png_maps = p;
        }
        if let Some(k) = t.keep_sent_mail_turns {
            c.keep_sent_mail_turns = k;
        }
        if let Some(listen) = t.web.and_then(|w| w.listen) {
            c.web_listen = Some(
                listen
                    .parse()
                    .map_err(|_| invalid(ConfigProblem::WebListen(listen.clone())))?,
            );
        }
        if let Some(d) = t.dkim {
            c.dkim = arbitre_mail::DkimVerifier::new(d.resolve().map_err(mail)?);
        }
        c.transport = match t.outbound {
            None => Transport::File {
                dir: base.join("var").join("outbox"),
            },
            Some(o) => o.resolve(base).map_err(mail)?,
        };

        Ok(c)
    }

    /// The domain part of the referee address, for Message-IDs.
    pub fn domain(&self) -> &str {
        self.referee.rsplit('@').next().unwrap_or("localhost")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_live_under_var_and_paths_are_relative_to_the_file() {
        let c = DaemonConfig::under(Path::new("./var"));
        assert_eq!(c.inbox, InboxConfig::Maildir("./var/inbox".into()));
        assert_eq!(c.database, Path::new("./var/arbitre.db"));
        assert_eq!(
            c.transport,
            Transport::File {
                dir: "./var/outbox".into()
            }
        );
        let c = DaemonConfig::parse(
            "inbox = \"mail\"\nreferee = \"ref@games.example\"\n[outbound]\nkind = \"smtp\"\nhost = \"smtp.example\"\nsecurity = \"tls\"\n[argon2]\nm_cost = 8\nt_cost = 1\n",
            Path::new("/etc/arbitre"),
        )
        .unwrap();
        assert_eq!(c.inbox, InboxConfig::Maildir("/etc/arbitre/mail".into()));
        assert_eq!(c.domain(), "games.example");
        assert!(matches!(c.transport, Transport::Smtp(ref s) if s.port == 465));
        assert_eq!(c.hasher.m_cost, 8);
        let both = DaemonConfig::parse(
            "inbox = \"a\"\n[inbound]\nkind = \"maildir\"\npath = \"b\"\n",
            Path::new("."),
        );
        assert!(both.unwrap_err().to_string().contains("not both"));
        let c = DaemonConfig::parse(
            "[inbound]\nkind = \"maildir\"\npath = \"b\"\n",
            Path::new("/x"),
        )
        .unwrap();
        assert_eq!(c.inbox, InboxConfig::Maildir("/x/b".into()));
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples/arbitre.toml");
        let c = DaemonConfig::load(&example).unwrap();
        assert_eq!(c.referee, "referee@games.example");
        assert!(matches!(c.transport, Transport::File { .. }));
        assert_eq!(c.limits, Limits::default());
        let c = DaemonConfig::parse("[limits]\nper_sender_per_hour = 5\n", Path::new(".")).unwrap();
        assert_eq!(
            c.limits,
            Limits {
                per_sender_per_hour: 5,
                ..Limits::default()
            }
        );
        assert_eq!(c.send_retry_window, chrono::Duration::days(3));
        assert_eq!(c.keep_sent_mail_turns, 3, "issue 22 item 4's default");
        let c = DaemonConfig::parse("keep_sent_mail_turns = 0\n", Path::new(".")).unwrap();
        assert_eq!(c.keep_sent_mail_turns, 0);
        let c = DaemonConfig::parse("referee = \"r@games.example\"\nsend_retry_window = \"12h\"\nmax_send_attempts = 3\n[outbound]\nkind = \"smtp\"\nhost = \"h\"\n", Path::new(".")).unwrap();
        assert_eq!(c.send_retry_window, chrono::Duration::hours(12));
        let ehlo = crate::daemon::mailer_for(&c);
        assert!(
            matches!(ehlo.transport(), Transport::Smtp(ref s) if s.hello_name.as_deref() == Some("games.example")),
            "EHLO defaults to the referee's domain"
        );
        let e = DaemonConfig::parse("inbx = \"x\"", Path::new(".")).unwrap_err();
        assert!(e.to_string().contains("inbx"), "{e}");
    }

    #[test]
    fn dkim_resolver_is_system_by_default_and_can_be_off_with_pinned_keys() {
        use arbitre_mail::dkim::ResolverKind;
        let c = DaemonConfig::under(Path::new("./var"));
        assert_eq!(c.dkim.config().resolver, ResolverKind::System);
        let key = "v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=";
        let c = DaemonConfig::parse(&format!("[dkim]\nresolver = \"off\"\n[dkim.records]\n\"s._domainkey.example.org\" = \"{key}\"\n"), Path::new(".")).unwrap();
        assert_eq!(c.dkim.config().resolver, ResolverKind::Off);
        assert_eq!(c.dkim.config().records.len(), 1);
        let e = DaemonConfig::parse(
            "[dkim]\n[dkim.records]\n\"s._domainkey.example.org\" = \"nonsense\"\n",
            Path::new("."),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not a DKIM key record"), "{e}");
        let e = DaemonConfig::parse("[dkim]\nresolver = \"google\"\n", Path::new(".")).unwrap_err();
        assert!(e.to_string().contains("google"), "{e}");
    }
}
