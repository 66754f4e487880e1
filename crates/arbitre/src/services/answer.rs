//! Answers to the players' service commands (`RESEND`, `HISTORY`,
//! `STATUS`, `TIMEZONE`, `PRESS`, `ABSENCE`), built inside the inbound
//! mail's transaction so they are queued exactly once with the journal row.
//!
//! One reply lists every command's answer in the order written; `RESEND`
//! adds the report itself as a second mail (with the ruleset's attachments
//! and the JSON report, like the original), `PRESS` the relayed mails
//! (press.rs). Their Message-IDs carry the answered mail's hash: the
//! original report's ID stays unique.
//!
//! Commands run in line order, so `TIMEZONE` then `STATUS` in one mail
//! shows the deadline in the new zone. Deadlines and dates are shown in
//! the asker's zone. GM commands sent by a player are refused.

use super::command::{Command, CommandError, Reason, Role};
use super::json_report::{ReportFacts, ViewerKind};
use super::texts::{reason, svc_text, SvcMsg};
use super::zone::show_in;
use crate::config::DaemonConfig;
use crate::daemon::GameView;
use crate::error::Result;
use crate::outgoing::{signed, Draft, Kind};
use arbitre_core::{Lang, PlayerId, Viewer};
use arbitre_store::Connection;
use arbitre_store::{games, orders, turns, GameStatus};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;

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
    answer_mail(c, config, game, who, commands, errors, None)
}

/// What the player commands that change things need from the mail.
pub struct MailFacts<'a> {
    /// The mail's full SHA-256 (archive rows).
    pub sha: &'a str,
    /// The text after a `PRESS` line.
    pub press_text: Option<&'a str>,
    pub now: DateTime<Utc>,
    /// For the commands handled by the request pipeline (request/).
    pub registry: &'a crate::registry::Registry,
}

