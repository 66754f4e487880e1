//! Checklist items that a ruleset crate cannot prove alone, because the daemon
//! owns them: reminders before the deadline (EDS-111) and early resolution
//! when every player has declared READY (SCN-51). Each plays a real ruleset
//! through the mail loop with a fixed clock.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_store::games;
use chrono::Duration;
use common::*;

fn three_player_toml(id: &str, ruleset: &str, rules: &str, schedule: &str) -> String {
    let mut s = format!(
        "id = \"{id}\"\nruleset = \"{ruleset}\"\nseed = 7\ngm_email = \"gm@arbitre.test\"\n[schedule]\ninterval = \"7d\"\n{schedule}\n[rules]\n{rules}\n"
    );
    for (p, pw) in [("p1", "pw-one"), ("p2", "pw-two"), ("p3", "pw-three")] {
        s.push_str(&format!(
            "[[players]]\nid = \"{p}\"\nname = \"{p}\"\nemail = \"{p}@example.org\"\npassword = \"{pw}\"\n"
        ));
    }
    s
}

fn turn_of(env: &Env, id: &str) -> u32 {
    games::require_game(env.daemon.store.conn(), id)
        .unwrap()
        .turn
}

#[test]
fn eds_111_reminder_before_the_zat_goes_in_german_to_rulers_without_orders() {
    let env_toml = three_player_toml("eds-r", "eds", "map = \"trio\"", "reminders = [\"24h\"]");
    let mut env = Env::with_game(&env_toml);
    // p1 sends an order sheet; p2 and p3 send nothing.
    env.drop_mail(&mail(
        "p1@example.org",
        "Befehle",
        "SPIEL eds-r SPIELER p1 PASSWORT pw-one\nENDE\n",
    ));
    env.daemon.cycle().unwrap();
    let reminders = |env: &Env| {
        env.outbox()
            .into_iter()
            .filter(|r| r.mail.kind == "reminder")
            .collect::<Vec<_>>()
    };
    assert!(
        reminders(&env).is_empty(),
        "six days before the ZAT: no reminder yet"
    );
    env.clock
        .set(t0() + Duration::days(6) + Duration::minutes(1));
    env.daemon.cycle().unwrap();
    env.daemon.cycle().unwrap();
    let r = reminders(&env);
    let mut to: Vec<&str> = r.iter().map(|r| r.mail.recipient.as_str()).collect();
    to.sort();
    assert_eq!(
        to,
        vec!["p2@example.org", "p3@example.org"],
        "once each, never to p1"
    );
    assert!(
        r[0].mail
            .body
            .contains("Erinnerung: Der Spielleiter hat keine Befehle von P"),
        "{}",
        r[0].mail.body
    );
    assert!(
        r[0].mail.body.contains("Abgabetermin:"),
        "{}",
        r[0].mail.body
    );
    assert_eq!(
        turn_of(&env, "eds-r"),
        0,
        "a reminder does not resolve the month"
    );
}

#[test]
fn scn_51_turn_resolves_early_only_when_every_player_is_ready() {
    let toml = three_player_toml("scn-r", "scrambled", "world = \"testland\"", "early = true");
    let mut env = Env::with_game(&toml);
    let send = |env: &Env, p: &str, pw: &str, body: &str| {
        env.drop_mail(&mail(
            &format!("{p}@example.org"),
            "ordres",
            &format!("PARTIE scn-r JOUEUR {p} MOT-DE-PASSE {pw}\n{body}\nFIN\n"),
        ));
    };
    // Orders from everybody, but without READY: the turn waits for the deadline.
    send(&env, "p1", "pw-one", "TURN 1");
    send(&env, "p2", "pw-two", "TURN 1");
    send(&env, "p3", "pw-three", "TURN 1");
    env.daemon.cycle().unwrap();
    assert_eq!(
        turn_of(&env, "scn-r"),
        0,
        "orders without READY do not resolve early"
    );
    // Two of three ready: still waiting.
    send(&env, "p1", "pw-one", "TURN 1\nREADY");
    send(&env, "p2", "pw-two", "TURN 1\nREADY");
    env.daemon.cycle().unwrap();
    assert_eq!(turn_of(&env, "scn-r"), 0, "p3 is not ready yet");
    send(&env, "p3", "pw-three", "TURN 1\nREADY");
    env.daemon.cycle().unwrap();
    assert_eq!(
        turn_of(&env, "scn-r"),
        1,
        "everybody ready: resolved before the deadline"
    );
}

