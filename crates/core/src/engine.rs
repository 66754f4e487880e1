//! Running a turn, and the object-safe [`Engine`] face the daemon uses.
//!
//! [`run_turn`] is the only place phases are sequenced: it parses every
//! player's orders, then runs each phase inside a `tracing` span named after
//! the phase key, each with its own RNG stream. Tests that must force dice use
//! [`run_turn_with`] and hand out scripted streams per phase.

use crate::ids::PlayerId;
use crate::orders::{LineVerdict, Located, Parsed};
use crate::report::{Report, ReportFacts, Viewer};
use crate::rng::Rng;
use crate::ruleset::{
    Outcome, ParseIndex, PlayerInfo, PlayerSetup, Ruleset, RulesetInfo, SetupConfig, SetupError,
    TurnCtx,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A state between turns, as canonical JSON text (what the store keeps).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The last resolved turn (0 after setup).
    pub turn: u32,
    pub state: String,
}

/// The answer to one order block, without resolving anything.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    pub verdicts: Vec<LineVerdict>,
    /// The orders accepted (in force), whether or not with a warning; a
    /// refused line never counts here (issue 17 item 8).
    pub orders: usize,
    pub errors: usize,
    /// Accepted orders that carry a remark (a correction foreseen).
    pub warnings: usize,
    pub ready: bool,
    /// The ruleset refused the block whole (its turn, month or nation line
    /// does not match the open turn, issue 17 item 7): the daemon stores
    /// nothing and the orders it holds for the turn stay in force.
    #[serde(default)]
    pub refused: bool,
}

/// A resolved turn: the new state and every report, committed together by the daemon.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub snapshot: Snapshot,
    pub reports: BTreeMap<PlayerId, Report>,
    pub spectator: Report,
    pub game_master: Report,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("stored state does not load: {0}")]
    BadState(String),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("the game is over")]
    GameOver,
    #[error("unknown player '{0}'")]
    UnknownPlayer(String),
    /// The ruleset panicked (a bug in its code, issue 14 item 7). Only the
    /// daemon's guard at the engine boundary produces it, from the unwind:
    /// `during` names the call (`check`, `resolve`, ...).
    #[error("the ruleset panicked during {during}: {message}")]
    Panicked {
        during: &'static str,
        message: String,
    },
}

/// Parse every active player's orders; a player with no text gets no orders.
pub fn parse_all<R: Ruleset>(
    r: &R,
    state: &R::State,
    orders: &BTreeMap<PlayerId, String>,
) -> BTreeMap<PlayerId, Vec<Located<R::Order>>> {
    let index = r.parse_index(state);
    parse_all_with_index(r, state, index.as_ref(), orders)
}

/// [`parse_all`] with the [`Ruleset::parse_index`] of this very `state`
/// already built: a loaded game's checks built it for the mails of the
/// turn, and its resolution reads it again instead of building a second
/// one (issue 21: for Scrambled Nations the index costs more than one
/// parse of every block).
pub fn parse_all_with_index<R: Ruleset>(
    r: &R,
    state: &R::State,
    index: Option<&ParseIndex>,
    orders: &BTreeMap<PlayerId, String>,
) -> BTreeMap<PlayerId, Vec<Located<R::Order>>> {
    let mut out = BTreeMap::new();
    for p in r.players(state).into_iter().filter(|p| p.active) {
        let parsed: Vec<Located<R::Order>> = match orders.get(&p.id) {
            Some(text) => r.parse_orders_indexed(state, index, &p.id, text).orders,
            None => Vec::new(),
        };
        out.insert(p.id, parsed);
    }
    out
}

/// Resolve one turn with the frozen RNG derivation.
pub fn run_turn<R: Ruleset>(
    r: &R,
    state: &mut R::State,
    seed: u64,
    orders: &BTreeMap<PlayerId, String>,
) -> Vec<R::Event> {
    let parsed = parse_all(r, state, orders);
    let turn = r.turn(state) + 1;
    run_turn_with(r, state, &parsed, |key| Rng::for_phase(seed, turn, key))
}

