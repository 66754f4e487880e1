//! Issue 19 item 3: one language on the command line. A ruleset's setup
//! refusal is a typed kind (arbitre_core::setup_error); `game create`
//! renders it through the message catalogue in the command line's
//! language, so Evolution der Sterne's refusals no longer reach an English
//! command line in German, nor Nébulight's in French.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::clock::FixedClock;
use arbitre::daemon::Daemon;
use arbitre::game_config::{GameConfigError, SyntaxItem, TomlError, TomlKind, ValueType, Warning};
use arbitre::schedule::ScheduleError;
use arbitre::setup_text::{
    game_config_text, join_refusal_text, schedule_text, setup_error_text, warning_text,
};
use arbitre_core::setup_error::{Expected, Item, JoinRefusal, Load, NationProblem, Role, Rule};
use arbitre_core::{Lang, SetupError};
use std::sync::Arc;

/// One error of every kind (every role, load, rule, range and expectation).
fn every_kind() -> Vec<SetupError> {
    use SetupError as S;
    let s = |x: &str| x.to_string();
    let mut v = vec![
        S::UnknownMap {
            name: s("duell"),
            valid: vec![s("duel"), s("duel-petit")],
        },
        S::UnknownKey {
            table: s("[rules]"),
            key: s("mapp"),
            valid: vec![s("map"), s("turns")],
        },
        S::UnknownKey {
            table: s("[players.rules] of player a"),
            key: s("x"),
            valid: vec![],
        },
        S::Position(s("expected `=`")),
        S::Rules(s("invalid type: string \"x\", expected u32")),
        S::Exclusive {
            a: s("min_players"),
            b: s("max_players"),
        },
        S::OffMap {
            item: Item::Star,
            id: s("3"),
            x: 30,
            y: 2,
            min: 1,
            max_x: 20,
            max_y: 12,
        },
        S::SamePlace {
            item: Item::World,
            id: s("7"),
            x: 4,
            y: 4,
        },
        S::TooClose {
            item: Item::Star,
            id: s("1"),
            other: s("2"),
        },
        S::Unknown {
            item: Item::UnitType,
            name: s("XYZ"),
        },
        S::Missing {
            item: Item::Player,
            id: s("bob"),
        },
        S::NoneOf { item: Item::World },
        S::Numbering {
            item: Item::Ruler,
            count: 3,
        },
        S::NoHome { player: s("2") },
        S::TooFewStarts {
            needed: 5,
            available: 4,
        },
        S::OneWayLink {
            item: Item::Zone,
            id: s("IST"),
            to: s("ANK"),
        },
        S::NameMismatch {
            player: s("1"),
            position: s("Max"),
            game: s("Maxtor"),
        },
    ];
    for (min, max) in [(2, Some(2)), (1, Some(3)), (2, None)] {
        for known in ["", "TUR, EGY"] {
            v.push(S::PlayerCount {
                got: 4,
                min,
                max,
                known: s(known),
            });
        }
    }
    for expected in [
        Expected::Bool,
        Expected::Name,
        Expected::Table,
        Expected::Integer,
        Expected::Duration,
        Expected::AtLeast(1),
        Expected::Between(-100, 100),
    ] {
        v.push(S::BadValue {
            key: s("turns"),
            value: s("0"),
            expected,
        });
    }
    for item in Item::ALL {
        v.push(S::Duplicate { item, id: s("7") });
    }
    for load in [Load::Fuel, Load::Cargo] {
        v.push(S::OverCapacity {
            item: Item::Ship,
            id: s("4"),
            load,
            amount: 12,
            capacity: 10,
        });
    }
    for role in [
        Role::Owner,
        Role::Home,
        Role::Link,
        Role::Place,
        Role::Other,
    ] {
        v.push(S::UnknownRef {
            item: Item::Fleet,
            id: s("25"),
            role,
            target: Item::World,
            name: s("999"),
        });
    }
    for rule in [
        Rule::BlackHoleHoldsNothing,
        Rule::FleetInBlackHole,
        Rule::OwnerWithoutPopulation,
        Rule::PopulationOverLimit,
        Rule::LinkedToItself,
        Rule::NoLinks,
        Rule::CannotBeOwned,
        Rule::MountainWithoutTroops,
        Rule::HomeNotLand,
        Rule::LandWithoutArea,
        Rule::ReservedCode,
        Rule::BadId,
        Rule::BadName,
        Rule::BadPath,
        Rule::NeedsNumber,
        Rule::YieldOutOfRange,
        Rule::HomeOfTwo,
        Rule::AllyAndEnemy,
    ] {
        v.push(S::Breaks {
            item: Item::Territory,
            id: s("ALS"),
            rule,
        });
    }
    for problem in [
        NationProblem::NotText,
        NationProblem::NotInScenario { word: s("GER") },
        NationProblem::NamedTwice {
            nation: s("TUR"),
            other: s("ali"),
        },
        NationProblem::Taken {
            nation: s("TUR"),
            other: s("ali"),
        },
        NationProblem::None,
    ] {
        v.push(S::Nation {
            player: s("bea"),
            problem,
            known: s("TUR (Turquie), EGY (Égypte)"),
        });
    }
    v
}

