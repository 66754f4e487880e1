//! Issue 17 item 3, through the mail loop (file outbox, Maildir inbox):
//! sign-up by mail. `JOIN` / `REJOINDRE` / `BEITRETEN` from any address;
//! `[signup] approve = "auto"` lets the seat in at once (the joiner reads
//! the header line out of the welcome mail and plays), `approve = "gm"`
//! asks the game master, who answers `ACCEPT` / `REFUSE` by mail or on the
//! CLI; the refusals (full, closed, duplicate, already started) and a JOIN
//! flood; LIST shows the open sign-ups.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::request::{Done, Request};
use arbitre::services::command::Command;
use arbitre_store::games;
use common::mail_loop::{header_of, inbox_of};
use common::*;
use std::path::Path;

const GM_PASSWORD: &str = "gm-secret-9";

fn example(ruleset: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(ruleset)
        .join("game.toml");
    std::fs::read_to_string(path).unwrap()
}

/// The example game of `ruleset` with `top` before its [schedule] table and
/// `tables` appended (a [signup] table, a [services] table).
fn game(ruleset: &str, top: &str, tables: &str) -> String {
    let t = example(ruleset).replacen("[schedule]", &format!("{top}\n[schedule]"), 1);
    format!("{t}\n{tables}\n")
}

/// The test daemon with the welcome mail on (as in production) and the
/// rate limits given.
fn env_with(toml: &str, limits: arbitre::config::Limits) -> Env {
    let dir = tempfile::tempdir().unwrap();
    let clock = std::sync::Arc::new(arbitre::FixedClock::new(t0()));
    let mut cfg = config(dir.path());
    cfg.welcome = true;
    cfg.limits = limits;
    let mut daemon = arbitre::Daemon::open(cfg, registry(), clock.clone()).unwrap();
    daemon.create_game(toml, dir.path()).unwrap();
    Env { dir, clock, daemon }
}

fn signup_env(toml: &str) -> Env {
    env_with(toml, arbitre::config::Limits::off())
}

fn gm_block(game: &str, line: &str) -> String {
    format!("PARTIE {game} JOUEUR gm MOT-DE-PASSE {GM_PASSWORD}\n{line}\nFIN\n")
}

/// The header line of the welcome mail `to` received (its generated
/// password in it).
fn welcome_header(env: &Env, to: &str, ruleset: &str) -> String {
    let guide = format!("{ruleset}.md");
    let welcomes: Vec<_> = inbox_of(&env.outbox_dir(), to)
        .into_iter()
        .filter(|m| m.attachments.contains_key(&guide))
        .collect();
    assert_eq!(welcomes.len(), 1, "exactly one welcome mail to {to}");
    header_of(&welcomes[0].text)
}

/// The seat `email` plays in `game`, if any.
fn seat_of(env: &Env, game: &str, email: &str) -> Option<String> {
    games::players(env.daemon.store.conn(), game)
        .unwrap()
        .into_iter()
        .find(|p| p.email == email)
        .map(|p| p.id)
}

/// The newcomer plays from the welcome mail alone: its header line (with
/// the generated password) and the bot's orders are stored without error.
fn plays(env: &mut Env, game: &str, ruleset: &str, email: &str, end: &str) {
    let player = seat_of(env, game, email).expect("a seat");
    let header = welcome_header(env, email, ruleset);
    assert!(header.contains(&player), "{header}");
    assert!(!header.contains('<'), "a generated password: {header}");
    let lines = bot(env, game, ruleset, &player);
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
            [&player],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((stored, errors), (1, 0), "the newcomer's orders are stored");
}

fn notices_to_gm(env: &Env) -> Vec<String> {
    env.outbox()
        .into_iter()
        .filter(|r| r.mail.recipient == "gm@example.org" && r.mail.kind == "notice")
        .map(|r| r.mail.body)
        .collect()
}

const AUTO: &str = "[signup]\nopen = true\napprove = \"auto\"\nmax_players = 5";

