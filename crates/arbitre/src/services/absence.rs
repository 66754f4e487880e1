//! `ABSENCE <from> <to>` (DE `ABWESENHEIT`): a player declares days on
//! which they cannot play, and the deadline moves past them (issue 10).
//!
//! The days are inclusive and read in the game's time zone. An absence is
//! checked against the game master's limits (`[services]
//! absence_max_days`, `absence_max_per_game`; none allowed by default),
//! must not be over already and must not overlap one the player declared
//! before.
//!
//! How deadlines move (the issue leaves it to "the game's rules"; this is
//! what njudge-style judges do): when the game's deadline falls on a day of
//! an accepted absence of a seat still in play, it moves to the day after
//! the absence's last day, at the same local time. Each absence moves a
//! deadline once: a player cannot hold the game for several turns with one
//! absence (if the game resolves early during the absence, the following
//! deadlines are not moved again). Every player (and the game master) is
//! told, with the new deadline in their own zone and an updated `.ics`;
//! the absent player is named unless the game hides who has sent orders
//! (`show_orders_sent = false`: a blind game does not tell who is away
//! either).
//!
//! [`move_deadline`] is the one hook the deadline code calls: when an
//! absence is accepted (the current deadline), and when a resolution
//! computes the next deadline (turn.rs). Absent players count normally for
//! early resolution: orders they sent before leaving make them ready; if
//! they sent none, the game waits for the moved deadline.
//!
//! "Once" is recorded in the `reminders` table (the store's ledger of
//! things that fire once per player), under turn 0 and the label
//! `absence#<id>`, in the same transaction as the moved deadline: no schema
//! change was needed.

use super::ics;
use super::settings::AbsenceRefusal;
use super::texts::{svc_text, SvcMsg};
use super::timezone::{player_zones, zone_of};
use super::zone::show_in;
use crate::config::DaemonConfig;
use crate::daemon::GameView;
use crate::error::Result;
use crate::fl_args;
use crate::i18n::tr;
use crate::loaded::Loaded;
use crate::outgoing::{queue, signed, Draft, Kind};
use crate::request::{Decided, Write};
use arbitre_core::{Attachment, Lang};
use arbitre_store::absences::{self, AbsenceRow};
use arbitre_store::Connection;
use arbitre_store::{games, reminders, GameStatus};
use chrono::{DateTime, Duration, NaiveDate, Utc};

/// The label under which a used absence is recorded.
pub(crate) fn used_label(id: i64) -> String {
    format!("absence#{id}")
}

