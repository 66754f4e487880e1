//! Service command lines (issue 10): what a player or the game master asks
//! the referee for, besides orders.
//!
//! Where they are written: in the order block, on the lines right after the
//! header and before the first order — or as the block's only content. A
//! command line in the middle of the orders is an order like any other and
//! goes to the ruleset (EDS has a `[3 STATUS]` section, a ruleset might
//! name a fleet `STATUS`): [`split_commands`] takes only the leading lines.
//!
//! Keywords exist in English, French and German like the header's, are
//! case-insensitive, and may be mixed. Arguments are checked here (a turn
//! number, an IANA zone, a date), so the reply can name the line and the
//! reason; nothing is decided here about who may do what.

use super::timezone::default_word;
use super::zone::parse_zone;
use crate::timespec;
use chrono::{Duration, NaiveDate};
use chrono_tz::Tz;

/// Who may send a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Player,
    GameMaster,
}

/// The recipients of a press message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PressTarget {
    All,
    Player(String),
}

/// A deadline given by the game master (one grammar: [`crate::timespec`]).
pub use crate::timespec::When;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The report of the last turn, or of an earlier one.
    Resend {
        turn: Option<u32>,
    },
    History,
    Status,
    /// The commands and the header syntax (issue 17 item 2).
    Help,
    Timezone(Tz),
    /// `TIMEZONE DEFAULT` (`FUSEAU DÉFAUT`, `ZEITZONE STANDARD`): back to
    /// the game's zone.
    TimezoneDefault,
    /// The press text is the rest of the block (the orders part).
    Press {
        to: PressTarget,
        anonymous: bool,
    },
    Absence {
        from: NaiveDate,
        to: NaiveDate,
    },
    Pause,
    Resume,
    Extend(Duration),
    SetDeadline(When),
    Eject(String),
    /// A new player takes the seat over: its id and state stay. The
    /// password is the game master's (`player replace --password-file`),
    /// else generated and mailed; a TAKEOVER line by mail gives none.
    Takeover {
        player: String,
        email: String,
        name: Option<String>,
        password: Option<Secret>,
    },
    /// Hold the next resolved turn for the game master.
    Preview,
    /// Hold every resolved turn (`PREVIEW ALWAYS`).
    PreviewAlways,
    /// No more holding (`PREVIEW OFF`); a held turn stays held until RELEASE.
    PreviewOff,
    /// Send the held turn's reports.
    Release,
    Rollback(u32),
    /// `PASSWORD NEW <pw>`: the seat's new password (issue 17 item 4).
    NewPassword(Secret),
    /// `ACCEPT <address>`: the game master lets a sign-up in (issue 17
    /// item 3, signup.rs).
    Accept(String),
    /// `REFUSE <address> [reason]`: the game master turns a sign-up down.
    Refuse {
        email: String,
        reason: Option<String>,
    },
}

/// A password as written on a command line: never shown by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl Command {
    pub fn role(&self) -> Role {
        match self {
            Command::Resend { .. }
            | Command::History
            | Command::Status
            | Command::Help
            | Command::Timezone(_)
            | Command::TimezoneDefault
            | Command::Press { .. }
            | Command::Absence { .. }
            | Command::NewPassword(_) => Role::Player,
            _ => Role::GameMaster,
        }
    }

    /// The canonical (English) name, for the journal and logs.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Resend { .. } => "RESEND",
            Command::History => "HISTORY",
            Command::Status => "STATUS",
            Command::Help => "HELP",
            Command::Timezone(_) | Command::TimezoneDefault => "TIMEZONE",
            Command::Press { .. } => "PRESS",
            Command::Absence { .. } => "ABSENCE",
            Command::Pause => "PAUSE",
            Command::Resume => "RESUME",
            Command::Extend(_) => "EXTEND",
            Command::SetDeadline(_) => "SET DEADLINE",
            Command::Eject(_) => "EJECT",
            Command::Takeover { .. } => "TAKEOVER",
            Command::Preview => "PREVIEW",
            Command::PreviewAlways => "PREVIEW ALWAYS",
            Command::PreviewOff => "PREVIEW OFF",
            Command::Release => "RELEASE",
            Command::Rollback(_) => "ROLLBACK",
            Command::NewPassword(_) => "PASSWORD NEW",
            Command::Accept(_) => "ACCEPT",
            Command::Refuse { .. } => "REFUSE",
        }
    }
}

