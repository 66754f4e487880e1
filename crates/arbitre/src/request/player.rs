//! The players' service commands in the request pipeline (issue 16 item 1;
//! the services themselves are issue 10's): RESEND, HISTORY, STATUS, HELP,
//! TIMEZONE, PRESS and ABSENCE, each a [`Request::Service`] decided over the
//! [`Ctx`] into [`Effects`] that [`super::apply`] writes.
//!
//! [`serve`] answers the command lines of one mail in line order, applying
//! each request before deciding the next (`TIMEZONE` then `STATUS` shows
//! the new zone; an `ABSENCE` before `STATUS` shows the moved deadline).
//! The game master's `STATUS` and `HISTORY` are decided here too.
//!
//! Issue 17 item 9, answers that say what happened:
//! - `RESEND` mails the report again as it was mailed then: its text with
//!   its deadline line, its attachments with its `.ics` (the outbox row of
//!   the report, `outbox::mailed`). Once that mail is older than
//!   `keep_sent_mail_turns` (issue 22 item 4) its text goes as it was and
//!   its attachments are drawn again from the turn's state. A turn not resolved yet (the open one,
//!   a later one, or one held for the game master's preview) is answered
//!   with the last resolved turn's report and a line saying so.
//! - `STATUS` tells who is ready from the same [`crate::turn::readiness`]
//!   early resolution asks: orders in force without `READY` (Scrambled
//!   Nations) are listed as not ready.
//!
//! Every one only decides; `ABSENCE` too (services/absence.rs `declare`
//! returns the absence's row, the deadline it moves, the marks and the
//! notices as values, written by [`apply`]).

use super::handle::{apply, handle, Ctx, Done, Effects, Write};
use super::{Request, ServiceMail};
use crate::daemon::GameView;
use crate::error::{DaemonError, Result};
use crate::outgoing::{signed, Draft, Kind};
use crate::services::command::{Command, CommandError};
use crate::services::json_report::{ReportFacts, ViewerKind};
use crate::services::texts::{reason, svc_text, SvcMsg};
use crate::services::zone::show_in;
use crate::services::{absence, help, press, timezone};
use arbitre_core::{Attachment, Lang, PlayerId, Viewer};
use arbitre_store::{games, outbox, turns, GameStatus, MailKind};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// A mail's command lines, served: the reply's text (without signature)
/// and the further mails (RESEND's report, the relayed press), in the
/// order of the lines that caused them.
pub struct Served {
    pub text: String,
    pub mails: Vec<Draft>,
}

