//! Fault isolation at the engine boundary (issue 14 item 7).
//!
//! Ruleset code is pure but not infallible: an `expect` reached on a state
//! nobody foresaw panics. Before this module a panic during a resolution
//! killed `arbitre serve`, and since the same turn was due again after a
//! restart, it died again: no other game resolved and no mail left.
//!
//! Every engine in the [`Registry`](crate::registry::Registry) is wrapped
//! in [`Guarded`], which catches the unwind of each call (setup, players,
//! check, resolve, report, outcome, bot orders, join) and turns it into
//! `EngineError::Panicked`; `GameView::engine_err` turns that into
//! [`DaemonError::Panicked`]. The caller's transaction sees an error and
//! rolls back like any other, so nothing the panicking call computed is
//! written. The daemon then marks the game faulted ([`record_in`], in a
//! transaction of its own, or in the mail batch's after the mail's
//! savepoint was rolled back), tells the game master once (a mail in the
//! game's language), and goes on with the inbox, the other games and the
//! outbox. A faulted game is skipped by resolution and reminders, and
//! mails for it stay in the inbox, unanswered and unjournaled, until
//! `arbitre resume <game>` (after a fixed ruleset is installed) handles
//! them again.
//!
//! `AssertUnwindSafe` is justified: engines are stateless unit structs
//! borrowed immutably (`&self`), their inputs are borrowed immutably
//! (`&str`, `&BTreeMap`), and their outputs are dropped on a panic, so no
//! state a panic could leave half-updated is ever observed afterwards.

use crate::config::DaemonConfig;
use crate::daemon::Daemon;
use crate::error::{DaemonError, Result};
use crate::fl_args;
use crate::i18n::tr;
use crate::outgoing::{queue, signed, Draft, Kind};
use arbitre_core::Outcome;
use arbitre_core::{
    Checked, Engine, EngineError, Lang, LoadedGame, PlayerId, PlayerInfo, PlayerSetup, Report,
    ReportFacts, Resolved, RulesetInfo, SetupConfig, Snapshot, Viewer,
};
use arbitre_store::Connection;
use arbitre_store::{faults, games, Fault};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// An engine whose panics become errors.
pub struct Guarded(pub Box<dyn Engine>);

/// A loaded game (issue 16 item 5) whose panics become errors: the daemon
/// crosses the engine boundary through this handle, so the isolation sits
/// on each of its calls as it does on [`Guarded`]'s.
struct GuardedGame<'a>(Box<dyn LoadedGame + 'a>);

impl LoadedGame for GuardedGame<'_> {
    fn players(&self) -> std::result::Result<Vec<PlayerInfo>, EngineError> {
        guard("players", || self.0.players())
    }
    fn check(&self, player: &PlayerId, text: &str) -> std::result::Result<Checked, EngineError> {
        guard("check", || self.0.check(player, text))
    }
    fn resolve(
        &self,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> std::result::Result<Resolved, EngineError> {
        guard("resolve", || self.0.resolve(seed, orders))
    }
    fn report(&self, viewer: &Viewer) -> std::result::Result<Report, EngineError> {
        guard("report", || self.0.report(viewer))
    }
    fn outcome(&self) -> std::result::Result<Option<Outcome>, EngineError> {
        guard("outcome", || self.0.outcome())
    }
    fn bot_orders(&self, seed: u64, player: &PlayerId) -> std::result::Result<String, EngineError> {
        guard("bot_orders", || self.0.bot_orders(seed, player))
    }
    fn report_with(
        &self,
        viewer: &Viewer,
        facts: &ReportFacts,
    ) -> std::result::Result<Report, EngineError> {
        guard("report", || self.0.report_with(viewer, facts))
    }
    fn resolve_with(
        &self,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
        facts: &dyn Fn(&Viewer) -> ReportFacts,
    ) -> std::result::Result<Resolved, EngineError> {
        guard("resolve", || self.0.resolve_with(seed, orders, facts))
    }
}

/// The text of a panic's payload (`panic!("...")` gives a `&str` or a
/// `String`; anything else is named as such).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

fn guard<T>(
    during: &'static str,
    f: impl FnOnce() -> std::result::Result<T, EngineError>,
) -> std::result::Result<T, EngineError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let message = panic_message(payload.as_ref());
            tracing::error!(during, %message, "the ruleset panicked");
            Err(EngineError::Panicked { during, message })
        }
    }
}

