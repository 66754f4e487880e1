//! Issue 19, "Done when": the mistakes a game master makes most in a game
//! file, as one table. Each row edits a valid file, and `game create`'s
//! check must refuse it with the expected message, placed at
//! `game.toml:LINE:COLUMN` wherever the value came from the file (item 2).
//! The same rows are the troubleshooting table of docs/game-master.md; a
//! test checks that the two agree. Item 4's warnings have their own test.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::cli::daemon_in as daemon;

const NEB: &str = r#"id = "neb-001"
ruleset = "nebulight"
language = "en"

[schedule]
interval = "7d"
timezone = "Europe/Paris"
reminders = ["24h"]

[rules]
map = "duel"

[[players]]
id = "maxtor"
email = "maxtor@example.org"
password = "mx-pass"

[[players]]
id = "miria"
email = "miria@example.org"
password = "mi-pass"
"#;

const WWK: &str = r#"id = "wwk-001"
ruleset = "wwk"

[rules]
scenario = "trio"

[[players]]
id = "TUR"
email = "tur@example.org"
password = "p1"

[[players]]
id = "EGY"
email = "egy@example.org"
password = "p2"
"#;

/// How a row breaks the file.
enum Edit {
    /// Replace the first occurrence of `.0` by `.1` in the Nébulight file.
    Neb(&'static str, &'static str),
    /// The same in the WWK file.
    Wwk(&'static str, &'static str),
    /// Append to the Nébulight file.
    NebAppend(&'static str),
    /// Append to the WWK file.
    WwkAppend(&'static str),
}

struct Mistake {
    /// The mistake, as the doc's first column says it.
    what: &'static str,
    edit: Edit,
    /// The message (the doc's second column), after its place.
    says: &'static str,
    /// Whether the place has a line and column (false: a syntax error,
    /// which the TOML parser places itself, or the file as a whole).
    placed: bool,
}

const fn m(what: &'static str, edit: Edit, says: &'static str, placed: bool) -> Mistake {
    Mistake {
        what,
        edit,
        says,
        placed,
    }
}

const EXTRA_PLAYER: &str =
    "\n[[players]]\nid = \"zed\"\nemail = \"zed@example.org\"\npassword = \"z\"\n";

fn mistakes() -> Vec<Mistake> {
    use Edit::*;
    vec![
        m("misspelt top-level key", Neb("ruleset =", "rulset ="), "unknown field `rulset`", false),
        m("no `id`", Neb("id = \"neb-001\"\n", ""), "missing field `id`", false),
        m("no `ruleset`", Neb("ruleset = \"nebulight\"\n", ""), "missing field `ruleset`", false),
        m("unknown ruleset", Neb("\"nebulight\"", "\"nebulite\""), "unknown ruleset 'nebulite'", true),
        m("game id with a space", Neb("\"neb-001\"", "\"neb 001\""), "game id 'neb 001' must be 1-40 letters, digits, '-', '_' or '.'", true),
        m("unknown language", Neb("\"en\"", "\"es\""), "unknown language 'es' (fr, de, en)", true),
        m("a number written as text", Neb("language = \"en\"", "language = \"en\"\nseed = \"42\""), "invalid type: text \"42\", expected an integer", true),
        m("misspelt `[schedule]` key", Neb("interval =", "intervall ="), "unknown field `intervall`", false),
        m("bad duration", Neb("\"7d\"", "\"a week\""), "bad duration 'a week' (examples: 7d, 48h, 1d12h, 90m)", true),
        m("bad reminder", Neb("\"24h\"", "\"1 day\""), "bad duration '1 day' (examples: 7d, 48h, 1d12h, 90m)", true),
        m("misspelt time zone", Neb("Europe/Paris", "Europe/Pariss"), "unknown time zone 'Europe/Pariss' (expected an IANA name such as Europe/Paris)", true),
        m("interval and weekday", Neb("interval = \"7d\"", "interval = \"7d\"\nweekday = \"fri\""), "give either interval (with an optional time) or weekday + time, not both", true),
        m("weekday without time", Neb("interval = \"7d\"", "weekday = \"fri\""), "weekday needs a time, and time needs a weekday or an interval", true),
        m("misspelt weekday", Neb("interval = \"7d\"", "weekday = \"fryday\"\ntime = \"20:00\""), "unknown weekday 'fryday' (mon, tue, wed, thu, fri, sat, sun)", true),
        m("bad time of day", Neb("interval = \"7d\"", "weekday = \"fri\"\ntime = \"8pm\""), "bad time '8pm' (expected HH:MM)", true),
        m("time with an interval of hours", Neb("interval = \"7d\"", "interval = \"36h\"\ntime = \"20:00\""), "interval '36h' with a time must be whole days", true),
        m("bad start", Neb("interval = \"7d\"", "interval = \"7d\"\nstart = \"next friday\""), "bad start 'next friday' (expected RFC 3339, e.g. 2026-12-01T20:00:00+01:00)", true),
        m("`[rule]` instead of `[rules]`", Neb("[rules]", "[rule]"), "unknown field `rule`", false),
        m("misspelt `[rules]` key", Neb("map =", "mapp ="), "unknown key 'mapp' in [rules]", true),
        m("unknown map", Neb("\"duel\"", "\"duell\""), "unknown map or scenario 'duell'", true),
        m("missing map file", Neb("map = \"duel\"", "map_file = \"my-map.toml\""), "option map_file: cannot read file", true),
        m("`[[player]]` instead of `[[players]]`", Neb("[[players]]\nid = \"maxtor\"", "[[player]]\nid = \"maxtor\""), "unknown field `player`", false),
        m("misspelt player key", Neb("email = \"maxtor", "emial = \"maxtor"), "unknown field `emial`", false),
        m("player without email", Neb("email = \"maxtor@example.org\"\n", ""), "missing field `email`", false),
        m("player id with a space", Neb("\"maxtor\"", "\"max tor\""), "player id 'max tor' must be 1-40 letters, digits, '-', '_' or '.'", true),
        m("duplicate player id", Neb("id = \"miria\"", "id = \"maxtor\""), "player 'maxtor' appears twice", true),
        m("duplicate player id, other case", Neb("id = \"miria\"", "id = \"Maxtor\""), "player 'Maxtor' appears twice", true),
        m("address without @", Neb("\"maxtor@example.org\"", "\"maxtor.example.org\""), "player 'maxtor': 'maxtor.example.org' is not an e-mail address", true),
        m("player without password", Neb("password = \"mx-pass\"\n", ""), "player 'maxtor' has no password (give password or password_hash)", true),
        m("password and password_hash", Neb("password = \"mx-pass\"", "password = \"mx-pass\"\npassword_hash = \"$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA\""), "player 'maxtor': give password or password_hash, not both", true),
        m("bad password_hash", Neb("password = \"mx-pass\"", "password_hash = \"mx-pass\""), "player 'maxtor': password_hash", true),
        m("token with a space", Neb("password = \"mx-pass\"", "password = \"mx-pass\"\ntoken = \"two words\""), "player 'maxtor': the token must be one word of 1-100 characters, without spaces", true),
        m("too many players", NebAppend(EXTRA_PLAYER), "wrong number of players: 3", true),
        m("misspelt key and wrong player count (WWK)", Wwk("scenario =", "mapp ="), "unknown key 'mapp' in [rules]", true),
        m("unknown scenario (WWK)", Wwk("\"trio\"", "\"mondee\""), "unknown map or scenario 'mondee'", true),
        m("unclosed string", Neb("\"duel\"", "\"duel"), "invalid string: a closing quote is missing", true),
        m("key given twice", Neb("language = \"en\"", "language = \"en\"\nlanguage = \"fr\""), "duplicate key `language`", false),
        m("unknown key in a player's `[players.rules]` (WWK)", WwkAppend("[players.rules]\nnation = \"EGY\"\ncolour = \"red\"\n"), "unknown key 'colour'", true),
    ]
}

fn apply(edit: &Edit) -> String {
    match edit {
        Edit::Neb(a, b) => {
            assert!(NEB.contains(a), "{a}");
            NEB.replacen(a, b, 1)
        }
        Edit::Wwk(a, b) => {
            assert!(WWK.contains(a), "{a}");
            WWK.replacen(a, b, 1)
        }
        Edit::NebAppend(s) => format!("{NEB}{s}"),
        Edit::WwkAppend(s) => format!("{WWK}{s}"),
    }
}

#[test]
fn game_file_mistakes_table() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path());
    // The two files are valid as they are.
    for ok in [NEB, WWK] {
        d.check_game_file(ok, "game.toml", dir.path())
            .unwrap_or_else(|e| panic!("{e}\n{ok}"));
    }
    let mut wrong = Vec::new();
    for mk in mistakes() {
        let text = apply(&mk.edit);
        let e = match d.check_game_file(&text, "game.toml", dir.path()) {
            Ok(_) => {
                wrong.push(format!("{}: accepted", mk.what));
                continue;
            }
            Err(e) => e.to_string(),
        };
        let placed = e
            .strip_prefix("game.toml:")
            .and_then(|r| r.split_once(':'))
            .and_then(|(line, r)| r.split_once(':').map(|(col, _)| (line, col)))
            .is_some_and(|(l, c)| l.parse::<usize>().is_ok() && c.parse::<usize>().is_ok());
        if !e.starts_with("game.toml") {
            wrong.push(format!("{}: the file is not named: {e}", mk.what));
        }
        if mk.placed && !placed {
            wrong.push(format!("{}: no line and column: {e}", mk.what));
        }
        if !e.contains(mk.says) {
            wrong.push(format!("{}: expected '{}', got: {e}", mk.what, mk.says));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The place names the value itself: a zone's line and column.
#[test]
fn semantic_errors_point_at_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path());
    let text = NEB.replace("Europe/Paris", "Europe/Pariss");
    let e = d
        .check_game_file(&text, "game.toml", dir.path())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("game.toml:7:12: "), "{e}");
    assert!(e.contains("unknown time zone 'Europe/Pariss'"), "{e}");
    let text = NEB.replace("id = \"miria\"", "id = \"maxtor\"");
    let e = d
        .check_game_file(&text, "game.toml", dir.path())
        .unwrap_err()
        .to_string();
    // The second seat, where the duplicate is.
    assert!(e.starts_with("game.toml:19:6: player 'maxtor'"), "{e}");
    // WWK: the unknown key, not the player count that follows from it.
    let text = format!(
        "{}{EXTRA_PLAYER}{}{}",
        WWK.replace("scenario =", "mapp =")
            .replace("\"trio\"", "\"monde\""),
        EXTRA_PLAYER.replace("zed", "zod"),
        EXTRA_PLAYER.replace("zed", "zid"),
    );
    let e = d
        .check_game_file(&text, "game.toml", dir.path())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("game.toml:5:8: "), "{e}");
    assert!(e.contains("unknown key 'mapp'"), "{e}");
}

