//! # arbitre-core: the turn engine every ruleset plugs into
//!
//! A ruleset is *pure*: state in, orders in, seeded RNG in; new state, events and
//! per-player reports out. It never touches the clock, the disk or the network.
//! The daemon (`crates/arbitre`) owns time, mail and storage.
//!
//! The contract has two layers:
//!
//! * [`Ruleset`] is the typed trait a ruleset crate implements: its state, its
//!   order enum, its phases in rulebook order, its reports.
//! * [`Engine`] is the object-safe face the daemon sees (`Box<dyn Engine>`): state
//!   travels as canonical JSON text, orders as the raw text the player sent.
//!   A `Ruleset` becomes an `Engine` by wrapping it in [`Adapter`]
//!   (`Adapter::boxed(Nebulight)`), which does the JSON and order-text
//!   glue once for every ruleset; there is no blanket implementation.
//!
//! Why raw order text and not parsed orders in storage: the store keeps exactly
//! what the player wrote; orders are parsed again against the state when the
//! turn resolves. Parsing is deterministic, so a replay reproduces the turn, and
//! a fix to a parser applies to every order not yet resolved.
//!
//! Invariants a ruleset must keep (tests in each crate check them):
//! * same state + same orders + same seed → byte-identical state and reports;
//!   hence `BTreeMap`, never `HashMap`, in anything serialised or iterated for output;
//! * parsing never fails: it returns every order it understood and a diagnostic
//!   for every line it did not ([`Parsed`]);
//! * every random draw comes from the [`Rng`] handed to the phase.

pub mod cases;
pub mod engine;
pub mod grammar;
pub mod ids;
pub mod lang;
pub mod orders;
pub mod report;
pub mod rng;
pub mod ruleset;
pub mod setup_error;
// Test support, compiled only for tests (the `testkit` feature is enabled
// only as a dev-dependency): a failed unwrap there is a failed test.
#[cfg(any(test, feature = "testkit"))]
#[allow(clippy::unwrap_used)]
pub mod testkit;
#[cfg(any(test, feature = "testkit"))]
pub mod testkit_positions;
#[cfg(any(test, feature = "testkit"))]
#[allow(clippy::unwrap_used)]
pub mod testkit_props;
#[cfg(any(test, feature = "testkit"))]
pub mod testkit_verdicts;
// Needs the optional `jsonschema`, which only the feature brings.
#[cfg(feature = "testkit")]
#[allow(clippy::unwrap_used)]
pub mod testkit_views;
pub mod text;
pub mod view_json;
/// nom, for the rulesets' grammars (built on [`grammar`]'s combinators).
pub use nom;
pub use text::{
    normalize, normalize_line, normalized_lines, numbered_lines, parse_lines, LineParser,
};

pub use engine::{Adapter, Checked, Engine, EngineError, LoadedGame, Resolved, Snapshot};
pub use ids::{GameId, PlayerId};
pub use lang::Lang;
pub use orders::{Diagnostic, LineVerdict, Located, Parsed, Verdict};
pub use report::{Attachment, LocalDeadline, Report, ReportFacts, Viewer};
pub use rng::{Rng, RngSource};
pub use ruleset::{
    Outcome, ParseIndex, Phase, PlayerInfo, PlayerSetup, Ranked, Ruleset, RulesetInfo, SetupConfig,
    SetupError, TurnCtx,
};
pub use view_json::ViewJson;