/// Why a command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    MissingArgument(&'static str),
    BadNumber(String),
    UnknownZone(String),
    BadDate(String),
    BadDuration(String),
    BadRange,
    TooManyArguments(String),
    /// TAKEOVER: the new player's address is not one.
    BadEmail(String),
}

/// A refused command line, with its line in the block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    pub line: usize,
    pub text: String,
    pub reason: Reason,
}

const RESEND: &[&str] = &["resend", "renvoi", "renvoyer", "nochmal"];
const HISTORY: &[&str] = &["history", "historique", "verlauf"];
const STATUS: &[&str] = &["status", "etat", "état", "stand"];
const HELP: &[&str] = &["help", "aide", "hilfe"];
const TIMEZONE: &[&str] = &["timezone", "fuseau", "zeitzone"];
const PRESS: &[&str] = &["press", "presse"];
const TO: &[&str] = &["to", "a", "à", "an"];
const ALL: &[&str] = &["all", "tous", "alle"];
const ANONYMOUS: &[&str] = &["anonymous", "anonyme", "anonym"];
const ABSENCE: &[&str] = &["absence", "abwesenheit"];
const PAUSE: &[&str] = &["pause"];
const RESUME: &[&str] = &["resume", "reprendre", "reprise", "fortsetzen"];
const EXTEND: &[&str] = &["extend", "prolonger", "verlaengern", "verlängern"];
const SET: &[&str] = &["set", "fixer", "setze", "setzen"];
const DEADLINE: &[&str] = &[
    "deadline",
    "date-limite",
    "echeance",
    "échéance",
    "abgabetermin",
    "termin",
];
const EJECT: &[&str] = &[
    "eject",
    "ejecter",
    "éjecter",
    "exclure",
    "ausschliessen",
    "ausschließen",
];
const PREVIEW: &[&str] = &["preview", "apercu", "aperçu", "vorschau"];
const TAKEOVER: &[&str] = &["takeover", "remplacer", "reprise-de-poste", "ersetzen"];
const RELEASE: &[&str] = &["release", "publier", "freigeben"];
const ALWAYS: &[&str] = &["always", "toujours", "immer"];
const OFF: &[&str] = &["off", "arret", "arrêt", "non", "aus"];
const PASSWORD: &[&str] = &["password", "mot-de-passe", "passwort"];
const NEW: &[&str] = &["new", "nouveau", "neu"];
const ROLLBACK: &[&str] = &["rollback", "retour", "zurueck", "zurück"];
const ACCEPT: &[&str] = &["accept", "accepter", "annehmen"];
const REFUSE: &[&str] = &["refuse", "refuser", "ablehnen"];

/// A sign-up's address as the game master writes it (`<a@b>` too).
fn address(e: &str) -> Result<String, Reason> {
    let e = e.trim_start_matches('<').trim_end_matches('>');
    if e.contains('@') && !e.starts_with('@') && !e.ends_with('@') {
        Ok(e.to_string())
    } else {
        Err(Reason::BadEmail(e.to_string()))
    }
}

/// True when `token` in lower case is one of `words`. Compared character
/// by character: the first word of every block is asked against each
/// command's words, and a lowered copy per question was a share of reading
/// an order mail (issue 22 item 1). The same verdict as
/// `words.contains(&token.to_lowercase())`: no word holds a Σ, the one
/// letter `str::to_lowercase` lowers by its context.
fn is(token: &str, words: &[&str]) -> bool {
    words
        .iter()
        .any(|w| token.chars().flat_map(char::to_lowercase).eq(w.chars()))
}