/// Resolve one turn from parsed orders, taking each phase's stream from `rng_for`.
pub fn run_turn_with<R: Ruleset>(
    r: &R,
    state: &mut R::State,
    orders: &BTreeMap<PlayerId, Vec<Located<R::Order>>>,
    mut rng_for: impl FnMut(&str) -> Rng,
) -> Vec<R::Event> {
    let turn = r.turn(state) + 1;
    let _turn_span = tracing::info_span!("turn", ruleset = r.info().id, turn).entered();
    let mut scratch = R::Scratch::default();
    let mut events = Vec::new();
    let phases = r.phases();
    debug_assert!(
        {
            let mut keys: Vec<&str> = phases.iter().map(|p| p.key).collect();
            keys.sort_unstable();
            keys.windows(2).all(|w| w[0] != w[1])
        },
        "phase keys must be unique: they name RNG streams"
    );
    for phase in &phases {
        let _span = tracing::info_span!("phase", key = phase.key).entered();
        let mut rng = rng_for(phase.key);
        let mut ctx = TurnCtx {
            turn,
            state: &mut *state,
            orders,
            scratch: &mut scratch,
            rng: &mut rng,
            events: &mut events,
        };
        (phase.run)(&mut ctx);
    }
    r.set_turn(state, turn);
    events
}

/// The daemon's view of a ruleset: object safe, state as JSON text.
pub trait Engine: Send + Sync {
    fn info(&self) -> RulesetInfo;
    fn setup(&self, config: &SetupConfig) -> Result<Snapshot, EngineError>;
    fn players(&self, state: &str) -> Result<Vec<PlayerInfo>, EngineError>;
    /// Parse and judge one order block; nothing changes.
    fn check(&self, state: &str, player: &PlayerId, text: &str) -> Result<Checked, EngineError>;
    fn resolve(
        &self,
        state: &str,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> Result<Resolved, EngineError>;
    /// A report rendered from a stored state alone (turn 0, or a report sent again).
    fn report(&self, state: &str, viewer: &Viewer) -> Result<Report, EngineError>;
    /// [`Engine::report`] with the referee's facts (issue 17 item 9), for a
    /// report that is mailed: turn 0, a takeover, a new seat.
    fn report_with(
        &self,
        state: &str,
        viewer: &Viewer,
        facts: &ReportFacts,
    ) -> Result<Report, EngineError> {
        self.load(state)?.report_with(viewer, facts)
    }
    fn outcome(&self, state: &str) -> Result<Option<Outcome>, EngineError>;
    fn bot_orders(&self, state: &str, seed: u64, player: &PlayerId) -> Result<String, EngineError>;
    /// A player joins between two turns; the draw comes from the stream
    /// (seed, next turn, "join:<player>").
    fn join(&self, state: &str, seed: u64, player: &PlayerSetup) -> Result<Snapshot, EngineError>;
    /// Run one rule case file (`rulesets/<ruleset>/cases/*.toml`, see
    /// [`crate::cases`]) against this ruleset: `arbitre case run`.
    fn run_case(&self, path: &std::path::Path) -> crate::cases::CaseOutcome;
    /// The stored state as a position file (`arbitre game export`, issue 19
    /// item 6). The default refuses, for an engine with no position format.
    fn export_position(&self, state: &str) -> Result<String, EngineError> {
        let _ = state;
        Err(EngineError::Setup(SetupError::Invalid(format!(
            "{} cannot export a position",
            self.info().name
        ))))
    }
    /// Decodes `state` once and returns a handle to the decoded game
    /// (issue 16 item 5), which answers the calls above without decoding
    /// the JSON again. The default keeps the text and hands it to those
    /// calls (each decodes it), for engines that have nothing to decode.
    fn load<'a>(&'a self, state: &str) -> Result<Box<dyn LoadedGame + 'a>, EngineError> {
        Ok(Box::new(TextGame {
            engine: self,
            state: state.to_string(),
        }))
    }
    /// echeck (issue 20 item 4): the game one player's own view describes
    /// (the `view` of their JSON report), rebuilt by
    /// [`Ruleset::state_from_view`]. Its [`LoadedGame::check`] is the very
    /// call the referee makes on the real state, so an offline check and a
    /// CHECK by mail judge with one implementation. The default refuses,
    /// for engines without views.
    fn load_view<'a>(
        &'a self,
        view: &serde_json::Value,
        player: &PlayerId,
    ) -> Result<Box<dyn LoadedGame + 'a>, EngineError> {
        let _ = (view, player);
        Err(EngineError::Setup(SetupError::Invalid(format!(
            "{} cannot check orders against a report",
            self.info().name
        ))))
    }
}