/// Issue 19 item 4: printed, not fatal.
#[test]
fn game_file_warnings_shared_address_past_start_fixed_zone() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path());
    let text = NEB
        .replace("miria@example.org", "MAXTOR@example.org")
        .replace("Europe/Paris", "CET")
        .replace(
            "interval = \"7d\"",
            "interval = \"7d\"\nstart = \"2026-11-01T20:00:00+01:00\"",
        );
    let w = d.check_game_file(&text, "game.toml", dir.path()).unwrap();
    assert_eq!(w.len(), 3, "{w:#?}");
    assert!(
        w[0].starts_with(
            "game.toml:21:9: players 'maxtor' and 'miria' share the address MAXTOR@example.org"
        ),
        "{w:#?}"
    );
    assert!(
        w[1].starts_with("game.toml:7:9: start 2026-11-01T20:00:00+01:00 is in the past"),
        "{w:#?}"
    );
    assert!(
        w[2].starts_with("game.toml:8:12: time zone 'CET' is a fixed offset"),
        "{w:#?}"
    );
    // One rule for games and players: TIMEZONE refuses what warns here.
    assert!(arbitre::services::zone::parse_zone("CET").is_none());
    assert!(d
        .check_game_file(NEB, "game.toml", dir.path())
        .unwrap()
        .is_empty());
}

