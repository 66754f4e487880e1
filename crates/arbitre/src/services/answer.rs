//! Answers to the players' service commands (`RESEND`, `HISTORY`,
//! `STATUS`), built inside the inbound mail's transaction so they are
//! queued exactly once with the journal row.
//!
//! One reply lists every command's answer in the order written; `RESEND`
//! adds the report itself as a second mail (with the ruleset's attachments
//! and the JSON report, like the original). Its Message-ID carries the
//! answered mail's hash: the original report's ID stays unique.
//!
//! Commands not yet served by the daemon (`TIMEZONE`, `PRESS`, `ABSENCE`
//! need storage that does not exist yet) are answered as such, never
//! silently dropped; GM commands sent by a player are refused.

use super::command::{Command, CommandError, Role};
use super::json_report::{ReportFacts, ViewerKind};
use super::texts::{reason, svc_text, SvcMsg};
use crate::config::DaemonConfig;
use crate::daemon::GameView;
use crate::error::Result;
use crate::outgoing::{signed, Draft, Kind};
use arbitre_core::{Lang, PlayerId, Viewer};
use arbitre_store::{orders, turns, GameStatus};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// What the commands of one mail cause.
pub struct Answers {
    /// The text of the commands reply (without signature).
    pub text: String,
    /// Further mails (RESEND's report).
    pub mails: Vec<Draft>,
}

pub struct Asker<'a> {
    pub player: &'a str,
    pub to: &'a str,
    /// The answered mail's hash prefix, for unique Message-IDs.
    pub tag: &'a str,
}

pub fn answer(
    c: &Connection,
    config: &DaemonConfig,
    game: &GameView<'_>,
    who: &Asker<'_>,
    commands: &[(usize, Command)],
    errors: &[CommandError],
) -> Result<Answers> {
    let lang = game.lang;
    let mut out = Answers { text: String::new(), mails: Vec::new() };
    let mut lines: Vec<(usize, String)> = errors
        .iter()
        .map(|e| (e.line, svc_text(lang, &SvcMsg::BadCommand { line: e.line, text: &e.text, why: reason(lang, &e.reason) })))
        .collect();
    for (line, cmd) in commands {
        let text = match cmd {
            _ if cmd.role() == Role::GameMaster => svc_text(lang, &SvcMsg::GmOnly { command: cmd.name() }),
            Command::Resend { turn } => resend(c, config, game, who, turn.unwrap_or(game.row.turn), &mut out.mails)?,
            Command::History => history(c, game)?,
            Command::Status => status(c, game)?,
            other => not_served(lang, other.name()),
        };
        lines.push((*line, text));
    }
    lines.sort_by_key(|(l, _)| *l);
    out.text = lines.into_iter().map(|(_, t)| t).collect::<Vec<_>>().join("\n\n");
    Ok(out)
}

pub fn not_served(lang: Lang, name: &str) -> String {
    match lang {
        Lang::En => format!("{name}: this referee does not offer this service yet."),
        Lang::Fr => format!("{name} : cet arbitre ne propose pas encore ce service."),
        Lang::De => format!("{name}: dieser Spielleiter bietet diesen Dienst noch nicht an."),
    }
}

fn resend(
    c: &Connection,
    config: &DaemonConfig,
    game: &GameView<'_>,
    who: &Asker<'_>,
    turn: u32,
    mails: &mut Vec<Draft>,
) -> Result<String> {
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let Some(row) = turns::get(c, gid, turn)?.filter(|_| turn <= game.row.turn) else {
        return Ok(svc_text(lang, &SvcMsg::NoSuchTurn { turn, last: game.row.turn }));
    };
    let report = game
        .engine
        .report(&row.state, &Viewer::Player(PlayerId::new(who.player)))
        .map_err(|e| game.engine_err(e))?;
    let subject = svc_text(lang, &SvcMsg::ResendSubject { game: gid, turn });
    let mut d = Draft::new(Kind::Notice, who.to, subject.clone(), signed(lang, &report.body))
        .about(gid, turn, Some(who.player))
        .discriminator(format!("resend.{}", who.tag));
    d.attachments = report.attachments.clone();
    let facts = ReportFacts {
        game: gid,
        ruleset: &game.row.ruleset,
        lang,
        turn,
        viewer: ViewerKind::Player,
        player: Some(who.player),
        report: &report,
        // The deadline that follows the report: only the last turn's is known.
        deadline: game.deadline().filter(|_| turn == game.row.turn).map(|d| (d, game.schedule.tz)),
        outcome: None,
    };
    // The calendar stamp is the turn's resolution time: the same RESEND
    // gives the same bytes, and the mail decision needs no clock.
    let stamp = DateTime::<Utc>::from_timestamp(row.resolved_at, 0).unwrap_or_default();
    d.attachments.extend(super::report_attachments(&facts, config.domain(), stamp));
    mails.push(d);
    Ok(subject)
}

fn history(c: &Connection, game: &GameView<'_>) -> Result<String> {
    let lang = game.lang;
    let mut lines = vec![svc_text(lang, &SvcMsg::HistorySubject { game: &game.row.id })];
    let mut any = false;
    for t in 1..=game.row.turn {
        if let Some(row) = turns::get(c, &game.row.id, t)? {
            let when = DateTime::from_timestamp(row.resolved_at, 0).map(|d| game.schedule.show(d)).unwrap_or_default();
            lines.push(svc_text(lang, &SvcMsg::HistoryLine { turn: t, when: &when }));
            any = true;
        }
    }
    if !any {
        lines.push(svc_text(lang, &SvcMsg::HistoryEmpty));
    }
    Ok(lines.join("\n"))
}

fn status(c: &Connection, game: &GameView<'_>) -> Result<String> {
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let turn = game.row.turn + 1;
    let mut lines = vec![svc_text(lang, &SvcMsg::StatusSubject { game: gid }), svc_text(lang, &SvcMsg::StatusTurn { turn })];
    match (game.row.status, game.show_deadline()) {
        (GameStatus::Paused, _) => lines.push(svc_text(lang, &SvcMsg::StatusPaused)),
        (_, Some(when)) => lines.push(svc_text(lang, &SvcMsg::StatusDeadline { when: &when })),
        (_, None) => lines.push(svc_text(lang, &SvcMsg::StatusNoDeadline)),
    }
    if game.toml.services.show_orders_sent() {
        let state = turns::latest(c, gid)?;
        let sent = orders::latest(c, gid, turn)?;
        let (mut have, mut missing) = (Vec::new(), Vec::new());
        for p in game.engine.players(&state.state).map_err(|e| game.engine_err(e))? {
            if !p.active {
                continue;
            }
            if sent.contains_key(p.id.as_str()) {
                have.push(p.id.as_str().to_string());
            } else {
                missing.push(p.id.as_str().to_string());
            }
        }
        let dash = |v: Vec<String>| if v.is_empty() { "-".to_string() } else { v.join(", ") };
        lines.push(svc_text(lang, &SvcMsg::StatusSent { players: &dash(have) }));
        lines.push(svc_text(lang, &SvcMsg::StatusMissing { players: &dash(missing) }));
    }
    Ok(lines.join("\n"))
}
