//! The game master's commands: status, report, pause, resume, extend
//! (issue 2 items 5 and 6), and the services of issue 10: set deadline
//! here, eject and takeover in [`seats`], preview and release in
//! [`preview`], rollback in [`rollback`]. The CLI's methods here and the
//! game master's mail (inbound.rs `gm_mail` → [`by_mail`]) both go through
//! the request pipeline (request/: one typed `Request`, one handler, its
//! effects written in one place), so a command does the same from both;
//! each change is announced to the players in the game's language, in the
//! same transaction.

pub mod listing;
pub mod preview;
pub mod rollback;
pub mod seats;

use crate::daemon::{Daemon, GameView};
use crate::error::{DaemonError, Result};
use crate::outgoing::Kind;
use crate::request::{apply, handle, Ctx, Done, Request};
use crate::services::command::Command;
use arbitre_core::{PlayerId, Viewer};
use arbitre_store::{games, orders, outbox, turns, GameStatus, OutboxStatus};
use chrono::Duration;
use std::fmt::Write as _;

impl Daemon {
    /// Ids that differ only by case in this database (issue 14 item 5),
    /// one warning line each: mail finds games and players ignoring case,
    /// so a mail naming either reaches only one of them. Written before ids
    /// were checked ignoring case; `arbitre status` and `serve` show them.
    pub fn id_collisions(&self) -> Result<Vec<String>> {
        Ok(games::case_collisions(self.store.conn())?
            .into_iter()
            .map(|c| format!("WARNING: {c} differ only by case: mail naming either reaches only one; rename or remove one"))
            .collect())
    }

