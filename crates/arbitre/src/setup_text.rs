//! A ruleset's setup refusal in a person's language (issue 19 item 3).
//!
//! The rulesets return [`SetupError`] as kinds with their data; this is
//! the one place that turns them into sentences, through the message
//! catalogue (`setup-*` ids of `locales/*.ftl`). The command line passes
//! its own language, so an English command line never shows the French or
//! German of the ruleset it checks. The English catalogue says what each
//! kind's `Display` says (tests/setup_text.rs holds the two together).

use crate::fl_args;
use crate::i18n::{tr, Lookup};
use arbitre_core::setup_error::{Expected, Item, Load, NationProblem, Role, Rule};
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
