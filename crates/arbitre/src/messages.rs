//! The daemon's own words: confirmations, errors, reminders and notices, in
//! each game's language (French, German, English).
//!
//! Reports are the ruleset's job and come in its own notation; everything
//! else a player receives from arbitre is written here, so that a French game
//! never answers in English. Mail that cannot be tied to a game (no order
//! block, unknown game) is answered in the daemon's default language.
//! The words themselves live in the one catalogue, locales/{en,fr,de}.ftl
//! (see [`crate::i18n`]); [`Msg`] types each message's arguments and names
//! its id, and tests/catalogue.rs fails when an id is missing in a language.

use crate::fl_args;
use crate::i18n::{tr, Lookup};
use arbitre_core::Lang;

/// One message with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg<'a> {
    ConfirmSubject {
        game: &'a str,
        turn: u32,
    },
    ConfirmHeader {
        game: &'a str,
        turn: u32,
        player: &'a str,
    },
    CheckSubject {
        game: &'a str,
    },
    CheckHeader {
        game: &'a str,
        turn: u32,
        player: &'a str,
    },
    /// A block refused whole (another turn, month or nation, issue 17
    /// item 7): nothing stored, the orders already held stay in force.
    RefusedSubject {
        game: &'a str,
        turn: u32,
    },
    RefusedHeader {
        game: &'a str,
        turn: u32,
        player: &'a str,
    },
    /// Label in the echo of a line.
    Ok,
    Error,
    Warning,
    Summary {
        orders: usize,
        errors: usize,
        warnings: usize,
    },
    Replaces,
    NotReady,
    Deadline {
        when: &'a str,
    },
    NoOrderLines,
    ErrorSubject,
    NoBlock,
    Malformed {
        line: usize,
        reason: &'a str,
    },
    /// Sizes in KiB.
    TooLarge {
        size: usize,
        limit: usize,
    },
    UnknownGame {
        game: &'a str,
    },
    UnknownPlayer {
        game: &'a str,
        player: &'a str,
    },
    WrongPassword {
        game: &'a str,
        player: &'a str,
    },
    GameOver {
        game: &'a str,
    },
    /// The flood rate limit (issue 8): sent once an hour at most.
    TooManyFromYou {
        limit: u32,
    },
    TooManyForGame {
        game: &'a str,
        limit: u32,
    },
    /// `[limits] max_order_lines` (issue 14 item 1).
    TooManyLines {
        lines: usize,
        limit: u32,
    },
    /// A long confirmation lists errors and warnings only (issue 14 item 1).
    OkLinesNotEchoed {
        ok: usize,
    },
    /// The game master, once per seat and hour (issue 14 item 3).
    SeatGuessedSubject {
        game: &'a str,
    },
    SeatGuessed {
        game: &'a str,
        player: &'a str,
        limit: u32,
    },
    ReminderSubject {
        game: &'a str,
        turn: u32,
    },
    Reminder {
        game: &'a str,
        turn: u32,
        player: &'a str,
        when: &'a str,
    },
    ReportSubject {
        game: &'a str,
        subject: &'a str,
    },
    GameEnded {
        summary: &'a str,
    },
    PausedSubject {
        game: &'a str,
    },
    Paused {
        game: &'a str,
    },
    ResumedSubject {
        game: &'a str,
    },
    Resumed {
        game: &'a str,
        when: &'a str,
    },
    ExtendedSubject {
        game: &'a str,
    },
    Extended {
        game: &'a str,
        when: &'a str,
    },
    Signature,
}

pub fn text(lang: Lang, m: &Msg<'_>) -> String {
    let (id, args) = m.lookup();
    tr(lang, id, &args)
}