/// The troubleshooting table of docs/game-master.md is this test's table.
#[test]
fn troubleshooting_table_in_docs_matches_the_test_table() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/game-master.md"
    ))
    .unwrap();
    let start = doc
        .find("<!-- mistakes table: start -->")
        .expect("the doc has the table");
    let end = doc.find("<!-- mistakes table: end -->").unwrap();
    let rows: Vec<(String, String)> = doc[start..end]
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Mistake") && !l.starts_with("|---"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            (cells[0].to_string(), cells[1].to_string())
        })
        .collect();
    let expected: Vec<(String, String)> = mistakes()
        .iter()
        .map(|m| (m.what.to_string(), m.says.to_string()))
        .collect();
    assert_eq!(rows, expected, "docs/game-master.md's table differs");
}

/// Words of the English messages that must not reach a French command
/// line (issue 19 item 3).
const ENGLISH: &[&str] = &[
    "unknown",
    "schedule",
    "expected",
    "field",
    "warning",
    "fixed offset",
    "players are",
    "cannot",
    "does not",
    "this game",
];

/// Issue 19 item 3 through the binary: `--lang fr game create` on a bad
/// game file prints the place and a French message, and nothing English;
/// its warnings are French too.
#[test]
fn lang_fr_game_create_bad_file_speaks_french_only() {
    use common::cli::{arbitre_bin, install, text};
    let dir = tempfile::tempdir().unwrap();
    install(dir.path());
    let run = |name: &str, game: &str| {
        std::fs::write(dir.path().join(name), game).unwrap();
        let out = arbitre_bin(dir.path(), &["--lang", "fr", "game", "create", name]);
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let english = |s: &str| ENGLISH.iter().find(|w| s.contains(*w)).copied();
    // A semantic error: the zone, at its place.
    let (code, _, err) = run("zone.toml", &NEB.replace("Europe/Paris", "Europe/Pariss"));
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("zone.toml:7:12: calendrier : fuseau horaire inconnu « Europe/Pariss »"),
        "{err}"
    );
    assert_eq!(english(&err), None, "{err}");
    // The TOML reader's refusal, placed by its span.
    let (code, _, err) = run("typo.toml", &NEB.replace("interval =", "intervall ="));
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("typo.toml:6:1: clé inconnue `intervall`"),
        "{err}"
    );
    assert_eq!(english(&err), None, "{err}");
    // A fixed-offset zone is a warning, in French, and the game is made.
    let (code, out, err) = run("cet.toml", &NEB.replace("Europe/Paris", "CET"));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("avertissement : cet.toml:7:12: le fuseau « CET » est un décalage fixe"),
        "{out}"
    );
    assert_eq!(english(&out), None, "{out}");
}