/// Serves `requests` (from [`super::parse::player_requests`]) and the
/// refused lines `errors` of one mail, in line order. Each request is
/// decided and written before the next; its mails are returned, not
/// queued, so the caller queues them after its reply.
pub fn serve(
    ctx: &Ctx<'_, '_>,
    lang: Lang,
    requests: &[(usize, Request)],
    errors: &[CommandError],
) -> Result<Served> {
    enum Item<'a> {
        Req(&'a Request),
        Bad(&'a CommandError),
    }
    let mut items: Vec<(usize, Item<'_>)> = errors.iter().map(|e| (e.line, Item::Bad(e))).collect();
    items.extend(requests.iter().map(|(l, r)| (*l, Item::Req(r))));
    items.sort_by_key(|(l, _)| *l);
    let mut lines = Vec::new();
    let mut mails = Vec::new();
    for (_, item) in items {
        let text = match item {
            Item::Bad(e) => bad_line(lang, e),
            Item::Req(req) => match handle(ctx, req) {
                Ok(mut e) => {
                    let m = std::mem::take(&mut e.mails);
                    let (_, t) = apply(ctx, e)?;
                    mails.extend(m);
                    t
                }
                Err(DaemonError::Invalid(why)) => {
                    let colon = if lang == Lang::Fr { " :" } else { ":" };
                    format!("{}{colon} {why}", name_of(req))
                }
                Err(e) => return Err(e),
            },
        };
        lines.push(text);
    }
    Ok(Served {
        text: lines.join("\n\n"),
        mails,
    })
}

/// The keyword a refused request is answered under.
pub(super) fn name_of(req: &Request) -> &'static str {
    match req {
        Request::Command { command, .. } | Request::Service { command, .. } => command.name(),
        Request::Join(_) => "JOIN",
        Request::Orders(_) => "ORDERS",
        Request::Check(_) => "CHECK",
    }
}

/// A refused command line, with its line and the reason.
pub fn bad_line(lang: Lang, e: &CommandError) -> String {
    svc_text(
        lang,
        &SvcMsg::BadCommand {
            line: e.line,
            text: &e.text,
            why: reason(lang, &e.reason),
        },
    )
}

/// The answer to a command the asker may not use here.
pub fn not_served(lang: Lang, name: &str) -> String {
    crate::i18n::tr(lang, "not-served", &crate::fl_args![name])
}

/// Decides one service command of `asker` (a player id, or `"gm"` for the
/// game master's STATUS and HISTORY).
pub(super) fn decide<'r>(
    ctx: &Ctx<'_, 'r>,
    g: &GameView<'r>,
    asker: &str,
    command: &Command,
    mail: &ServiceMail,
) -> Result<Effects> {
    let c = ctx.tx;
    let lang = g.lang;
    let gid = g.row.id.as_str();
    let zone = timezone::zone_of_player(c, gid, asker, g.schedule.tz)?;
    let answered = |t: String| Ok(Effects::answered(Done::Served, t));
    match command {
        Command::Resend { turn } => resend(ctx, g, asker, *turn, zone, mail),
        Command::History => answered(history(ctx, g, zone)?),
        Command::Status => answered(status(ctx, g, zone, asker)?),
        // Issue 17 item 2: HELP inside a block, with the game's facts.
        Command::Help => {
            let facts = help::GameHelp {
                game: gid,
                ruleset_name: g.engine.info().name,
                turn: g.row.turn + 1,
                deadline: g.deadline().map(|d| show_in(d, zone)),
                notes: g.toml.notes.as_deref(),
            };
            answered(help::help_text(lang, Some(&facts)))
        }
        Command::Timezone(_) | Command::TimezoneDefault => {
            let wanted = match command {
                Command::Timezone(z) => Some(*z),
                _ => None,
            };
            let change = timezone::decide(c, g, wanted)?;
            tracing::info!(game = gid, player = asker, zone = ?change.stored, "time zone set");
            Ok(Effects {
                writes: vec![Write::Timezone {
                    game: gid.to_string(),
                    player: asker.to_string(),
                    zone: change.stored.map(|z| z.name().to_string()),
                }],
                mails: Vec::new(),
                done: Done::Served,
                answer: change.answer,
            })
        }
        Command::Press { to, anonymous } => {
            let p = press::Press {
                sender: asker,
                to,
                anonymous: *anonymous,
                text: mail.press_text.as_deref(),
                sha: &mail.sha,
                now: ctx.now,
            };
            let relay = press::relay(c, g, &p)?;
            Ok(Effects {
                writes: relay.archive.map(Write::Press).into_iter().collect(),
                mails: relay.mails,
                done: Done::Served,
                answer: relay.answer,
            })
        }
        Command::Absence { from, to } => {
            let d = absence::declare(
                c, ctx.config, ctx.loaded, g, asker, *from, *to, &mail.sha, ctx.now,
            )?;
            Ok(Effects {
                writes: d.writes,
                mails: d.mails,
                done: Done::Served,
                answer: d.value,
            })
        }
        other => Ok(Effects::answered(
            Done::NotServed,
            not_served(lang, other.name()),
        )),
    }
}

