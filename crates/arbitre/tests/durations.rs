//! Issue 16 item 4: one grammar for durations. The same strings are
//! accepted (with the same length) or refused by a game's TOML, by the
//! command line (`arbitre extend`) and by the game master's mail
//! (`EXTEND`/`PROLONGER`), through the real mail loop. Before, `extend 1w`
//! worked on the command line and `EXTEND 1w` by mail was refused.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::Cli;
use arbitre::game_config::GameToml;
use arbitre::schedule::{DeadlineRule, Schedule, ScheduleToml};
use arbitre::services::settings::ServicesToml;
use arbitre::Registry;
use arbitre_store::{games, Store};
use clap::Parser;
use common::example_game::{example, game_with};
use common::mail;

const HOUR: i64 = 3600;

/// (as written, seconds).
const ACCEPTED: &[(&str, i64)] = &[
    ("1w", 7 * 24 * HOUR),
    ("48h", 48 * HOUR),
    ("2j", 48 * HOUR),
    ("3T", 72 * HOUR),
    ("1d12h", 36 * HOUR),
    ("90m", 90 * 60),
];

const REFUSED: &[&str] = &["2 hours", "1mo", "0h", "-1h", "7", "soon", "400d"];

#[test]
fn issue16_4_same_durations_in_the_game_toml() {
    for (s, secs) in ACCEPTED {
        let sched = Schedule::from_toml(&ScheduleToml {
            interval: Some(s.to_string()),
            reminders: vec![s.to_string()],
            ..Default::default()
        })
        .unwrap();
        assert_eq!(
            sched.rule,
            DeadlineRule::Interval(chrono::Duration::seconds(*secs)),
            "{s}"
        );
        let services: ServicesToml = toml::from_str(&format!("grace = \"{s}\"")).unwrap();
        assert_eq!(services.grace().num_seconds(), *secs, "{s}");
    }
    for s in REFUSED {
        let sched = ScheduleToml {
            interval: Some(s.to_string()),
            ..Default::default()
        };
        assert!(Schedule::from_toml(&sched).is_err(), "{s}");
        assert!(
            toml::from_str::<ServicesToml>(&format!("grace = \"{s}\"")).is_err(),
            "{s}"
        );
    }
    // And through a whole game file.
    let text = std::fs::read_to_string(example("eds")).unwrap();
    let weekly = text.replace("interval = \"7d\"", "interval = \"1w\"");
    assert!(toml::from_str::<GameToml>(&weekly).is_ok());
}

#[test]
fn issue16_4_same_durations_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("arbitre.toml");
    std::fs::write(
        &cfg,
        format!("referee = \"{}\"\ninbox = \"inbox\"\ndatabase = \"arbitre.db\"\n[outbound]\nkind = \"file\"\ndir = \"outbox\"\n[argon2]\nm_cost = 8\nt_cost = 1\n", common::REFEREE),
    )
    .unwrap();
    let run = |args: &[&str]| -> Result<String, String> {
        let mut argv = vec!["arbitre", "--config", cfg.to_str().unwrap()];
        argv.extend_from_slice(args);
        let mut out = Vec::new();
        arbitre::cli::run(
            Cli::try_parse_from(argv).unwrap(),
            Registry::builtin(),
            &mut out,
        )
        .map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).unwrap())
    };
    run(&["game", "create", example("eds").to_str().unwrap()]).unwrap();
    let deadline = || {
        let store = Store::open(&dir.path().join("arbitre.db")).unwrap();
        games::require_game(store.conn(), "eds-001")
            .unwrap()
            .deadline
            .unwrap()
    };
    for (s, secs) in ACCEPTED {
        // The players' notice of an extension is one per turn and second,
        // and the command line reads the system clock: a turn between two.
        run(&["turn", "eds-001"]).unwrap();
        let before = deadline();
        run(&["extend", "eds-001", s]).unwrap();
        assert_eq!(deadline(), before + secs, "{s}");
    }
    for s in REFUSED {
        let before = deadline();
        // `--`: "-1h" is a value, not an option.
        let e = run(&["extend", "--", "eds-001", s]).unwrap_err();
        assert!(e.contains(&format!("bad duration '{s}'")), "{s}: {e}");
        assert_eq!(deadline(), before, "{s}");
    }
}

#[test]
fn issue16_4_extend_1w_by_mail_and_the_same_durations() {
    let mut g = game_with(
        "nebulight",
        None,
        "\n[services]\ngm_password = \"maître\"\n",
    );
    let id = g.id.clone();
    let gm = "gm@example.org";
    let deadline = |g: &common::example_game::Game| {
        games::require_game(g.daemon.store.conn(), &id)
            .unwrap()
            .deadline
            .unwrap()
    };
    let send = |g: &mut common::example_game::Game, line: &str| {
        let body = format!("PARTIE {id} JOUEUR gm MOT-DE-PASSE maître\n{line}\n");
        g.daemon.deliver(&mail(gm, "orders", &body)).unwrap();
        g.daemon.cycle().unwrap();
    };
    let before = deadline(&g);
    send(&mut g, "EXTEND 1w");
    assert_eq!(deadline(&g), before + 7 * 24 * HOUR, "EXTEND 1w by mail");
    for (s, secs) in ACCEPTED {
        // The players' notice of an extension is one per turn and instant.
        g.clock.advance(chrono::TimeDelta::minutes(1));
        let before = deadline(&g);
        send(&mut g, &format!("PROLONGER {s}"));
        assert_eq!(deadline(&g), before + secs, "{s}");
    }
    for s in REFUSED {
        let before = deadline(&g);
        send(&mut g, &format!("PROLONGER {s}"));
        assert_eq!(deadline(&g), before, "{s} is refused by mail");
    }
}
