//! Logins, sessions and CSRF tokens (issue 24 item 5).
//!
//! - A session is a random 128-bit token in a cookie that is `Secure`,
//!   `HttpOnly` and `SameSite=Strict`, and expires after [`SESSION_HOURS`].
//!   Sessions live in the store (`arbitre_store::sessions`, migration 10),
//!   so a restart of the web server logs nobody out. The database keeps
//!   the token's SHA-256 only, never the token, and never a password.
//!   Expired sessions are purged whenever one opens; logout deletes the row.
//! - The login proves the seat: it checks the password (and the player's
//!   token, if the game master gave one), and the session then speaks for
//!   that seat. An order form becomes the order mail it stands for
//!   (web/submit.rs), marked as coming from that login
//!   (`inbound::Channel::WebLogin`), so the mail path does not ask for the
//!   password again (it has none) nor for DKIM. The session keeps a digest
//!   of the password hash it was opened with ([`credential`]): when the
//!   seat's password changes (a takeover, a new password), every session
//!   opened with the old one ends.
//! - Every form carries a CSRF token: the session's secret, or before a
//!   login a double-submit token (cookie and hidden field must match).
//! - Wrong passwords count in the same per-seat hourly counter as the mail
//!   path's (`wrong_passwords_per_seat_per_hour`), and each is recorded for
//!   the seat's next report, as a wrong password by mail is. Past the limit
//!   the web refuses logins to that seat for the rest of the hour, even
//!   with the right password (a guesser on the web gets answers at once;
//!   the real player can still mail orders).

use super::{Web, WebResult};
use crate::config::DaemonConfig;
use crate::daemon::GameView;
use arbitre_store::counters::{self, Scope};
use arbitre_store::sessions::{self, SessionHolder, WebSession};
use arbitre_store::{games, Connection};
use axum::http::HeaderMap;
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// How long a login lasts.
pub const SESSION_HOURS: i64 = 12;
/// The session cookie's name.
pub const SESSION_COOKIE: &str = "arbitre_session";
/// The login form's double-submit cookie.
pub const LOGIN_COOKIE: &str = "arbitre_login";

/// Who a session belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    Player { player: String },
    GameMaster,
}

#[derive(Clone, Debug)]
pub struct Session {
    pub game: String,
    pub who: Who,
    pub csrf: String,
    pub expires: DateTime<Utc>,
}

/// 128 random bits from the OS, as hex.
pub fn random_token() -> String {
    let mut b = [0u8; 16];
    if getrandom::fill(&mut b).is_err() {
        // No OS randomness: refuse to make a guessable token. An empty
        // token matches no session and no form.
        tracing::error!("no randomness from the OS: no session can be opened");
        return String::new();
    }
    hex::encode(b)
}

/// Equal in time independent of where they differ.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len()
        && !a.is_empty()
        && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// What the store keeps of a cookie's token.
pub fn token_digest(token: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"arbitre-web-session\0");
    h.update(token.as_bytes());
    hex::encode(h.finalize())
}

/// A digest of the password hash a login was checked against.
pub fn credential(password_hash: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"arbitre-web-credential\0");
    h.update(password_hash.as_bytes());
    hex::encode(h.finalize())
}

/// The credential `who` would log in with now: `None` when the seat is
/// gone or the game has no GM password any more.
fn credential_now(web: &Web, c: &Connection, game: &str, who: &Who) -> WebResult<Option<String>> {
    Ok(match who {
        Who::Player { player } => {
            games::player_nocase(c, game, player)?.map(|p| credential(&p.password_hash))
        }
        Who::GameMaster => match games::game(c, game)? {
            Some(row) => GameView::new(&web.registry, row)?
                .toml
                .services
                .gm_password_hash
                .as_deref()
                .map(credential),
            None => None,
        },
    })
}

/// Opens a session after a login that proved `who` with `credential`;
/// returns the cookie's token (`None`: no randomness, refused).
pub fn open(
    c: &Connection,
    game: &str,
    who: Who,
    credential: String,
    now: DateTime<Utc>,
) -> WebResult<Option<(String, Session)>> {
    let token = random_token();
    let csrf = random_token();
    if token.is_empty() || csrf.is_empty() {
        return Ok(None);
    }
    let expires = now + Duration::hours(SESSION_HOURS);
    let holder = match &who {
        Who::Player { player } => SessionHolder::Player(player.clone()),
        Who::GameMaster => SessionHolder::GameMaster,
    };
    sessions::open(
        c,
        &WebSession {
            token_sha256: token_digest(&token),
            game_id: game.to_string(),
            holder,
            credential,
            csrf: csrf.clone(),
            expires: expires.timestamp(),
        },
        now.timestamp(),
    )?;
    let s = Session {
        game: game.to_string(),
        who,
        csrf,
        expires,
    };
    Ok(Some((token, s)))
}