/// RESEND: the report of `asked` (the last resolved turn when `None`) as
/// it was mailed, to the address that asked.
fn resend(
    ctx: &Ctx<'_, '_>,
    g: &GameView<'_>,
    player: &str,
    asked: Option<u32>,
    zone: Tz,
    mail: &ServiceMail,
) -> Result<Effects> {
    let c = ctx.tx;
    let lang = g.lang;
    let gid = g.row.id.as_str();
    // A turn held for the game master's preview is not resolved for the
    // players yet.
    let last = match turns::held(c, gid)? {
        Some(t) if t == g.row.turn => g.row.turn.saturating_sub(1),
        _ => g.row.turn,
    };
    let wanted = asked.unwrap_or(last);
    let (turn, not_yet) = if wanted > last {
        (last, Some(wanted))
    } else {
        (wanted, None)
    };
    let Some(row) = turns::get(c, gid, turn)? else {
        let t = svc_text(lang, &SvcMsg::NoSuchTurn { turn, last });
        return Ok(Effects::answered(Done::Served, t));
    };
    let subject = svc_text(lang, &SvcMsg::ResendSubject { game: gid, turn });
    let (body, attachments) = match outbox::mailed(c, gid, turn, player, MailKind::Report)? {
        // Past `keep_sent_mail_turns` (issue 22 item 4) only the text
        // mailed is kept: it goes again as it was, with the attachments
        // drawn again from the turn's state.
        Some(sent) if sent.pruned_at.is_some() => {
            let (_, attachments) = rebuilt(ctx, g, player, turn, &row, zone)?;
            (sent.mail.body, attachments)
        }
        Some(sent) => (
            sent.mail.body,
            arbitre_mail::outbound::attachments_of(&sent.mail.raw)
                .into_iter()
                .map(|a| Attachment {
                    name: a.name,
                    mime: a.mime,
                    content: a.content,
                })
                .collect(),
        ),
        // No report mail in the outbox (a seat that joined after the
        // turn, or a mail the administrator dropped): written again from
        // the turn's state, with the deadline known now.
        None => rebuilt(ctx, g, player, turn, &row, zone)?,
    };
    let mut d = Draft::new(Kind::Notice, &mail.reply_to, subject.clone(), body)
        .about(gid, turn, Some(player))
        .discriminator(format!("resend.{}", ctx.tag));
    d.attachments = attachments;
    let answer = match not_yet {
        Some(asked) => format!(
            "{}\n{subject}",
            svc_text(
                lang,
                &SvcMsg::NotResolvedYet {
                    turn: asked,
                    last: turn
                }
            )
        ),
        None => subject,
    };
    Ok(Effects {
        writes: Vec::new(),
        mails: vec![d],
        done: Done::Served,
        answer,
    })
}

/// A report written again from the turn's state (the text with the
/// deadline line of a report mail, the ruleset's attachments, the JSON
/// report, and the `.ics` when it is the last turn and has a deadline).
fn rebuilt(
    ctx: &Ctx<'_, '_>,
    g: &GameView<'_>,
    player: &str,
    turn: u32,
    row: &arbitre_store::TurnRow,
    zone: Tz,
) -> Result<(String, Vec<Attachment>)> {
    let lang = g.lang;
    let gid = g.row.id.as_str();
    let deadline = g.deadline().filter(|_| turn == g.row.turn);
    // The report prints the deadline it was mailed with when it still
    // holds (issue 17 item 9); an older turn's has passed. The game's first
    // turn row is its setup (turn 0, or a position's turn): no evaluation
    // ran, as the report mailed at creation said.
    let mut facts = crate::services::zone::report_facts(deadline, zone);
    facts.setup_only = turn == 0 || arbitre_store::turns::get(ctx.tx, gid, turn - 1)?.is_none();
    let report = g
        .engine
        .report_with(&row.state, &Viewer::Player(PlayerId::new(player)), &facts)
        .map_err(|e| g.engine_err(e))?;
    let body = match deadline {
        Some(d) => {
            let when = show_in(d, zone);
            let line = crate::messages::text(lang, &crate::messages::Msg::Deadline { when: &when });
            format!("{}\n\n{line}", report.body.trim_end())
        }
        None => report.body.clone(),
    };
    let facts = ReportFacts {
        game: gid,
        ruleset: &g.row.ruleset,
        lang,
        turn,
        viewer: ViewerKind::Player,
        player: Some(player),
        report: &report,
        deadline: deadline.map(|d| (d, zone)),
        outcome: None,
    };
    // The calendar stamp is the turn's resolution time: the same RESEND
    // gives the same bytes, and the decision needs no clock.
    let stamp = DateTime::<Utc>::from_timestamp(row.resolved_at, 0).unwrap_or_default();
    let mut attachments = report.attachments.clone();
    attachments.extend(crate::services::report_attachments(
        &facts,
        ctx.config.domain(),
        stamp,
    ));
    Ok((signed(lang, &body), attachments))
}