impl Msg<'_> {
    /// This message's id in locales/*.ftl and its arguments.
    pub fn lookup(&self) -> Lookup {
        use Msg::*;
        match *self {
            ConfirmSubject { game, turn } => ("confirm-subject", fl_args![game, turn]),
            ConfirmHeader { game, turn, player } => {
                ("confirm-header", fl_args![game, turn, player])
            }
            CheckSubject { game } => ("check-subject", fl_args![game]),
            CheckHeader { game, turn, player } => ("check-header", fl_args![game, turn, player]),
            RefusedSubject { game, turn } => ("refused-subject", fl_args![game, turn]),
            RefusedHeader { game, turn, player } => {
                ("refused-header", fl_args![game, turn, player])
            }
            Ok => ("ok", vec![]),
            Error => ("error", vec![]),
            Warning => ("warning", vec![]),
            Summary {
                orders,
                errors,
                warnings,
            } => ("summary", fl_args![orders, errors, warnings]),
            Replaces => ("replaces", vec![]),
            NotReady => ("not-ready", vec![]),
            Deadline { when } => ("deadline", fl_args![when]),
            NoOrderLines => ("no-order-lines", vec![]),
            ErrorSubject => ("error-subject", vec![]),
            NoBlock => ("no-block", vec![]),
            Malformed { line, reason } => ("malformed", fl_args![line, reason]),
            TooLarge { size, limit } => ("too-large", fl_args![size, limit]),
            UnknownGame { game } => ("unknown-game", fl_args![game]),
            UnknownPlayer { game, player } => ("unknown-player", fl_args![game, player]),
            WrongPassword { game, player } => ("wrong-password", fl_args![game, player]),
            GameOver { game } => ("game-over", fl_args![game]),
            TooManyFromYou { limit } => ("too-many-from-you", fl_args![limit]),
            TooManyForGame { game, limit } => ("too-many-for-game", fl_args![game, limit]),
            TooManyLines { lines, limit } => ("too-many-lines", fl_args![lines, limit]),
            OkLinesNotEchoed { ok } => ("ok-lines-not-echoed", fl_args![ok]),
            SeatGuessedSubject { game } => ("seat-guessed-subject", fl_args![game]),
            SeatGuessed {
                game,
                player,
                limit,
            } => ("seat-guessed", fl_args![game, player, limit]),
            ReminderSubject { game, turn } => ("reminder-subject", fl_args![game, turn]),
            Reminder {
                game,
                turn,
                player,
                when,
            } => ("reminder", fl_args![game, turn, player, when]),
            ReportSubject { game, subject } => ("report-subject", fl_args![game, subject]),
            GameEnded { summary } => ("game-ended", fl_args![summary]),
            PausedSubject { game } => ("paused-subject", fl_args![game]),
            Paused { game } => ("paused", fl_args![game]),
            ResumedSubject { game } => ("resumed-subject", fl_args![game]),
            Resumed { game, when } => ("resumed", fl_args![game, when]),
            ExtendedSubject { game } => ("extended-subject", fl_args![game]),
            Extended { game, when } => ("extended", fl_args![game, when]),
            Signature => ("signature", vec![]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_differs_by_language_where_words_differ() {
        let samples = [
            Msg::ConfirmHeader {
                game: "g",
                turn: 2,
                player: "p",
            },
            Msg::NoBlock,
            Msg::WrongPassword {
                game: "g",
                player: "p",
            },
            Msg::Reminder {
                game: "g",
                turn: 2,
                player: "p",
                when: "w",
            },
            Msg::Summary {
                orders: 1,
                errors: 2,
                warnings: 3,
            },
            Msg::TooManyFromYou { limit: 30 },
            Msg::TooManyForGame {
                game: "g",
                limit: 300,
            },
            Msg::TooManyLines {
                lines: 30_000,
                limit: 20_000,
            },
            Msg::OkLinesNotEchoed { ok: 5_000 },
            Msg::SeatGuessed {
                game: "g",
                player: "p",
                limit: 10,
            },
        ];
        for m in &samples {
            let (e, f, d) = (text(Lang::En, m), text(Lang::Fr, m), text(Lang::De, m));
            assert!(e != f && f != d && e != d, "{m:?}");
        }
        assert_eq!(text(Lang::Fr, &Msg::Error), "ERREUR");
        assert_eq!(
            text(Lang::De, &Msg::Deadline { when: "x" }),
            "Abgabetermin: x"
        );
    }
}