/// Reads one line. `None`: the line is not a command (it is an order, or
/// prose). `Some(Err)`: it is a command with bad arguments. A word list
/// tried on the first word must also be in `FIRST_WORDS`.
pub fn parse_line(line: &str) -> Option<Result<Command, Reason>> {
    let t: Vec<&str> = line
        .split(char::is_whitespace)
        .filter(|s| !s.is_empty())
        .collect();
    let (&first, args) = t.split_first()?;
    let none = |c: Command, args: &[&str]| {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(Reason::TooManyArguments(args.join(" ")))
        }
    };
    let cmd = if is(first, RESEND) {
        match args {
            [] => Ok(Command::Resend { turn: None }),
            [n] => n
                .parse()
                .map(|n| Command::Resend { turn: Some(n) })
                .map_err(|_| Reason::BadNumber(n.to_string())),
            _ => Err(Reason::TooManyArguments(args[1..].join(" "))),
        }
    } else if is(first, HISTORY) {
        none(Command::History, args)
    } else if is(first, STATUS) {
        none(Command::Status, args)
    } else if is(first, HELP) {
        none(Command::Help, args)
    } else if is(first, TIMEZONE) {
        match args {
            [] => Err(Reason::MissingArgument("Area/City")),
            [z] if default_word(z) => Ok(Command::TimezoneDefault),
            [z] => parse_zone(z)
                .map(Command::Timezone)
                .ok_or_else(|| Reason::UnknownZone(z.to_string())),
            _ => Err(Reason::TooManyArguments(args[1..].join(" "))),
        }
    } else if is(first, PRESS) {
        let mut rest = args;
        if rest.first().is_some_and(|w| is(w, TO)) {
            rest = &rest[1..];
        }
        let Some((&who, more)) = rest.split_first() else {
            return Some(Err(Reason::MissingArgument("player|ALL")));
        };
        let to = if is(who, ALL) {
            PressTarget::All
        } else {
            PressTarget::Player(who.to_string())
        };
        match more {
            [] => Ok(Command::Press {
                to,
                anonymous: false,
            }),
            [a] if is(a, ANONYMOUS) => Ok(Command::Press {
                to,
                anonymous: true,
            }),
            _ => Err(Reason::TooManyArguments(more.join(" "))),
        }
    } else if is(first, ABSENCE) {
        match args {
            [a, b] => match (date(a), date(b)) {
                (Ok(from), Ok(to)) if from <= to => Ok(Command::Absence { from, to }),
                (Ok(_), Ok(_)) => Err(Reason::BadRange),
                (Err(e), _) | (_, Err(e)) => Err(e),
            },
            [] | [_] => Err(Reason::MissingArgument("YYYY-MM-DD YYYY-MM-DD")),
            _ => Err(Reason::TooManyArguments(args[2..].join(" "))),
        }
    } else if is(first, PAUSE) {
        none(Command::Pause, args)
    } else if is(first, RESUME) {
        none(Command::Resume, args)
    } else if is(first, EXTEND) {
        match args {
            [] => Err(Reason::MissingArgument("48h")),
            [d] => crate_duration(d).map(Command::Extend),
            _ => Err(Reason::TooManyArguments(args[1..].join(" "))),
        }
    } else if is(first, SET) && args.first().is_some_and(|w| is(w, DEADLINE)) {
        when(&args[1..]).map(Command::SetDeadline)
    } else if is(first, DEADLINE) && !args.is_empty() {
        // "DATE-LIMITE 2026-12-01 20:00", "TERMIN ...": the short forms.
        when(args).map(Command::SetDeadline)
    } else if is(first, EJECT) {
        match args {
            [] => Err(Reason::MissingArgument("player")),
            [p] => Ok(Command::Eject(p.to_string())),
            _ => Err(Reason::TooManyArguments(args[1..].join(" "))),
        }
    } else if is(first, TAKEOVER) {
        match args {
            [] | [_] => Err(Reason::MissingArgument("player email [name]")),
            [p, e, name @ ..] => {
                if e.contains('@') && !e.starts_with('@') && !e.ends_with('@') {
                    let name = (!name.is_empty()).then(|| name.join(" "));
                    Ok(Command::Takeover {
                        player: p.to_string(),
                        email: e.to_string(),
                        name,
                        password: None,
                    })
                } else {
                    Err(Reason::BadEmail(e.to_string()))
                }
            }
        }
    } else if is(first, RELEASE) {
        none(Command::Release, args)
    } else if is(first, PREVIEW) {
        match args {
            [] => Ok(Command::Preview),
            [a] if is(a, ALWAYS) => Ok(Command::PreviewAlways),
            [o] if is(o, OFF) => Ok(Command::PreviewOff),
            _ => Err(Reason::TooManyArguments(args.join(" "))),
        }
    } else if is(first, PASSWORD) && args.first().is_some_and(|w| is(w, NEW)) {
        match &args[1..] {
            [] => Err(Reason::MissingArgument("password")),
            [pw] => Ok(Command::NewPassword(Secret(pw.to_string()))),
            [_, more @ ..] => Err(Reason::TooManyArguments(more.join(" "))),
        }
    } else if is(first, ACCEPT) {
        match args {
            [] => Err(Reason::MissingArgument("address")),
            [e] => address(e).map(Command::Accept),
            _ => Err(Reason::TooManyArguments(args[1..].join(" "))),
        }
    } else if is(first, REFUSE) {
        match args {
            [] => Err(Reason::MissingArgument("address [reason]")),
            [e, reason @ ..] => address(e).map(|email| Command::Refuse {
                email,
                reason: (!reason.is_empty()).then(|| reason.join(" ")),
            }),
        }
    } else if is(first, ROLLBACK) {
        match args {
            [] => Err(Reason::MissingArgument("turn")),
            [n] => n
                .parse()
                .map(Command::Rollback)
                .map_err(|_| Reason::BadNumber(n.to_string())),
            _ => Err(Reason::TooManyArguments(args[1..].join(" "))),
        }
    } else {
        return None;
    };
    Some(cmd)
}

