//! The typed trait a ruleset crate implements.
//!
//! A turn is a fixed list of [`Phase`]s in the rulebook's order. The core runs
//! them (see [`crate::engine::run_turn`]): each inside a tracing span named
//! after the phase, each with its own RNG stream derived from
//! (game seed, turn, phase key). A ruleset never builds its own generator.

use crate::ids::PlayerId;
use crate::lang::Lang;
use crate::orders::{Located, Parsed};
use crate::report::{Report, ReportFacts, Viewer};
use crate::rng::Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

/// A ruleset's [`Ruleset::parse_index`]: owned (no borrow of the state),
/// so that a loaded game can keep it beside its state; each ruleset
/// downcasts it to its own type.
pub type ParseIndex = Box<dyn std::any::Any + Send + Sync>;

/// Static facts about a ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesetInfo {
    /// The key used in a game's TOML: `ruleset = "nebulight"`.
    pub id: &'static str,
    /// Display name: "Nébulight".
    pub name: &'static str,
    pub lang: Lang,
    /// What a turn is called in reports ("tour", "Monat").
    pub turn_word: &'static str,
}

/// One player as the game master configured them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSetup {
    pub id: PlayerId,
    /// Display name in reports ("Maxtor"); defaults to the id.
    pub name: String,
    /// Ruleset-specific per-player settings from the game's TOML
    /// (`[players.maxtor]` keys the daemon does not know), e.g. a start position.
    #[serde(default)]
    pub options: toml::Table,
}

/// Everything a ruleset needs to build turn 0. No I/O happens inside the
/// ruleset: a file the game's TOML names (`map_file = "big.toml"`) is read by
/// the daemon and handed over in `files`, keyed by the option's name.
#[derive(Clone, Debug, Default)]
pub struct SetupConfig {
    pub game_id: String,
    pub seed: u64,
    pub players: Vec<PlayerSetup>,
    /// The game's `[rules]` table: map or scenario name, parameters, a full position.
    pub options: toml::Table,
    /// Contents of the files named by `*_file` options, keyed by the option name.
    pub files: BTreeMap<String, String>,
}

pub use crate::setup_error::SetupError;

/// Refuses the first key of `table` (a game file's `[rules]`, or a player's
/// `[players.rules]`, named `name` in the message) that is not in `valid`,
/// listing the valid keys (issue 19 item 1). Rulesets call it first thing in
/// setup, so that a misspelt key is the error a game master sees rather than
/// whatever the missing value then causes.
pub fn check_keys(table: &toml::Table, name: &str, valid: &[&str]) -> Result<(), SetupError> {
    match table.keys().find(|k| !valid.contains(&k.as_str())) {
        None => Ok(()),
        Some(key) => {
            let mut valid: Vec<String> = valid.iter().map(|k| k.to_string()).collect();
            valid.sort();
            Err(SetupError::UnknownKey {
                table: name.to_string(),
                key: key.clone(),
                valid,
            })
        }
    }
}

/// [`check_keys`] on every player's `[players.rules]`.
pub fn check_player_keys(players: &[PlayerSetup], valid: &[&str]) -> Result<(), SetupError> {
    for p in players {
        check_keys(
            &p.options,
            &format!("[players.rules] of player {}", p.id),
            valid,
        )?;
    }
    Ok(())
}

/// A player's standing in the game, for the daemon (who must send orders?).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub id: PlayerId,
    pub name: String,
    /// False once eliminated or retired: no orders expected, no reminders.
    pub active: bool,
}

/// One line of the final ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranked {
    pub player: PlayerId,
    pub score: i64,
    /// Rank 1 is best; equal scores share a rank.
    pub rank: u32,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub ranking: Vec<Ranked>,
    /// A sentence in the game's language ("Maxtor gagne par 312 points à 280").
    pub summary: String,
}

/// What one phase sees.
pub struct TurnCtx<'a, R: Ruleset + ?Sized> {
    /// The turn being resolved (the state's turn before resolution + 1).
    pub turn: u32,
    pub state: &'a mut R::State,
    /// Each active player's parsed orders (empty for a player who sent none).
    pub orders: &'a BTreeMap<PlayerId, Vec<Located<R::Order>>>,
    /// Working data that lives for one turn only.
    pub scratch: &'a mut R::Scratch,
    /// This phase's own stream.
    pub rng: &'a mut Rng,
    /// What happened, for the reports.
    pub events: &'a mut Vec<R::Event>,
}

/// A phase of the turn, in rulebook order.
pub struct Phase<R: Ruleset + ?Sized> {
    /// The RNG stream key and the tracing span name: `"12-combat"`, `"3.10"`.
    /// Frozen once games are archived: renaming a phase changes its draws.
    pub key: &'static str,
    pub run: fn(&mut TurnCtx<'_, R>),
}

/// The typed contract of a ruleset. See the crate docs for the invariants.
pub trait Ruleset: Send + Sync + 'static {
    /// The whole game state. Serialised as JSON between turns; use `BTreeMap`.
    type State: Serialize + DeserializeOwned + Clone + Debug + Send;
    type Order: Clone + Debug;
    /// Per-turn working data, created with `Default` at the start of each turn.
    type Scratch: Default;
    type Event: Clone + Debug;

    fn info(&self) -> RulesetInfo;

    /// Turn 0: the initial state. Use `rng` (the setup stream) for shuffles.
    fn setup(&self, config: &SetupConfig, rng: &mut Rng) -> Result<Self::State, SetupError>;