/// A game's state decoded once ([`Engine::load`]): the same questions as
/// [`Engine`]'s, without the state text.
pub trait LoadedGame {
    fn players(&self) -> Result<Vec<PlayerInfo>, EngineError>;
    /// Parse and judge one order block; nothing changes.
    fn check(&self, player: &PlayerId, text: &str) -> Result<Checked, EngineError>;
    /// The next turn; the loaded state itself is left as it was.
    fn resolve(
        &self,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> Result<Resolved, EngineError>;
    fn report(&self, viewer: &Viewer) -> Result<Report, EngineError>;
    fn outcome(&self) -> Result<Option<Outcome>, EngineError>;
    fn bot_orders(&self, seed: u64, player: &PlayerId) -> Result<String, EngineError>;
    /// [`LoadedGame::report`] with the referee's facts (issue 17 item 9).
    /// The default ignores them; a wrapper must forward them.
    fn report_with(&self, viewer: &Viewer, facts: &ReportFacts) -> Result<Report, EngineError> {
        let _ = facts;
        self.report(viewer)
    }
    /// [`LoadedGame::resolve`] whose reports carry each viewer's facts
    /// (issue 17 item 9): `facts` is asked once per viewer. The default
    /// ignores them; a wrapper must forward them.
    fn resolve_with(
        &self,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
        facts: &dyn Fn(&Viewer) -> ReportFacts,
    ) -> Result<Resolved, EngineError> {
        let _ = facts;
        self.resolve(seed, orders)
    }
}

/// [`Engine::load`]'s default: the text, handed to the engine's calls.
struct TextGame<'a, E: Engine + ?Sized> {
    engine: &'a E,
    state: String,
}

impl<E: Engine + ?Sized> LoadedGame for TextGame<'_, E> {
    fn players(&self) -> Result<Vec<PlayerInfo>, EngineError> {
        self.engine.players(&self.state)
    }
    fn check(&self, player: &PlayerId, text: &str) -> Result<Checked, EngineError> {
        self.engine.check(&self.state, player, text)
    }
    fn resolve(
        &self,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> Result<Resolved, EngineError> {
        self.engine.resolve(&self.state, seed, orders)
    }
    fn report(&self, viewer: &Viewer) -> Result<Report, EngineError> {
        self.engine.report(&self.state, viewer)
    }
    fn outcome(&self) -> Result<Option<Outcome>, EngineError> {
        self.engine.outcome(&self.state)
    }
    fn bot_orders(&self, seed: u64, player: &PlayerId) -> Result<String, EngineError> {
        self.engine.bot_orders(&self.state, seed, player)
    }
}

/// [`Adapter::load`]: the typed state, decoded once.
struct Decoded<'a, R: Ruleset> {
    r: &'a R,
    state: R::State,
    /// The parser's index of `state`, built on the first check and kept for
    /// the next mails checked against the same loaded state (issue 21).
    index: std::sync::OnceLock<Option<ParseIndex>>,
}

