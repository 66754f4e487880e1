//! A ruleset's setup refusal in a person's language (issue 19 item 3).
//!
//! The rulesets return [`SetupError`] as kinds with their data; this is
//! the one place that turns them into sentences, through the message
//! catalogue (`setup-*` ids of `locales/*.ftl`). The command line passes
//! its own language, so an English command line never shows the French or
//! German of the ruleset it checks. The English catalogue says what each
//! kind's `Display` says (tests/setup_text.rs holds the two together).

use crate::fl_args;
use crate::game_config::{GameConfigError, SyntaxItem, TomlKind, ValueType, Warning};
use crate::i18n::{tr, Lookup};
use crate::schedule::ScheduleError;
use arbitre_core::setup_error::{Expected, Item, JoinRefusal, Load, NationProblem, Role, Rule};
use arbitre_core::{Lang, SetupError};

/// `err` as a sentence in `lang`.
pub fn setup_error_text(lang: Lang, err: &SetupError) -> String {
    use SetupError as S;
    let item = |i: &Item| item_word(lang, *i);
    let (id, args): Lookup = match err {
        // No kind fits these (an engine without positions): English.
        S::Invalid(text) => return text.clone(),
        S::UnknownMap { name, valid } => {
            let valid = valid.join(", ");
            ("setup-unknown-map", fl_args![name, valid])
        }
        S::UnknownKey { table, key, valid } if valid.is_empty() => {
            ("setup-unknown-key-none", fl_args![key, table])
        }
        S::UnknownKey { table, key, valid } => {
            let valid = valid.join(", ");
            ("setup-unknown-key", fl_args![key, table, valid])
        }
        S::PlayerCount {
            got,
            min,
            max,
            known,
        } => {
            let range = player_range(lang, *min, *max);
            if known.is_empty() {
                ("setup-player-count", fl_args![got, range])
            } else {
                ("setup-player-count-nations", fl_args![got, range, known])
            }
        }
        S::Position(message) => ("setup-position", fl_args![message]),
        S::Rules(message) => ("setup-rules", fl_args![message]),
        S::BadValue {
            key,
            value,
            expected,
        } => {
            let expected = expected_text(lang, expected);
            ("setup-bad-value", fl_args![key, value, expected])
        }
        S::Exclusive { a, b } => ("setup-exclusive", fl_args![a, b]),
        S::Duplicate { item: i, id } => {
            let item = item(i);
            ("setup-duplicate", fl_args![item, id])
        }
        S::OffMap {
            item: i,
            id,
            x,
            y,
            min,
            max_x,
            max_y,
        } => {
            let item = item(i);
            let args = fl_args![item, id, x, y, min, max_x, max_y];
            ("setup-off-map", args)
        }
        S::SamePlace { item: i, id, x, y } => {
            let item = item(i);
            ("setup-same-place", fl_args![item, id, x, y])
        }
        S::TooClose { item: i, id, other } => {
            let item = item(i);
            ("setup-too-close", fl_args![item, id, other])
        }
        S::OverCapacity {
            item: i,
            id,
            load,
            amount,
            capacity,
        } => {
            let item = item(i);
            let args = fl_args![item, id, amount, capacity];
            match load {
                Load::Fuel => ("setup-over-fuel", args),
                Load::Cargo => ("setup-over-cargo", args),
            }
        }
        S::UnknownRef {
            item: i,
            id,
            role,
            target,
            name,
        } => {
            let item = item(i);
            let target = item_word(lang, *target);
            let args = fl_args![item, id, target, name];
            match role {
                Role::Owner => ("setup-unknown-owner", args),
                Role::Home => ("setup-unknown-home", args),
                Role::Link => ("setup-unknown-link", args),
                Role::Place => ("setup-unknown-place", args),
                Role::Other => ("setup-unknown-ref", args),
            }
        }
        S::Unknown { item: i, name } => {
            let item = item(i);
            ("setup-unknown", fl_args![item, name])
        }
        S::Missing { item: i, id } => {
            let item = item(i);
            ("setup-missing", fl_args![item, id])
        }
        S::NoneOf { item: i } => {
            let item = item(i);
            ("setup-none-of", fl_args![item])
        }
        S::Numbering { item: i, count } => {
            let item = item(i);
            ("setup-numbering", fl_args![item, count])
        }
        S::NoHome { player } => ("setup-no-home", fl_args![player]),
        S::TooFewStarts { needed, available } => {
            ("setup-too-few-starts", fl_args![needed, available])
        }
        S::OneWayLink { item: i, id, to } => {
            let item = item(i);
            ("setup-one-way-link", fl_args![item, id, to])
        }
        S::Breaks { item: i, id, rule } => {
            let item = item(i);
            let rule = rule_text(lang, *rule);
            ("setup-breaks", fl_args![item, id, rule])
        }
        S::NameMismatch {
            player,
            position,
            game,
        } => ("setup-name-mismatch", fl_args![player, position, game]),
        S::Nation {
            player,
            problem,
            known,
        } => match problem {
            NationProblem::NotText => ("setup-nation-not-text", fl_args![player, known]),
            NationProblem::NotInScenario { word } => {
                let args = fl_args![player, word, known];
                ("setup-nation-not-in-scenario", args)
            }
            NationProblem::NamedTwice { nation, other } => {
                let args = fl_args![player, nation, other, known];
                ("setup-nation-named-twice", args)
            }
            NationProblem::Taken { nation, other } => {
                let args = fl_args![player, nation, other, known];
                ("setup-nation-taken", args)
            }
            NationProblem::None => ("setup-nation-none", fl_args![player, known]),
        },
        S::Join(refusal) => return join_refusal_text(lang, refusal),
    };
    tr(lang, id, &args)
}

