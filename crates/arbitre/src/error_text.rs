//! The daemon's errors in a person's language (issue 16 item 3).
//!
//! The libraries keep typed errors whose `Display` is the English of the
//! logs; this is where the command line words the same kinds through the
//! message catalogue in its `--lang` (`err-*`, `conf-*`, `mail-err-*`,
//! `imap-err-*` ids of `locales/*.ftl`), as `setup_text.rs` does for a
//! ruleset's and a game file's refusals. What no kind describes (a
//! server's or a parser's own words, the operating system's) is quoted as
//! it came.

use crate::config::{ConfigError, ConfigProblem};
use crate::error::DaemonError;
use crate::fl_args;
use crate::i18n::{tr, Lookup};
use crate::setup_text::{io_text, setup_error_text, store_text};
use arbitre_core::{EngineError, Lang};
use arbitre_mail::imap::ImapError;
use arbitre_mail::MailError;

/// An engine's refusal in `lang`.
pub fn engine_text(lang: Lang, e: &EngineError) -> String {
    let (id, args): Lookup = match e {
        EngineError::Setup(se) => return setup_error_text(lang, se),
        EngineError::BadState(detail) => ("err-engine-bad-state", fl_args![detail]),
        EngineError::GameOver => ("err-engine-game-over", vec![]),
        EngineError::UnknownPlayer(player) => ("err-engine-unknown-player", fl_args![player]),
        EngineError::Panicked { during, message } => {
            ("err-engine-panicked", fl_args![during, message])
        }
    };
    tr(lang, id, &args)
}

/// `e` in `lang`; `None` for the store's failures that are the
/// database's own words.
pub fn daemon_error_text(lang: Lang, e: &DaemonError) -> Option<String> {
    use DaemonError as D;
    let (id, args): Lookup = match e {
        D::Store(s) => return store_text(lang, s),
        D::Mail(m) => {
            let error = mail_text(lang, m);
            ("err-mail", fl_args![error])
        }
        D::Ruleset(u) => {
            let (ruleset, known) = (&u.id, u.known.join(", "));
            ("cfg-unknown-ruleset", fl_args![ruleset, known])
        }
        D::GameConfig(g) => return Some(crate::setup_text::game_config_text(lang, g)),
        D::Engine { game, err, hidden } => {
            let error = crate::create::scrub_lines(&engine_text(lang, err), hidden, lang);
            ("err-engine", fl_args![game, error])
        }
        D::WrongTurn {
            game,
            got,
            expected,
        } => ("err-wrong-turn", fl_args![game, got, expected]),
        D::Panicked {
            game,
            during,
            message,
        } => ("err-panicked", fl_args![game, during, message]),
        D::Faulted(game) => ("cli-game-faulted", fl_args![game]),
        D::GameOver(game) => ("cli-game-over", fl_args![game]),
        D::Held { game, turn } => ("err-held", fl_args![game, turn]),
        // Worded in the asker's language where they were made.
        D::Invalid(text) | D::GameFile(text) => return Some(text.clone()),
    };
    Some(tr(lang, id, &args))
}

/// A mail's failure (reading the inbox, parsing, formatting) in `lang`.
pub fn mail_text(lang: Lang, e: &MailError) -> String {
    let (id, args): Lookup = match e {
        MailError::Io(e) => {
            let error = io_text(lang, e);
            ("mail-err-io", fl_args![error])
        }
        MailError::TooLarge { size, limit } => ("mail-err-too-large", fl_args![size, limit]),
        MailError::Unparseable(detail) => ("mail-err-unparseable", fl_args![detail]),
        MailError::Format(detail) => ("mail-err-format", fl_args![detail]),
        MailError::Imap(e) => return imap_text(lang, e),
    };
    tr(lang, id, &args)
}