/// The English catalogue says what each kind's `Display` says (the
/// rulesets' tests and the logs read the `Display`), and French and German
/// say it in their own words, every variable filled.
#[test]
fn setup_errors_every_kind_in_three_languages() {
    let mut wrong = Vec::new();
    for e in every_kind() {
        let en = setup_error_text(Lang::En, &e);
        if en != e.to_string() {
            wrong.push(format!("en: {en:?}\n    Display: {:?}", e.to_string()));
        }
        for lang in [Lang::Fr, Lang::De] {
            let t = setup_error_text(lang, &e);
            if t.contains("setup-") || t.contains('{') {
                wrong.push(format!("{lang:?}: unfilled: {t}"));
            }
            // Ids, numbers and names are the same words in every language;
            // everything else is translated.
            let words = |s: &str| {
                s.split(|c: char| !c.is_alphabetic())
                    .filter(|w| w.len() > 3)
                    .map(str::to_lowercase)
                    .collect::<Vec<_>>()
            };
            // `[rules]: <the TOML reader's message>` is the reader's own
            // English in every language.
            let own_words = matches!(e, SetupError::Rules(_));
            if t == en && words(&en).len() > 1 && !own_words {
                wrong.push(format!("{lang:?}: not translated: {t}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const EDS: &str = r#"id = "eds-001"
ruleset = "eds"

[rules]
map = "duel"

[[players]]
id = "ana"
email = "ana@example.org"
password = "a"

[[players]]
id = "ben"
email = "ben@example.org"
password = "b"
"#;

fn daemon(dir: &std::path::Path) -> Daemon {
    Daemon::open(
        common::config(dir),
        common::registry(),
        Arc::new(FixedClock::new(common::t0())),
    )
    .unwrap()
}

/// The issue's case: Evolution der Sterne's refusal used to reach the
/// English command line in German ("Stern 3 liegt außerhalb der Karte").
/// Now `game create` speaks the command line's language, place first.
#[test]
fn setup_errors_follow_the_command_line_language() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path());
    d.check_game_file(EDS, "game.toml", dir.path()).unwrap();
    // A position whose ship carries more fuel than its tank holds.
    let st = {
        use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig};
        let c = SetupConfig {
            game_id: "g".into(),
            players: ["ana", "ben"]
                .iter()
                .map(|p| PlayerSetup {
                    id: PlayerId::from(*p),
                    name: p.to_string(),
                    options: toml::Table::new(),
                })
                .collect(),
            options: toml::from_str("map = \"duel\"").unwrap(),
            ..Default::default()
        };
        arbitre_eds::Eds.setup(&c, &mut Rng::for_setup(1)).unwrap()
    };
    let mut pos: arbitre_eds::setup::Position =
        toml::from_str(&arbitre_eds::setup::position_toml(&st)).unwrap();
    let ship = pos.ships[0].number;
    let tk = pos.ships[0].tk;
    pos.ships[0].sp = tk + 5;
    std::fs::write(dir.path().join("pos.toml"), toml::to_string(&pos).unwrap()).unwrap();
    let text = EDS.replace("map = \"duel\"", "position_file = \"pos.toml\"");
    let says = |lang| {
        d.check_game_file_in(&text, "game.toml", dir.path(), lang)
            .unwrap_err()
            .to_string()
    };
    let sp = tk + 5;
    assert_eq!(
        says(Lang::En),
        format!("game.toml: ship {ship}: fuel {sp} above its tank {tk}")
    );
    assert_eq!(
        says(Lang::Fr),
        format!("game.toml: vaisseau {ship} : carburant {sp} au-delà de son réservoir {tk}")
    );
    assert_eq!(
        says(Lang::De),
        format!("game.toml: Schiff {ship}: Treibstoff {sp} über dem Tank {tk}")
    );
    // A French ruleset on a German command line: Nébulight's black hole.
    let neb = r#"id = "neb-001"
ruleset = "nebulight"

[rules]
map_file = "map.toml"

[[players]]
id = "maxtor"
email = "maxtor@example.org"
password = "m"

[[players]]
id = "miria"
email = "miria@example.org"
password = "n"
"#;
    std::fs::write(
        dir.path().join("map.toml"),
        "[map]\nname = \"t\"\n\n[[world]]\nnumber = 1\nlinks = [2]\nstart_of = 1\npopulation = 10\npop_limit = 10\n\n[[world]]\nnumber = 2\nlinks = [1]\nstart_of = 2\npopulation = 10\npop_limit = 10\n\n[[world]]\nnumber = 3\nlinks = [1]\nblack_hole = true\nmp = 4\n",
    )
    .unwrap();
    let e = d
        .check_game_file_in(neb, "game.toml", dir.path(), Lang::De)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "game.toml: Welt 3: ein Schwarzes Loch enthält nichts");
    let e = d
        .check_game_file_in(neb, "game.toml", dir.path(), Lang::En)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "game.toml: world 3: a black hole holds nothing");
}

/// The words of `en` that must not be left in a French or German text:
/// every word of four letters or more, except the names a game file
/// spells the same in every language (keys, values, program names).
fn english_words(en: &str, data: &[&str]) -> Vec<String> {
    const SAME: &[&str] = &[
        "password",
        "password_hash",
        "hash",
        "interval",
        "weekday",
        "time",
        "gm_email",
        "approve",
        "max_players",
        "argon2id",
        "argon2",
        "arbitre",
        "Europe",
        "Paris",
        "IANA",
        "TOML",
        "true",
        "false",
        "option",
        "table",
        "PLAYER",
        "TIMEZONE",
        "UTF",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "game",
        "toml",
        // French words too.
        "permission",
        "type",
        "date",
    ];
    en.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() > 3 && !w.contains(|c: char| c.is_ascii_digit()))
        .filter(|w| !SAME.contains(w))
        .filter(|w| !data.iter().any(|d| d.contains(w)))
        .map(str::to_string)
        .collect()
}

fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// One game-file error of every kind the daemon itself raises (issue 19
/// item 3), with the data values it carries (names, not words).
fn every_config_kind() -> Vec<(GameConfigError, Vec<&'static str>)> {
    use std::io::{Error, ErrorKind};
    use GameConfigError as E;
    let s = |x: &str| x.to_string();
    let toml = |kind| {
        E::Toml(TomlError {
            kind,
            span: Some(0..1),
        })
    };
    let mut v = vec![
        (
            E::Read(s("g.toml"), Error::from(ErrorKind::NotFound)),
            vec!["g.toml"],
        ),
        (
            toml(TomlKind::UnknownField {
                key: s("mapp"),
                valid: vec![s("map"), s("turns")],
            }),
            vec!["mapp", "turns"],
        ),
        (
            toml(TomlKind::UnknownField {
                key: s("mapp"),
                valid: vec![],
            }),
            vec!["mapp"],
        ),
        (toml(TomlKind::MissingField(s("email"))), vec!["email"]),
        (
            toml(TomlKind::DuplicateKey(s("language"))),
            vec!["language"],
        ),
        (E::BadId(s("neb 001")), vec![]),
        (E::BadPlayerId(s("max tor")), vec![]),
        (E::DuplicatePlayer(s("maxtor")), vec!["maxtor"]),
        (E::NoPassword(s("maxtor")), vec!["maxtor"]),
        (E::BothPasswords(s("maxtor")), vec!["maxtor"]),
        (
            E::BadEmail(s("maxtor"), s("maxtor.example.org")),
            vec!["maxtor.example.org"],
        ),
        (E::BadToken(s("maxtor")), vec!["maxtor"]),
        (E::BadLanguage(s("es")), vec![]),
        (E::SignupNeedsGm, vec![]),
        (E::SignupNoSeat, vec![]),
        (
            E::File {
                key: s("map_file"),
                path: s("my-map.toml"),
                err: Error::from(ErrorKind::NotFound),
            },
            vec!["map_file", "my-map.toml"],
        ),
        (
            E::File {
                key: s("map_file"),
                path: s("my-map.toml"),
                err: Error::from(ErrorKind::PermissionDenied),
            },
            vec!["map_file", "my-map.toml"],
        ),
        (
            E::At {
                place: s("game.toml:3:1"),
                err: Box::new(E::BadLanguage(s("es"))),
            },
            vec!["game.toml"],
        ),
    ];
    for reason in [
        "is not a PHC string (x)",
        "uses pbkdf2, not argon2id",
        "has no salt or no hash",
        "has bad argon2 parameters (x)",
    ] {
        v.push((E::BadPasswordHash(s("maxtor"), s(reason)), vec!["maxtor"]));
    }
    for (found, expected) in [
        (ValueType::Text(Some(s("42"))), ValueType::Integer(None)),
        (ValueType::Integer(Some(s("7"))), ValueType::Text(None)),
        (ValueType::Bool, ValueType::List),
        (ValueType::Float, ValueType::Table),
        (ValueType::DateTime, ValueType::Bool),
    ] {
        v.push((toml(TomlKind::WrongType { found, expected }), vec![]));
    }
    for item in [
        SyntaxItem::String,
        SyntaxItem::Key,
        SyntaxItem::TableHeader,
        SyntaxItem::Array,
        SyntaxItem::InlineTable,
        SyntaxItem::Number,
        SyntaxItem::DateTime,
        SyntaxItem::Line,
    ] {
        v.push((toml(TomlKind::Syntax(item)), vec![]));
    }
    for e in [
        ScheduleError::Duration(s("a week")),
        ScheduleError::Weekday(s("fryday")),
        ScheduleError::Time(s("8pm")),
        ScheduleError::Zone(s("Europe/Pariss")),
        ScheduleError::Start(s("next friday")),
        ScheduleError::Both,
        ScheduleError::Half,
        ScheduleError::TimeNeedsDays(s("36h")),
    ] {
        v.push((
            E::Schedule(e),
            vec!["a week", "fryday", "8pm", "Pariss", "next friday"],
        ));
    }
    v
}

