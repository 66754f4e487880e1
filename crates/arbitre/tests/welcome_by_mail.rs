//! Issue 17, daemon side, through the mail loop (file outbox, Maildir
//! inbox): the welcome mail (item 1) and the "done when" test — a new
//! player of each of the four rulesets reads the header line and the order
//! template out of the welcome mail it received, fills in orders (the
//! ruleset's bot's) and gets them accepted; HELP / AIDE / HILFE and LIST
//! (item 2); refusals that teach (item 5).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::mail_loop::{header_of, inbox_of, Received};
use common::*;
use std::path::Path;

/// The common test daemon with the welcome mail on (as in production).
fn welcome_env(toml: &str) -> Env {
    let dir = tempfile::tempdir().unwrap();
    let clock = std::sync::Arc::new(arbitre::FixedClock::new(t0()));
    let mut cfg = config(dir.path());
    cfg.welcome = true;
    let mut daemon = arbitre::Daemon::open(cfg, registry(), clock.clone()).unwrap();
    daemon.create_game(toml, dir.path()).unwrap();
    Env { dir, clock, daemon }
}

fn example(ruleset: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(ruleset)
        .join("game.toml");
    std::fs::read_to_string(path).unwrap()
}

/// The welcome mails `to` received: the ones carrying the ruleset's guide.
fn welcomes(env: &Env, to: &str, ruleset: &str) -> Vec<Received> {
    inbox_of(&env.outbox_dir(), to)
        .into_iter()
        .filter(|m| m.attachments.contains_key(&format!("{ruleset}.md")))
        .collect()
}