    /// `arbitre status [<game>]` (issue 10 item 7): every game on one
    /// screen — turn, deadline, state (running, paused, held for preview,
    /// over), each seat's orders, who is missing (neither ejected nor with
    /// valid orders), and the game's outbox problems (failed mails, mails
    /// pending for over an hour, held reports); then the whole outbox.
    pub fn status(&self, game: Option<&str>) -> Result<String> {
        let c = self.store.conn();
        let now = self.now();
        let rows = match game {
            Some(id) => vec![games::require_game(c, id)?],
            None => games::games(c)?,
        };
        let problems = outbox::problems(c, now.timestamp() - 3600)?;
        let mut out = String::new();
        for w in self.id_collisions()? {
            let _ = writeln!(out, "{w}");
        }
        if rows.is_empty() {
            out.push_str("no games\n");
        }
        for row in rows {
            let g = GameView::new(&self.registry, row)?;
            let gid = g.row.id.as_str();
            let turn = g.row.turn + 1;
            let held = turns::held(c, gid)?;
            let state = match held {
                Some(t) if g.row.status != GameStatus::Over => {
                    format!("{} (turn {t} held for preview)", g.row.status.as_str())
                }
                _ => g.row.status.as_str().to_string(),
            };
            let _ = writeln!(out, "{gid} ({}), {state}", g.engine.info().name);
            if let Some(f) = arbitre_store::faults::open_fault(c, gid)? {
                let at = chrono::DateTime::from_timestamp(f.at, 0)
                    .map(|t| g.show_time(t))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  FAULTED since {at}: the ruleset panicked during {} of turn {}: {}",
                    f.during, f.turn, f.message
                );
                let _ = writeln!(
                    out,
                    "  its mails wait in the inbox; after a fix: arbitre resume {gid}"
                );
                let _ = writeln!(out, "  last resolved turn: {}", g.row.turn);
                continue;
            }
            let _ = writeln!(out, "  last resolved turn: {}", g.row.turn);
            match g.show_deadline() {
                Some(d) => {
                    let _ = writeln!(out, "  turn {turn} deadline: {d}");
                }
                None => {
                    let _ = writeln!(out, "  no deadline");
                }
            }
            if let Some((failed, stale, held)) = problems
                .get(&Some(gid.to_string()))
                .filter(|p| **p != (0, 0, 0))
            {
                let _ = writeln!(out, "  outbox problems: {failed} failed, {stale} pending after a failure or for over an hour, {held} held");
            }
            if g.row.status == GameStatus::Over {
                if let Some(o) = turns::latest(c, gid)?.outcome {
                    if let Ok(o) = serde_json::from_str::<arbitre_core::Outcome>(&o) {
                        let _ = writeln!(out, "  {}", o.summary);
                    }
                }
                continue;
            }
            let sent = orders::latest(c, gid, turn)?;
            let state = turns::latest(c, gid)?;
            let mut missing = Vec::new();
            for p in g
                .engine
                .players(&state.state)
                .map_err(|e| g.engine_err(e))?
            {
                let ejected = seats::is_ejected(c, gid, p.id.as_str(), turn)?;
                let what = match sent.get(p.id.as_str()) {
                    _ if ejected => "ejected".to_string(),
                    None if !p.active => "inactive".to_string(),
                    None => "no orders".to_string(),
                    Some(o) => format!(
                        "orders ({} line(s), {} error(s){})",
                        o.verdicts.len(),
                        o.errors,
                        if o.ready { "" } else { ", not ready" }
                    ),
                };
                if p.active && !ejected && !sent.get(p.id.as_str()).is_some_and(|o| o.ready) {
                    missing.push(p.id.to_string());
                }
                let _ = writeln!(out, "  {:<16} {what}", p.id);
            }
            if !missing.is_empty() {
                let _ = writeln!(out, "  missing: {}", missing.join(", "));
            }
        }
        let all = outbox::all(c)?;
        let pending = all
            .iter()
            .filter(|r| r.status == OutboxStatus::Pending)
            .count();
        let failed: Vec<_> = all
            .iter()
            .filter(|r| r.status == OutboxStatus::Failed)
            .collect();
        let _ = writeln!(out, "outbox: {pending} pending, {} failed", failed.len());
        let when = |t: i64| {
            chrono::DateTime::from_timestamp(t, 0)
                .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
                .unwrap_or_default()
        };
        // Why mail waits, from the first failure on (issue 14 item 6).
        if let Some(p) = arbitre_store::faults::sending_pause(c)? {
            let next = p.last_try + crate::sender::pause_retry_after(&p);
            let _ = writeln!(out, "  sending PAUSED since {}: {} (the mail set-up fails, no mail is failed for it; next try {})", when(p.since), p.reason, when(next));
        }
        for r in all
            .iter()
            .filter(|r| r.status == OutboxStatus::Pending && r.attempts > 0)
        {
            let since = r.first_failed_at.map(when).unwrap_or_default();
            let _ = writeln!(
                out,
                "  RETRYING #{} {} to {}: failing since {since}, {} attempt(s), next {}: {}",
                r.id,
                r.mail.message_id,
                r.mail.recipient,
                r.attempts,
                when(r.next_attempt_at),
                r.last_error.as_deref().unwrap_or("?")
            );
        }
        for f in failed {
            let _ = writeln!(
                out,
                "  FAILED #{} {} to {}: {} (arbitre outbox retry {})",
                f.id,
                f.mail.message_id,
                f.mail.recipient,
                f.last_error.as_deref().unwrap_or("?"),
                f.id
            );
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
        let row = turns::get(c, game, turn)?.ok_or_else(|| {
            DaemonError::Invalid(format!("game {game} has no resolved turn {turn}"))
        })?;
        let viewer = match player {
            "gm" => Viewer::GameMaster,
            "spectator" => Viewer::Spectator,
            p => {
                let p = games::player_nocase(c, game, p)?.ok_or_else(|| {
                    DaemonError::Invalid(format!("game {game} has no player '{p}'"))
                })?;
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
        let r = g
            .engine
            .report(&row.state, &viewer)
            .map_err(|e| g.engine_err(e))?;
        Ok(format!("{}\n\n{}", r.subject, r.body))
    }

    /// `arbitre game export <game> [--turn N]` (issue 19 item 6): the
    /// state after `turn` (default: the last resolved one) as a position
    /// file that `game create` loads back into the same game.
    pub fn export_position(&self, game: &str, turn: Option<u32>) -> Result<String> {
        let c = self.store.conn();
        let g = GameView::new(&self.registry, games::require_game(c, game)?)?;
        let turn = turn.unwrap_or(g.row.turn);
        let row = turns::get(c, game, turn)?.ok_or_else(|| {
            DaemonError::Invalid(format!("game {game} has no resolved turn {turn}"))
        })?;
        g.engine
            .export_position(&row.state)
            .map_err(|e| g.engine_err(e))
    }

    /// `arbitre password reset`: a new argon2id hash for a player who lost
    /// their password (issue 8). The password itself is neither logged nor
    /// stored; the salt seed includes the time so a reset to the same
    /// password still gives a new hash.
    pub fn reset_password(&mut self, game: &str, player: &str, password: &str) -> Result<()> {
        if password.trim().is_empty() || password.contains(char::is_whitespace) {
            return Err(DaemonError::Invalid(
                "a password is one word, without spaces".into(),
            ));
        }
        let now = self.now();
        let phc = self.config.hasher.hash(
            password,
            &format!("{game}/{player}/{}", now.timestamp_nanos_opt().unwrap_or(0)),
        )?;
        self.store.tx(|tx| -> Result<()> {
            games::require_game(tx, game)?;
            let Some(p) = games::player_nocase(tx, game, player)? else {
                return Err(DaemonError::Invalid(format!(
                    "game '{game}' has no player '{player}'"
                )));
            };
            games::set_password_hash(tx, game, &p.id, &phc)?;
            Ok(())
        })?;
        tracing::info!(game, player, "password reset by the game master");
        Ok(())
    }

    /// Handles `req` in its own transaction (the CLI's way in; a mail's
    /// commands are handled in the mail's transaction by [`by_mail`]).
    pub fn request(&mut self, req: &Request) -> Result<Done> {
        let now = self.now();
        let tag = format!("{}", now.timestamp());
        let Daemon {
            store,
            registry,
            config,
            ..
        } = self;
        store.tx(|tx| {
            let ctx = Ctx {
                tx,
                registry,
                config,
                now,
                tag: &tag,
            };
            let e = handle(&ctx, req)?;
            Ok(apply(&ctx, e)?.0)
        })
    }

    pub fn pause(&mut self, game: &str) -> Result<()> {
        self.request(&Request::gm(game, Command::Pause)).map(|_| ())
    }

    /// `arbitre resume <game>`: a faulted game (fault.rs) is tried again —
    /// its waiting mails and its due turn are handled by the next cycle; a
    /// paused game runs again. Both, when a paused game was also faulted.
    /// Returns the fault cleared, if any.
    pub fn resume(&mut self, game: &str) -> Result<Option<arbitre_store::Fault>> {
        let now = self.now().timestamp();
        let cleared = self.store.tx(|tx| -> Result<_> {
            games::require_game(tx, game)?;
            Ok(arbitre_store::faults::resume(tx, game, now)?)
        })?;
        if let Some(f) = &cleared {
            tracing::info!(game, turn = f.turn, during = %f.during, "faulted game resumed by the game master");
        }
        let paused = games::require_game(self.store.conn(), game)?.status == GameStatus::Paused;
        if paused || cleared.is_none() {
            self.request(&Request::gm(game, Command::Resume))?;
        }
        Ok(cleared)
    }

    pub fn extend(&mut self, game: &str, by: Duration) -> Result<()> {
        self.request(&Request::gm(game, Command::Extend(by)))
            .map(|_| ())
    }

    /// `arbitre deadline <game> <when>`: a deadline in the future, read in
    /// the game's zone when no offset is given. Returns it as shown to players.
    pub fn set_deadline(
        &mut self,
        game: &str,
        when: &crate::services::command::When,
    ) -> Result<String> {
        match self.request(&Request::gm(game, Command::SetDeadline(when.clone())))? {
            Done::Schedule { shown } => Ok(shown.unwrap_or_default()),
            _ => Ok(String::new()),
        }
    }
}

/// One game master's command from a mail (inbound.rs `gm_mail`), in the
/// mail's transaction: the answer line in the game's language. A command
/// that cannot be done changes nothing and says why.
pub(crate) fn by_mail(
    tx: &arbitre_store::Connection,
    registry: &crate::registry::Registry,
    config: &crate::config::DaemonConfig,
    game: &str,
    cmd: &Command,
    tag: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<String> {
    let lang = GameView::new(registry, games::require_game(tx, game)?)?.lang;
    let ctx = Ctx {
        tx,
        registry,
        config,
        now,
        tag,
    };
    let req = Request::gm(game, cmd.clone());
    match handle(&ctx, &req).and_then(|e| apply(&ctx, e)) {
        Ok((_, answer)) => Ok(answer),
        // French typography puts a space before the colon, as GmDone does.
        Err(DaemonError::Invalid(why)) if lang == arbitre_core::Lang::Fr => {
            Ok(format!("{} : {why}", cmd.name()))
        }
        Err(DaemonError::Invalid(why)) => Ok(format!("{}: {why}", cmd.name())),
        Err(e) => Err(e),
    }
}