#[test]
fn signup_auto_scrambled_joiner_gets_the_welcome_mail_and_plays() {
    let mut env = signup_env(&game("scrambled", "", AUTO));
    env.drop_mail(&mail(
        "dora@example.net",
        "inscription",
        "REJOINDRE scn-001 Dora la Grande\n\nMerci !\n",
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        seat_of(&env, "scn-001", "dora@example.net").as_deref(),
        Some("dora-la-grande")
    );
    let answer = env
        .last_to("dora@example.net", "confirm")
        .expect("an answer");
    assert!(
        answer
            .mail
            .body
            .contains("vous jouez la position dora-la-grande"),
        "{}",
        answer.mail.body
    );
    assert!(
        env.last_to("dora@example.net", "report").is_some(),
        "the first report"
    );
    // The generated password left in the welcome mail only; the outbox
    // keeps a redacted copy.
    let header = welcome_header(&env, "dora@example.net", "scrambled");
    let kept = env.last_to("dora@example.net", "welcome").unwrap();
    let password = header.split_whitespace().last().unwrap();
    assert!(!kept.mail.body.contains(password));
    // The answer goes to the reply address, which a forger chooses: it
    // never carries the password (docs/game-master.md, forged From).
    assert!(!answer.mail.body.contains(password), "{}", answer.mail.body);
    plays(&mut env, "scn-001", "scrambled", "dora@example.net", "FIN");
    // A second JOIN from the same address: already a player, nothing new.
    env.drop_mail(&mail("dora@example.net", "encore", "REJOINDRE scn-001\n"));
    env.daemon.cycle().unwrap();
    let again = env.last_to("dora@example.net", "error").unwrap();
    assert!(
        again.mail.body.contains("joue déjà dans la partie scn-001"),
        "{}",
        again.mail.body
    );
    assert_eq!(
        games::players(env.daemon.store.conn(), "scn-001")
            .unwrap()
            .len(),
        4
    );
}

/// The second ruleset with `approve = "auto"`: EDS has no rule for a
/// player joining a game in progress (neither has `player join`), so the
/// JOIN is answered in German, naming the reason, and no seat is added.
#[test]
fn signup_auto_eds_game_already_started_is_answered_in_german() {
    let mut env = signup_env(&game("eds", "", AUTO));
    env.drop_mail(&mail(
        "neu@example.net",
        "Anmeldung",
        "BEITRETEN eds-001 Nina\n",
    ));
    env.daemon.cycle().unwrap();
    let a = env.last_to("neu@example.net", "error").expect("an answer");
    assert!(
        a.mail
            .body
            .contains("Spiel eds-001 hat schon begonnen, und Evolution der Sterne nimmt jetzt keinen neuen Spieler auf"),
        "{}",
        a.mail.body
    );
    assert_eq!(seat_of(&env, "eds-001", "neu@example.net"), None);
    assert_eq!(env.count("SELECT count(*) FROM signups"), 0, "nothing kept");
    assert!(notices_to_gm(&env).is_empty());
}

fn gm_game(extra: &str) -> String {
    game(
        "scrambled",
        "",
        &format!("[signup]\nopen = true\napprove = \"gm\"\n{extra}\n[services]\ngm_password = \"{GM_PASSWORD}\""),
    )
}

#[test]
fn signup_gm_accept_by_mail_lets_the_joiner_in_and_play() {
    let mut env = signup_env(&gm_game(""));
    env.drop_mail(&mail("eve@example.net", "join", "JOIN scn-001 Eve\n"));
    env.daemon.cycle().unwrap();
    // The joiner waits, in the game's language; the GM is asked once.
    let wait = env.last_to("eve@example.net", "confirm").unwrap();
    assert!(
        wait.mail.body.contains("transmise à son meneur de jeu"),
        "{}",
        wait.mail.body
    );
    let notices = notices_to_gm(&env);
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0].contains("ACCEPTER eve@example.net")
            && notices[0].contains("arbitre signup accept scn-001 eve@example.net"),
        "{}",
        notices[0]
    );
    assert_eq!(
        seat_of(&env, "scn-001", "eve@example.net"),
        None,
        "not before ACCEPT"
    );
    // The same address again: already pending, the GM is not mailed again.
    env.drop_mail(&mail(
        "eve@example.net",
        "join?",
        "JOIN scn-001 Eve\n\nPlease\n",
    ));
    env.daemon.cycle().unwrap();
    let again = env.last_to("eve@example.net", "error").unwrap();
    assert!(
        again.mail.body.contains("déjà chez son meneur de jeu"),
        "{}",
        again.mail.body
    );
    assert_eq!(notices_to_gm(&env).len(), 1);
    // The GM accepts by mail, in a game master's block.
    env.drop_mail(&mail(
        "gm@example.org",
        "accept",
        &gm_block("scn-001", "ACCEPTER <eve@example.net>"),
    ));
    env.daemon.cycle().unwrap();
    let gm = env.last_to("gm@example.org", "confirm").unwrap();
    assert!(
        gm.mail
            .body
            .contains("eve@example.net a rejoint la partie scn-001 comme eve"),
        "{}",
        gm.mail.body
    );
    assert_eq!(
        seat_of(&env, "scn-001", "eve@example.net").as_deref(),
        Some("eve")
    );
    assert_eq!(
        env.count("SELECT count(*) FROM signups WHERE status = 'accepted' AND player = 'eve'"),
        1
    );
    plays(&mut env, "scn-001", "scrambled", "eve@example.net", "FIN");
    // Accepting again is refused, changes nothing.
    env.drop_mail(&mail(
        "gm@example.org",
        "accept again",
        &gm_block("scn-001", "ACCEPT eve@example.net"),
    ));
    env.daemon.cycle().unwrap();
    let gm = env.last_to("gm@example.org", "confirm").unwrap();
    assert!(
        gm.mail
            .body
            .contains("pas de demande d'inscription ouverte"),
        "{}",
        gm.mail.body
    );
    assert_eq!(
        games::players(env.daemon.store.conn(), "scn-001")
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn signup_gm_refuse_by_mail_tells_the_joiner_the_reason() {
    let mut env = signup_env(&gm_game(""));
    env.drop_mail(&mail("mallory@example.net", "join", "JOIN scn-001\n"));
    env.daemon.cycle().unwrap();
    env.drop_mail(&mail(
        "gm@example.org",
        "refuse",
        &gm_block("scn-001", "REFUSER mallory@example.net partie entre amis"),
    ));
    env.daemon.cycle().unwrap();
    let told = env.last_to("mallory@example.net", "notice").expect("told");
    assert!(
        told.mail
            .body
            .contains("a refusé votre demande d'inscription")
            && told.mail.body.contains("Sa raison : partie entre amis"),
        "{}",
        told.mail.body
    );
    assert_eq!(seat_of(&env, "scn-001", "mallory@example.net"), None);
    // Asking again: refused before, and the GM is not asked again.
    env.drop_mail(&mail("mallory@example.net", "join!", "JOIN scn-001 M\n"));
    env.daemon.cycle().unwrap();
    let again = env.last_to("mallory@example.net", "error").unwrap();
    assert!(
        again.mail.body.contains("a refusé votre demande"),
        "{}",
        again.mail.body
    );
    assert_eq!(notices_to_gm(&env).len(), 1);
}

#[test]
fn signup_cli_lists_and_accepts_through_the_same_handler() {
    let mut env = signup_env(&gm_game(""));
    env.drop_mail(&mail("zoe@example.net", "join", "JOIN scn-001 Zoé\n"));
    env.daemon.cycle().unwrap();
    let lines = env
        .daemon
        .signup_requests("scn-001", arbitre_core::Lang::En)
        .unwrap();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("zoe@example.net (Zoé), asked "),
        "{}",
        lines[0]
    );
    let done = env
        .daemon
        .request(&Request::gm(
            "scn-001",
            Command::Accept("Zoe@Example.net".into()),
        ))
        .unwrap();
    assert_eq!(done, Done::Joined("zoe".into()));
    assert!(env
        .daemon
        .signup_requests("scn-001", arbitre_core::Lang::En)
        .unwrap()
        .is_empty());
    env.daemon.cycle().unwrap();
    plays(&mut env, "scn-001", "scrambled", "zoe@example.net", "FIN");
}

