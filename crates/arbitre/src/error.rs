//! Errors of the daemon library (the binary wraps them in anyhow).

use crate::game_config::GameConfigError;
use crate::registry::UnknownRuleset;

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
    #[error("game '{game}': {err}")]
    Engine { game: String, err: String },
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
    #[error("{0}")]
    Invalid(String),
    /// A game file `game create` refuses, with its place (issue 19 item 2).
    #[error("{0}")]
    GameFile(String),
}

pub type Result<T> = std::result::Result<T, DaemonError>;