impl<R: Ruleset> LoadedGame for Decoded<'_, R> {
    fn players(&self) -> Result<Vec<PlayerInfo>, EngineError> {
        Ok(Ruleset::players(self.r, &self.state))
    }

    fn check(&self, player: &PlayerId, text: &str) -> Result<Checked, EngineError> {
        if !Ruleset::players(self.r, &self.state)
            .iter()
            .any(|p| &p.id == player)
        {
            return Err(EngineError::UnknownPlayer(player.to_string()));
        }
        let index = self.index.get_or_init(|| self.r.parse_index(&self.state));
        Ok(checked(self.r.parse_orders_indexed(
            &self.state,
            index.as_ref(),
            player,
            text,
        )))
    }

    fn resolve(
        &self,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> Result<Resolved, EngineError> {
        self.resolve_with(seed, orders, &|_| ReportFacts::default())
    }

    fn resolve_with(
        &self,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
        facts: &dyn Fn(&Viewer) -> ReportFacts,
    ) -> Result<Resolved, EngineError> {
        if Ruleset::outcome(self.r, &self.state).is_some() {
            return Err(EngineError::GameOver);
        }
        let mut s = self.state.clone();
        // The index of the checks of this turn's mails, when they built
        // one (else built now and kept, as a check would).
        let index = self.index.get_or_init(|| self.r.parse_index(&self.state));
        let parsed = parse_all_with_index(self.r, &self.state, index.as_ref(), orders);
        let turn = Ruleset::turn(self.r, &s) + 1;
        let events = run_turn_with(self.r, &mut s, &parsed, |key| {
            Rng::for_phase(seed, turn, key)
        });
        let _span = tracing::info_span!("reports").entered();
        let ids: Vec<PlayerId> = Ruleset::players(self.r, &s)
            .into_iter()
            .map(|p| p.id)
            .collect();
        let mut viewers: Vec<Viewer> = ids.iter().cloned().map(Viewer::Player).collect();
        viewers.extend([Viewer::Spectator, Viewer::GameMaster]);
        let all = Ruleset::reports_with(self.r, &s, &events, &viewers, facts);
        if all.len() != viewers.len() {
            return Err(EngineError::BadState(format!(
                "{} reports for {} viewers",
                all.len(),
                viewers.len()
            )));
        }
        let mut all = all.into_iter();
        let reports: BTreeMap<PlayerId, Report> = ids.into_iter().zip(all.by_ref()).collect();
        let mut next = || {
            all.next()
                .ok_or_else(|| EngineError::BadState("a report is missing".into()))
        };
        Ok(Resolved {
            spectator: next()?,
            game_master: next()?,
            outcome: Ruleset::outcome(self.r, &s),
            snapshot: save(self.r, &s),
            reports,
        })
    }

    fn report(&self, viewer: &Viewer) -> Result<Report, EngineError> {
        Ok(Ruleset::report(self.r, &self.state, &[], viewer))
    }

    fn report_with(&self, viewer: &Viewer, facts: &ReportFacts) -> Result<Report, EngineError> {
        Ok(Ruleset::report_with(
            self.r,
            &self.state,
            &[],
            viewer,
            facts,
        ))
    }

    fn outcome(&self) -> Result<Option<Outcome>, EngineError> {
        Ok(Ruleset::outcome(self.r, &self.state))
    }

    fn bot_orders(&self, seed: u64, player: &PlayerId) -> Result<String, EngineError> {
        let turn = Ruleset::turn(self.r, &self.state) + 1;
        let mut rng = Rng::for_phase(seed, turn, &format!("bot:{player}"));
        Ok(Ruleset::bot_orders(self.r, &self.state, player, &mut rng))
    }
}

fn load<R: Ruleset>(state: &str) -> Result<R::State, EngineError> {
    serde_json::from_str(state).map_err(|e| EngineError::BadState(e.to_string()))
}

fn save<R: Ruleset>(r: &R, state: &R::State) -> Snapshot {
    Snapshot {
        turn: r.turn(state),
        state: serde_json::to_string(state).expect("ruleset state serialises to JSON"),
    }
}