/// Issue 17 "done when": the first seat of the example game of `ruleset`
/// plays from its welcome mail alone.
fn plays_from_the_welcome_mail_alone(ruleset: &str, player: &str, email: &str, end: &str) {
    let toml = example(ruleset);
    let game = toml
        .lines()
        .find_map(|l| l.strip_prefix("id = \""))
        .unwrap()
        .trim_end_matches('"')
        .to_string();
    let mut env = welcome_env(&toml);
    env.daemon.cycle().unwrap();
    let got = welcomes(&env, email, ruleset);
    assert_eq!(got.len(), 1, "exactly one welcome mail");
    let w = &got[0];
    assert!(w.subject.contains(&game), "{}", w.subject);
    assert!(
        w.text.contains(REFEREE),
        "the referee's address: {}",
        w.text
    );
    assert!(
        w.attachments.keys().any(|n| n.ends_with(".ics")),
        "the first deadline's .ics: {:?}",
        w.attachments.keys()
    );
    let template = w
        .attachments
        .iter()
        .find(|(n, _)| n.starts_with("ordres") || n.starts_with("befehl"))
        .map(|(_, t)| String::from_utf8(t.clone()).unwrap())
        .expect("the order template is attached");
    assert!(!template.trim().is_empty());
    // The header line out of the mail; the password the game master gave
    // in place of its placeholder.
    let header = header_of(&w.text);
    assert!(
        header.contains(&game) && header.contains(player),
        "{header}"
    );
    let header: String = header
        .split_whitespace()
        .map(|t| {
            if t.starts_with('<') && t.ends_with('>') {
                "change-me-1"
            } else {
                t
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let lines = bot(&env, &game, ruleset, player);
    env.drop_mail(&mail(
        email,
        "orders",
        &format!("{header}\n{}\n{end}\n", lines.trim_end()),
    ));
    env.daemon.cycle().unwrap();
    let (stored, errors): (i64, i64) = env
        .daemon
        .store
        .conn()
        .query_row(
            "SELECT count(*), coalesce(max(errors), -1) FROM orders WHERE player = ?1 AND by_bot = 0",
            [player],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((stored, errors), (1, 0), "orders stored without error");
    let confirm = env.last_to(email, "confirm").expect("a confirmation");
    assert!(confirm.mail.body.contains(" 0 "), "{}", confirm.mail.body);
}

#[test]
fn welcome_nebulight_player_plays_from_the_welcome_mail_alone() {
    plays_from_the_welcome_mail_alone("nebulight", "maxtor", "maxtor@example.org", "FIN");
}

#[test]
fn welcome_eds_player_plays_from_the_welcome_mail_alone() {
    plays_from_the_welcome_mail_alone("eds", "p1", "anna@example.org", "ENDE");
}

#[test]
fn welcome_scrambled_player_plays_from_the_welcome_mail_alone() {
    plays_from_the_welcome_mail_alone("scrambled", "p1", "anna@example.org", "FIN");
}

#[test]
fn welcome_wwk_player_plays_from_the_welcome_mail_alone() {
    plays_from_the_welcome_mail_alone("wwk", "p1", "anna@example.org", "FIN");
}

#[test]
fn welcome_is_queued_once_and_never_again() {
    let toml = example("eds");
    let mut env = welcome_env(&toml);
    let welcome_rows = |env: &Env| env.count("SELECT count(*) FROM outbox WHERE kind = 'welcome'");
    assert_eq!(welcome_rows(&env), 3, "one per seat");
    // Creating the same game again is refused and queues nothing.
    assert!(env.daemon.create_game(&toml, env.dir.path()).is_err());
    env.daemon.cycle().unwrap();
    env.daemon.cycle().unwrap();
    assert_eq!(welcome_rows(&env), 3);
    let w = welcomes(&env, "bert@example.org", "eds");
    assert_eq!(w.len(), 1);
    // German game, the GM's password: a placeholder, never a password.
    assert!(
        w[0].text
            .contains("SPIEL eds-001 SPIELER p2 PASSWORT <passwort>"),
        "{}",
        w[0].text
    );
    assert!(
        w[0].text.contains("Spielleitung gegeben hat"),
        "{}",
        w[0].text
    );
}

#[test]
fn welcome_at_join_and_at_takeover_with_a_generated_password() {
    let mut env = welcome_env(&example("scrambled"));
    env.daemon
        .join_player(
            "scn-001",
            "id = \"p4\"\nname = \"Dora\"\nemail = \"dora@example.org\"\npassword = \"pw-four\"\n",
        )
        .unwrap();
    let generated = env
        .daemon
        .replace_player("scn-001", "p2", "eve@example.org", Some("Eve"), None)
        .unwrap()
        .expect("generated");
    env.daemon.cycle().unwrap();
    let dora = welcomes(&env, "dora@example.org", "scrambled");
    assert_eq!(dora.len(), 1);
    assert!(dora[0].text.contains("Bienvenue, Dora"), "{}", dora[0].text);
    assert!(
        dora[0]
            .text
            .contains("PARTIE scn-001 JOUEUR p4 MOT-DE-PASSE <mot-de-passe>"),
        "{}",
        dora[0].text
    );
    // The takeover's welcome carries the generated password in the mail
    // that left; the outbox keeps only a redacted copy.
    let eve = welcomes(&env, "eve@example.org", "scrambled");
    assert_eq!(eve.len(), 1);
    let header = header_of(&eve[0].text);
    assert!(header.ends_with(&generated), "{header}");
    let kept = env.last_to("eve@example.org", "welcome").unwrap();
    assert!(!kept.mail.body.contains(&generated));
    let lines = bot(&env, "scn-001", "scrambled", "p2");
    env.drop_mail(&mail(
        "eve@example.org",
        "ordres",
        &format!("{header}\n{lines}\nFIN\n"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE player = 'p2' AND errors = 0 AND by_bot = 0"),
        1
    );
}

fn public_neb() -> String {
    example("nebulight").replacen(
        "[schedule]",
        "public = true\nnotes = \"Partie amicale : un tour par semaine.\"\n[schedule]",
        1,
    )
}

#[test]
fn help_alone_is_answered_with_the_header_in_three_languages_and_the_game_notes() {
    let mut env = welcome_env(&public_neb());
    env.drop_mail(&mail("new@example.net", "?", "AIDE neb-001\n"));
    env.drop_mail(&mail("neu@example.net", "?", "HILFE\n\nDanke\n"));
    env.daemon.cycle().unwrap();
    let fr = env
        .last_to("new@example.net", "confirm")
        .expect("an answer");
    for s in [
        "PARTIE <partie> JOUEUR <joueur> MOT-DE-PASSE <mot-de-passe>",
        "SPIEL <spiel> SPIELER <spieler> PASSWORT <passwort>",
        "GAME <game> PLAYER <player> PASSWORD <password>",
        "RENVOYER",
        "Partie neb-001 (Nébulight), tour 1 en cours.",
        "Partie amicale : un tour par semaine.",
    ] {
        assert!(fr.mail.body.contains(s), "{s}: {}", fr.mail.body);
    }
    let de = env
        .last_to("neu@example.net", "confirm")
        .expect("an answer");
    assert!(de.mail.body.contains("NOCHMAL"), "{}", de.mail.body);
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal WHERE outcome = 'service'"),
        2
    );
}

#[test]
fn list_answers_the_public_games_only() {
    let mut env = welcome_env(&public_neb());
    env.daemon
        .create_game(&example("eds"), env.dir.path())
        .unwrap();
    env.drop_mail(&mail("who@example.net", "list", "LIST\n"));
    env.daemon.cycle().unwrap();
    let list = env
        .last_to("who@example.net", "confirm")
        .expect("an answer");
    assert!(
        list.mail
            .body
            .contains("- neb-001 (Nébulight), turn 1, deadline "),
        "{}",
        list.mail.body
    );
    assert!(
        !list.mail.body.contains("eds-001"),
        "a private game is not listed"
    );
}

/// A config with the hourly refusal cap on: one refusal per address.
fn capped_env(toml: &str) -> Env {
    let dir = tempfile::tempdir().unwrap();
    let clock = std::sync::Arc::new(arbitre::FixedClock::new(t0()));
    let mut cfg = config(dir.path());
    cfg.welcome = true;
    cfg.limits.refusals_per_address_per_hour = 1;
    let mut daemon = arbitre::Daemon::open(cfg, registry(), clock.clone()).unwrap();
    daemon.create_game(toml, dir.path()).unwrap();
    Env { dir, clock, daemon }
}

#[test]
fn near_miss_header_is_answered_in_the_game_language_naming_the_keyword() {
    let mut env = capped_env(&example("eds"));
    // The user trial's header, twice from the registered address: both
    // answered (the hourly cap is for strangers).
    for pw in ["x", "y"] {
        env.drop_mail(&mail(
            "bert@example.org",
            "Befehle",
            &format!("SPIEL eds-001 SPIELER p2 KENNWORT {pw}\n1,A,3,3\nENDE\n"),
        ));
    }
    env.daemon.cycle().unwrap();
    let answers: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.recipient == "bert@example.org" && r.mail.kind == "error")
        .collect();
    assert_eq!(answers.len(), 2, "both near-misses answered");
    for a in &answers {
        assert!(
            a.mail
                .body
                .contains("Das Schlüsselwort für das Passwort ist PASSWORT")
                && a.mail
                    .body
                    .contains("SPIEL eds-001 SPIELER p2 PASSWORT <passwort>")
                && !a.mail.body.contains("missing"),
            "German throughout: {}",
            a.mail.body
        );
    }
    // French spaces instead of the hyphens, from a stranger: answered once,
    // then the cap holds.
    let mut env = capped_env(&example("nebulight"));
    for pw in ["x", "y"] {
        env.drop_mail(&mail(
            "guess@example.net",
            "ordres",
            &format!("PARTIE neb-001 JOUEUR maxtor MOT DE PASSE {pw}\nFIN\n"),
        ));
    }
    env.daemon.cycle().unwrap();
    let answers: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.recipient == "guess@example.net")
        .collect();
    assert_eq!(answers.len(), 1);
    assert!(
        answers[0]
            .mail
            .body
            .contains("Le mot-clé du mot de passe est MOT-DE-PASSE"),
        "{}",
        answers[0].mail.body
    );
}

#[test]
fn placeholder_password_gets_its_own_answer_and_is_no_wrong_password() {
    let mut env = welcome_env(&example("nebulight"));
    env.drop_mail(&mail(
        "maxtor@example.org",
        "ordres",
        "PARTIE neb-001 JOUEUR maxtor MOT-DE-PASSE <mot-de-passe>\nFIN\n",
    ));
    env.daemon.cycle().unwrap();
    let a = env.last_to("maxtor@example.org", "error").unwrap();
    assert!(
        a.mail
            .body
            .contains("l'indication <mot-de-passe> du modèle"),
        "{}",
        a.mail.body
    );
    assert_eq!(env.count("SELECT count(*) FROM wrong_passwords"), 0);
}

#[test]
fn unknown_game_or_player_suggests_the_nearest_id_unless_secret() {
    let mut env = welcome_env(&public_neb());
    env.daemon
        .create_game(&example("eds"), env.dir.path())
        .unwrap();
    env.drop_mail(&mail(
        "a@example.net",
        "ordres",
        "PARTIE neb-01 JOUEUR maxtor MOT-DE-PASSE x\nFIN\n",
    ));
    env.drop_mail(&mail(
        "b@example.net",
        "ordres",
        "PARTIE neb-001 JOUEUR maxtr MOT-DE-PASSE x\nFIN\n",
    ));
    // A private game's id is not suggested to a stranger...
    env.drop_mail(&mail(
        "c@example.net",
        "Befehle",
        "SPIEL eds-01 SPIELER p1 PASSWORT x\nENDE\n",
    ));
    // ...but is to one of its players.
    env.drop_mail(&mail(
        "anna@example.org",
        "Befehle",
        "SPIEL eds-01 SPIELER p1 PASSWORT x\nENDE\n",
    ));
    env.daemon.cycle().unwrap();
    let body = |to: &str| env.last_to(to, "error").unwrap().mail.body;
    assert!(body("a@example.net").contains("Vouliez-vous dire neb-001 ?"));
    assert!(body("b@example.net").contains("Vouliez-vous dire maxtor ?"));
    assert!(
        !body("c@example.net").contains("eds-001"),
        "{}",
        body("c@example.net")
    );
    assert!(body("anna@example.org").contains("Meintest Du eds-001?"));
}

#[test]
fn help_inside_a_block_is_a_command_answered_with_the_game() {
    let mut env = welcome_env(&public_neb());
    env.drop_mail(&mail(
        "maxtor@example.org",
        "ordres",
        "PARTIE neb-001 JOUEUR maxtor MOT-DE-PASSE change-me-1\nAIDE\nFIN\n",
    ));
    env.daemon.cycle().unwrap();
    let a = env.last_to("maxtor@example.org", "confirm").unwrap();
    for s in [
        "SPIEL <spiel> SPIELER <spieler> PASSWORT <passwort>",
        "Partie neb-001 (Nébulight), tour 1 en cours.",
        "Partie amicale",
    ] {
        assert!(a.mail.body.contains(s), "{s}: {}", a.mail.body);
    }
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        0,
        "no orders stored"
    );
}

/// Issue 17 item 3: HELP names the sign-up by mail, with its syntax, in
/// the language of the keyword (always, whether or not a game is open:
/// LIST says which games are).
#[test]
fn issue17_3_help_mentions_join() {
    let mut env = welcome_env(&public_neb());
    env.drop_mail(&mail("new@example.net", "?", "AIDE\n"));
    env.drop_mail(&mail("neu@example.net", "?", "HILFE\n"));
    env.drop_mail(&mail("who@example.net", "?", "HELP\n"));
    env.daemon.cycle().unwrap();
    for (to, line) in [
        ("new@example.net", "REJOINDRE <partie> [nom]"),
        ("neu@example.net", "BEITRETEN <Spiel> [Name]"),
        ("who@example.net", "JOIN <game> [name]"),
    ] {
        let answer = env.last_to(to, "confirm").expect("an answer");
        assert!(
            answer.mail.body.contains(line),
            "{line}: {}",
            answer.mail.body
        );
    }
}