/// Issue 19 item 3: the daemon's own game-file errors and warnings go
/// through the catalogue like the rulesets' setup errors: English as
/// before (the troubleshooting table of docs/game-master.md), and French
/// and German with no English word left beside the file's own names.
#[test]
fn game_config_errors_every_kind_in_three_languages() {
    let mut wrong = Vec::new();
    type Render = Box<dyn Fn(Lang) -> String>;
    let mut texts: Vec<(String, Vec<&str>, Render)> = Vec::new();
    for (e, data) in every_config_kind() {
        let en = e.to_string();
        let e = std::rc::Rc::new(e);
        texts.push((en, data, Box::new(move |l| game_config_text(l, &e))));
    }
    let warnings = [
        Warning::SharedAddress {
            email: "a@example.org".into(),
            first: "ana".into(),
            second: "ben".into(),
        },
        Warning::StartInPast("2020-01-01T20:00:00+01:00".into()),
        Warning::FixedOffsetZone("CET".into()),
    ];
    for w in warnings {
        let en = w.to_string();
        let data = vec!["a@example.org", "2020-01-01T20:00:00+01:00"];
        texts.push((en, data, Box::new(move |l| warning_text(l, &w))));
    }
    // The schedule's own Display (logs, other commands) says the same.
    let zone = ScheduleError::Zone("Europe/Pariss".into());
    if schedule_text(Lang::En, &zone) != zone.to_string() {
        wrong.push(format!("schedule en: {}", schedule_text(Lang::En, &zone)));
    }
    for (en, data, text) in &texts {
        if *en != text(Lang::En) || en.contains("cfg-") || en.contains("sched-") {
            wrong.push(format!("en: {en}"));
        }
        for lang in [Lang::Fr, Lang::De] {
            let t = text(lang);
            if t.contains("cfg-") || t.contains("sched-") || t.contains('{') || t == *en {
                wrong.push(format!("{lang:?}: untranslated or unfilled: {t}"));
            }
            for w in english_words(en, data) {
                if has_word(&t, &w) {
                    wrong.push(format!("{lang:?}: English word '{w}' in: {t}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The TOML reader's refusals become kinds: what the game-file table of
/// docs/game-master.md lists as serde's and toml's words.
#[test]
fn toml_refusals_are_typed() {
    let kind = |text: &str| match arbitre::game_config::GameToml::parse(text) {
        Err(GameConfigError::Toml(t)) => t.kind,
        other => panic!("{other:?}"),
    };
    let base = "id = \"g\"\nruleset = \"nebulight\"\n";
    assert!(matches!(
        kind(&format!("{base}rulset = 1\n")),
        TomlKind::UnknownField { key, valid } if key == "rulset" && valid.contains(&"ruleset".to_string())
    ));
    assert_eq!(
        kind("ruleset = \"n\"\n"),
        TomlKind::MissingField("id".into())
    );
    assert_eq!(
        kind(&format!("{base}seed = \"42\"\n")),
        TomlKind::WrongType {
            found: ValueType::Text(Some("42".into())),
            expected: ValueType::Integer(None)
        }
    );
    assert_eq!(
        kind(&format!("{base}language = \"en\"\nlanguage = \"fr\"\n")),
        TomlKind::DuplicateKey("language".into())
    );
    assert_eq!(
        kind(&format!("{base}language = \"en\n")),
        TomlKind::Syntax(SyntaxItem::String)
    );
}

/// Scrambled Nations' join refusals (issue 19 item 3) are kinds: English,
/// French and German, no English left in the two others.
#[test]
fn scn_join_error_kinds_in_three_languages() {
    let every = [
        JoinRefusal::NoRule {
            ruleset: "Evolution der Sterne".into(),
        },
        JoinRefusal::NotAllowed,
        JoinRefusal::NoRoom,
        JoinRefusal::NameTaken("p4".into()),
        JoinRefusal::Over,
        JoinRefusal::Full,
    ];
    let mut wrong = Vec::new();
    for r in every {
        let en = r.to_string();
        let e = SetupError::Join(r.clone());
        if setup_error_text(Lang::En, &e) != en || join_refusal_text(Lang::En, &r) != en {
            wrong.push(format!("en: {en}"));
        }
        for lang in [Lang::Fr, Lang::De] {
            let t = setup_error_text(lang, &e);
            if t.contains("join-") || t == en {
                wrong.push(format!("{lang:?}: untranslated: {t}"));
            }
            for w in english_words(&en, &["Evolution der Sterne"]) {
                if has_word(&t, &w) {
                    wrong.push(format!("{lang:?}: English word '{w}' in: {t}"));
                }
            }
        }
    }
    // The ruleset returns the kinds themselves, not a sentence.
    use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig};
    let players = |n: &[&str]| {
        n.iter()
            .map(|p| PlayerSetup {
                id: PlayerId::from(*p),
                name: p.to_string(),
                options: toml::Table::new(),
            })
            .collect::<Vec<_>>()
    };
    let c = SetupConfig {
        game_id: "g".into(),
        players: players(&["p1", "p2", "p3"]),
        options: toml::from_str("world = \"testland\"").unwrap(),
        ..Default::default()
    };
    let scn = arbitre_scrambled::Scrambled;
    let mut st = scn.setup(&c, &mut Rng::for_setup(1)).unwrap();
    let again = &players(&["p2"])[0];
    assert_eq!(
        scn.join(&mut st, again, &mut Rng::for_setup(2)),
        Err(SetupError::Join(JoinRefusal::NameTaken("p2".into())))
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
