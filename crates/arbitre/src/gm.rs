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
use crate::fl_args;
use crate::i18n::tr;
use crate::request::{apply, handle, Ctx, Done, Request};
use crate::services::command::Command;
use arbitre_core::{PlayerId, Viewer};
use arbitre_store::{games, outbox, turns, GameStatus, OutboxStatus};
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
            .map(|ids| tr(self.lang, "cli-status-id-collision", &fl_args![ids]))
            .collect())
    }

    /// `arbitre status [<game>]` (issue 10 item 7): every game on one
    /// screen — turn, deadline, state (running, paused, held for preview,
    /// over), each seat's orders, who is missing (neither ejected nor with
    /// valid orders), and the game's outbox problems (failed mails, mails
    /// pending for over an hour, held reports); then the whole outbox. In
    /// the operator's language (`Daemon::lang`); the rows are the ones
    /// `status --json` returns (`status_rows`).
    pub fn status(&self, game: Option<&str>) -> Result<String> {
        let c = self.store.conn();
        let lang = self.lang;
        let now = self.now();
        let rows = self.status_games(game)?;
        let problems = outbox::problems(c, now.timestamp() - 3600)?;
        let mut out = String::new();
        for w in self.id_collisions()? {
            let _ = writeln!(out, "{w}");
        }
        if rows.is_empty() {
            let _ = writeln!(out, "{}", tr(lang, "cli-status-no-games", &[]));
        }
        let loaded = crate::loaded::Loaded::new();
        for row in rows {
            let g = GameView::new(&self.registry, row)?;
            let r = self.status_rows(&g, &loaded, &problems)?;
            let game = r.summary.id.clone();
            let status = status_word(lang, r.status);
            let state = match r.summary.held_turn {
                Some(turn) => tr(lang, "cli-status-held", &fl_args![status, turn]),
                None => status,
            };
            let ruleset = r.ruleset_name.clone();
            let _ = writeln!(
                out,
                "{}",
                tr(lang, "cli-status-game", &fl_args![game, ruleset, state])
            );
            let last = r.summary.turn;
            if let Some((f, at)) = &r.fault {
                let (during, turn, message) = (&f.during, f.turn, &f.message);
                let args = fl_args![at, during, turn, message];
                let _ = writeln!(out, "  {}", tr(lang, "cli-status-faulted", &args));
                let _ = writeln!(
                    out,
                    "  {}",
                    tr(lang, "cli-status-faulted-wait", &fl_args![game])
                );
                let _ = writeln!(
                    out,
                    "  {}",
                    tr(lang, "cli-status-last-turn", &fl_args![last])
                );
                continue;
            }
            let _ = writeln!(
                out,
                "  {}",
                tr(lang, "cli-status-last-turn", &fl_args![last])
            );
            match &r.deadline {
                Some(when) => {
                    let turn = last + 1;
                    let _ = writeln!(
                        out,
                        "  {}",
                        tr(lang, "cli-status-deadline", &fl_args![turn, when])
                    );
                }
                None => {
                    let _ = writeln!(out, "  {}", tr(lang, "cli-status-no-deadline", &[]));
                }
            }
            if r.outbox != (0, 0, 0) {
                let (failed, stale, held) = r.outbox;
                let args = fl_args![failed, stale, held];
                let _ = writeln!(out, "  {}", tr(lang, "cli-status-outbox-problems", &args));
            }
            if let Some(o) = &r.outcome {
                let _ = writeln!(out, "  {o}");
            }
            for seat in &r.seats {
                let what = match seat.state {
                    "orders" => {
                        let (lines, errors) = (seat.lines, seat.errors);
                        let args = fl_args![lines, errors];
                        if seat.ready {
                            tr(lang, "cli-status-seat-orders", &args)
                        } else {
                            tr(lang, "cli-status-seat-orders-not-ready", &args)
                        }
                    }
                    "ejected" => tr(lang, "cli-status-seat-ejected", &[]),
                    "inactive" => tr(lang, "cli-status-seat-inactive", &[]),
                    _ => tr(lang, "cli-status-seat-no-orders", &[]),
                };
                let _ = writeln!(out, "  {:<16} {what}", seat.id);
            }
            if !r.missing.is_empty() {
                let players = r.missing.join(", ");
                let _ = writeln!(
                    out,
                    "  {}",
                    tr(lang, "cli-status-missing", &fl_args![players])
                );
            }
        }
        // Counted by the database and listed from the rows in trouble
        // only: reading every mail ever sent (raw text included) made the
        // command's cost grow with the server's whole history.
        let (pending, n_failed) = outbox::pending_and_failed(c)?;
        let troubled = outbox::troubled(c)?;
        let failed: Vec<_> = troubled
            .iter()
            .filter(|r| r.status == OutboxStatus::Failed)
            .collect();
        let args = fl_args![pending, n_failed];
        let _ = writeln!(out, "{}", tr(lang, "cli-status-outbox", &args));
        let when = |t: i64| {
            chrono::DateTime::from_timestamp(t, 0)
                .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
                .unwrap_or_default()
        };
        // Why mail waits, from the first failure on (issue 14 item 6).
        if let Some(p) = arbitre_store::faults::sending_pause(c)? {
            let next = when(p.last_try + crate::sender::pause_retry_after(&p));
            let (since, reason) = (when(p.since), &p.reason);
            let args = fl_args![since, reason, next];
            let _ = writeln!(out, "  {}", tr(lang, "cli-status-sending-paused", &args));
        }
        for r in troubled
            .iter()
            .filter(|r| r.status == OutboxStatus::Pending && r.attempts > 0)
        {
            let since = r.first_failed_at.map(when).unwrap_or_default();
            let (id, message_id, to) = (r.id, &r.mail.message_id, &r.mail.recipient);
            let (attempts, next) = (r.attempts, when(r.next_attempt_at));
            let error = r.last_error.as_deref().unwrap_or("?");
            let args = fl_args![id, message_id, to, since, attempts, next, error];
            let _ = writeln!(out, "  {}", tr(lang, "cli-status-retrying", &args));
        }
        for f in failed {
            let (id, message_id, to) = (f.id, &f.mail.message_id, &f.mail.recipient);
            let error = f.last_error.as_deref().unwrap_or("?");
            let args = fl_args![id, message_id, to, error];
            let _ = writeln!(out, "  {}", tr(lang, "cli-status-failed", &args));
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
            .ok_or_else(|| self.invalid("err-no-resolved-turn", &fl_args![game, turn]))?;
        let viewer = match player {
            "gm" => Viewer::GameMaster,
            "spectator" => Viewer::Spectator,
            p => {
                let player = p;
                let p = games::player_nocase(c, game, p)?
                    .ok_or_else(|| self.invalid("err-no-player", &fl_args![game, player]))?;
                let mailed = outbox::first_report(c, game, &p.id, turn)?;
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
        let row = turns::get(c, game, turn)?
            .ok_or_else(|| self.invalid("err-no-resolved-turn", &fl_args![game, turn]))?;
        g.engine
            .export_position(&row.state)
            .map_err(|e| g.engine_err(e))
    }

    /// `arbitre password reset`: a new argon2id hash for a player who lost
    /// their password (issue 8). The password itself is neither logged nor
    /// stored; the salt seed includes the time so a reset to the same
    /// password still gives a new hash. Decided, then written by
    /// [`apply`] like a seat's own `PASSWORD NEW` (`Write::PasswordHash`);
    /// unlike it, the game master needs no old password and is answered
    /// in the command line's language.
    pub fn reset_password(&mut self, game: &str, player: &str, password: &str) -> Result<()> {
        if password.trim().is_empty() || password.contains(char::is_whitespace) {
            return Err(self.invalid("cli-password-one-word", &[]));
        }
        let now = self.now();
        let phc = self.config.hasher.hash(
            password,
            &format!("{game}/{player}/{}", now.timestamp_nanos_opt().unwrap_or(0)),
        )?;
        let no_player = self.invalid("err-no-player", &fl_args![game, player]);
        let tag = format!("{}", now.timestamp());
        let Daemon {
            store,
            registry,
            config,
            ..
        } = self;
        store.tx(|tx| -> Result<()> {
            games::require_game(tx, game)?;
            let Some(p) = games::player_nocase(tx, game, player)? else {
                return Err(no_player);
            };
            let loaded = crate::loaded::Loaded::new();
            let ctx = Ctx {
                tx,
                registry,
                loaded: &loaded,
                config,
                now,
                tag: &tag,
            };
            let write = crate::request::Write::PasswordHash {
                game: game.to_string(),
                player: p.id,
                phc,
            };
            let effects = crate::request::Effects {
                writes: vec![write],
                mails: Vec::new(),
                done: Done::PasswordChanged,
                answer: String::new(),
            };
            apply(&ctx, effects)?;
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
            let loaded = crate::loaded::Loaded::new();
            let ctx = Ctx {
                tx,
                registry,
                loaded: &loaded,
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

/// A game's status word in `lang` (running, paused, over).
fn status_word(lang: arbitre_core::Lang, status: GameStatus) -> String {
    match status {
        GameStatus::Running => tr(lang, "cli-status-running", &[]),
        GameStatus::Paused => tr(lang, "cli-status-paused", &[]),
        GameStatus::Over => tr(lang, "cli-status-over", &[]),
    }
}

/// One game master's command from a mail (inbound.rs `gm_mail`), in the
/// mail's transaction: the answer line in the game's language. A command
/// that cannot be done changes nothing and says why.
#[allow(clippy::too_many_arguments)]
pub(crate) fn by_mail<'r>(
    tx: &arbitre_store::Connection,
    registry: &'r crate::registry::Registry,
    config: &crate::config::DaemonConfig,
    loaded: &crate::loaded::Loaded<'r>,
    game: &str,
    cmd: &Command,
    tag: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<String> {
    let lang = GameView::new(registry, games::require_game(tx, game)?)?.lang;
    let ctx = Ctx {
        tx,
        registry,
        loaded,
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