/// The noun of an item kind.
pub fn item_word(lang: Lang, item: Item) -> String {
    let (id, args): Lookup = match item {
        Item::Star => ("setup-item-star", vec![]),
        Item::Ship => ("setup-item-ship", vec![]),
        Item::Ruler => ("setup-item-ruler", vec![]),
        Item::World => ("setup-item-world", vec![]),
        Item::Fleet => ("setup-item-fleet", vec![]),
        Item::Zone => ("setup-item-zone", vec![]),
        Item::Unit => ("setup-item-unit", vec![]),
        Item::UnitType => ("setup-item-unit-type", vec![]),
        Item::Nation => ("setup-item-nation", vec![]),
        Item::Symbol => ("setup-item-symbol", vec![]),
        Item::Field => ("setup-item-field", vec![]),
        Item::Territory => ("setup-item-territory", vec![]),
        Item::Chain => ("setup-item-chain", vec![]),
        Item::Status => ("setup-item-status", vec![]),
        Item::Player => ("setup-item-player", vec![]),
    };
    tr(lang, id, &args)
}

fn rule_text(lang: Lang, rule: Rule) -> String {
    let (id, args): Lookup = match rule {
        Rule::BlackHoleHoldsNothing => ("setup-rule-black-hole", vec![]),
        Rule::FleetInBlackHole => ("setup-rule-fleet-in-black-hole", vec![]),
        Rule::OwnerWithoutPopulation => ("setup-rule-owner-without-population", vec![]),
        Rule::PopulationOverLimit => ("setup-rule-population-over-limit", vec![]),
        Rule::LinkedToItself => ("setup-rule-linked-to-itself", vec![]),
        Rule::NoLinks => ("setup-rule-no-links", vec![]),
        Rule::CannotBeOwned => ("setup-rule-cannot-be-owned", vec![]),
        Rule::MountainWithoutTroops => ("setup-rule-mountain", vec![]),
        Rule::HomeNotLand => ("setup-rule-home-not-land", vec![]),
        Rule::LandWithoutArea => ("setup-rule-land-without-area", vec![]),
        Rule::ReservedCode => ("setup-rule-reserved-code", vec![]),
        Rule::BadId => ("setup-rule-bad-id", vec![]),
        Rule::BadName => ("setup-rule-bad-name", vec![]),
        Rule::BadPath => ("setup-rule-bad-path", vec![]),
        Rule::NeedsNumber => ("setup-rule-needs-number", vec![]),
        Rule::YieldOutOfRange => ("setup-rule-yield", vec![]),
        Rule::HomeOfTwo => ("setup-rule-home-of-two", vec![]),
        Rule::AllyAndEnemy => ("setup-rule-ally-and-enemy", vec![]),
    };
    tr(lang, id, &args)
}

fn expected_text(lang: Lang, e: &Expected) -> String {
    let (id, args): Lookup = match e {
        Expected::Bool => ("setup-expected-bool", vec![]),
        Expected::Name => ("setup-expected-name", vec![]),
        Expected::Table => ("setup-expected-table", vec![]),
        Expected::Integer => ("setup-expected-integer", vec![]),
        Expected::Duration => ("setup-expected-duration", vec![]),
        Expected::AtLeast(n) => ("setup-expected-at-least", fl_args![n]),
        Expected::Between(a, b) => ("setup-expected-between", fl_args![a, b]),
    };
    tr(lang, id, &args)
}

