//! Errors of the store. A constraint violation is its own variant because the
//! daemon treats "this turn is already resolved" differently from a disk error.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{0}: {1}")]
    Io(String, #[source] std::io::Error),
    #[error(
        "database schema version {found} is newer than this arbitre ({known}); upgrade arbitre"
    )]
    TooNew { found: i64, known: i64 },
    #[error("another arbitre daemon already serves this database (lock {0})")]
    Locked(String),
    #[error("unknown game '{0}'")]
    UnknownGame(String),
    #[error("game '{0}' already exists (game ids are unique ignoring case)")]
    GameExists(String),
    #[error("game '{game}' already has a player '{player}' (player ids are unique ignoring case)")]
    PlayerExists { game: String, player: String },
    #[error("turn {turn} of game '{game}' is already resolved")]
    TurnExists { game: String, turn: u32 },
    #[error("password hashing failed: {0}")]
    Password(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// True for a UNIQUE / PRIMARY KEY violation.
    pub fn is_constraint(&self) -> bool {
        matches!(self, StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::ConstraintViolation)
    }
}
