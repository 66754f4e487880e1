//! The daemon: one [`Daemon`] owns the database, the inbox, the transport,
//! the ruleset registry and the clock. [`Daemon::cycle`] is one pass of
//! `arbitre serve`: read the inbox, resolve due turns, send reminders, send
//! the outbox — in that order, so that orders arriving just before a deadline
//! count, and every mail a cycle queues leaves in the same cycle. An inbox
//! that cannot be reached does not stop the rest of the cycle (issue 14
//! item 10, see [`crate::serve`]).

use crate::clock::Clock;
use crate::config::DaemonConfig;
use crate::error::{DaemonError, Result};
use crate::game_config::GameToml;
use crate::registry::Registry;
use crate::schedule::Schedule;
use arbitre_core::{Engine, Lang};
use arbitre_mail::{Inbox, Maildir};
use arbitre_store::{DaemonLock, GameRow, Store};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

pub struct Daemon {
    pub config: DaemonConfig,
    pub store: Store,
    pub registry: Arc<Registry>,
    pub clock: Arc<dyn Clock>,
    pub inbox: Inbox,
    /// The transport with its open SMTP connection, kept between mails
    /// and cycles (issue 14 item 14); rebuilt if `config.transport` changes.
    pub mailer: arbitre_mail::Mailer,
    /// Connection failures of the inbox and when to retry (crate::serve).
    pub inbox_health: crate::serve::InboxHealth,
    /// The operator's language (issue 16 item 3): what the daemon says to
    /// whoever runs it (`status`, `outbox list`, the demo, a command's
    /// refusal), set by the CLI from `--lang` or the locale; English
    /// unless set. Mails speak their game's language, not this one.
    pub lang: Lang,
}

/// What one cycle did (for logs and tests).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CycleReport {
    pub mails: usize,
    pub resolved: Vec<(String, u32)>,
    pub reminders: usize,
    pub sent: usize,
    pub send_failures: usize,
    /// Why the inbox was not read this cycle (unreachable, backing off).
    pub inbox_error: Option<String>,
}

impl Daemon {
    pub fn open(
        config: DaemonConfig,
        registry: impl Into<Arc<Registry>>,
        clock: Arc<dyn Clock>,
    ) -> Result<Daemon> {
        let registry = registry.into();
        let store = Store::open(&config.database)?;
        // No IMAP login here (issue 14 item 10): commands that only read the
        // database never touch the inbox, and `serve` retries a down server.
        let inbox = Inbox::open_lazy(&config.inbox)?;
        let mailer = mailer_for(&config);
        Ok(Daemon {
            config,
            store,
            registry,
            clock,
            inbox,
            mailer,
            inbox_health: Default::default(),
            lang: Lang::En,
        })
    }

    /// The inbox when it is a Maildir (demo, fixtures, tests deliver into it).
    pub fn maildir(&self) -> Option<&Maildir> {
        match &self.inbox {
            Inbox::Maildir(m) => Some(m),
            Inbox::Imap { .. } => None,
        }
    }

    /// Delivers a raw mail into the Maildir inbox, as an MDA would.
    pub fn deliver(&self, raw: &[u8]) -> Result<()> {
        match self.maildir() {
            Some(m) => {
                m.deliver(raw)?;
                Ok(())
            }
            None => Err(self.invalid("err-inbox-is-imap", &[])),
        }
    }

