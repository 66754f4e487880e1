//! `ROLLBACK <turn>` (issue 10): the game goes back to the state after
//! `<turn>`, and the next turn is resolved again.
//!
//! What moves: the states of the later turns go to `rolled_back_turns`
//! (the archive never loses one), `games.turn` becomes `<turn>`, the game
//! runs again if it had ended, and the deadline is recomputed from now by
//! the schedule. What stays: every order mail — those for `<turn>+1` are
//! the ones in force again, so resolving again gives the same result
//! byte for byte (the RNG is derived per seed, turn and phase, never
//! carried over), unless a player sends new orders. Orders sent for later
//! turns stay in the archive and in force for those turns: a player who
//! sees the turn resolved differently sends new ones. Report mails of the
//! undone turns not sent yet (pending or held) are cancelled; sent ones
//! obviously stay. Every player is told. Reminders of the replayed turn
//! may fire again: its deadline is a new one.

use crate::daemon::GameView;
use crate::error::{DaemonError, Result};
use crate::outgoing::{signed, Draft, Kind};
use crate::registry::Registry;
use crate::request::{Decided, Write};
use crate::services::texts::{svc_text, SvcMsg};
use arbitre_store::Connection;
use arbitre_store::{games, turns, GameStatus};
use chrono::{DateTime, Utc};

/// The mails of an undone turn that must not leave any more.
const CANCELLED_KINDS: &[Kind] = &[Kind::Report, Kind::Observer, Kind::Gm];

impl crate::daemon::Daemon {
    /// `arbitre rollback <game> <turn>`: returns the turns undone.
    pub fn rollback(&mut self, game: &str, to: u32) -> Result<Vec<u32>> {
        let cmd = crate::services::command::Command::Rollback(to);
        match self.request(&crate::request::Request::gm(game, cmd))? {
            crate::request::Done::RolledBack(undone) => Ok(undone),
            _ => Ok(Vec::new()),
        }
    }
}

/// ROLLBACK decided: the turns to undo, the game's turn, status and
/// deadline, and the players' notices; returns the turns undone. Writes
/// nothing.
pub(crate) fn rollback(
    tx: &Connection,
    registry: &Registry,
    game: &str,
    to: u32,
    now: DateTime<Utc>,
) -> Result<Decided<Vec<u32>>> {
    let g = GameView::new(registry, games::require_game(tx, game)?)?;
    let gid = g.row.id.as_str();
    let lang = g.lang;
    let last = g.row.turn;
    if to >= last || turns::get(tx, gid, to)?.is_none() {
        return Err(DaemonError::Invalid(svc_text(
            lang,
            &SvcMsg::RollbackRange { turn: to, last },
        )));
    }
    let undone = turns::after(tx, gid, to)?;
    let mut writes = vec![Write::RollBack {
        game: gid.to_string(),
        to,
        kinds: CANCELLED_KINDS.to_vec(),
        at: now.timestamp(),
    }];
    let deadline = g.schedule.next_after(now);
    let turn = |deadline: Option<i64>| Write::Turn {
        game: gid.to_string(),
        turn: to,
        deadline,
    };
    match g.row.status {
        GameStatus::Paused => writes.push(turn(None)),
        GameStatus::Running => writes.push(turn(Some(deadline.timestamp()))),
        GameStatus::Over => {
            writes.push(turn(Some(deadline.timestamp())));
            writes.push(Write::Status {
                game: gid.to_string(),
                status: GameStatus::Running,
                deadline: Some(deadline.timestamp()),
            });
        }
    }
    let mut body = svc_text(
        lang,
        &SvcMsg::RolledBack {
            game: gid,
            turn: to,
        },
    );
    if g.row.status != GameStatus::Paused {
        body.push('\n');
        body.push_str(&svc_text(
            lang,
            &SvcMsg::StatusDeadline {
                when: &g.schedule.show(deadline),
            },
        ));
    }
    let subject = svc_text(lang, &SvcMsg::RolledBackSubject { game: gid });
    // Two rollbacks within a second still get their own Message-IDs: the
    // count of undoings of turn `to + 1`, this one included (it is always
    // among the turns undone, since `to` < the last turn).
    let nth = turns::times_rolled_back(tx, gid, to + 1)? + 1;
    let mails = games::players(tx, gid)?
        .into_iter()
        .map(|p| {
            Draft::new(Kind::Notice, &p.email, subject.clone(), signed(lang, &body))
                .about(gid, to + 1, Some(&p.id))
                .discriminator(format!("rollback.{}.{nth}", now.timestamp()))
        })
        .collect();
    tracing::info!(game = gid, to, undone = ?undone, "rolled back by the game master");
    Ok(Decided {
        writes,
        mails,
        value: undone,
    })
}
