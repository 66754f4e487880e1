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
    #[error("game '{0}' is over")]
    GameOver(String),
    #[error("{0}")]
    Invalid(String),
}

pub type Result<T> = std::result::Result<T, DaemonError>;