#[test]
fn signup_full_game_is_refused() {
    let mut env = signup_env(&game(
        "scrambled",
        "",
        "[signup]\nopen = true\napprove = \"auto\"\nmax_players = 3",
    ));
    env.drop_mail(&mail("late@example.net", "join", "REJOINDRE scn-001\n"));
    env.daemon.cycle().unwrap();
    let a = env.last_to("late@example.net", "error").unwrap();
    assert!(
        a.mail
            .body
            .contains("La partie scn-001 est complète : elle a ses 3 joueurs."),
        "{}",
        a.mail.body
    );
    assert_eq!(
        games::players(env.daemon.store.conn(), "scn-001")
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn signup_closed_and_unknown_games_are_refused() {
    // A public game without [signup]: closed. A misspelt public id is
    // suggested; the keyword's language answers an unknown game.
    let mut env = signup_env(&game("scrambled", "public = true", ""));
    env.drop_mail(&mail("a@example.net", "join", "JOIN scn-001\n"));
    env.drop_mail(&mail("b@example.net", "join", "BEITRETEN scn-01\n"));
    env.daemon.cycle().unwrap();
    let a = env.last_to("a@example.net", "error").unwrap();
    assert!(
        a.mail
            .body
            .contains("La partie scn-001 ne prend pas d'inscription par courrier"),
        "{}",
        a.mail.body
    );
    let b = env.last_to("b@example.net", "error").unwrap();
    assert!(
        b.mail.body.contains("Meintest Du scn-001?"),
        "{}",
        b.mail.body
    );
    assert_eq!(
        games::players(env.daemon.store.conn(), "scn-001")
            .unwrap()
            .len(),
        3
    );
    // A private game's id is not suggested.
    let mut env = signup_env(&game("scrambled", "", AUTO));
    env.drop_mail(&mail("c@example.net", "join", "JOIN scn-01\n"));
    env.daemon.cycle().unwrap();
    let c = env.last_to("c@example.net", "error").unwrap();
    assert!(!c.mail.body.contains("scn-001"), "{}", c.mail.body);
}

#[test]
fn signup_join_flood_from_rotating_addresses_mails_the_gm_at_most_max_pending_times() {
    let mut env = signup_env(&gm_game("max_pending = 3"));
    for i in 0..12 {
        env.drop_mail(&mail(
            &format!("bot{i}@flood.example"),
            "join",
            &format!("JOIN scn-001 bot{i}\n"),
        ));
    }
    // And one address several times.
    for i in 0..4 {
        env.drop_mail(&mail(
            "bot0@flood.example",
            &format!("again {i}"),
            "JOIN scn-001\n",
        ));
    }
    env.daemon.cycle().unwrap();
    assert_eq!(
        notices_to_gm(&env).len(),
        3,
        "one notice per pending request, at most 3"
    );
    assert_eq!(
        env.count("SELECT count(*) FROM signups WHERE status = 'pending'"),
        3
    );
    let refused = env.last_to("bot11@flood.example", "error").unwrap();
    assert!(
        refused.mail.body.contains("Trop de demandes d'inscription"),
        "{}",
        refused.mail.body
    );
}

#[test]
fn signup_join_flood_is_held_by_the_hourly_game_limit_too() {
    // With the production limits on: strangers' mails naming one game are
    // capped per hour, so JOINs beyond it are neither kept nor answered
    // more than once per address.
    let mut limits = arbitre::config::Limits::off();
    limits.per_game_per_hour = 5;
    let mut env = env_with(&gm_game("max_pending = 100"), limits);
    for i in 0..20 {
        env.drop_mail(&mail(
            &format!("bot{i}@flood.example"),
            "join",
            &format!("JOIN scn-001 bot{i}\n"),
        ));
    }
    env.daemon.cycle().unwrap();
    assert_eq!(notices_to_gm(&env).len(), 5);
    assert_eq!(env.count("SELECT count(*) FROM signups"), 5);
}

#[test]
fn signup_list_shows_the_open_signup_and_free_seats() {
    let mut env = signup_env(&game("scrambled", "public = true", AUTO));
    env.drop_mail(&mail("who@example.net", "list", "LIST\n"));
    env.daemon.cycle().unwrap();
    let list = env.last_to("who@example.net", "confirm").unwrap();
    assert!(
        list.mail
            .body
            .contains("sign-up open (JOIN scn-001 [name]), 2 free seat(s)"),
        "{}",
        list.mail.body
    );
}

/// Issue 17 item 3: a forged From would sign up someone else's address.
/// A `require_dkim` game wants the JOIN signed by the domain of the
/// address that becomes the seat's, as it wants its orders signed: an
/// unsigned JOIN and one signed by another domain are refused (in the
/// game's language, naming DKIM) and seat no one; a JOIN signed by the
/// joiner's domain seats them.
#[test]
fn signup_require_dkim_game_wants_the_join_signed_by_the_joiners_domain() {
    use arbitre_mail::dkim::{DkimConfig, SigningDomain};
    let key = SigningDomain::generate("example.net", "s").unwrap();
    let other = SigningDomain::generate("forger.example", "s").unwrap();
    let toml = game(
        "scrambled",
        "",
        &format!("{AUTO}\n[services]\nrequire_dkim = true\n"),
    );
    let dir = tempfile::tempdir().unwrap();
    let clock = std::sync::Arc::new(arbitre::FixedClock::new(t0()));
    let mut cfg = config(dir.path());
    cfg.welcome = true;
    cfg.limits = arbitre::config::Limits::off();
    let mut dkim = DkimConfig::off();
    for k in [&key, &other] {
        dkim.records.insert(k.record_name(), k.record().unwrap());
    }
    cfg.dkim = arbitre_mail::DkimVerifier::new(dkim);
    let mut daemon = arbitre::Daemon::open(cfg, registry(), clock.clone()).unwrap();
    daemon.create_game(&toml, dir.path()).unwrap();
    let mut env = Env { dir, clock, daemon };

    env.drop_mail(&mail(
        "dora@example.net",
        "inscription",
        "REJOINDRE scn-001 Dora\n",
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(seat_of(&env, "scn-001", "dora@example.net"), None);
    let refused = env.last_to("dora@example.net", "error").expect("a refusal");
    assert!(refused.mail.body.contains("DKIM"), "{}", refused.mail.body);

    let forged = other
        .sign(&mail(
            "eve@example.net",
            "inscription",
            "REJOINDRE scn-001 Eve\n",
        ))
        .unwrap();
    env.drop_mail(&forged);
    env.daemon.cycle().unwrap();
    assert_eq!(seat_of(&env, "scn-001", "eve@example.net"), None);
    assert!(env.last_to("eve@example.net", "error").is_some());

    let signed = key
        .sign(&mail(
            "dora@example.net",
            "encore",
            "REJOINDRE scn-001 Dora\n",
        ))
        .unwrap();
    env.drop_mail(&signed);
    env.daemon.cycle().unwrap();
    let last = env
        .outbox()
        .into_iter()
        .rev()
        .find(|r| r.mail.recipient == "dora@example.net");
    assert_eq!(
        seat_of(&env, "scn-001", "dora@example.net").as_deref(),
        Some("dora"),
        "{:?}",
        last.map(|r| r.mail.body)
    );
}
