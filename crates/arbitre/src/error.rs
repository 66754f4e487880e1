//! Errors of the daemon library (the binary wraps them in anyhow).
//!
//! Every kind keeps its data: the `Display` is the English of the logs,
//! and `error_text::daemon_error_text` words the same kinds through the
//! message catalogue in the operator's language (issue 16 item 3).

use crate::game_config::GameConfigError;
use crate::registry::UnknownRuleset;
use arbitre_core::EngineError;

#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error(transparent)]
    Store(#[from] arbitre_store::StoreError),
    #[error("mail: {0}")]
    Mail(#[from] arbitre_mail::MailError),
    #[error(transparent)]
    Ruleset(#[from] UnknownRuleset),
    #[error(transparent)]
    GameConfig(#[from] GameConfigError),
    /// An engine's refusal. `hidden`: the lines of the game's files that
    /// its text must not quote (`create::scrub_files`, issue 14 item 9).
    #[error("game '{game}': {}", crate::create::scrub_lines(&err.to_string(), hidden, arbitre_core::Lang::En))]
    Engine {
        game: String,
        err: Box<EngineError>,
        hidden: Vec<String>,
    },
    /// The engine answered another turn than the one it was asked for.
    #[error("game '{game}': ruleset returned turn {got} for turn {expected}")]
    WrongTurn {
        game: String,
        got: u32,
        expected: u32,
    },
    /// The ruleset panicked (issue 14 item 7, fault.rs): the game is to be
    /// marked faulted, the others go on.
    #[error("game '{game}': the ruleset panicked during {during}: {message}")]
    Panicked {
        game: String,
        during: &'static str,
        message: String,
    },
    /// A mail for a faulted game waits in the inbox until `arbitre resume`.
    #[error("game '{0}' is faulted (see arbitre status); the mail waits for arbitre resume")]
    Faulted(String),
    #[error("game '{0}' is over")]
    GameOver(String),
    /// `arbitre turn` while a resolved turn waits for the game master.
    #[error("turn {turn} of {game} is held for preview: release or roll it back first")]
    Held { game: String, turn: u32 },
    #[error("{0}")]
    Invalid(String),
    /// A game file `game create` refuses, with its place (issue 19 item 2).
    #[error("{0}")]
    GameFile(String),
}

impl DaemonError {
    /// An engine's refusal for `game`, quoting nothing of its files.
    pub fn engine(game: impl Into<String>, err: EngineError) -> DaemonError {
        DaemonError::Engine {
            game: game.into(),
            err: Box::new(err),
            hidden: Vec::new(),
        }
    }
}

pub type Result<T> = std::result::Result<T, DaemonError>;
