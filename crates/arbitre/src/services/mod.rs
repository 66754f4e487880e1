//! Player and game-master services by mail (issue 10).
//!
//! The things the mature judges (njudge, DPjudge, Eressea, GalaxyNG) offer
//! around the turn: `RESEND`, `HISTORY`, `STATUS`, `TIMEZONE`, press,
//! absences, the GM's `PAUSE`/`RESUME`/`EXTEND`/`SET DEADLINE`/`EJECT`/
//! `PREVIEW`/`ROLLBACK`, and the attachments every report mail carries (an
//! `.ics` with the next deadline, a machine-readable JSON report).
//!
//! The player commands are requests of the request pipeline (issue 16
//! item 1): request/parse.rs reads them, request/player.rs decides them
//! with the functions here, request/handle.rs `apply` writes them.
//!
//! Not all of them are pure. [`command`], [`settings`], [`texts`], [`zone`],
//! [`ics`] and [`json_report`] only parse, decide and format. [`press`],
//! [`timezone`], [`absence`] and [`authenticity`] read the database through
//! the `Connection` of the caller's transaction and return what to write
//! (request/handle.rs `apply` writes it); the one writer here is
//! [`absence::move_deadline`], which the turn's resolution calls inside its
//! own transaction (an ABSENCE line decides the same move with
//! [`absence::decide_move`]). None of them reads the clock (the mail's time
//! is passed in) or talks to a mail server, so the exactly-once guarantees
//! of inbound.rs hold for service commands too.
//!
//! Module map: [`command`] (the command lines, FR/DE/EN keywords),
//! [`settings`] (the game TOML's `[services]` table), [`texts`] (the
//! services' message ids and arguments; words in locales/*.ftl), [`zone`] (deadlines in a player's own
//! time zone), [`ics`] (the deadline as iCalendar), [`json_report`] (the
//! machine-readable report, schema in docs/schemas/report.schema.json),
//! [`timezone`], [`press`] and [`absence`] (the player commands that change
//! something, with their own messages in the same catalogue), [`welcome`]
//! (issue 17 item 1: the welcome mail of a new seat), [`help`] (HELP and
//! LIST without a block, item 2), [`refusal`] (refusals that teach, item 5)
//! and [`requests`] (their database side, called by inbound.rs).

pub mod absence;
pub mod authenticity;
pub mod command;
pub mod help;
pub mod ics;
pub mod json_report;
pub mod press;
pub mod refusal;
pub mod requests;
pub mod settings;
pub mod texts;
pub mod timezone;
pub mod welcome;
pub mod zone;

use arbitre_core::{Attachment, Lang};
use chrono::{DateTime, Utc};

/// The attachments arbitre adds to every report mail, after the ruleset's
/// own: the JSON report always, the `.ics` when there is a next deadline.
/// `stamp` is the resolution time (deterministic output for fixtures).
pub fn report_attachments(
    facts: &json_report::ReportFacts<'_>,
    domain: &str,
    stamp: DateTime<Utc>,
) -> Vec<Attachment> {
    let mut out = vec![Attachment {
        name: json_report::file_name(facts.game, facts.turn),
        mime: json_report::MIME.to_string(),
        content: json_report::build(facts).to_bytes(),
    }];
    if let Some((deadline, tz)) = facts.deadline {
        out.push(deadline_ics(
            facts.lang,
            facts.game,
            facts.turn + 1,
            deadline,
            &zone::show_in(deadline, tz),
            domain,
            stamp,
        ));
    }
    out
}

/// The `.ics` of `turn`'s deadline (its UID is the game's and the turn's,
/// so a calendar moves the event when it changes), described as the reader
/// sees it (`when`, in their zone).
pub fn deadline_ics(
    lang: Lang,
    game: &str,
    turn: u32,
    deadline: DateTime<Utc>,
    when: &str,
    domain: &str,
    stamp: DateTime<Utc>,
) -> Attachment {
    let summary = deadline_summary(lang, game, turn);
    let description = texts::svc_text(lang, &texts::SvcMsg::StatusDeadline { when });
    let ev = ics::DeadlineEvent {
        game,
        turn,
        deadline,
        domain,
        summary: &summary,
        description: &description,
        stamp,
    };
    Attachment {
        name: ics::file_name(game, turn),
        mime: ics::MIME.to_string(),
        content: ics::render(&ev).into_bytes(),
    }
}

/// The calendar event's title in the game's language.
pub fn deadline_summary(lang: Lang, game: &str, turn: u32) -> String {
    match lang {
        Lang::En => format!("{game}: orders for turn {turn} due"),
        Lang::Fr => format!("{game} : date limite des ordres du tour {turn}"),
        Lang::De => format!("{game}: Abgabetermin der Befehle für Zug {turn}"),
    }
}
