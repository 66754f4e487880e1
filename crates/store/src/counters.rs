//! Rate-limit counters (issue 14 items 2 and 3): one row per (scope, key,
//! bucket), read and bumped in O(1) inside the transaction of the mail that
//! counts, so they are exactly as durable as the mail's journal row (a crash
//! before the commit forgets both, the mail is handled again and counted
//! once). Keys are compared as given: callers lower-case addresses.
//!
//! Like Postfix's anvil, a limit counts per fixed time unit (the clock
//! hour), not per sliding window: a burst astride the hour can get twice a
//! limit, which a limit far above real play absorbs, and each check costs
//! one indexed row instead of a scan of the last hour's journal.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};

/// What a counter counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Handled mails by From address (per hour).
    Sender,
    /// Handled mails by the address the answer goes to (per hour).
    ReplyTo,
    /// Handled mails of strangers naming a game (per hour).
    GameStrangers,
    /// Answered refusals (no valid game, player or password) per reply
    /// address (per hour).
    Refusals,
    /// The polite "too many mails" answer, per reply address (per hour).
    FloodAnswer,
    /// A seated player's right-password mails, key `game\0player` (per
    /// hour): their own loop guard, which nobody else can fill.
    SeatServed,
    /// Wrong passwords naming a seat, key `game\0player` (per hour).
    SeatWrongPassword,
    /// Wrong passwords naming a seat that were not answered, key
    /// `game\0player`, bucket = the coming turn. Written by releases before
    /// migration 7, which turned these rows into `wrong_passwords` records;
    /// kept so the name of the scope stays reserved.
    SeatWrongSilent,
}

impl Scope {
    fn as_str(self) -> &'static str {
        match self {
            Scope::Sender => "sender",
            Scope::ReplyTo => "reply-to",
            Scope::GameStrangers => "game-strangers",
            Scope::Refusals => "refusals",
            Scope::FloodAnswer => "flood-answer",
            Scope::SeatServed => "seat-served",
            Scope::SeatWrongPassword => "seat-wrong-password",
            Scope::SeatWrongSilent => "seat-wrong-silent",
        }
    }
}

/// The hour bucket of a unix time.
pub fn hour(unix: i64) -> i64 {
    unix.div_euclid(3600)
}

/// The key of a seat's counters.
pub fn seat_key(game: &str, player: &str) -> String {
    format!("{game}\0{player}")
}

/// A counter's row: how many were counted and whether the bucket's one
/// answer went out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    pub count: u32,
    pub answered: bool,
}

pub fn get(c: &Connection, scope: Scope, key: &str, bucket: i64) -> Result<Count> {
    Ok(c.query_row_cached(
        "SELECT count, answered FROM rate_counters WHERE scope = ?1 AND key = ?2 AND bucket = ?3",
        params![scope.as_str(), key, bucket],
        |r| {
            Ok(Count {
                count: r.get(0)?,
                answered: r.get::<_, i64>(1)? != 0,
            })
        },
    )
    .optional()?
    .unwrap_or_default())
}

/// Adds one; returns the new count.
pub fn bump(c: &Connection, scope: Scope, key: &str, bucket: i64) -> Result<u32> {
    Ok(c.query_row_cached(
        "INSERT INTO rate_counters (scope, key, bucket, count) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT (scope, key, bucket) DO UPDATE SET count = count + 1
         RETURNING count",
        params![scope.as_str(), key, bucket],
        |r| r.get(0),
    )?)
}

/// Adds one unless the count has reached `limit` (at least 1); returns
/// the new count, or `None` when it had reached it and nothing was added.
/// One statement for what [`get`] then [`bump`] do (issue 22 item 1: a
/// seated player's every mail is counted).
pub fn bump_below(
    c: &Connection,
    scope: Scope,
    key: &str,
    bucket: i64,
    limit: u32,
) -> Result<Option<u32>> {
    Ok(c.query_row_cached(
        "INSERT INTO rate_counters (scope, key, bucket, count) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT (scope, key, bucket) DO UPDATE SET count = count + 1 WHERE count < ?4
         RETURNING count",
        params![scope.as_str(), key, bucket, limit.max(1)],
        |r| r.get(0),
    )
    .optional()?)
}