/// An `ABSENCE` line, decided (issue 16 item 1): the answer for the
/// player, and when the absence is accepted its row, the current deadline
/// moved if it falls in the absence, the absences that move used, and the
/// notices. Nothing is written here: request::apply writes the
/// [`Write`]s and queues the mails.
#[allow(clippy::too_many_arguments)]
pub fn declare<'a>(
    c: &Connection,
    config: &DaemonConfig,
    loaded: &Loaded<'a>,
    game: &GameView<'a>,
    player: &str,
    from: NaiveDate,
    to: NaiveDate,
    sha: &str,
    now: DateTime<Utc>,
) -> Result<Decided<String>> {
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let answered = |value| Decided {
        writes: Vec::new(),
        mails: Vec::new(),
        value,
    };
    let today = now.with_timezone(&game.schedule.tz).date_naive();
    if to < today {
        return Ok(answered(text(lang, &AbsenceMsg::Over { to: &day(to) })));
    }
    let days = (to - from).num_days() + 1;
    let taken = absences::count(c, gid, player)?;
    if let Err(r) = game.toml.services.absence_allowed(days, taken) {
        return Ok(answered(match r {
            AbsenceRefusal::NotAllowed | AbsenceRefusal::Empty => {
                svc_text(lang, &SvcMsg::AbsenceNotAllowed)
            }
            AbsenceRefusal::TooLong { max } => svc_text(lang, &SvcMsg::AbsenceTooLong { max }),
            AbsenceRefusal::TooMany { max } => svc_text(lang, &SvcMsg::AbsenceTooMany { max }),
        }));
    }
    let (f, t) = (day(from), day(to));
    if let Some(o) = absences::of_player(c, gid, player)?
        .into_iter()
        .find(|a| a.first_day <= t && a.last_day >= f)
    {
        return Ok(answered(text(
            lang,
            &AbsenceMsg::Overlaps {
                from: &o.first_day,
                to: &o.last_day,
            },
        )));
    }
    let row = AbsenceRow {
        id: absences::next_id(c)?,
        game_id: gid.to_string(),
        player: player.to_string(),
        first_day: f.clone(),
        last_day: t.clone(),
        declared_at: now.timestamp(),
        mail_sha256: Some(sha.to_string()),
    };
    tracing::info!(game = gid, player, from = %f, to = %t, "absence accepted");
    let mut answer = svc_text(lang, &SvcMsg::AbsenceSet { from: &f, to: &t });
    let mut writes = vec![Write::Absence(row.clone())];
    let mut mails = Vec::new();
    // The current deadline, as stored now (an earlier command of the same
    // mail may have changed it).
    let stored = games::require_game(c, gid)?;
    if stored.status == GameStatus::Running {
        if let Some(d) = stored
            .deadline
            .and_then(|t| DateTime::from_timestamp(t, 0))
            .filter(|d| *d > now)
        {
            let moved = decide_move(c, config, loaded, game, stored.turn + 1, d, now, Some(&row))?;
            if moved.at != d {
                writes.extend(moved.used_writes(gid, now));
                writes.push(Write::Deadline {
                    game: gid.to_string(),
                    deadline: Some(moved.at.timestamp()),
                });
                mails = moved.mails;
                answer.push('\n');
                let zone = super::timezone::zone_of_player(c, gid, player, game.schedule.tz)?;
                answer.push_str(&text(
                    lang,
                    &AbsenceMsg::YourDeadlineMoved {
                        when: &show_in(moved.at, zone),
                    },
                ));
            }
        }
    }
    Ok(Decided {
        writes,
        mails,
        value: answer,
    })
}

/// A deadline moved past absences, decided: where it goes, the absences
/// that moved it (each moves a deadline once) and the notices.
pub struct Move {
    pub at: DateTime<Utc>,
    pub used: Vec<AbsenceRow>,
    pub mails: Vec<Draft>,
}

impl Move {
    /// The rows that mark the absences used, at `now`.
    fn used_writes(&self, game: &str, now: DateTime<Utc>) -> Vec<Write> {
        self.used
            .iter()
            .map(|a| Write::AbsenceUsed {
                game: game.to_string(),
                player: a.player.clone(),
                absence: a.id,
                at: now.timestamp(),
            })
            .collect()
    }
}

/// The deadline of turn `turn` (the turn being played), moved past the
/// unused absences of seats in play it falls in. When it moves, the
/// absences are marked used and every player and the game master are
/// told (queued in the caller's transaction). The caller stores the
/// returned deadline. (The turn's resolution calls it; an ABSENCE line
/// decides the same move with [`decide_move`].)
pub fn move_deadline<'a>(
    c: &Connection,
    config: &DaemonConfig,
    loaded: &Loaded<'a>,
    game: &GameView<'a>,
    turn: u32,
    deadline: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>> {
    let m = decide_move(c, config, loaded, game, turn, deadline, now, None)?;
    for a in &m.used {
        reminders::record(
            c,
            &a.game_id,
            0,
            &a.player,
            &used_label(a.id),
            now.timestamp(),
        )?;
    }
    for d in m.mails {
        queue(c, config, now, d)?;
    }
    Ok(m.at)
}