fn date(s: &str) -> Result<NaiveDate, Reason> {
    timespec::parse_date(s).map_err(|_| Reason::BadDate(s.to_string()))
}

fn when(args: &[&str]) -> Result<When, Reason> {
    match args {
        [] => Err(Reason::MissingArgument("YYYY-MM-DD HH:MM")),
        [_] | [_, _] => When::parse(&args.join(" ")).map_err(|_| Reason::BadDate(args.join(" "))),
        _ => Err(Reason::TooManyArguments(args[2..].join(" "))),
    }
}

/// The one duration grammar of [`crate::timespec`] ("48h", "2d", "1w").
fn crate_duration(s: &str) -> Result<Duration, Reason> {
    timespec::parse_duration(s).map_err(|_| Reason::BadDuration(s.to_string()))
}

/// What the leading lines of an order block hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub commands: Vec<(usize, Command)>,
    pub errors: Vec<CommandError>,
    /// The rest of the block, line numbers kept (command lines blanked).
    pub orders: String,
    /// True when the rest has no non-blank line: the mail carries only
    /// commands, and must not replace orders sent earlier.
    pub only_commands: bool,
    /// The text after a `PRESS` line: the message to relay (never orders).
    pub press_text: Option<String>,
}

/// Takes the command lines at the top of a block's `orders` (line N of
/// `orders` is line N of the block). Stops at the first line that is not a
/// command; a `PRESS` command takes the rest of the block as its text, so
/// it must be the last command.
/// True when [`split_commands`] would find a command or a command error
/// in `orders`: its first non-blank line is one. Asked first by the inbox
/// (issue 22 item 1), so that a block of orders alone, nearly every mail,
/// is neither cut into lines nor copied to be split.
pub fn starts_with_command(orders: &str) -> bool {
    let Some(line) = orders.lines().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    // `parse_line` is `None` for a line whose first word opens no command;
    // its chain of word lists, each compared in lower case, was most of
    // this test's time for a line of orders.
    let first: String = line
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .chars()
        .flat_map(char::to_lowercase)
        .collect();
    FIRST_WORDS.contains(first.as_str()) && parse_line(line).is_some()
}

/// Every word that can open a command line (the lists `parse_line` tries
/// on a line's first word), in lower case as [`is`] compares them.
static FIRST_WORDS: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
    std::sync::LazyLock::new(|| {
        [
            RESEND, HISTORY, STATUS, HELP, TIMEZONE, PRESS, ABSENCE, PAUSE, RESUME, EXTEND, SET,
            DEADLINE, EJECT, TAKEOVER, RELEASE, PREVIEW, PASSWORD, ACCEPT, REFUSE, ROLLBACK,
        ]
        .into_iter()
        .flatten()
        .copied()
        .collect()
    });