fn checked<O>(parsed: Parsed<O>) -> Checked {
    let warnings = parsed.diagnostics.iter().filter(|d| d.warning).count();
    let (orders, errors, ready, refused) = (
        parsed.accepted_count(),
        parsed.error_count(),
        parsed.ready,
        parsed.refused,
    );
    Checked {
        // Moved, not copied: the lines' texts are the block's size.
        verdicts: parsed.into_verdicts(),
        orders,
        errors,
        warnings,
        ready,
        refused,
    }
}

/// Wraps a typed [`Ruleset`] as an [`Engine`]. A wrapper rather than a blanket
/// impl, so that a ruleset's own methods (`outcome`, `report`) never clash with
/// the engine's in method-call syntax.
pub struct Adapter<R>(pub R);

impl<R: Ruleset> Adapter<R> {
    pub fn boxed(r: R) -> Box<dyn Engine> {
        Box::new(Adapter(r))
    }
}

impl<R: Ruleset> Engine for Adapter<R> {
    fn info(&self) -> RulesetInfo {
        Ruleset::info(&self.0)
    }

    fn setup(&self, config: &SetupConfig) -> Result<Snapshot, EngineError> {
        let mut rng = Rng::for_setup(config.seed);
        let state = Ruleset::setup(&self.0, config, &mut rng)?;
        Ok(save(&self.0, &state))
    }

    fn players(&self, state: &str) -> Result<Vec<PlayerInfo>, EngineError> {
        self.load(state)?.players()
    }

    fn check(&self, state: &str, player: &PlayerId, text: &str) -> Result<Checked, EngineError> {
        self.load(state)?.check(player, text)
    }

    fn resolve(
        &self,
        state: &str,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> Result<Resolved, EngineError> {
        self.load(state)?.resolve(seed, orders)
    }

    fn report(&self, state: &str, viewer: &Viewer) -> Result<Report, EngineError> {
        self.load(state)?.report(viewer)
    }

    fn outcome(&self, state: &str) -> Result<Option<Outcome>, EngineError> {
        self.load(state)?.outcome()
    }

    fn bot_orders(&self, state: &str, seed: u64, player: &PlayerId) -> Result<String, EngineError> {
        self.load(state)?.bot_orders(seed, player)
    }

    fn join(&self, state: &str, seed: u64, player: &PlayerSetup) -> Result<Snapshot, EngineError> {
        let mut s = load::<R>(state)?;
        if Ruleset::outcome(&self.0, &s).is_some() {
            return Err(EngineError::GameOver);
        }
        let turn = Ruleset::turn(&self.0, &s) + 1;
        let mut rng = Rng::for_phase(seed, turn, &format!("join:{}", player.id));
        Ruleset::join(&self.0, &mut s, player, &mut rng)?;
        Ok(save(&self.0, &s))
    }

    fn run_case(&self, path: &std::path::Path) -> crate::cases::CaseOutcome {
        crate::cases::run_file(&self.0, path)
    }

    fn export_position(&self, state: &str) -> Result<String, EngineError> {
        Ok(Ruleset::export_position(&self.0, &load::<R>(state)?)?)
    }

    fn load<'a>(&'a self, state: &str) -> Result<Box<dyn LoadedGame + 'a>, EngineError> {
        Ok(Box::new(Decoded {
            r: &self.0,
            state: load::<R>(state)?,
            index: std::sync::OnceLock::new(),
        }))
    }

    fn load_view<'a>(
        &'a self,
        view: &serde_json::Value,
        player: &PlayerId,
    ) -> Result<Box<dyn LoadedGame + 'a>, EngineError> {
        Ok(Box::new(Decoded {
            r: &self.0,
            state: Ruleset::state_from_view(&self.0, view, player)?,
            index: std::sync::OnceLock::new(),
        }))
    }
}
