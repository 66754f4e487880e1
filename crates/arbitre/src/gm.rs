//! The game master's commands: status, report, pause, resume, extend
//! (issue 2 items 5 and 6). Each change of deadline is announced to the
//! players in the game's language, in the same transaction.

use crate::daemon::{Daemon, GameView};
use crate::error::{DaemonError, Result};
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use arbitre_core::{PlayerId, Viewer};
use arbitre_store::{games, orders, outbox, turns, GameStatus, OutboxStatus};
use chrono::Duration;
use std::fmt::Write as _;

impl Daemon {
    /// `arbitre status [<game>]`: turn, deadline, who has sent orders, outbox health.
    pub fn status(&self, game: Option<&str>) -> Result<String> {
        let c = self.store.conn();
        let rows = match game {
            Some(id) => vec![games::require_game(c, id)?],
            None => games::games(c)?,
        };
        let mut out = String::new();
        if rows.is_empty() {
            out.push_str("no games\n");
        }
        for row in rows {
            let g = GameView::new(&self.registry, row)?;
            let turn = g.row.turn + 1;
            let _ = writeln!(out, "{} ({}), {}", g.row.id, g.engine.info().name, g.row.status.as_str());
            let _ = writeln!(out, "  last resolved turn: {}", g.row.turn);
            match g.show_deadline() {
                Some(d) => {
                    let _ = writeln!(out, "  turn {turn} deadline: {d}");
                }
                None => {
                    let _ = writeln!(out, "  no deadline");
                }
            }
            if g.row.status == GameStatus::Over {
                if let Some(o) = turns::latest(c, &g.row.id)?.outcome {
                    if let Ok(o) = serde_json::from_str::<arbitre_core::Outcome>(&o) {
                        let _ = writeln!(out, "  {}", o.summary);
                    }
                }
                continue;
            }
            let sent = orders::latest(c, &g.row.id, turn)?;
            let state = turns::latest(c, &g.row.id)?;
            for p in g.engine.players(&state.state).map_err(|e| g.engine_err(e))? {
                let what = match sent.get(p.id.as_str()) {
                    None if !p.active => "inactive".to_string(),
                    None => "no orders".to_string(),
                    Some(o) => format!(
                        "orders ({} line(s), {} error(s){})",
                        o.verdicts.len(),
                        o.errors,
                        if o.ready { "" } else { ", not ready" }
                    ),
                };
                let _ = writeln!(out, "  {:<16} {what}", p.id);
            }
        }
        let all = outbox::all(c)?;
        let pending = all.iter().filter(|r| r.status == OutboxStatus::Pending).count();
        let failed: Vec<_> = all.iter().filter(|r| r.status == OutboxStatus::Failed).collect();
        let _ = writeln!(out, "outbox: {pending} pending, {} failed", failed.len());
        for f in failed {
            let _ = writeln!(out, "  FAILED {} to {}: {}", f.mail.message_id, f.mail.recipient, f.last_error.as_deref().unwrap_or("?"));
        }
        Ok(out)
    }

    /// `arbitre report <game> <player> [--turn N]`: the report as mailed, or,
    /// if it was never mailed, rendered again from the stored state.
    /// `player` may be `gm` or `spectator`.
    pub fn report(&self, game: &str, player: &str, turn: Option<u32>) -> Result<String> {
        let c = self.store.conn();
        let g = GameView::new(&self.registry, games::require_game(c, game)?)?;
        let turn = turn.unwrap_or(g.row.turn);
        let row = turns::get(c, game, turn)?
            .ok_or_else(|| DaemonError::Invalid(format!("game {game} has no resolved turn {turn}")))?;
        let viewer = match player {
            "gm" => Viewer::GameMaster,
            "spectator" => Viewer::Spectator,
            p => {
                let p = games::player_nocase(c, game, p)?
                    .ok_or_else(|| DaemonError::Invalid(format!("game {game} has no player '{p}'")))?;
                let mailed = outbox::all(c)?.into_iter().find(|r| {
                    r.mail.kind == Kind::Report.as_str()
                        && r.mail.game_id.as_deref() == Some(game)
                        && r.mail.turn == Some(turn)
                        && r.mail.player.as_deref() == Some(p.id.as_str())
                });
                if let Some(r) = mailed {
                    return Ok(r.mail.body);
                }
                Viewer::Player(PlayerId::new(p.id))
            }
        };
        let r = g.engine.report(&row.state, &viewer).map_err(|e| g.engine_err(e))?;
        Ok(format!("{}\n\n{}", r.subject, r.body))
    }