/// The live session of `token`: not expired, and its credential still the
/// seat's (else it is deleted).
pub fn current(
    web: &Web,
    c: &Connection,
    token: &str,
    now: DateTime<Utc>,
) -> WebResult<Option<Session>> {
    let digest = token_digest(token);
    let Some(row) = sessions::get(c, &digest, now.timestamp())? else {
        return Ok(None);
    };
    let who = match row.holder {
        SessionHolder::Player(player) => Who::Player { player },
        SessionHolder::GameMaster => Who::GameMaster,
    };
    let still =
        credential_now(web, c, &row.game_id, &who)?.is_some_and(|now| same(&now, &row.credential));
    if !still {
        sessions::delete(c, &digest)?;
        return Ok(None);
    }
    Ok(Some(Session {
        game: row.game_id,
        who,
        csrf: row.csrf,
        expires: DateTime::from_timestamp(row.expires, 0).unwrap_or(now),
    }))
}

/// The live session of the request's cookie, read on the blocking pool.
pub async fn of_request(web: &Arc<Web>, headers: &HeaderMap) -> WebResult<Option<Session>> {
    let Some(token) = cookie(headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    web.db(move |web, store| current(web, store.conn(), &token, web.clock.now()))
        .await
}

/// Logout: the request's session row is deleted.
pub async fn close(web: &Arc<Web>, headers: &HeaderMap) -> WebResult<()> {
    if let Some(token) = cookie(headers, SESSION_COOKIE) {
        web.db(move |_, store| {
            sessions::delete(store.conn(), &token_digest(&token))?;
            Ok(())
        })
        .await?;
    }
    Ok(())
}

/// The value of cookie `name` in the request.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// A `Set-Cookie` value: Secure, HttpOnly, SameSite=Strict, with expiry.
pub fn set_cookie(name: &str, value: &str, path: &str, max_age: i64) -> String {
    format!("{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; Secure; SameSite=Strict")
}

/// Whether a login to `seat` (a player id, or `gm`) may be tried now.
pub fn login_allowed(
    c: &Connection,
    config: &DaemonConfig,
    game: &str,
    seat: &str,
    now: DateTime<Utc>,
) -> arbitre_store::Result<bool> {
    let limit = config.limits.wrong_passwords_per_seat_per_hour;
    if limit == 0 {
        return Ok(true);
    }
    let key = counters::seat_key(game, seat);
    let n = counters::get(
        c,
        Scope::SeatWrongPassword,
        &key,
        counters::hour(now.timestamp()),
    )?;
    Ok(n.count < limit)
}

/// A wrong password on the web for `seat` (a player id, or `gm`): counted
/// with the mail's; for a player's seat (`turn`: the turn being played)
/// also recorded for the seat's next report.
pub fn record_wrong(
    c: &Connection,
    game: &str,
    seat: &str,
    turn: Option<u32>,
    now: DateTime<Utc>,
) -> arbitre_store::Result<()> {
    let key = counters::seat_key(game, seat);
    counters::bump(
        c,
        Scope::SeatWrongPassword,
        &key,
        counters::hour(now.timestamp()),
    )?;
    if let Some(turn) = turn {
        arbitre_store::wrong_passwords::record(
            c,
            &arbitre_store::WrongPassword {
                game_id: game.to_string(),
                turn,
                player: seat.to_string(),
                answered: true,
                mail_sha256: None,
                at: now.timestamp(),
            },
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_is_exact_and_refuses_empty() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
        assert!(!same("", ""));
    }

    #[test]
    fn cookies_are_read_by_name() {
        let mut h = HeaderMap::new();
        h.insert(
            axum::http::header::COOKIE,
            "a=1; arbitre_session=xyz; b=2".parse().unwrap(),
        );
        assert_eq!(cookie(&h, SESSION_COOKIE).as_deref(), Some("xyz"));
        assert_eq!(cookie(&h, "c"), None);
    }

    #[test]
    fn session_cookie_is_secure_httponly_strict_and_expires() {
        let c = set_cookie(SESSION_COOKIE, "x", "/", 60);
        for part in ["HttpOnly", "Secure", "SameSite=Strict", "Max-Age=60"] {
            assert!(c.contains(part), "{c}");
        }
    }
}
