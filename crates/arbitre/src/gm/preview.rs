//! `PREVIEW` and `RELEASE` (issue 10): the game master sees a resolved turn
//! before the players do.
//!
//! With `PREVIEW` (the next turn) or `PREVIEW ALWAYS` / `[services]
//! preview = "always"` (every turn), the resolution commits as usual — the
//! state, the archive — but its report mails to players and observers are
//! queued with the outbox status `held`, which the sender never takes; the
//! turn row is marked `held`. The game master gets one mail with every
//! player's report exactly as it will be sent. `RELEASE` puts the mails
//! back to `pending`; `ROLLBACK` cancels them instead.
//!
//! Decision (the issue leaves it open): while a turn is held the next turn
//! is not resolved, whatever its deadline, and the deadline clock starts at
//! the release — the deadline moves back by the time the turn was held, and
//! the players are told the new deadline with the reports.

use crate::daemon::GameView;
use crate::error::{DaemonError, Result};
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use crate::registry::Registry;
use crate::request::{Decided, Write};
use crate::services::settings::PreviewPolicy;
use crate::services::texts::{svc_text, SvcMsg};
use arbitre_store::Connection;
use arbitre_store::PreviewMode as Stored;
use arbitre_store::{games, outbox, turns, GameStatus};
use chrono::{DateTime, Utc};

/// The mails a preview holds: what the players and observers would read.
pub const HELD_KINDS: &[Kind] = &[Kind::Report, Kind::Observer];

/// What `PREVIEW` sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreviewMode {
    Next,
    Always,
    Off,
}

impl crate::daemon::Daemon {
    /// `arbitre preview <game> <mode>`, as `PREVIEW [ALWAYS|OFF]` by mail
    /// (request/handle.rs).
    pub fn preview(&mut self, game: &str, mode: PreviewMode) -> Result<()> {
        let cmd = crate::request::parse::preview_command(mode);
        self.request(&crate::request::Request::gm(game, cmd))
            .map(|_| ())
    }

    /// `arbitre release <game>`: returns (turn, mails released).
    pub fn release(&mut self, game: &str) -> Result<(u32, usize)> {
        let req = crate::request::Request::gm(game, crate::services::command::Command::Release);
        match self.request(&req)? {
            crate::request::Done::Released { turn, mails } => Ok((turn, mails)),
            _ => Ok((0, 0)),
        }
    }
}

/// PREVIEW decided: the game's preview setting. Writes nothing.
pub(crate) fn set_preview(tx: &Connection, game: &str, mode: PreviewMode) -> Result<Decided<()>> {
    let g = games::require_game(tx, game)?;
    let v = match mode {
        PreviewMode::Next => Some(Stored::Next),
        PreviewMode::Always => Some(Stored::Always),
        PreviewMode::Off => None,
    };
    tracing::info!(game = %g.id, preview = ?v, "preview set by the game master");
    Ok(Decided {
        writes: vec![Write::Preview {
            game: g.id,
            mode: v,
        }],
        mails: Vec::new(),
        value: (),
    })
}