fn player_range(lang: Lang, min: usize, max: Option<usize>) -> String {
    let (id, args): Lookup = match max {
        Some(max) if max == min => ("setup-range-exact", fl_args![min]),
        Some(max) => ("setup-range-between", fl_args![min, max]),
        None => ("setup-range-at-least", fl_args![min]),
    };
    tr(lang, id, &args)
}

/// The daemon's own refusal of a game file (issue 19 item 3), in `lang`:
/// every [`GameConfigError`] kind through the `cfg-*` messages.
pub fn game_config_text(lang: Lang, err: &GameConfigError) -> String {
    use GameConfigError as E;
    let (id, args): Lookup = match err {
        E::At { place, err } => {
            let error = game_config_text(lang, err);
            ("cfg-at", fl_args![place, error])
        }
        E::Read(path, e) => {
            let error = io_text(lang, e);
            ("cfg-read", fl_args![path, error])
        }
        E::Toml(t) => return toml_text(lang, &t.kind),
        E::BadId(game) => ("cfg-bad-id", fl_args![game]),
        E::BadPlayerId(player) => ("cfg-bad-player-id", fl_args![player]),
        E::DuplicatePlayer(player) => ("cfg-duplicate-player", fl_args![player]),
        E::NoPassword(player) => ("cfg-no-password", fl_args![player]),
        E::BothPasswords(player) => ("cfg-both-passwords", fl_args![player]),
        E::BadPasswordHash(player, reason) => {
            // The store's reason is English prose: only its kind is shown.
            let args = fl_args![player];
            if reason.starts_with("uses ") {
                ("cfg-password-hash-algorithm", args)
            } else if reason.starts_with("has bad argon2 parameters") {
                ("cfg-password-hash-parameters", args)
            } else if reason.starts_with("has no salt") {
                ("cfg-password-hash-no-salt", args)
            } else {
                ("cfg-password-hash-not-phc", args)
            }
        }
        E::BadEmail(player, email) => ("cfg-bad-email", fl_args![player, email]),
        E::BadToken(player) => ("cfg-bad-token", fl_args![player]),
        E::BadLanguage(language) => ("cfg-bad-language", fl_args![language]),
        E::Schedule(e) => {
            let error = schedule_text(lang, e);
            ("cfg-schedule", fl_args![error])
        }
        E::SignupNeedsGm => ("cfg-signup-needs-gm", vec![]),
        E::SignupNoSeat => ("cfg-signup-no-seat", vec![]),
        E::File { key, path, err } => {
            let error = io_text(lang, err);
            ("cfg-file", fl_args![key, path, error])
        }
    };
    tr(lang, id, &args)
}

/// A schedule's refusal in `lang`.
pub fn schedule_text(lang: Lang, e: &ScheduleError) -> String {
    use ScheduleError as S;
    let (id, args): Lookup = match e {
        S::Duration(value) => ("sched-bad-duration", fl_args![value]),
        S::Weekday(value) => ("sched-bad-weekday", fl_args![value]),
        S::Time(value) => ("sched-bad-time", fl_args![value]),
        S::Zone(value) => ("sched-bad-zone", fl_args![value]),
        S::Start(value) => ("sched-bad-start", fl_args![value]),
        S::Both => ("sched-both", vec![]),
        S::Half => ("sched-half", vec![]),
        S::TimeNeedsDays(value) => ("sched-time-needs-days", fl_args![value]),
    };
    tr(lang, id, &args)
}

