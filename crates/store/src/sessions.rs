//! The web's login sessions (issue 24 item 5; migration 10). A row per
//! open session, keyed by the SHA-256 of the cookie's token: the token
//! itself, and any password, never reach the database. Rows past their
//! expiry are never returned and are purged when a session opens.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};

/// Who a session speaks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionHolder {
    /// A seated player, by seat id.
    Player(String),
    GameMaster,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebSession {
    /// Hex SHA-256 of the cookie's token.
    pub token_sha256: String,
    pub game_id: String,
    pub holder: SessionHolder,
    /// A digest of the password hash the login was checked against: the
    /// session ends when it no longer matches (a takeover, a new password).
    pub credential: String,
    /// The session's CSRF secret, put in every form it is shown.
    pub csrf: String,
    /// Unix seconds.
    pub expires: i64,
}

const COLUMNS: &str = "token_sha256, game_id, player, credential, csrf, expires";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<WebSession> {
    let player: Option<String> = r.get(2)?;
    Ok(WebSession {
        token_sha256: r.get(0)?,
        game_id: r.get(1)?,
        holder: player.map_or(SessionHolder::GameMaster, SessionHolder::Player),
        credential: r.get(3)?,
        csrf: r.get(4)?,
        expires: r.get(5)?,
    })
}

/// Stores a new session and purges the expired ones (as of `now`).
pub fn open(c: &Connection, s: &WebSession, now: i64) -> Result<()> {
    purge_expired(c, now)?;
    let player = match &s.holder {
        SessionHolder::Player(p) => Some(p.as_str()),
        SessionHolder::GameMaster => None,
    };
    c.execute_cached(
        &format!("INSERT INTO web_sessions ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"),
        params![
            s.token_sha256,
            s.game_id,
            player,
            s.credential,
            s.csrf,
            s.expires
        ],
    )?;
    Ok(())
}

/// The session of `token_sha256`, unless it has expired by `now`.
pub fn get(c: &Connection, token_sha256: &str, now: i64) -> Result<Option<WebSession>> {
    Ok(c.query_row_cached(
        &format!("SELECT {COLUMNS} FROM web_sessions WHERE token_sha256 = ?1 AND expires > ?2"),
        params![token_sha256, now],
        row,
    )
    .optional()?)
}

/// Ends a session (logout, or a session whose credential no longer holds).
pub fn delete(c: &Connection, token_sha256: &str) -> Result<bool> {
    Ok(c.execute_cached(
        "DELETE FROM web_sessions WHERE token_sha256 = ?1",
        params![token_sha256],
    )? > 0)
}

/// Deletes every session expired by `now`; returns how many.
pub fn purge_expired(c: &Connection, now: i64) -> Result<usize> {
    Ok(c.execute_cached("DELETE FROM web_sessions WHERE expires <= ?1", params![now])?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(token: &str, holder: SessionHolder, expires: i64) -> WebSession {
        WebSession {
            token_sha256: token.into(),
            game_id: "g".into(),
            holder,
            credential: "c".into(),
            csrf: "x".into(),
            expires,
        }
    }

    #[test]
    fn sessions_open_read_expire_and_delete() {
        let dir = tempfile::tempdir().unwrap();
        let s = crate::Store::open(&dir.path().join("a.db")).unwrap();
        let c = s.conn();
        let alice = session("a", SessionHolder::Player("alice".into()), 100);
        open(c, &alice, 0).unwrap();
        open(c, &session("g", SessionHolder::GameMaster, 200), 0).unwrap();
        assert_eq!(get(c, "a", 50).unwrap(), Some(alice));
        assert_eq!(
            get(c, "g", 50).unwrap().unwrap().holder,
            SessionHolder::GameMaster
        );
        // Expired: never returned, and purged by the next opening.
        assert_eq!(get(c, "a", 100).unwrap(), None);
        open(c, &session("b", SessionHolder::GameMaster, 300), 150).unwrap();
        let left: i64 = c
            .query_row("SELECT count(*) FROM web_sessions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 2);
        assert!(delete(c, "g").unwrap());
        assert_eq!(get(c, "g", 150).unwrap(), None);
        assert!(!delete(c, "g").unwrap());
    }
}