#[test]
fn scn_62_a_player_joins_a_game_in_progress_and_plays_by_mail() {
    let toml = three_player_toml("scn-j", "scrambled", "world = \"hexagone\"", "early = true");
    let mut env = Env::with_game(&toml);
    env.clock
        .set(t0() + Duration::days(7) + Duration::minutes(1));
    env.daemon.cycle().unwrap();
    assert_eq!(turn_of(&env, "scn-j"), 1);
    let id = env
        .daemon
        .join_player(
            "scn-j",
            "id = \"p4\"\nname = \"Quatre\"\nemail = \"p4@example.org\"\npassword = \"pw-four\"\n",
        )
        .unwrap();
    assert_eq!(id, "p4");
    let report = env
        .last_to("p4@example.org", "report")
        .expect("the newcomer gets a report at once");
    assert!(report.mail.body.contains("Quatre"), "{}", report.mail.body);
    // The newcomer's orders are accepted by mail like anyone's.
    env.drop_mail(&mail(
        "p4@example.org",
        "ordres",
        "PARTIE scn-j JOUEUR p4 MOT-DE-PASSE pw-four\nTURN 2\nREADY\nFIN\n",
    ));
    env.daemon.cycle().unwrap();
    let confirm = env
        .last_to("p4@example.org", "confirm")
        .expect("confirmation");
    assert!(
        confirm.mail.body.contains("0 erreur"),
        "{}",
        confirm.mail.body
    );
    // Joining twice is refused; so is a ruleset without the rule.
    assert!(env
        .daemon
        .join_player(
            "scn-j",
            "id = \"p4\"\nemail = \"x@example.org\"\npassword = \"x\"\n"
        )
        .is_err());
}

#[test]
fn a_ruleset_without_joining_refuses_a_newcomer_and_nothing_is_stored() {
    let toml = three_player_toml("eds-j", "eds", "map = \"trio\"", "");
    let mut env = Env::with_game(&toml);
    let before = env.count("SELECT count(*) FROM players");
    let err = env
        .daemon
        .join_player(
            "eds-j",
            "id = \"p4\"\nemail = \"p4@example.org\"\npassword = \"pw\"\n",
        )
        .unwrap_err();
    assert!(err.to_string().contains("join"), "{err}");
    assert_eq!(env.count("SELECT count(*) FROM players"), before);
}

#[test]
fn a_joiner_given_a_token_must_send_it_like_a_player_of_game_create() {
    let toml = three_player_toml("scn-t", "scrambled", "world = \"hexagone\"", "early = true");
    let mut env = Env::with_game(&toml);
    env.clock
        .set(t0() + Duration::days(7) + Duration::minutes(1));
    env.daemon.cycle().unwrap();
    env.daemon
        .join_player(
            "scn-t",
            "id = \"p4\"\nemail = \"p4@example.org\"\npassword = \"pw-four\"\ntoken = \"lune-42\"\n",
        )
        .unwrap();
    let stored = arbitre_store::settings::get(env.daemon.store.conn(), "scn-t", "p4").unwrap();
    let hash = stored.token_hash.expect("the token's hash is kept");
    assert!(!hash.contains("lune-42"), "never the token in clear");
    let orders_of_p4 = |env: &Env| {
        env.daemon
            .store
            .conn()
            .query_row(
                "SELECT count(*) FROM orders WHERE game_id = 'scn-t' AND player = 'p4'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .unwrap()
    };
    env.drop_mail(&mail(
        "p4@example.org",
        "ordres",
        "PARTIE scn-t JOUEUR p4 MOT-DE-PASSE pw-four\nTURN 2\nFIN\n",
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(orders_of_p4(&env), 0, "without the token nothing is stored");
    assert!(
        env.last_to("p4@example.org", "error").is_some(),
        "the joiner is told why"
    );
    env.drop_mail(&mail(
        "p4@example.org",
        "ordres",
        "PARTIE scn-t JOUEUR p4 MOT-DE-PASSE pw-four JETON lune-42\nTURN 2\nFIN\n",
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        orders_of_p4(&env),
        1,
        "with the token the orders are stored"
    );
    // A token with a space is refused at join, naming the player.
    let err = env
        .daemon
        .join_player(
            "scn-t",
            "id = \"p5\"\nemail = \"p5@example.org\"\npassword = \"pw\"\ntoken = \"two words\"\n",
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("p5") && err.to_string().contains("token"),
        "{err}"
    );
}
