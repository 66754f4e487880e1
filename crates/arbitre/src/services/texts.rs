//! The services' messages in the game's language (French, German, English).
//!
//! [`SvcMsg`] types the arguments of each service message and names its id;
//! the words are in the one catalogue, locales/{en,fr,de}.ftl (see
//! [`crate::i18n`]), which tests/catalogue.rs checks for a message missing in
//! a language.

use super::command::Reason;
use crate::fl_args;
use crate::i18n::{tr, Lookup};
use arbitre_core::Lang;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SvcMsg<'a> {
    ResendSubject {
        game: &'a str,
        turn: u32,
    },
    NoSuchTurn {
        turn: u32,
        last: u32,
    },
    HistorySubject {
        game: &'a str,
    },
    HistoryLine {
        turn: u32,
        when: &'a str,
    },
    HistoryEmpty,
    StatusSubject {
        game: &'a str,
    },
    StatusTurn {
        turn: u32,
    },
    StatusDeadline {
        when: &'a str,
    },
    StatusNoDeadline,
    StatusPaused,
    StatusSent {
        players: &'a str,
    },
    StatusMissing {
        players: &'a str,
    },
    /// Orders in force without READY (issue 17 item 9).
    StatusNotReady {
        players: &'a str,
    },
    /// RESEND of a turn not resolved yet: the last resolved one instead.
    NotResolvedYet {
        turn: u32,
        last: u32,
    },
    /// The report of a seat that sent no orders for the turn.
    NoOrdersReceived {
        turn: u32,
    },
    TimezoneSet {
        zone: &'a str,
        example: &'a str,
    },
    PressSubject {
        game: &'a str,
        from: &'a str,
    },
    PressAnonymousFrom,
    PressRelayed {
        to: &'a str,
    },
    PressNone,
    PressNoAnonymous,
    PressUnknownPlayer {
        player: &'a str,
    },
    AbsenceSet {
        from: &'a str,
        to: &'a str,
    },
    AbsenceNotAllowed,
    AbsenceTooLong {
        max: u32,
    },
    AbsenceTooMany {
        max: u32,
    },
    GmOnly {
        command: &'a str,
    },
    GmWrongPassword,
    GmDone {
        command: &'a str,
    },
    Ejected {
        game: &'a str,
        player: &'a str,
    },
    RolledBack {
        game: &'a str,
        turn: u32,
    },
    PreviewSubject {
        game: &'a str,
        turn: u32,
    },
    CommandsSubject {
        game: &'a str,
    },
    BadCommand {
        line: usize,
        text: &'a str,
        why: String,
    },
    DkimVerdict {
        verdict: &'a str,
    },
    ObserverSubject {
        game: &'a str,
        subject: &'a str,
    },
    BotPlayed {
        missed: u32,
    },
    DeadlineSetSubject {
        game: &'a str,
    },
    DeadlineSet {
        game: &'a str,
        when: &'a str,
    },
    DeadlineInPast {
        when: &'a str,
    },
    EjectedSubject {
        game: &'a str,
    },
    EjectedSeat {
        game: &'a str,
        player: &'a str,
    },
    TakeoverSubject {
        game: &'a str,
    },
    TakeoverWelcome {
        game: &'a str,
        player: &'a str,
        name: &'a str,
        password: Option<&'a str>,
        when: &'a str,
    },
    TakenOver {
        game: &'a str,
        player: &'a str,
        name: &'a str,
    },
    RolledBackSubject {
        game: &'a str,
    },
    PreviewIntro {
        turn: u32,
        held: usize,
    },
    PreviewPlayer {
        player: &'a str,
        email: &'a str,
    },
    NothingHeld,
    Released {
        turn: u32,
        mails: usize,
        when: &'a str,
    },
    LateOrders {
        deadline: &'a str,
    },
    NoSuchSeat {
        player: &'a str,
    },
    RollbackRange {
        turn: u32,
        last: u32,
    },
    AlreadyEjected {
        player: &'a str,
    },
}

pub fn svc_text(lang: Lang, m: &SvcMsg<'_>) -> String {
    let (id, args) = m.lookup(lang);
    tr(lang, id, &args)
}

/// The reason a command line was refused, in the game's language.
pub fn reason(lang: Lang, r: &Reason) -> String {
    let (id, value) = match r {
        Reason::MissingArgument(value) => ("reason-missing-argument", value.to_string()),
        Reason::BadNumber(value) => ("reason-bad-number", value.to_string()),
        Reason::UnknownZone(value) => ("reason-unknown-zone", value.to_string()),
        Reason::BadDate(value) => ("reason-bad-date", value.to_string()),
        Reason::BadDuration(value) => ("reason-bad-duration", value.to_string()),
        Reason::BadRange => ("reason-bad-range", String::new()),
        Reason::TooManyArguments(value) => ("reason-too-many-arguments", value.to_string()),
        Reason::BadEmail(value) => ("reason-bad-email", value.to_string()),
    };
    tr(lang, id, &[("value", value)])
}

