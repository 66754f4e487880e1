//! Logins, sessions and CSRF tokens (issue 24 item 5).
//!
//! - A session is a random 128-bit id in a cookie that is `Secure`,
//!   `HttpOnly` and `SameSite=Strict`, and expires after [`SESSION_HOURS`]
//!   (the server forgets it then too). Sessions live in the web server's
//!   memory only: a restart logs everyone out, and nothing about them is
//!   ever written to disk or to a log.
//! - A player's session keeps the password (and token) the player logged in
//!   with, in memory only, because an order form becomes the order mail it
//!   stands for, whose header carries them (web/submit.rs): the mail path
//!   checks them again, as for any mail.
//! - Every form carries a CSRF token: the session's, or before a login a
//!   double-submit token (cookie and hidden field must match).
//! - Wrong passwords count in the same per-seat hourly counter as the mail
//!   path's (`wrong_passwords_per_seat_per_hour`), and each is recorded for
//!   the seat's next report, as a wrong password by mail is. Past the limit
//!   the web refuses logins to that seat for the rest of the hour, even
//!   with the right password (a guesser on the web gets answers at once;
//!   the real player can still mail orders).

use crate::config::DaemonConfig;
use arbitre_store::counters::{self, Scope};
use arbitre_store::Connection;
use axum::http::HeaderMap;
use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// How long a login lasts.
pub const SESSION_HOURS: i64 = 12;
/// The session cookie's name.
pub const SESSION_COOKIE: &str = "arbitre_session";
/// The login form's double-submit cookie.
pub const LOGIN_COOKIE: &str = "arbitre_login";

/// Who a session belongs to.
#[derive(Clone)]
pub enum Who {
    Player {
        player: String,
        password: String,
        token: Option<String>,
    },
    GameMaster,
}

impl std::fmt::Debug for Who {
    // Never print a password, even in a debug log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Who::Player { player, .. } => write!(f, "Player({player})"),
            Who::GameMaster => write!(f, "GameMaster"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Session {
    pub game: String,
    pub who: Who,
    pub csrf: String,
    pub expires: DateTime<Utc>,
}

/// The live sessions, by id.
#[derive(Default)]
pub struct Sessions(Mutex<BTreeMap<String, Session>>);

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

impl Sessions {
    /// Opens a session; returns its id (empty if no randomness: refused).
    pub fn open(&self, game: &str, who: Who, now: DateTime<Utc>) -> Option<(String, Session)> {
        let id = random_token();
        let csrf = random_token();
        if id.is_empty() || csrf.is_empty() {
            return None;
        }
        let s = Session {
            game: game.to_string(),
            who,
            csrf,
            expires: now + Duration::hours(SESSION_HOURS),
        };
        let mut map = self.0.lock().ok()?;
        map.retain(|_, s| s.expires > now);
        map.insert(id.clone(), s.clone());
        Some((id, s))
    }

    /// The live session of the request's cookie.
    pub fn get(&self, headers: &HeaderMap, now: DateTime<Utc>) -> Option<Session> {
        let id = cookie(headers, SESSION_COOKIE)?;
        let map = self.0.lock().ok()?;
        map.get(&id).filter(|s| s.expires > now).cloned()
    }

    pub fn close(&self, headers: &HeaderMap) {
        if let (Some(id), Ok(mut map)) = (cookie(headers, SESSION_COOKIE), self.0.lock()) {
            map.remove(&id);
        }
    }
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

    #[test]
    fn a_session_expires() {
        let s = Sessions::default();
        let now = Utc::now();
        let (id, _) = s.open("g", Who::GameMaster, now).unwrap();
        let mut h = HeaderMap::new();
        h.insert(
            axum::http::header::COOKIE,
            format!("{SESSION_COOKIE}={id}").parse().unwrap(),
        );
        assert!(s.get(&h, now).is_some());
        assert!(s
            .get(
                &h,
                now + Duration::hours(SESSION_HOURS) + Duration::seconds(1)
            )
            .is_none());
    }
}