/// The move of [`move_deadline`], decided without writing: `pending` is an
/// absence decided but not written yet (an ABSENCE line's own), seen as if
/// it were stored.
#[allow(clippy::too_many_arguments)]
pub fn decide_move<'a>(
    c: &Connection,
    config: &DaemonConfig,
    loaded: &Loaded<'a>,
    game: &GameView<'a>,
    turn: u32,
    deadline: DateTime<Utc>,
    now: DateTime<Utc>,
    pending: Option<&AbsenceRow>,
) -> Result<Move> {
    let gid = game.row.id.as_str();
    let tz = game.schedule.tz;
    // Who is in play is read only when an absence covers the day: most
    // resolutions meet none, and reading the state costs a parse.
    let mut in_play: Option<Vec<String>> = None;
    let mut at = deadline;
    let mut used: Vec<AbsenceRow> = Vec::new();
    // Each pass uses one absence; there are finitely many.
    loop {
        let local = at.with_timezone(&tz);
        let today = day(local.date_naive());
        let mut covering = absences::covering(c, gid, &today)?;
        if let Some(p) = pending.filter(|p| p.first_day <= today && p.last_day >= today) {
            // Where the store would list it: by first day, then id.
            covering.push(p.clone());
            covering.sort_by(|a, b| (&a.first_day, a.id).cmp(&(&b.first_day, b.id)));
        }
        let mut found = None;
        for a in covering {
            if in_play.is_none() {
                let players = loaded
                    .current(c, game)?
                    .players()
                    .map_err(|e| game.engine_err(e))?;
                in_play = Some(
                    players
                        .into_iter()
                        .filter(|p| p.active)
                        .map(|p| p.id.as_str().to_string())
                        .collect(),
                );
            }
            if !in_play.as_ref().is_some_and(|v| v.contains(&a.player))
                || used.iter().any(|u| u.id == a.id)
            {
                continue;
            }
            if crate::gm::seats::is_ejected(c, gid, &a.player, turn)? {
                continue;
            }
            if reminders::sent(c, gid, 0, &a.player, &used_label(a.id))? {
                continue;
            }
            found = Some(a);
            break;
        }
        let Some(a) = found else { break };
        let Ok(last) = NaiveDate::parse_from_str(&a.last_day, "%Y-%m-%d") else {
            break;
        };
        let when = super::command::When::Local((last + Duration::days(1)).and_time(local.time()));
        at = when.resolve(tz).max(at);
        used.push(a);
    }
    if used.is_empty() {
        return Ok(Move {
            at: deadline,
            used,
            mails: Vec::new(),
        });
    }
    let mails = tell(c, config, game, turn, at, &used, now)?;
    tracing::info!(game = gid, turn, from = %deadline, to = %at, absences = used.len(), "deadline moved for absences");
    Ok(Move { at, used, mails })
}

/// The notice of a moved deadline, to every player in their zone and to
/// the game master, with the event's new `.ics` (same UID: calendars move it).
fn tell(
    c: &Connection,
    config: &DaemonConfig,
    game: &GameView<'_>,
    turn: u32,
    at: DateTime<Utc>,
    used: &[AbsenceRow],
    now: DateTime<Utc>,
) -> Result<Vec<Draft>> {
    let mut mails = Vec::new();
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let blind = !game.toml.services.show_orders_sent();
    let zones = player_zones(c, gid)?;
    let who: Vec<String> = used.iter().map(|a| a.player.clone()).collect();
    let last = used.iter().map(|a| a.id).max().unwrap_or(0);
    let tag = format!("absence.{last}");
    let subject = text(lang, &AbsenceMsg::MovedSubject { game: gid, turn });
    let summary = super::deadline_summary(lang, gid, turn);
    let body_for = |zone| {
        let when = show_in(at, zone);
        let who = if blind { None } else { Some(who.join(", ")) };
        let body = signed(
            lang,
            &text(
                lang,
                &AbsenceMsg::Moved {
                    game: gid,
                    turn,
                    when: &when,
                    who: who.as_deref(),
                },
            ),
        );
        let description = svc_text(lang, &SvcMsg::StatusDeadline { when: &when });
        let ev = ics::DeadlineEvent {
            game: gid,
            turn,
            deadline: at,
            domain: config.domain(),
            summary: &summary,
            description: &description,
            stamp: now,
        };
        let cal = Attachment {
            name: ics::file_name(gid, turn),
            mime: ics::MIME.to_string(),
            content: ics::render(&ev).into_bytes(),
        };
        (body, cal)
    };
    for p in games::players(c, gid)? {
        let (body, cal) = body_for(zone_of(&zones, &p.id, game.schedule.tz));
        let mut d = Draft::new(Kind::Notice, &p.email, subject.clone(), body)
            .about(gid, turn, Some(&p.id))
            .discriminator(tag.clone());
        d.attachments.push(cal);
        mails.push(d);
    }
    if let Some(gm) = &game.toml.gm_email {
        // The game master always learns who is away.
        let when = show_in(at, game.schedule.tz);
        let body = signed(
            lang,
            &text(
                lang,
                &AbsenceMsg::Moved {
                    game: gid,
                    turn,
                    when: &when,
                    who: Some(&who.join(", ")),
                },
            ),
        );
        let d = Draft::new(Kind::Notice, gm, subject.clone(), body)
            .about(gid, turn, None)
            .discriminator(format!("{tag}.gm"));
        mails.push(d);
    }
    Ok(mails)
}