fn history(ctx: &Ctx<'_, '_>, g: &GameView<'_>, zone: Tz) -> Result<String> {
    let lang = g.lang;
    let mut lines = vec![svc_text(lang, &SvcMsg::HistorySubject { game: &g.row.id })];
    let mut any = false;
    for t in 1..=g.row.turn {
        if let Some(row) = turns::get(ctx.tx, &g.row.id, t)? {
            let when = DateTime::from_timestamp(row.resolved_at, 0)
                .map(|d| show_in(d, zone))
                .unwrap_or_default();
            lines.push(svc_text(
                lang,
                &SvcMsg::HistoryLine {
                    turn: t,
                    when: &when,
                },
            ));
            any = true;
        }
    }
    if !any {
        lines.push(svc_text(lang, &SvcMsg::HistoryEmpty));
    }
    Ok(lines.join("\n"))
}

/// The deadline and pause are read again from the store: an `ABSENCE`
/// earlier in the same mail may have moved the deadline.
fn status<'r>(ctx: &Ctx<'_, 'r>, g: &GameView<'r>, zone: Tz, asker: &str) -> Result<String> {
    let c = ctx.tx;
    let lang = g.lang;
    let gid = g.row.id.as_str();
    let turn = g.row.turn + 1;
    let mut lines = vec![
        svc_text(lang, &SvcMsg::StatusSubject { game: gid }),
        svc_text(lang, &SvcMsg::StatusTurn { turn }),
    ];
    let row = games::require_game(c, gid)?;
    let deadline = row
        .deadline
        .and_then(|t| DateTime::from_timestamp(t, 0))
        .map(|d| show_in(d, zone));
    match (row.status, deadline) {
        (GameStatus::Paused, _) => lines.push(svc_text(lang, &SvcMsg::StatusPaused)),
        (_, Some(when)) => lines.push(svc_text(lang, &SvcMsg::StatusDeadline { when: &when })),
        (_, None) => lines.push(svc_text(lang, &SvcMsg::StatusNoDeadline)),
    }
    let today = ctx.now.with_timezone(&g.schedule.tz).date_naive();
    if let Some(line) = absence::status_line(c, g, asker, Some(today))? {
        lines.push(line);
    }
    if g.toml.services.show_orders_sent() {
        // The very reading early resolution makes (turn.rs): a seat is
        // ready, has orders in force without READY, or is awaited.
        let r = crate::turn::readiness(c, g, ctx.loaded)?;
        let dash = |v: &[String]| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(", ")
            }
        };
        lines.push(svc_text(
            lang,
            &SvcMsg::StatusSent {
                players: &dash(&r.sent),
            },
        ));
        if !r.not_ready.is_empty() {
            lines.push(svc_text(
                lang,
                &SvcMsg::StatusNotReady {
                    players: &dash(&r.not_ready),
                },
            ));
        }
        lines.push(svc_text(
            lang,
            &SvcMsg::StatusMissing {
                players: &dash(&r.missing),
            },
        ));
    }
    Ok(lines.join("\n"))
}