    /// `arbitre password reset`: a new argon2id hash for a player who lost
    /// their password (issue 8). The password itself is neither logged nor
    /// stored; the salt seed includes the time so a reset to the same
    /// password still gives a new hash.
    pub fn reset_password(&mut self, game: &str, player: &str, password: &str) -> Result<()> {
        if password.trim().is_empty() || password.contains(char::is_whitespace) {
            return Err(DaemonError::Invalid("a password is one word, without spaces".into()));
        }
        let now = self.now();
        let phc = self.config.hasher.hash(password, &format!("{game}/{player}/{}", now.timestamp_nanos_opt().unwrap_or(0)))?;
        self.store.tx(|tx| -> Result<()> {
            games::require_game(tx, game)?;
            let Some(p) = games::player_nocase(tx, game, player)? else {
                return Err(DaemonError::Invalid(format!("game '{game}' has no player '{player}'")));
            };
            games::set_password_hash(tx, game, &p.id, &phc)?;
            Ok(())
        })?;
        tracing::info!(game, player, "password reset by the game master");
        Ok(())
    }

    pub fn pause(&mut self, game: &str) -> Result<()> {
        self.set_schedule(game, Change::Pause)
    }

    pub fn resume(&mut self, game: &str) -> Result<()> {
        self.set_schedule(game, Change::Resume)
    }

    pub fn extend(&mut self, game: &str, by: Duration) -> Result<()> {
        self.set_schedule(game, Change::Extend(by))
    }

    fn set_schedule(&mut self, game: &str, change: Change) -> Result<()> {
        let now = self.now();
        let Daemon { store, registry, config, .. } = self;
        store.tx(|tx| set_schedule_in(tx, registry, config, game, change, now))
    }
}

/// Pause, resume or extend inside the caller's transaction: the CLI and the
/// game master's mail (issue 10) share it.
pub(crate) fn set_schedule_in(
    tx: &rusqlite::Connection,
    registry: &crate::registry::Registry,
    config: &crate::config::DaemonConfig,
    game: &str,
    change: Change,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<()> {
    {
        {
            let g = GameView::new(registry, games::require_game(tx, game)?)?;
            let gid = g.row.id.as_str();
            let lang = g.lang;
            let (status, deadline, subject, body, tag) = match change {
                Change::Pause => {
                    if g.row.status != GameStatus::Running {
                        return Err(DaemonError::Invalid(format!("game {gid} is {}, not running", g.row.status.as_str())));
                    }
                    (GameStatus::Paused, None, text(lang, &Msg::PausedSubject { game: gid }), text(lang, &Msg::Paused { game: gid }), "pause")
                }
                Change::Resume => {
                    if g.row.status != GameStatus::Paused {
                        return Err(DaemonError::Invalid(format!("game {gid} is {}, not paused", g.row.status.as_str())));
                    }
                    let d = g.schedule.next_after(now);
                    let when = g.schedule.show(d);
                    (GameStatus::Running, Some(d), text(lang, &Msg::ResumedSubject { game: gid }), text(lang, &Msg::Resumed { game: gid, when: &when }), "resume")
                }
                Change::Extend(by) => {
                    let Some(old) = g.deadline().filter(|_| g.row.status == GameStatus::Running) else {
                        return Err(DaemonError::Invalid(format!("game {gid} has no running deadline to extend")));
                    };
                    let d = old.max(now) + by;
                    let when = g.schedule.show(d);
                    (GameStatus::Running, Some(d), text(lang, &Msg::ExtendedSubject { game: gid }), text(lang, &Msg::Extended { game: gid, when: &when }), "extend")
                }
            };
            games::set_status(tx, gid, status, deadline.map(|d| d.timestamp()))?;
            for p in games::players(tx, gid)? {
                let d = Draft::new(Kind::Notice, &p.email, subject.clone(), signed(lang, &body))
                    .about(gid, g.row.turn + 1, Some(&p.id))
                    .discriminator(format!("{tag}.{}", now.timestamp()));
                queue(tx, config, now, d)?;
            }
            tracing::info!(game = gid, change = tag, "schedule changed by the game master");
            Ok(())
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Change {
    Pause,
    Resume,
    Extend(Duration),
}