    /// The single-daemon lock (`serve` takes it; one-shot GM commands do not).
    pub fn lock(&self) -> Result<Option<DaemonLock>> {
        Ok(self.store.lock_daemon()?)
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// A refusal in the operator's language: the catalogue's message `id`
    /// (locales/*.ftl) with its arguments.
    pub fn invalid(&self, id: &str, args: &[(&str, String)]) -> DaemonError {
        DaemonError::Invalid(crate::i18n::tr(self.lang, id, args))
    }

    /// One pass of `arbitre serve`.
    pub fn cycle(&mut self) -> Result<CycleReport> {
        let _span = tracing::info_span!("cycle").entered();
        let (mails, inbox_error) = self.inbox_step()?;
        let mut report = CycleReport {
            mails,
            inbox_error,
            ..Default::default()
        };
        report.resolved = self.resolve_due()?;
        report.reminders = self.send_reminders()?;
        self.schedule_due()?;
        let (sent, failed) = self.send_outbox()?;
        report.sent = sent;
        report.send_failures = failed;
        Ok(report)
    }
}

/// The transport of `config`, SMTP's EHLO naming the referee's domain
/// unless `[outbound] hello_name` says otherwise (issue 14 item 14).
pub fn mailer_for(config: &DaemonConfig) -> arbitre_mail::Mailer {
    let mut t = config.transport.clone();
    if let arbitre_mail::Transport::Smtp(s) = &mut t {
        if s.hello_name.is_none() {
            s.hello_name = Some(config.domain().to_string());
        }
    }
    arbitre_mail::Mailer::new(t)
}

/// The parsed game TOMLs kept by this thread, by their text, and the
/// bytes of text they hold.
type ConfigCache = (HashMap<String, Parsed>, usize);

/// A game TOML parsed, with the schedule it gives (a pure function of it:
/// its time zone looked up by name, its durations read, which was a third
/// of making a [`GameView`] per mail, issue 22 item 1).
type Parsed = (Arc<GameToml>, Schedule);

/// At most this many bytes of TOML text are kept parsed per thread; past
/// it the cache starts again empty (a bound, not an eviction policy: a
/// daemon holds far fewer game texts than this).
const CONFIG_CACHE_BYTES: usize = 16 << 20;

thread_local! {
    static CONFIGS: RefCell<ConfigCache> = RefCell::new((HashMap::new(), 0));
}

/// `text` parsed as a game TOML (issue 22 item 1): a stored game's
/// config was parsed again for every view of the game, which was 7 % of a
/// mail's handling (several views a mail). Parsing is a pure function of
/// the text, so a view of the same text shares the first parse; a changed
/// config (`game edit`, a seat change) is another text and is parsed
/// anew. Errors are not kept (each view reports its own).
pub fn parsed_config(
    text: &str,
) -> std::result::Result<Arc<GameToml>, crate::game_config::GameConfigError> {
    Ok(parsed(text)?.0)
}

fn parsed(text: &str) -> std::result::Result<Parsed, crate::game_config::GameConfigError> {
    if let Some(t) = CONFIGS.with(|c| c.borrow().0.get(text).cloned()) {
        return Ok(t);
    }
    let toml = Arc::new(GameToml::parse(text)?);
    let parsed = (Arc::clone(&toml), toml.schedule());
    CONFIGS.with(|c| {
        let mut c = c.borrow_mut();
        if c.1 + text.len() > CONFIG_CACHE_BYTES {
            *c = (HashMap::new(), 0);
        }
        if text.len() <= CONFIG_CACHE_BYTES {
            c.1 += text.len();
            c.0.insert(text.to_string(), parsed.clone());
        }
    });
    Ok(parsed)
}

/// Per-game facts the daemon derives from the stored row.
pub struct GameView<'a> {
    pub row: GameRow,
    /// The row's `config` parsed, shared with every view of the same text
    /// ([`parsed_config`]).
    pub toml: Arc<GameToml>,
    pub schedule: Schedule,
    pub lang: Lang,
    pub engine: &'a dyn Engine,
    /// The zone deadlines are shown in: the player's own (`TIMEZONE`,
    /// issue 10) once [`GameView::seen_by`] knows who reads, else the game's.
    pub viewer_tz: Option<Tz>,
}

impl<'a> GameView<'a> {
    pub fn new(registry: &'a Registry, row: GameRow) -> Result<GameView<'a>> {
        let (toml, schedule) = parsed(&row.config)?;
        let engine = registry.get(&row.ruleset)?;
        let lang = Lang::parse(&row.lang).unwrap_or(engine.info().lang);
        Ok(GameView {
            row,
            toml,
            schedule,
            lang,
            engine,
            viewer_tz: None,
        })
    }

    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        self.row
            .deadline
            .and_then(|t| DateTime::from_timestamp(t, 0))
    }

    /// The deadline as the reader sees it: local time and zone name, in
    /// the reader's zone (see [`GameView::seen_by`]).
    pub fn show_deadline(&self) -> Option<String> {
        self.deadline().map(|d| self.show_time(d))
    }

    /// Any instant in the reader's zone ("2026-12-04 14:00 (America/Montreal)").
    pub fn show_time(&self, t: DateTime<Utc>) -> String {
        crate::services::zone::show_in(t, self.viewer_tz.unwrap_or(self.schedule.tz))
    }

    /// The same game as one player reads it: deadlines in the zone the
    /// player chose with `TIMEZONE` (`None`: the game's). Deadlines are
    /// still computed in the game's zone (`schedule.tz`).
    pub fn seen_by(mut self, player_zone: Option<&str>) -> Self {
        self.viewer_tz = player_zone.and_then(crate::services::zone::parse_zone);
        self
    }

    /// An engine's failure as the daemon's: a panic caught by the guard
    /// (fault.rs) stays recognisable, so the game is marked faulted.
    pub fn engine_err(&self, e: arbitre_core::EngineError) -> DaemonError {
        match e {
            arbitre_core::EngineError::Panicked { during, message } => DaemonError::Panicked {
                game: self.row.id.clone(),
                during,
                message,
            },
            e => DaemonError::engine(self.row.id.clone(), e),
        }
    }
}