/// An IMAP inbox's failure in `lang`; the server's own words stay.
pub fn imap_text(lang: Lang, e: &ImapError) -> String {
    let (id, args): Lookup = match e {
        ImapError::Connect(server) => ("imap-err-connect", fl_args![server]),
        ImapError::Tls(detail) => ("imap-err-tls", fl_args![detail]),
        ImapError::Auth(detail) => ("imap-err-auth", fl_args![detail]),
        ImapError::Lost(detail) => ("imap-err-lost", fl_args![detail]),
        ImapError::Server(detail) => ("imap-err-server", fl_args![detail]),
        ImapError::TooLarge { size, limit } => ("imap-err-too-large", fl_args![size, limit]),
        ImapError::Gone { uid } => ("imap-err-gone", fl_args![uid]),
        ImapError::UidValidityChanged { listed, current } => {
            ("imap-err-renumbered", fl_args![listed, current])
        }
        ImapError::Config(detail) => ("imap-err-config", fl_args![detail]),
    };
    tr(lang, id, &args)
}

/// `arbitre.toml`'s refusal in `lang`: `file[:line:column]: reason`.
pub fn config_text(lang: Lang, e: &ConfigError) -> String {
    let (place, error) = match e {
        ConfigError::Read(path, e) => {
            let error = io_text(lang, e);
            return tr(lang, "cfg-read", &fl_args![path, error]);
        }
        ConfigError::Toml { file, at, kind, .. } => {
            let place = match at {
                Some((line, col)) => format!("{file}:{line}:{col}"),
                None => file.clone(),
            };
            (place, crate::setup_text::toml_text(lang, kind))
        }
        ConfigError::Invalid(file, p) => (file.clone(), config_problem_text(lang, p)),
    };
    tr(lang, "cfg-at", &fl_args![place, error])
}

fn config_problem_text(lang: Lang, p: &ConfigProblem) -> String {
    use ConfigProblem as P;
    let (id, args): Lookup = match p {
        P::InboxTwice => ("conf-inbox-twice", vec![]),
        P::Referee(referee) => ("conf-referee", fl_args![referee]),
        P::Language(language) => ("conf-language", fl_args![language]),
        P::RetryWindow(e) => {
            let error = crate::timespec::text(lang, e);
            ("conf-retry-window", fl_args![error])
        }
        P::RetryNotPositive(value) => {
            let value = format!("{value:?}");
            ("conf-retry-not-positive", fl_args![value])
        }
        P::WebListen(value) => {
            let value = format!("{value:?}");
            ("conf-web-listen", fl_args![value])
        }
        // The mail crate's words: no kind to translate.
        P::Mail(text) => return text.clone(),
    };
    tr(lang, id, &args)
}

/// One link of an error chain in `lang` (its words say its causes too);
/// `None` when no kind of the catalogue describes it.
pub fn chain_link_text(lang: Lang, c: &(dyn std::error::Error + 'static)) -> Option<String> {
    if let Some(t) = c.downcast_ref::<crate::timespec::TimeSpecError>() {
        return Some(crate::timespec::text(lang, t));
    }
    if let Some(d) = c.downcast_ref::<DaemonError>() {
        return daemon_error_text(lang, d);
    }
    if let Some(s) = c.downcast_ref::<arbitre_store::StoreError>() {
        return store_text(lang, s);
    }
    if let Some(e) = c.downcast_ref::<ConfigError>() {
        return Some(config_text(lang, e));
    }
    if let Some(e) = c.downcast_ref::<crate::game_config::GameConfigError>() {
        return Some(crate::setup_text::game_config_text(lang, e));
    }
    if let Some(e) = c.downcast_ref::<crate::schedule::ScheduleError>() {
        return Some(crate::setup_text::schedule_text(lang, e));
    }
    if let Some(u) = c.downcast_ref::<crate::registry::UnknownRuleset>() {
        let (ruleset, known) = (&u.id, u.known.join(", "));
        return Some(tr(lang, "cfg-unknown-ruleset", &fl_args![ruleset, known]));
    }
    if let Some(e) = c.downcast_ref::<EngineError>() {
        return Some(engine_text(lang, e));
    }
    if let Some(e) = c.downcast_ref::<MailError>() {
        return Some(mail_text(lang, e));
    }
    if let Some(e) = c.downcast_ref::<crate::png_map::PngError>() {
        return Some(crate::png_map::png_text(lang, e));
    }
    None
}