/// A TOML parser's refusal in `lang`.
pub fn toml_text(lang: Lang, kind: &TomlKind) -> String {
    let (id, args): Lookup = match kind {
        TomlKind::UnknownField { key, valid } if valid.is_empty() => {
            ("cfg-unknown-field-none", fl_args![key])
        }
        TomlKind::UnknownField { key, valid } => {
            let valid = valid
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ");
            ("cfg-unknown-field", fl_args![key, valid])
        }
        TomlKind::MissingField(key) => ("cfg-missing-field", fl_args![key]),
        TomlKind::DuplicateKey(key) => ("cfg-duplicate-key", fl_args![key]),
        TomlKind::WrongType { found, expected } => {
            let (found, expected) = (type_text(lang, found), type_text(lang, expected));
            ("cfg-wrong-type", fl_args![found, expected])
        }
        TomlKind::Syntax(item) => match item {
            SyntaxItem::String => ("cfg-syntax-string", vec![]),
            SyntaxItem::Key => ("cfg-syntax-key", vec![]),
            SyntaxItem::TableHeader => ("cfg-syntax-table-header", vec![]),
            SyntaxItem::Array => ("cfg-syntax-array", vec![]),
            SyntaxItem::InlineTable => ("cfg-syntax-inline-table", vec![]),
            SyntaxItem::Number => ("cfg-syntax-number", vec![]),
            SyntaxItem::DateTime => ("cfg-syntax-datetime", vec![]),
            SyntaxItem::Line => ("cfg-syntax-line", vec![]),
        },
        TomlKind::Other(detail) => ("cfg-toml-other", fl_args![detail]),
    };
    tr(lang, id, &args)
}

fn type_text(lang: Lang, t: &ValueType) -> String {
    let (id, args): Lookup = match t {
        ValueType::Text(Some(value)) => ("cfg-type-text-value", fl_args![value]),
        ValueType::Text(None) => ("cfg-type-text", vec![]),
        ValueType::Integer(Some(value)) => ("cfg-type-integer-value", fl_args![value]),
        ValueType::Integer(None) => ("cfg-type-integer", vec![]),
        ValueType::Float => ("cfg-type-float", vec![]),
        ValueType::Bool => ("cfg-type-bool", vec![]),
        ValueType::List => ("cfg-type-list", vec![]),
        ValueType::Table => ("cfg-type-table", vec![]),
        ValueType::DateTime => ("cfg-type-datetime", vec![]),
        ValueType::Other(word) => return word.clone(),
    };
    tr(lang, id, &args)
}

/// A file that cannot be read: the common kinds in `lang`, the system's
/// words otherwise.
pub fn io_text(lang: Lang, e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => tr(lang, "cfg-io-not-found", &[]),
        std::io::ErrorKind::PermissionDenied => tr(lang, "cfg-io-denied", &[]),
        std::io::ErrorKind::IsADirectory => tr(lang, "cfg-io-directory", &[]),
        std::io::ErrorKind::InvalidData => tr(lang, "cfg-io-not-utf8", &[]),
        _ => e.to_string(),
    }
}

/// A game file's warning (issue 19 item 4) in `lang`.
pub fn warning_text(lang: Lang, w: &Warning) -> String {
    let (id, args): Lookup = match w {
        Warning::SharedAddress {
            email,
            first,
            second,
        } => ("cfg-warn-shared-address", fl_args![email, first, second]),
        Warning::StartInPast(start) => ("cfg-warn-start-past", fl_args![start]),
        Warning::FixedOffsetZone(zone) => ("cfg-warn-fixed-zone", fl_args![zone]),
    };
    tr(lang, id, &args)
}

/// Why a newcomer may not join a game in progress, in `lang`: the game's
/// language in a sign-up's answer, the command line's for `player join`.
pub fn join_refusal_text(lang: Lang, r: &JoinRefusal) -> String {
    let (id, args): Lookup = match r {
        JoinRefusal::NoRule { ruleset } => ("join-no-rule", fl_args![ruleset]),
        JoinRefusal::NotAllowed => ("join-not-allowed", vec![]),
        JoinRefusal::NoRoom => ("join-no-room", vec![]),
        JoinRefusal::NameTaken(player) => ("join-name-taken", fl_args![player]),
        JoinRefusal::Over => ("join-over", vec![]),
        JoinRefusal::Full => ("join-full", vec![]),
    };
    tr(lang, id, &args)
}

/// The store's refusals a game master meets at the command line (an id
/// taken or unknown, a second daemon, a newer schema) in `lang`; `None`
/// for the rest, which are the database's own words (issue 19 item 3).
pub fn store_text(lang: Lang, e: &arbitre_store::StoreError) -> Option<String> {
    use arbitre_store::StoreError as S;
    let (id, args): Lookup = match e {
        S::UnknownGame(game) => ("store-unknown-game", fl_args![game]),
        S::GameExists(game) => ("store-game-exists", fl_args![game]),
        S::PlayerExists { game, player } => ("store-player-exists", fl_args![game, player]),
        S::Locked(lock) => ("store-locked", fl_args![lock]),
        S::TooNew { found, known } => ("store-too-new", fl_args![found, known]),
        _ => return None,
    };
    Some(tr(lang, id, &args))
}