impl SvcMsg<'_> {
    /// This message's id in locales/*.ftl and its arguments in `lang` (the
    /// welcome's password line is itself a message of that language).
    pub fn lookup(&self, lang: Lang) -> Lookup {
        use SvcMsg::*;
        match self {
            ResendSubject { game, turn } => ("resend-subject", fl_args![game, turn]),
            NoSuchTurn { turn, last } => ("no-such-turn", fl_args![turn, last]),
            HistorySubject { game } => ("history-subject", fl_args![game]),
            HistoryLine { turn, when } => {
                // The turn is right-aligned on three columns, as before Fluent.
                let turn = format!("{turn:>3}");
                ("history-line", fl_args![turn, when])
            }
            HistoryEmpty => ("history-empty", vec![]),
            StatusSubject { game } => ("status-subject", fl_args![game]),
            StatusTurn { turn } => ("status-turn", fl_args![turn]),
            StatusDeadline { when } => ("status-deadline", fl_args![when]),
            StatusNoDeadline => ("status-no-deadline", vec![]),
            StatusNotReady { players } => ("status-not-ready", fl_args![players]),
            NotResolvedYet { turn, last } => ("not-resolved-yet", fl_args![turn, last]),
            NoOrdersReceived { turn } => ("no-orders-received", fl_args![turn]),
            StatusPaused => ("status-paused", vec![]),
            StatusSent { players } => ("status-sent", fl_args![players]),
            StatusMissing { players } => ("status-missing", fl_args![players]),
            TimezoneSet { zone, example } => ("timezone-set", fl_args![zone, example]),
            PressSubject { game, from } => ("press-subject", fl_args![game, from]),
            PressAnonymousFrom => ("press-anonymous-from", vec![]),
            PressRelayed { to } => ("press-relayed", fl_args![to]),
            PressNone => ("press-none", vec![]),
            PressNoAnonymous => ("press-no-anonymous", vec![]),
            PressUnknownPlayer { player } => ("press-unknown-player", fl_args![player]),
            AbsenceSet { from, to } => ("absence-set", fl_args![from, to]),
            AbsenceNotAllowed => ("absence-not-allowed", vec![]),
            AbsenceTooLong { max } => ("absence-too-long", fl_args![max]),
            AbsenceTooMany { max } => ("absence-too-many", fl_args![max]),
            GmOnly { command } => ("gm-only", fl_args![command]),
            GmWrongPassword => ("gm-wrong-password", vec![]),
            GmDone { command } => ("gm-done", fl_args![command]),
            Ejected { game, player } => ("ejected", fl_args![game, player]),
            RolledBack { game, turn } => ("rolled-back", fl_args![game, turn]),
            PreviewSubject { game, turn } => ("preview-subject", fl_args![game, turn]),
            CommandsSubject { game } => ("commands-subject", fl_args![game]),
            BadCommand { line, text, why } => ("bad-command", fl_args![line, text, why]),
            DkimVerdict { verdict } => ("dkim-verdict", fl_args![verdict]),
            ObserverSubject { game, subject } => ("observer-subject", fl_args![game, subject]),
            BotPlayed { missed } => ("bot-played", fl_args![missed]),
            DeadlineSetSubject { game } => ("deadline-set-subject", fl_args![game]),
            DeadlineSet { game, when } => ("deadline-set", fl_args![game, when]),
            DeadlineInPast { when } => ("deadline-in-past", fl_args![when]),
            EjectedSubject { game } => ("ejected-subject", fl_args![game]),
            EjectedSeat { game, player } => ("ejected-seat", fl_args![game, player]),
            TakeoverSubject { game } => ("takeover-subject", fl_args![game]),
            TakeoverWelcome {
                game,
                player,
                name,
                password,
                when,
            } => {
                let password_line = password
                    .map(|password| {
                        format!("{}\n", tr(lang, "takeover-password", &fl_args![password]))
                    })
                    .unwrap_or_default();
                let args = fl_args![game, player, name, password_line, when];
                ("takeover-welcome", args)
            }
            TakenOver { game, player, name } => ("taken-over", fl_args![game, player, name]),
            RolledBackSubject { game } => ("rolled-back-subject", fl_args![game]),
            PreviewIntro { turn, held } => {
                let previous = turn.saturating_sub(1);
                ("preview-intro", fl_args![turn, held, previous])
            }
            PreviewPlayer { player, email } => ("preview-player", fl_args![player, email]),
            NothingHeld => ("nothing-held", vec![]),
            Released { turn, mails, when } => ("released", fl_args![turn, mails, when]),
            LateOrders { deadline } => ("late-orders", fl_args![deadline]),
            NoSuchSeat { player } => ("no-such-seat", fl_args![player]),
            AlreadyEjected { player } => ("already-ejected", fl_args![player]),
            RollbackRange { turn, last } => ("rollback-range", fl_args![turn, last]),
        }
    }
}