/// [`answer`], with the mail's facts for `TIMEZONE`, `PRESS` and
/// `ABSENCE` (without them, as for the game master's mail, those are
/// answered as not offered).
pub fn answer_mail(
    c: &Connection,
    config: &DaemonConfig,
    game: &GameView<'_>,
    who: &Asker<'_>,
    commands: &[(usize, Command)],
    errors: &[CommandError],
    mail: Option<&MailFacts<'_>>,
) -> Result<Answers> {
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let mut out = Answers {
        text: String::new(),
        mails: Vec::new(),
    };
    enum Item<'a> {
        Cmd(&'a Command),
        Bad(&'a CommandError),
    }
    let mut items: Vec<(usize, Item<'_>)> = errors.iter().map(|e| (e.line, Item::Bad(e))).collect();
    items.extend(commands.iter().map(|(l, c)| (*l, Item::Cmd(c))));
    items.sort_by_key(|(l, _)| *l);
    let mut zone = super::timezone::zone_of_player(c, gid, who.player, game.schedule.tz)?;
    let mut lines = Vec::new();
    for (_, item) in items {
        let text = match (item, mail) {
            // `TIMEZONE DEFAULT`: the parser knows only zone names (timezone.rs).
            (
                Item::Bad(CommandError {
                    reason: Reason::UnknownZone(z),
                    ..
                }),
                Some(_),
            ) if super::timezone::default_word(z) => {
                let (t, z) = super::timezone::set(c, game, who.player, None)?;
                zone = z;
                t
            }
            (Item::Bad(e), _) => svc_text(
                lang,
                &SvcMsg::BadCommand {
                    line: e.line,
                    text: &e.text,
                    why: reason(lang, &e.reason),
                },
            ),
            (Item::Cmd(cmd), _) if cmd.role() == Role::GameMaster => svc_text(
                lang,
                &SvcMsg::GmOnly {
                    command: cmd.name(),
                },
            ),
            (Item::Cmd(Command::Resend { turn }), _) => resend(
                c,
                config,
                game,
                who,
                turn.unwrap_or(game.row.turn),
                zone,
                &mut out.mails,
            )?,
            (Item::Cmd(Command::History), _) => history(c, game, zone)?,
            // Issue 17 item 2: HELP inside a block, with the game's facts.
            (Item::Cmd(Command::Help), _) => {
                let notes = game.toml.notes.as_deref();
                let facts = super::help::GameHelp {
                    game: gid,
                    ruleset_name: game.engine.info().name,
                    turn: game.row.turn + 1,
                    deadline: game.deadline().map(|d| super::zone::show_in(d, zone)),
                    notes,
                };
                super::help::help_text(lang, Some(&facts))
            }
            (Item::Cmd(Command::Status), _) => {
                let today = mail.map(|m| m.now.with_timezone(&game.schedule.tz).date_naive());
                status(c, game, zone, who.player, today)?
            }
            (Item::Cmd(Command::Timezone(tz)), Some(_)) => {
                let (t, z) = super::timezone::set(c, game, who.player, Some(*tz))?;
                zone = z;
                t
            }
            (Item::Cmd(Command::Press { to, anonymous }), Some(m)) => {
                let p = super::press::Press {
                    sender: who.player,
                    to,
                    anonymous: *anonymous,
                    text: m.press_text,
                    sha: m.sha,
                    now: m.now,
                };
                super::press::relay(c, game, &p, &mut out.mails)?
            }
            (Item::Cmd(Command::Absence { from, to }), Some(m)) => {
                super::absence::declare(c, config, game, who.player, *from, *to, m.sha, m.now)?
            }
            // A player command of the request pipeline (request/handle.rs):
            // decided, then written, in this mail's transaction.
            (Item::Cmd(cmd), Some(m)) if crate::request::handle::handles(cmd) => {
                use crate::request::{apply, handle, Asker, Ctx, Request};
                let ctx = Ctx {
                    tx: c,
                    registry: m.registry,
                    config,
                    now: m.now,
                    tag: who.tag,
                };
                let req = Request::Command {
                    game: gid.to_string(),
                    by: Asker::Player(who.player.to_string()),
                    command: cmd.clone(),
                };
                match handle(&ctx, &req).and_then(|e| apply(&ctx, e)) {
                    Ok((_, t)) => t,
                    Err(crate::error::DaemonError::Invalid(why)) => {
                        let colon = if lang == Lang::Fr { " :" } else { ":" };
                        format!("{}{colon} {why}", cmd.name())
                    }
                    Err(e) => return Err(e),
                }
            }
            (Item::Cmd(other), _) => not_served(lang, other.name()),
        };
        lines.push(text);
    }
    out.text = lines.join("\n\n");
    Ok(out)
}

pub fn not_served(lang: Lang, name: &str) -> String {
    crate::i18n::tr(lang, "not-served", &crate::fl_args![name])
}

fn resend(
    c: &Connection,
    config: &DaemonConfig,
    game: &GameView<'_>,
    who: &Asker<'_>,
    turn: u32,
    zone: Tz,
    mails: &mut Vec<Draft>,
) -> Result<String> {
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let Some(row) = turns::get(c, gid, turn)?.filter(|_| turn <= game.row.turn) else {
        return Ok(svc_text(
            lang,
            &SvcMsg::NoSuchTurn {
                turn,
                last: game.row.turn,
            },
        ));
    };
    let report = game
        .engine
        .report(&row.state, &Viewer::Player(PlayerId::new(who.player)))
        .map_err(|e| game.engine_err(e))?;
    let subject = svc_text(lang, &SvcMsg::ResendSubject { game: gid, turn });
    let mut d = Draft::new(
        Kind::Notice,
        who.to,
        subject.clone(),
        signed(lang, &report.body),
    )
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
        deadline: game
            .deadline()
            .filter(|_| turn == game.row.turn)
            .map(|d| (d, zone)),
        outcome: None,
    };
    // The calendar stamp is the turn's resolution time: the same RESEND
    // gives the same bytes, and the mail decision needs no clock.
    let stamp = DateTime::<Utc>::from_timestamp(row.resolved_at, 0).unwrap_or_default();
    d.attachments
        .extend(super::report_attachments(&facts, config.domain(), stamp));
    mails.push(d);
    Ok(subject)
}

fn history(c: &Connection, game: &GameView<'_>, zone: Tz) -> Result<String> {
    let lang = game.lang;
    let mut lines = vec![svc_text(
        lang,
        &SvcMsg::HistorySubject { game: &game.row.id },
    )];
    let mut any = false;
    for t in 1..=game.row.turn {
        if let Some(row) = turns::get(c, &game.row.id, t)? {
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
fn status(
    c: &Connection,
    game: &GameView<'_>,
    zone: Tz,
    asker: &str,
    today: Option<chrono::NaiveDate>,
) -> Result<String> {
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let turn = game.row.turn + 1;
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
    if let Some(line) = super::absence::status_line(c, game, asker, today)? {
        lines.push(line);
    }
    if game.toml.services.show_orders_sent() {
        let state = turns::latest(c, gid)?;
        let sent = orders::latest(c, gid, turn)?;
        let (mut have, mut missing) = (Vec::new(), Vec::new());
        for p in game
            .engine
            .players(&state.state)
            .map_err(|e| game.engine_err(e))?
        {
            // An ejected seat is not awaited (gm/seats.rs).
            if !p.active || crate::gm::seats::is_ejected(c, gid, p.id.as_str(), turn)? {
                continue;
            }
            if sent.contains_key(p.id.as_str()) {
                have.push(p.id.as_str().to_string());
            } else {
                missing.push(p.id.as_str().to_string());
            }
        }
        let dash = |v: Vec<String>| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(", ")
            }
        };
        lines.push(svc_text(
            lang,
            &SvcMsg::StatusSent {
                players: &dash(have),
            },
        ));
        lines.push(svc_text(
            lang,
            &SvcMsg::StatusMissing {
                players: &dash(missing),
            },
        ));
    }
    Ok(lines.join("\n"))
}