/// The `STATUS` line listing the absences not over yet (all of the
/// game's when `today` is unknown), `None` when there are none. In a
/// blind game a player sees only their own; the game master sees all.
pub fn status_line(
    c: &Connection,
    game: &GameView<'_>,
    asker: &str,
    today: Option<NaiveDate>,
) -> Result<Option<String>> {
    let from = today.map(day).unwrap_or_default();
    let blind = !game.toml.services.show_orders_sent() && asker != "gm";
    let list: Vec<String> = absences::of_game_from(c, &game.row.id, &from)?
        .into_iter()
        .filter(|a| !blind || a.player == asker)
        .map(|a| format!("{} {}..{}", a.player, a.first_day, a.last_day))
        .collect();
    Ok((!list.is_empty()).then(|| {
        text(
            game.lang,
            &AbsenceMsg::StatusLine {
                list: &list.join(", "),
            },
        )
    }))
}

fn day(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// The absence messages not in texts.rs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbsenceMsg<'a> {
    Over {
        to: &'a str,
    },
    Overlaps {
        from: &'a str,
        to: &'a str,
    },
    YourDeadlineMoved {
        when: &'a str,
    },
    MovedSubject {
        game: &'a str,
        turn: u32,
    },
    /// `who`: `None` in a blind game.
    Moved {
        game: &'a str,
        turn: u32,
        when: &'a str,
        who: Option<&'a str>,
    },
    /// In the `STATUS` answer.
    StatusLine {
        list: &'a str,
    },
}

pub fn text(lang: Lang, m: &AbsenceMsg<'_>) -> String {
    use AbsenceMsg::*;
    let (id, args) = match *m {
        Over { to } => ("absence-over", fl_args![to]),
        Overlaps { from, to } => ("absence-overlaps", fl_args![from, to]),
        YourDeadlineMoved { when } => ("absence-your-deadline-moved", fl_args![when]),
        StatusLine { list } => ("absence-status-line", fl_args![list]),
        MovedSubject { game, turn } => ("absence-moved-subject", fl_args![game, turn]),
        Moved {
            game,
            turn,
            when,
            who,
        } => {
            // A blind game names nobody.
            let who = who.map_or_else(|| tr(lang, "absence-someone", &[]), str::to_owned);
            ("absence-moved", fl_args![game, turn, when, who])
        }
    };
    tr(lang, id, &args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_absence_message_exists_in_each_language_and_differs() {
        let all = [
            AbsenceMsg::Over { to: "2026-12-01" },
            AbsenceMsg::Overlaps { from: "a", to: "b" },
            AbsenceMsg::YourDeadlineMoved { when: "w" },
            AbsenceMsg::MovedSubject { game: "g", turn: 2 },
            AbsenceMsg::Moved {
                game: "g",
                turn: 2,
                when: "w",
                who: Some("p1"),
            },
            AbsenceMsg::Moved {
                game: "g",
                turn: 2,
                when: "w",
                who: None,
            },
            AbsenceMsg::StatusLine {
                list: "p1 2026-12-24..2026-12-31",
            },
        ];
        for m in &all {
            let (en, fr, de) = (text(Lang::En, m), text(Lang::Fr, m), text(Lang::De, m));
            assert!(en != fr && fr != de && en != de, "{m:?}");
        }
        let blind = text(
            Lang::En,
            &AbsenceMsg::Moved {
                game: "g",
                turn: 2,
                when: "w",
                who: None,
            },
        );
        assert!(
            !blind.contains("p1") && blind.contains("because a player is away"),
            "{blind}"
        );
    }
}