/// Marks the bucket's one answer as sent; false if it already was.
pub fn mark_answered(c: &Connection, scope: Scope, key: &str, bucket: i64) -> Result<bool> {
    let n = c.execute_cached(
        "INSERT INTO rate_counters (scope, key, bucket, count, answered) VALUES (?1, ?2, ?3, 0, 1)
         ON CONFLICT (scope, key, bucket) DO UPDATE SET answered = 1 WHERE answered = 0",
        params![scope.as_str(), key, bucket],
    )?;
    Ok(n > 0)
}

/// Forgets the hourly buckets before `before_hour` (the per-turn counts are
/// kept: they are few and a report reads them). Run once a cycle, outside
/// any mail's decision.
pub fn prune(c: &Connection, before_hour: i64) -> Result<usize> {
    Ok(c.execute_cached(
        "DELETE FROM rate_counters WHERE scope <> ?1 AND bucket < ?2",
        params![Scope::SeatWrongSilent.as_str(), before_hour],
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    #[test]
    fn bump_below_counts_up_to_the_limit_as_get_then_bump() {
        let s = Store::in_memory().unwrap();
        let c = s.conn();
        for limit in 1..5 {
            let key = format!("seat{limit}");
            for _ in 0..limit + 3 {
                let before = get(c, Scope::SeatServed, &key, 7).unwrap().count;
                let got = bump_below(c, Scope::SeatServed, &key, 7, limit).unwrap();
                if before >= limit {
                    assert_eq!(got, None);
                    assert_eq!(get(c, Scope::SeatServed, &key, 7).unwrap().count, before);
                } else {
                    assert_eq!(got, Some(before + 1));
                }
            }
            assert_eq!(get(c, Scope::SeatServed, &key, 7).unwrap().count, limit);
        }
        // Other buckets and scopes are not touched.
        assert_eq!(get(c, Scope::SeatServed, "seat1", 8).unwrap().count, 0);
        assert_eq!(get(c, Scope::Sender, "seat1", 7).unwrap().count, 0);
    }

    #[test]
    fn counters_bump_answer_once_and_prune() {
        let s = Store::in_memory().unwrap();
        let c = s.conn();
        assert_eq!(get(c, Scope::Sender, "a@x", 10).unwrap(), Count::default());
        assert_eq!(bump(c, Scope::Sender, "a@x", 10).unwrap(), 1);
        assert_eq!(bump(c, Scope::Sender, "a@x", 10).unwrap(), 2);
        assert_eq!(
            bump(c, Scope::Sender, "a@x", 11).unwrap(),
            1,
            "a new hour starts at one"
        );
        assert_eq!(
            bump(c, Scope::ReplyTo, "a@x", 10).unwrap(),
            1,
            "scopes are apart"
        );
        assert!(mark_answered(c, Scope::FloodAnswer, "a@x", 10).unwrap());
        assert!(
            !mark_answered(c, Scope::FloodAnswer, "a@x", 10).unwrap(),
            "one answer a bucket"
        );
        assert!(get(c, Scope::FloodAnswer, "a@x", 10).unwrap().answered);
        bump(c, Scope::SeatWrongSilent, &seat_key("g", "p"), 3).unwrap();
        assert_eq!(prune(c, 11).unwrap(), 3);
        assert_eq!(get(c, Scope::Sender, "a@x", 11).unwrap().count, 1);
        assert_eq!(
            get(c, Scope::SeatWrongSilent, &seat_key("g", "p"), 3)
                .unwrap()
                .count,
            1,
            "per-turn counts kept"
        );
    }
}