pub fn split_commands(orders: &str) -> Split {
    let mut split = Split::default();
    let lines: Vec<&str> = orders.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() {
            i += 1;
            continue;
        }
        match parse_line(line) {
            None => break,
            Some(Ok(c)) => {
                let press = matches!(c, Command::Press { .. });
                split.commands.push((i + 1, c));
                i += 1;
                if press {
                    break;
                }
            }
            Some(Err(reason)) => {
                split.errors.push(CommandError {
                    line: i + 1,
                    text: line.trim().to_string(),
                    reason,
                });
                i += 1;
            }
        }
    }
    let press = split
        .commands
        .last()
        .is_some_and(|(_, c)| matches!(c, Command::Press { .. }));
    // Sized at once: grown by doubling, the copy of a 10 MiB block could
    // hold 16 MiB (issue 14 item 1).
    let mut rest = String::with_capacity(orders.len() + 1);
    for (n, l) in lines.iter().enumerate() {
        if n < i {
            rest.push('\n');
        } else {
            rest.push_str(l);
            rest.push('\n');
        }
    }
    if press {
        let text = lines[i.min(lines.len())..].join("\n").trim().to_string();
        split.press_text = Some(text);
        rest = "\n".repeat(lines.len());
    }
    split.only_commands =
        rest.trim().is_empty() && (!split.commands.is_empty() || !split.errors.is_empty());
    split.orders = rest;
    split
}

#[cfg(test)]
mod gm_command_tests {
    use super::*;

    /// `starts_with_command` says what `split_commands` finds, on blocks
    /// made of commands, wrong commands, orders and blank lines in every
    /// order up to four lines.
    #[test]
    fn starts_with_command_agrees_with_split_commands() {
        let lines = [
            "",
            "   ",
            "STATUS",
            "status",
            "FUSEAU défaut",
            "PASSWORD NEW x",
            "PASSWORD NEW",
            "RESEND 3",
            "RESEND x",
            "PRESSE À TOUS",
            "HELP",
            "PAUSE",
            "ADD 1",
            "MOVE 10 A -> B",
            "Z1 MOVE 3 Z2",
            "\r",
            "  STATUS  ",
        ];
        let mut n = 0;
        for a in &lines {
            for b in &lines {
                for c in &lines {
                    for d in &lines {
                        for text in [
                            format!("{a}\n{b}\n{c}\n{d}\n"),
                            format!("{a}\r\n{b}\r\n{c}"),
                        ] {
                            let split = split_commands(&text);
                            let found = !split.commands.is_empty() || !split.errors.is_empty();
                            assert_eq!(starts_with_command(&text), found, "{text:?}");
                            n += usize::from(found);
                        }
                    }
                }
            }
        }
        assert!(n > 10_000, "{n} blocks with commands");
        // Every word of every list, alone and with one to three arguments.
        let lists = [
            RESEND, HISTORY, STATUS, HELP, TIMEZONE, PRESS, TO, ALL, ANONYMOUS, ABSENCE, PAUSE,
            RESUME, EXTEND, SET, DEADLINE, EJECT, PREVIEW, TAKEOVER, RELEASE, ALWAYS, OFF,
            PASSWORD, NEW, ROLLBACK, ACCEPT, REFUSE,
        ];
        for w in lists.iter().flat_map(|l| l.iter()) {
            for args in [
                "",
                " 3",
                " new x",
                " deadline 2026-12-24 20:00",
                " tous bonjour",
            ] {
                for text in [
                    format!("{w}{args}"),
                    format!("\n  {}{args}\nADD 1", w.to_uppercase()),
                ] {
                    let split = split_commands(&text);
                    let found = !split.commands.is_empty() || !split.errors.is_empty();
                    assert_eq!(starts_with_command(&text), found, "{text:?}");
                }
            }
        }
    }

