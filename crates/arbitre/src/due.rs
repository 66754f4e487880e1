//! Each running game's next due instant (issue 22 item 2): the cycle asks
//! the database which games are due (`arbitre_store::games::due_games`, one
//! index range) instead of loading and parsing every game, so an idle
//! cycle costs the same at 10 games or 10,000.
//!
//! The instant lives in `games.due_at` (migration 8). Every write that can
//! move it (deadline, status, turn, TOML, orders, a held turn, a fault, a
//! seat, an absence, a rollback) sets it to 0 through a trigger, so no
//! command can forget it; [`Daemon::schedule_due`], at the end of each
//! cycle's resolution and reminders, computes it again for the games it
//! examined. A stored instant is never later than the truth: the instant is
//! the earliest of the deadline plus its grace, each reminder still to come,
//! and, for early resolution, the end of `change_delay` after the latest
//! orders (orders arriving reset it anyway).

use crate::daemon::{Daemon, GameView};
use crate::error::Result;
use crate::registry::Registry;
use arbitre_store::{games, orders, turns, Connection, GameRow, GameStatus};
use chrono::{DateTime, Utc};

/// The next instant (unix seconds) at which the cycle must look at `row`
/// again, seen at `now`, or [`games::DUE_NEVER`] when only a change (which
/// resets the instant) can make it due.
pub fn attention_at(
    c: &Connection,
    registry: &Registry,
    row: GameRow,
    now: DateTime<Utc>,
) -> Result<i64> {
    if row.status != GameStatus::Running {
        return Ok(games::DUE_NEVER);
    }
    // A faulted game waits for `arbitre resume`, a held turn for RELEASE:
    // both are writes that reset the instant.
    if arbitre_store::faults::open_fault(c, &row.id)?.is_some()
        || turns::held(c, &row.id)?.is_some()
    {
        return Ok(games::DUE_NEVER);
    }
    let Ok(game) = GameView::new(registry, row) else {
        // A game whose TOML or ruleset does not load is skipped until its
        // row changes.
        return Ok(games::DUE_NEVER);
    };
    let mut next = games::DUE_NEVER;
    let mut consider = |t: DateTime<Utc>| next = next.min(t.timestamp());
    if let Some(deadline) = game.deadline() {
        consider(deadline + game.toml.services.grace());
        for (_, before) in &game.schedule.reminders {
            let at = deadline - *before;
            if at > now {
                consider(at);
            }
        }
    }
    if game.schedule.early {
        let sent = orders::latest_meta(c, &game.row.id, game.row.turn + 1)?;
        let last = sent.values().map(|o| o.received_at).max();
        if let Some(t) = last.and_then(|l| DateTime::from_timestamp(l, 0)) {
            let at = t + game.toml.services.change_delay();
            if at > now {
                consider(at);
            }
        }
    }
    Ok(next)
}

impl Daemon {
    /// Computes and stores the next due instant of every game due now (the
    /// ones this cycle examined). Run after resolving and reminding; a
    /// transaction per [`SCHEDULE_CHUNK`] games, each game read again inside
    /// it, so a game master's command (which resets the instant) waits for
    /// a few milliseconds at most and is never overwritten by an instant
    /// computed before it. Returns the number of games scheduled.
    pub fn schedule_due(&mut self) -> Result<usize> {
        let now = self.now();
        let due = games::due_games(self.store.conn(), now.timestamp())?;
        let Daemon {
            store, registry, ..
        } = self;
        for chunk in due.chunks(SCHEDULE_CHUNK) {
            store.tx(|tx| -> Result<()> {
                for row in chunk {
                    let Some(fresh) = games::game(tx, &row.id)? else {
                        continue;
                    };
                    let at = attention_at(tx, registry, fresh, now)?;
                    games::set_due(tx, &row.id, at)?;
                }
                Ok(())
            })?;
        }
        Ok(due.len())
    }
}

/// Games scheduled per transaction by [`Daemon::schedule_due`]: one commit
/// (one fsync) for many games, short enough not to hold the write lock.
pub const SCHEDULE_CHUNK: usize = 200;