    /// The number of the last resolved turn (0 right after setup).
    fn turn(&self, state: &Self::State) -> u32;

    /// Sets the turn number; the core calls it after the last phase.
    fn set_turn(&self, state: &mut Self::State, turn: u32);

    fn players(&self, state: &Self::State) -> Vec<PlayerInfo>;

    /// Parse one player's order block against the current state.
    /// `text` holds only the orders (the mail envelope is already stripped);
    /// line numbers count from 1 at its first line.
    fn parse_orders(
        &self,
        state: &Self::State,
        player: &PlayerId,
        text: &str,
    ) -> Parsed<Self::Order>;

    /// What the order parser derives from `state` once, for every block
    /// parsed against that same state (issue 21: WWK's units by nation,
    /// which a block would otherwise find by reading every unit of the
    /// game). The turn's parse and a loaded game's checks build it once;
    /// `None` (the default) when the parser needs nothing of the kind.
    fn parse_index(&self, state: &Self::State) -> Option<ParseIndex> {
        let _ = state;
        None
    }

    /// [`Ruleset::parse_orders`] with the [`Ruleset::parse_index`] of this
    /// very `state`; the same verdicts, index or not. The default ignores
    /// the index.
    fn parse_orders_indexed(
        &self,
        state: &Self::State,
        index: Option<&ParseIndex>,
        player: &PlayerId,
        text: &str,
    ) -> Parsed<Self::Order> {
        let _ = index;
        self.parse_orders(state, player, text)
    }

    fn phases(&self) -> Vec<Phase<Self>>;

    /// The report for `viewer` after a turn (`events` is empty for turn 0 or a
    /// report rendered again from a stored state).
    fn report(&self, state: &Self::State, events: &[Self::Event], viewer: &Viewer) -> Report;

    /// [`Ruleset::report`] with the referee's facts (issue 17 item 9): the
    /// next deadline in the viewer's zone. The default ignores them, for a
    /// ruleset whose report does not print such facts (the daemon adds its
    /// own deadline footer to every mailed report anyway).
    fn report_with(
        &self,
        state: &Self::State,
        events: &[Self::Event],
        viewer: &Viewer,
        facts: &ReportFacts,
    ) -> Report {
        let _ = facts;
        self.report(state, events, viewer)
    }

    /// Every report of a turn, one per viewer in `viewers`' order (issue 22
    /// item 5). A ruleset whose reports share most of their content (the
    /// public map of every territory) overrides it to render that content
    /// once and share it; each report must be the one
    /// [`Ruleset::report_with`] gives for its viewer. The default asks
    /// [`Ruleset::report_with`] for each.
    fn reports_with(
        &self,
        state: &Self::State,
        events: &[Self::Event],
        viewers: &[Viewer],
        facts: &dyn Fn(&Viewer) -> ReportFacts,
    ) -> Vec<Report> {
        viewers
            .iter()
            .map(|v| self.report_with(state, events, v, &facts(v)))
            .collect()
    }

    /// `Some` once the game has ended (turn limit, victory, last survivor).
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Orders a simple bot would send for `player`, as mail text in the
    /// ruleset's notation. Used for empty seats, NMR replacement and fixtures.
    fn bot_orders(&self, state: &Self::State, player: &PlayerId, rng: &mut Rng) -> String;

    /// echeck for players (issue 20 item 4): a state rebuilt from one
    /// player's own view, the `view` of their last JSON report exactly as
    /// [`Ruleset::report`] produced it, good enough for
    /// [`Ruleset::parse_orders`] to give that player the verdicts the
    /// referee would give for everything the view decides. What the view
    /// does not show (fog of war) must never become a false error. The
    /// default refuses, for a ruleset that has no view yet.
    fn state_from_view(
        &self,
        view: &serde_json::Value,
        player: &PlayerId,
    ) -> Result<Self::State, SetupError> {
        let _ = (view, player);
        Err(SetupError::Invalid(format!(
            "{} cannot check orders against a report yet",
            self.info().name
        )))
    }

    /// The typed outcomes of a turn (battles, hits, transfers …) as JSON,
    /// for the rule cases' `[[turn.outcome]]` checks (issue 23): `None` for a
    /// ruleset whose events are report text only, which the runner then says
    /// instead of passing a check it cannot make.
    fn outcome_values(&self, events: &[Self::Event]) -> Option<serde_json::Value> {
        let _ = events;
        None
    }

    /// The state as a position file that [`Ruleset::setup`] loads back to the
    /// same game (issue 19 item 6, `arbitre game export`): the file's turn
    /// number is the last resolved turn. The default refuses, for a ruleset
    /// that has no position format.
    fn export_position(&self, state: &Self::State) -> Result<String, SetupError> {
        let _ = state;
        Err(SetupError::Invalid(format!(
            "{} cannot export a position",
            self.info().name
        )))
    }

    /// A player joins a game in progress, between two turns. Most rulesets
    /// have no such rule, hence the refusal by default; Scrambled Nations
    /// allows it when the game's parameter says so.
    fn join(
        &self,
        state: &mut Self::State,
        player: &PlayerSetup,
        rng: &mut Rng,
    ) -> Result<(), SetupError> {
        let _ = (state, player, rng);
        Err(SetupError::Join(crate::setup_error::JoinRefusal::NoRule {
            ruleset: self.info().name.to_string(),
        }))
    }
}