    /// `is` against the copying comparison it replaced, on every command
    /// word written in upper, title and mixed case, with a Σ or a Kelvin
    /// sign glued on, and against the other lists' words.
    #[test]
    fn is_agrees_with_the_lowered_copy() {
        let lists = [
            RESEND, HISTORY, STATUS, HELP, TIMEZONE, PRESS, TO, ALL, ANONYMOUS, ABSENCE, PAUSE,
            RESUME, EXTEND, SET, DEADLINE, EJECT, PREVIEW, TAKEOVER, RELEASE, ALWAYS, OFF,
            PASSWORD, NEW, ROLLBACK, ACCEPT, REFUSE,
        ];
        let copying = |t: &str, words: &[&str]| words.contains(&t.to_lowercase().as_str());
        let mut tokens: Vec<String> = vec!["".into(), "Σ".into(), "\u{212a}".into()];
        for w in lists.iter().flat_map(|l| l.iter()) {
            let title: String = w
                .chars()
                .enumerate()
                .flat_map(|(i, c)| {
                    if i == 0 {
                        c.to_uppercase().collect::<Vec<_>>()
                    } else {
                        vec![c]
                    }
                })
                .collect();
            let mixed: String = w
                .chars()
                .enumerate()
                .flat_map(|(i, c)| {
                    if i % 2 == 1 {
                        c.to_uppercase().collect::<Vec<_>>()
                    } else {
                        vec![c]
                    }
                })
                .collect();
            tokens.extend([
                w.to_string(),
                w.to_uppercase(),
                title,
                mixed,
                format!("{w}Σ"),
                format!("Σ{w}"),
                format!("{w}s"),
                w.chars().skip(1).collect(),
            ]);
        }
        let mut agreed_yes = 0;
        for t in &tokens {
            for l in lists {
                assert_eq!(is(t, l), copying(t, l), "{t:?} in {l:?}");
                agreed_yes += usize::from(copying(t, l));
            }
        }
        assert!(agreed_yes > 300, "the tokens hold the words: {agreed_yes}");
    }

    fn cmd(line: &str) -> Result<Command, Reason> {
        parse_line(line).expect("a command")
    }

    #[test]
    fn takeover_takes_a_seat_an_address_and_an_optional_name() {
        assert_eq!(
            cmd("REMPLACER miria nouvelle@example.org Nouvelle Joueuse"),
            Ok(Command::Takeover {
                player: "miria".into(),
                email: "nouvelle@example.org".into(),
                name: Some("Nouvelle Joueuse".into()),
                password: None,
            })
        );
        assert_eq!(
            cmd("ersetzen p2 neu@example.org"),
            Ok(Command::Takeover {
                player: "p2".into(),
                email: "neu@example.org".into(),
                name: None,
                password: None,
            })
        );
        assert_eq!(
            cmd("TAKEOVER p2"),
            Err(Reason::MissingArgument("player email [name]"))
        );
        assert_eq!(
            cmd("TAKEOVER p2 nobody"),
            Err(Reason::BadEmail("nobody".into()))
        );
        assert_eq!(cmd("takeover p2 @x"), Err(Reason::BadEmail("@x".into())));
    }

    #[test]
    fn preview_modes_and_release_in_three_languages() {
        assert_eq!(cmd("PREVIEW"), Ok(Command::Preview));
        assert_eq!(cmd("aperçu toujours"), Ok(Command::PreviewAlways));
        assert_eq!(cmd("VORSCHAU IMMER"), Ok(Command::PreviewAlways));
        assert_eq!(cmd("preview off"), Ok(Command::PreviewOff));
        assert_eq!(cmd("APERÇU ARRÊT"), Ok(Command::PreviewOff));
        assert_eq!(cmd("vorschau aus"), Ok(Command::PreviewOff));
        assert_eq!(
            cmd("PREVIEW sometimes"),
            Err(Reason::TooManyArguments("sometimes".into()))
        );
        for w in ["RELEASE", "publier", "Freigeben"] {
            assert_eq!(cmd(w), Ok(Command::Release), "{w}");
        }
        assert_eq!(
            cmd("RELEASE now"),
            Err(Reason::TooManyArguments("now".into()))
        );
        assert_eq!(Command::Release.role(), Role::GameMaster);
        assert_eq!(
            Command::Takeover {
                player: "a".into(),
                email: "b@c".into(),
                name: None,
                password: None,
            }
            .role(),
            Role::GameMaster
        );
    }
}