/// Scrambled Nations' refusal of a newcomer through `player join`, in the
/// command line's language (issue 19 item 3).
#[test]
fn lang_fr_player_join_refusal_speaks_french() {
    use common::cli::{arbitre_bin, install, text};
    let dir = tempfile::tempdir().unwrap();
    install(dir.path());
    let scn = "id = \"scn-j\"\nruleset = \"scrambled\"\n[rules]\nworld = \"testland\"\nallow_join_midgame = false\n\
        [[players]]\nid = \"p1\"\nemail = \"p1@example.org\"\npassword = \"a\"\n\
        [[players]]\nid = \"p2\"\nemail = \"p2@example.org\"\npassword = \"b\"\n\
        [[players]]\nid = \"p3\"\nemail = \"p3@example.org\"\npassword = \"c\"\n";
    std::fs::write(dir.path().join("scn.toml"), scn).unwrap();
    let out = arbitre_bin(dir.path(), &["game", "create", "scn.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::write(
        dir.path().join("p4.toml"),
        "id = \"p4\"\nemail = \"p4@example.org\"\npassword = \"d\"\n",
    )
    .unwrap();
    let join = |lang: &str| {
        let out = arbitre_bin(
            dir.path(),
            &["--lang", lang, "player", "join", "scn-j", "p4.toml"],
        );
        assert_ne!(out.status.code(), Some(0));
        text(&out.stderr)
    };
    let fr = join("fr");
    assert!(
        fr.contains("cette partie n'accepte pas de nouveaux joueurs en cours de partie"),
        "{fr}"
    );
    assert!(ENGLISH.iter().all(|w| !fr.contains(w)), "{fr}");
    let en = join("en");
    assert!(
        en.contains("this game does not take new players once it has started"),
        "{en}"
    );
}

/// Issue 19 item 3: the store's refusals a game master meets most (a game
/// created twice, an unknown game) follow `--lang` like the game file's.
#[test]
fn lang_fr_de_store_refusals_follow_the_command_line() {
    use common::cli::{arbitre_bin, install, text};
    let dir = tempfile::tempdir().unwrap();
    install(dir.path());
    let scn = "id = \"scn-k\"\nruleset = \"scrambled\"\n[rules]\nworld = \"testland\"\n\
        [[players]]\nid = \"p1\"\nemail = \"p1@example.org\"\npassword = \"a\"\n\
        [[players]]\nid = \"p2\"\nemail = \"p2@example.org\"\npassword = \"b\"\n\
        [[players]]\nid = \"p3\"\nemail = \"p3@example.org\"\npassword = \"c\"\n";
    std::fs::write(dir.path().join("scn.toml"), scn).unwrap();
    let out = arbitre_bin(dir.path(), &["game", "create", "scn.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = |lang: &str| {
        let out = arbitre_bin(dir.path(), &["--lang", lang, "game", "create", "scn.toml"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    let fr = again("fr");
    assert!(fr.contains("la partie « scn-k » existe déjà"), "{fr}");
    assert!(ENGLISH.iter().all(|w| !fr.contains(w)), "{fr}");
    let de = again("de");
    assert!(de.contains("das Spiel „scn-k“ gibt es schon"), "{de}");
    let en = again("en");
    assert!(en.contains("game 'scn-k' already exists"), "{en}");
    let out = arbitre_bin(dir.path(), &["--lang", "fr", "turn", "nulle-part"]);
    assert_ne!(out.status.code(), Some(0));
    let unknown = text(&out.stderr);
    assert!(
        unknown.contains("partie inconnue « nulle-part »"),
        "{unknown}"
    );
}

/// Issue 16 item 3: a date, time or duration the command line cannot read,
/// and `check`'s arguments, are refused in `--lang` through the catalogue
/// (timespec::text, cli-check-*); English stays the same words as before.
#[test]
fn lang_fr_de_time_and_check_refusals_follow_the_command_line() {
    use common::cli::{arbitre_bin, install, text};
    let dir = tempfile::tempdir().unwrap();
    install(dir.path());
    let scn = "id = \"scn-t\"\nruleset = \"scrambled\"\n[rules]\nworld = \"testland\"\n\
        [[players]]\nid = \"p1\"\nemail = \"p1@example.org\"\npassword = \"a\"\n\
        [[players]]\nid = \"p2\"\nemail = \"p2@example.org\"\npassword = \"b\"\n\
        [[players]]\nid = \"p3\"\nemail = \"p3@example.org\"\npassword = \"c\"\n";
    std::fs::write(dir.path().join("scn.toml"), scn).unwrap();
    let out = arbitre_bin(dir.path(), &["game", "create", "scn.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let refused = |args: &[&str]| {
        let out = arbitre_bin(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    let fr = refused(&["--lang", "fr", "extend", "scn-t", "une-semaine"]);
    assert!(fr.contains("durée illisible « une-semaine »"), "{fr}");
    assert!(ENGLISH.iter().all(|w| !fr.contains(w)), "{fr}");
    let de = refused(&["--lang", "de", "deadline", "scn-t", "morgen"]);
    assert!(de.contains("unlesbarer Abgabetermin „morgen“"), "{de}");
    let en = refused(&["--lang", "en", "extend", "scn-t", "a-week"]);
    assert!(
        en.contains("bad duration 'a-week' (examples: 7d, 48h, 1d12h, 90m)"),
        "{en}"
    );
    let fr = refused(&["--lang", "fr", "check", "orders.txt"]);
    assert!(
        fr.contains("donnez le jeu de règles et le fichier d'ordres"),
        "{fr}"
    );
}