/// Called by the resolution, in its transaction, after every mail of
/// `turn` is queued: holds them when the game previews. Returns true when
/// the turn is held.
pub(crate) fn hold_if_previewed(
    c: &Connection,
    config: &crate::config::DaemonConfig,
    game: &GameView<'_>,
    turn: u32,
    now: DateTime<Utc>,
) -> Result<bool> {
    let gid = game.row.id.as_str();
    let set = games::preview(c, gid)?;
    let always =
        game.toml.services.preview == Some(PreviewPolicy::Always) || set == Some(Stored::Always);
    if !always && set != Some(Stored::Next) {
        return Ok(false);
    }
    let held = outbox::hold(c, gid, turn, HELD_KINDS)?;
    turns::set_held(c, gid, turn, true)?;
    if set == Some(Stored::Next) {
        games::set_preview(c, gid, None)?;
    }
    let lang = game.lang;
    if let Some(gm) = &game.toml.gm_email {
        let mut body = svc_text(lang, &SvcMsg::PreviewIntro { turn, held });
        for r in outbox::held_reports(c, gid, turn)? {
            let who = r.mail.player.as_deref().unwrap_or("?");
            body.push_str(&format!(
                "\n\n{}\n{}\n",
                svc_text(
                    lang,
                    &SvcMsg::PreviewPlayer {
                        player: who,
                        email: &r.mail.recipient
                    }
                ),
                r.mail.subject
            ));
            body.push_str(&r.mail.body);
        }
        let subject = svc_text(lang, &SvcMsg::PreviewSubject { game: gid, turn });
        let redo = turns::times_rolled_back(c, gid, turn)?;
        let d = Draft::new(Kind::Gm, gm, subject, body)
            .about(gid, turn, None)
            .discriminator(format!("preview{redo}"));
        queue(c, config, now, d)?;
    }
    tracing::info!(
        game = gid,
        turn,
        held,
        "turn held for the game master's preview"
    );
    Ok(true)
}

/// RELEASE decided: the held mails go out, the deadline moves back by the
/// time held (the players told when it was over a minute). Returns the
/// turn, the mails released and the answer line. Writes nothing.
pub(crate) fn release(
    tx: &Connection,
    registry: &Registry,
    game: &str,
    now: DateTime<Utc>,
) -> Result<Decided<(u32, usize, String)>> {
    let g = GameView::new(registry, games::require_game(tx, game)?)?;
    let gid = g.row.id.as_str();
    let lang = g.lang;
    let Some(turn) = turns::held(tx, gid)? else {
        return Err(DaemonError::Invalid(svc_text(lang, &SvcMsg::NothingHeld)));
    };
    let n = outbox::count_held(tx, gid)?;
    let mut writes = vec![Write::Release {
        game: gid.to_string(),
        turn,
        at: now.timestamp(),
    }];
    let mut mails = Vec::new();
    let mut row = g.row.clone();
    // The deadline clock starts now: it moves back by the time held.
    let resolved_at = turns::get(tx, gid, turn)?
        .map(|r| r.resolved_at)
        .unwrap_or(now.timestamp());
    let shift = (now.timestamp() - resolved_at).max(0);
    if let (GameStatus::Running, Some(d)) = (g.row.status, g.row.deadline) {
        let d = d + shift;
        writes.push(Write::Deadline {
            game: gid.to_string(),
            deadline: Some(d),
        });
        row.deadline = Some(d);
        let when = DateTime::from_timestamp(d, 0)
            .map(|d| g.schedule.show(d))
            .unwrap_or_default();
        // More than a minute held: the reports' footers are out of date.
        if shift > 60 {
            let subject = text(lang, &Msg::ExtendedSubject { game: gid });
            let body = signed(
                lang,
                &text(
                    lang,
                    &Msg::Extended {
                        game: gid,
                        when: &when,
                    },
                ),
            );
            for p in games::players(tx, gid)? {
                let d = Draft::new(Kind::Notice, &p.email, subject.clone(), body.clone())
                    .about(gid, turn + 1, Some(&p.id))
                    .discriminator(format!("release.{}", now.timestamp()));
                mails.push(d);
            }
        }
    }
    tracing::info!(game = gid, turn, mails = n, "held turn released");
    // The answer shows the deadline as it will be.
    let answer = released_text(&GameView::new(registry, row)?, turn, n);
    Ok(Decided {
        writes,
        mails,
        value: (turn, n, answer),
    })
}

/// The RELEASE answer line, with the next deadline.
pub fn released_text(g: &GameView<'_>, turn: u32, mails: usize) -> String {
    let when = g.show_deadline().unwrap_or_default();
    svc_text(
        g.lang,
        &SvcMsg::Released {
            turn,
            mails,
            when: &when,
        },
    )
}
