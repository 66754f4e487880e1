//! Issue 19 items 9-11: the game master's command line as an operator
//! and a script see it — `game list`, `game delete`, `status --json`,
//! help texts, exit statuses, no database created by a mistake, no
//! password on the command line, and the logs (RUST_LOG, colours,
//! `--log-format json`, a silent `serve --once`). The binary itself runs,
//! in a fresh folder, with the built-in rulesets.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::cli::{arbitre_bin as arbitre, arbitre_bin_env as arbitre_env, text};

const GAME: &str = r#"
id = "neb-cli"
ruleset = "nebulight"
gm_email = "gm@example.org"
[schedule]
interval = "7d"
timezone = "Europe/Paris"
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

/// A folder with one created game (database under ./var/).
fn with_game() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.toml"), GAME).unwrap();
    let o = arbitre(dir.path(), &["game", "create", "game.toml"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    dir
}

#[test]
fn game_list_shows_id_ruleset_turn_state_deadline_and_json() {
    let dir = with_game();
    let o = arbitre(dir.path(), &["game", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let line = out.lines().find(|l| l.starts_with("neb-cli")).unwrap();
    assert!(
        line.contains("nebulight") && line.contains("running"),
        "{out}"
    );
    // The deadline in the game's zone, with its offset.
    assert!(line.contains("+01:00") || line.contains("+02:00"), "{out}");
    let o = arbitre(dir.path(), &["game", "list", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let g = &v[0];
    assert_eq!(g["id"], "neb-cli");
    assert_eq!(g["ruleset"], "nebulight");
    assert_eq!(g["turn"], 0);
    assert_eq!(g["state"], "running");
    assert_eq!(g["timezone"], "Europe/Paris");
    assert!(g["deadline"].as_str().unwrap().starts_with("20"), "{v}");
}

#[test]
fn status_json_lists_games_seats_and_outbox() {
    let dir = with_game();
    let o = arbitre(dir.path(), &["status", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let g = &v["games"][0];
    assert_eq!(g["id"], "neb-cli");
    let seats: Vec<&str> = g["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(seats, ["maxtor", "miria"]);
    assert_eq!(g["seats"][0]["state"], "no-orders");
    assert_eq!(g["missing"], serde_json::json!(["maxtor", "miria"]));
    // The turn-0 reports were written to the file outbox: nothing pending.
    assert_eq!(v["outbox_pending"], 0, "{v}");
    assert_eq!(v["outbox_failed"], 0);
}

#[test]
fn game_delete_archives_every_row_then_deletes() {
    let dir = with_game();
    // Not on a terminal and without --yes: nothing happens.
    let o = arbitre(dir.path(), &["game", "delete", "neb-cli"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--yes"), "{}", text(&o.stderr));
    let o = arbitre(dir.path(), &["game", "list", "--json"]);
    assert!(text(&o.stdout).contains("neb-cli"));

    let archive = dir.path().join("neb-cli.json");
    let o = arbitre(
        dir.path(),
        &[
            "game",
            "delete",
            "neb-cli",
            "--yes",
            "--archive",
            "neb-cli.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("neb-cli.json"),
        "{}",
        text(&o.stdout)
    );
    let a: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&archive).unwrap()).unwrap();
    assert_eq!(a["game"], "neb-cli");
    let t = &a["tables"];
    assert_eq!(t["games"][0]["id"], "neb-cli");
    assert_eq!(t["players"].as_array().unwrap().len(), 2);
    assert_eq!(t["turns"][0]["turn"], 0);
    // The turn-0 reports (two players and the GM) with their text, and the
    // two players' welcome mails (issue 17 item 1).
    let mails = t["outbox"].as_array().unwrap();
    assert_eq!(mails.len(), 5, "{t}");
    let welcomes = mails.iter().filter(|m| m["kind"] == "welcome").count();
    assert_eq!(welcomes, 2, "{t}");
    assert!(mails
        .iter()
        .any(|m| m["recipient"] == "maxtor@example.org" && m["body"].as_str().is_some()));
    // Gone from the database; the game can be created again.
    let o = arbitre(dir.path(), &["game", "list", "--json"]);
    assert_eq!(text(&o.stdout).trim(), "[]");
    let o = arbitre(dir.path(), &["status", "neb-cli"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "unknown game: {}",
        text(&o.stderr)
    );
    // An archive is never overwritten.
    let o = arbitre(dir.path(), &["game", "create", "game.toml"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = arbitre(
        dir.path(),
        &[
            "game",
            "delete",
            "neb-cli",
            "--yes",
            "--archive",
            "neb-cli.json",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("File exists"),
        "{}",
        text(&o.stderr)
    );
    let o = arbitre(dir.path(), &["game", "list"]);
    assert!(text(&o.stdout).contains("neb-cli"), "still there");
}

#[test]
fn every_argument_has_a_help_text() {
    use clap::CommandFactory;
    fn walk(c: &clap::Command, path: &str, missing: &mut Vec<String>) {
        let path = format!("{path} {}", c.get_name());
        if c.get_about().is_none() && path.contains(' ') && c.get_name() != "help" {
            missing.push(format!("{path} (the command)"));
        }
        for a in c.get_arguments() {
            let id = a.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            if a.get_help().is_none() && a.get_long_help().is_none() {
                missing.push(format!("{path} {id}"));
            }
        }
        for s in c.get_subcommands() {
            walk(s, &path, missing);
        }
    }
    let mut missing = Vec::new();
    walk(&arbitre::cli::Cli::command(), "", &mut missing);
    assert!(missing.is_empty(), "no help text: {missing:#?}");
}

#[test]
fn exit_codes_are_documented_in_help() {
    let dir = tempfile::tempdir().unwrap();
    let help = text(&arbitre(dir.path(), &["--help"]).stdout);
    for (code, what) in [
        (0, "success"),
        (1, "a check found errors"),
        (2, "usage"),
        (3, "configuration"),
        (4, "runtime"),
    ] {
        assert!(help.contains(&format!("  {code}  {what}")), "{help}");
    }
}

#[test]
fn exit_code_0_success() {
    let dir = with_game();
    assert_eq!(arbitre(dir.path(), &["status"]).status.code(), Some(0));
}

#[test]
fn exit_code_1_check_found_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("o.txt"), "NONSENSE ORDER\n").unwrap();
    let o = arbitre(dir.path(), &["check", "nebulight", "o.txt"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
}

#[test]
fn exit_code_2_usage() {
    let dir = with_game();
    // clap's own refusals, and an unknown game.
    assert_eq!(arbitre(dir.path(), &["turn"]).status.code(), Some(2));
    assert_eq!(arbitre(dir.path(), &["frobnicate"]).status.code(), Some(2));
    let o = arbitre(dir.path(), &["pause", "no-such-game"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let o = arbitre(dir.path(), &["extend", "neb-cli", "soon"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    // `check` with the ruleset but no orders file, or a ruleset beside
    // --report: the arguments are wrong, not the machine (was exit 4).
    let o = arbitre(dir.path(), &["check", "orders.txt"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let o = arbitre(
        dir.path(),
        &["check", "--report", "r.json", "eds", "orders.txt"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

#[test]
fn exit_code_3_configuration() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("arbitre.toml"), "databse = \"x.db\"\n").unwrap();
    let o = arbitre(dir.path(), &["status"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("game.toml"),
        GAME.replace("Europe/Paris", "Europe/Pariss"),
    )
    .unwrap();
    let o = arbitre(dir.path(), &["game", "create", "game.toml"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
}

#[test]
fn exit_code_4_runtime() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("var")).unwrap();
    std::fs::write(
        dir.path().join("var/arbitre.db"),
        "this is not an SQLite database, and long enough to be read as a header\n".repeat(20),
    )
    .unwrap();
    let o = arbitre(dir.path(), &["status"]);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o.stderr));
}

#[test]
fn status_without_database_says_so_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["status"][..],
        &["game", "list"],
        &["outbox", "list"],
        &["backup", "b.db"],
    ] {
        let o = arbitre(dir.path(), args);
        assert_eq!(o.status.code(), Some(3), "{args:?}");
        let e = text(&o.stderr);
        assert!(e.contains("no database at var/arbitre.db"), "{e}");
        assert!(!dir.path().join("var").exists(), "{args:?} created ./var/");
    }
}

#[test]
fn player_replace_never_takes_a_password_as_argument() {
    let dir = with_game();
    let o = arbitre(
        dir.path(),
        &[
            "player",
            "replace",
            "neb-cli",
            "miria",
            "--email",
            "new@example.org",
            "--password",
            "s3cret",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("never taken on the command line"), "{e}");
    // The seat is unchanged.
    let o = arbitre(dir.path(), &["status", "--json"]);
    assert!(!text(&o.stdout).contains("new@example.org"));
    let db = dir.path().join("var/arbitre.db");
    let store = arbitre_store::Store::open(&db).unwrap();
    let p = arbitre_store::games::players(store.conn(), "neb-cli").unwrap();
    assert_eq!(p[1].email, "miria@example.org");
    // Its help names no password value.
    let help = text(&arbitre(dir.path(), &["player", "replace", "--help"]).stdout);
    assert!(!help.contains("--password "), "{help}");
}

#[test]
fn rust_log_is_honoured() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.toml"), GAME).unwrap();
    let o = arbitre_env(
        dir.path(),
        &["game", "create", "game.toml"],
        &[("RUST_LOG", "warn")],
    );
    assert!(o.status.success());
    assert!(
        !text(&o.stderr).contains("game created"),
        "{}",
        text(&o.stderr)
    );
    let o = arbitre_env(dir.path(), &["game", "list"], &[("RUST_LOG", "trace")]);
    assert!(o.status.success());
    let o = arbitre_env(
        dir.path(),
        &["game", "delete", "neb-cli", "--yes", "--archive", "a.json"],
        &[("RUST_LOG", "info")],
    );
    assert!(
        text(&o.stderr).contains("game deleted"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn logs_to_a_pipe_have_no_colours() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.toml"), GAME).unwrap();
    let o = arbitre_env(
        dir.path(),
        &["game", "create", "game.toml"],
        &[("RUST_LOG", "debug")],
    );
    let e = text(&o.stderr);
    assert!(e.contains("game created"), "{e}");
    assert!(!e.contains('\u{1b}'), "ANSI escapes in a pipe: {e:?}");
}

#[test]
fn log_format_json_writes_one_object_per_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.toml"), GAME).unwrap();
    let o = arbitre_env(
        dir.path(),
        &["--log-format", "json", "game", "create", "game.toml"],
        &[("RUST_LOG", "info")],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let e = text(&o.stderr);
    let lines: Vec<serde_json::Value> = e
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|err| panic!("{err}: {l}")))
        .collect();
    let created = lines
        .iter()
        .find(|l| l["message"] == "game created")
        .unwrap_or_else(|| panic!("{e}"));
    assert_eq!(created["level"], "INFO");
    assert_eq!(created["fields"]["game"], "neb-cli");
    assert_eq!(created["fields"]["players"], 2);
    assert!(created["time"].as_str().unwrap().ends_with('Z'));
}

#[test]
fn serve_once_is_silent_when_idle_and_prints_one_line_when_busy() {
    let dir = with_game();
    let o = arbitre(dir.path(), &["serve", "--once"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        (text(&o.stdout).as_str(), text(&o.stderr).as_str()),
        ("", ""),
        "an idle cycle prints nothing"
    );
    let new = dir.path().join("var/inbox/new");
    std::fs::create_dir_all(&new).unwrap();
    std::fs::write(
        new.join("1.eml"),
        "From: maxtor@example.org\r\nTo: arbitre@localhost\r\nSubject: orders\r\n\
         Message-ID: <o1@example.org>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\n\
         GAME neb-cli PLAYER maxtor PASSWORD mx-pass\r\nEND\r\n",
    )
    .unwrap();
    let o = arbitre(dir.path(), &["serve", "--once"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(all.lines().count(), 1, "one summary line: {all}");
    assert!(all.starts_with("1 mail(s) handled"), "{all}");
}

/// Issue 19 items 2 and 4 on the command line: the file's place in the
/// error, warnings printed and the game created anyway.
#[test]
fn game_create_prints_warnings_and_placed_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("game.toml"),
        GAME.replace("miria@example.org", "maxtor@example.org"),
    )
    .unwrap();
    let o = arbitre(dir.path(), &["game", "create", "game.toml"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("warning: game.toml:16:9: players 'maxtor' and 'miria' share the address"),
        "{out}"
    );
    std::fs::write(
        dir.path().join("bad.toml"),
        GAME.replace("neb-cli", "neb-2")
            .replace("\"duel\"", "\"duell\""),
    )
    .unwrap();
    let o = arbitre(dir.path(), &["game", "create", "bad.toml"]);
    assert_eq!(o.status.code(), Some(3));
    let e = text(&o.stderr);
    assert!(
        e.starts_with("arbitre: bad.toml:9:7: unknown map or scenario 'duell'"),
        "{e}"
    );
}

/// Issue 16 item 3: `status`, `outbox list` and a command's refusal speak
/// the CLI's language (`--lang`), not English whatever the flag says.
#[test]
fn lang_fr_status_on_an_empty_database_speaks_french() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("var")).unwrap();
    drop(arbitre_store::Store::open(&dir.path().join("var/arbitre.db")).unwrap());
    let o = arbitre(dir.path(), &["--lang", "fr", "status"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("aucune partie"), "{out}");
    assert!(out.contains("envois : 0 en attente, 0 en échec"), "{out}");
    assert!(
        !out.contains("no games") && !out.contains("pending"),
        "{out}"
    );
    let o = arbitre(dir.path(), &["--lang", "de", "status"]);
    assert!(
        text(&o.stdout).contains("keine Spiele"),
        "{}",
        text(&o.stdout)
    );
    // English stays the default, word for word.
    let o = arbitre(dir.path(), &["status"]);
    assert_eq!(text(&o.stdout), "no games\noutbox: 0 pending, 0 failed\n");
    let o = arbitre(dir.path(), &["--lang", "fr", "outbox", "list"]);
    assert_eq!(text(&o.stdout), "aucun courrier en difficulté\n");
    // A refusal of the daemon (DaemonError::Invalid) too, exit 2.
    let o = arbitre(dir.path(), &["--lang", "fr", "outbox", "retry", "7"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let e = text(&o.stderr);
    assert!(e.contains("pas de courrier #7 dans la file d'envoi"), "{e}");
}

/// Issue 16 item 3: a game's `status` in French, from the same rows as
/// `status --json` (review D8): the seats and who is missing agree.
#[test]
fn lang_fr_status_of_a_game_agrees_with_status_json() {
    let dir = with_game();
    let o = arbitre(dir.path(), &["--lang", "fr", "status"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("neb-cli (") && out.contains("), en cours"),
        "{out}"
    );
    assert!(out.contains("dernier tour résolu : 0"), "{out}");
    assert!(out.contains("date limite du tour 1 : "), "{out}");
    let o = arbitre(dir.path(), &["status", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let game = &v["games"][0];
    for seat in game["seats"].as_array().unwrap() {
        let id = seat["id"].as_str().unwrap();
        assert_eq!(seat["state"], "no-orders");
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(id))
            .unwrap();
        assert!(line.ends_with("pas d'ordres"), "{line}");
    }
    let missing: Vec<&str> = game["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        out.contains(&format!("manquent : {}", missing.join(", "))),
        "{out}"
    );
}