impl Engine for Guarded {
    fn info(&self) -> RulesetInfo {
        self.0.info()
    }
    fn load<'a>(
        &'a self,
        state: &str,
    ) -> std::result::Result<Box<dyn LoadedGame + 'a>, EngineError> {
        let inner = guard("load", || self.0.load(state))?;
        Ok(Box::new(GuardedGame(inner)))
    }
    fn load_view<'a>(
        &'a self,
        view: &serde_json::Value,
        player: &PlayerId,
    ) -> std::result::Result<Box<dyn LoadedGame + 'a>, EngineError> {
        let inner = guard("load_view", || self.0.load_view(view, player))?;
        Ok(Box::new(GuardedGame(inner)))
    }
    fn setup(&self, config: &SetupConfig) -> std::result::Result<Snapshot, EngineError> {
        guard("setup", || self.0.setup(config))
    }
    fn players(&self, state: &str) -> std::result::Result<Vec<PlayerInfo>, EngineError> {
        guard("players", || self.0.players(state))
    }
    fn check(
        &self,
        state: &str,
        player: &PlayerId,
        text: &str,
    ) -> std::result::Result<Checked, EngineError> {
        guard("check", || self.0.check(state, player, text))
    }
    fn resolve(
        &self,
        state: &str,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> std::result::Result<Resolved, EngineError> {
        guard("resolve", || self.0.resolve(state, seed, orders))
    }
    fn report(&self, state: &str, viewer: &Viewer) -> std::result::Result<Report, EngineError> {
        guard("report", || self.0.report(state, viewer))
    }
    fn report_with(
        &self,
        state: &str,
        viewer: &Viewer,
        facts: &ReportFacts,
    ) -> std::result::Result<Report, EngineError> {
        guard("report", || self.0.report_with(state, viewer, facts))
    }
    fn outcome(&self, state: &str) -> std::result::Result<Option<Outcome>, EngineError> {
        guard("outcome", || self.0.outcome(state))
    }
    fn bot_orders(
        &self,
        state: &str,
        seed: u64,
        player: &PlayerId,
    ) -> std::result::Result<String, EngineError> {
        guard("bot_orders", || self.0.bot_orders(state, seed, player))
    }
    fn join(
        &self,
        state: &str,
        seed: u64,
        player: &PlayerSetup,
    ) -> std::result::Result<Snapshot, EngineError> {
        guard("join", || self.0.join(state, seed, player))
    }
    fn export_position(&self, state: &str) -> std::result::Result<String, EngineError> {
        guard("export_position", || self.0.export_position(state))
    }
    // A rule case runs offline (`arbitre case run`), never inside a game's
    // cycle, so a panic there is the command's own failure.
    fn run_case(&self, path: &std::path::Path) -> arbitre_core::cases::CaseOutcome {
        self.0.run_case(path)
    }
}

/// Marks `game` faulted and queues the game master's mail, in the caller's
/// transaction. Returns the new fault (`None`: it was faulted already, and
/// the game master was told then).
pub fn record_in(
    c: &Connection,
    config: &DaemonConfig,
    game: &str,
    during: &str,
    message: &str,
    now: DateTime<Utc>,
) -> Result<Option<Fault>> {
    let row = games::require_game(c, game)?;
    let turn = row.turn + 1;
    let Some(fault) = faults::record(c, game, turn, during, message, now.timestamp())? else {
        return Ok(None);
    };
    tracing::error!(game, turn, during, %message, "game faulted: the ruleset panicked; the other games go on; fix, then arbitre resume {game}");
    if let Some(gm) = row.gm_email.as_deref().filter(|a| !a.trim().is_empty()) {
        let lang = Lang::parse(&row.lang).unwrap_or(config.language);
        let subject = text(lang, &FaultMsg::Subject { game });
        let body = signed(
            lang,
            &text(
                lang,
                &FaultMsg::Faulted {
                    game,
                    turn,
                    during,
                    message,
                },
            ),
        );
        // One mail per fault: the fault's row id keeps the Message-ID unique.
        let d = Draft::new(Kind::Gm, gm, subject, body)
            .about(game, turn, None)
            .discriminator(format!("fault{}", fault.id));
        queue(c, config, now, d)?;
    }
    Ok(Some(fault))
}

impl Daemon {
    /// Marks `game` faulted in a transaction of its own (the one that
    /// panicked was rolled back).
    pub fn record_fault(
        &mut self,
        game: &str,
        during: &str,
        message: &str,
    ) -> Result<Option<Fault>> {
        let now = self.now();
        let Daemon { store, config, .. } = self;
        store.tx(|tx| record_in(tx, config, game, during, message, now))
    }
}

/// True when `e` is a ruleset panic; then records the fault in `c`.
pub fn record_if_panic(
    c: &Connection,
    config: &DaemonConfig,
    e: &DaemonError,
    now: DateTime<Utc>,
) -> Result<bool> {
    match e {
        DaemonError::Panicked {
            game,
            during,
            message,
        } => {
            record_in(c, config, game, during, message, now)?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// The game master's words about a fault (a ruleset's panic, a mail
/// failed for good, sending paused), in the game's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultMsg<'a> {
    Subject {
        game: &'a str,
    },
    Faulted {
        game: &'a str,
        turn: u32,
        during: &'a str,
        message: &'a str,
    },
    MailFailedSubject {
        game: &'a str,
    },
    MailFailed {
        id: i64,
        to: &'a str,
        subject: &'a str,
        reason: &'a str,
    },
    SendingPausedSubject,
    SendingPaused {
        reason: &'a str,
        since: &'a str,
    },
}

pub fn text(lang: Lang, m: &FaultMsg<'_>) -> String {
    use FaultMsg::*;
    let (id, args) = match *m {
        Subject { game } => ("fault-subject", fl_args![game]),
        Faulted {
            game,
            turn,
            during,
            message,
        } => ("fault-faulted", fl_args![game, turn, during, message]),
        MailFailedSubject { game } => ("fault-mail-failed-subject", fl_args![game]),
        MailFailed {
            id,
            to,
            subject,
            reason,
        } => ("fault-mail-failed", fl_args![id, to, subject, reason]),
        SendingPausedSubject => ("fault-sending-paused-subject", vec![]),
        SendingPaused { reason, since } => ("fault-sending-paused", fl_args![reason, since]),
    };
    tr(lang, id, &args)
}
