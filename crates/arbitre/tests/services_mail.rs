//! Issue 10 through the mail loop, with real rulesets (Nébulight in French,
//! EDS in German) and the English default: drop .eml files into the
//! Maildir, run the serve cycle, read what the outbox holds.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::example_game::{game_with, Game};
use mail_parser::{MessageParser, MimeHeaders};

fn game(name: &str) -> Game {
    game_in(name, None)
}

/// The example game, optionally with its language replaced.
fn game_in(name: &str, lang: Option<&str>) -> Game {
    game_with(name, lang, "")
}

/// (file name, content) of every attachment of a queued mail.
fn attachments(raw: &[u8]) -> Vec<(String, Vec<u8>)> {
    let m = MessageParser::default().parse(raw).unwrap();
    m.attachments()
        .map(|a| {
            (
                a.attachment_name().unwrap_or("").to_string(),
                a.contents().to_vec(),
            )
        })
        .collect()
}

fn check_report_attachments(
    name: &str,
    player_email: &str,
    template_prefix: &str,
    deadline_word: &str,
) {
    let mut g = game(name);
    let id = g.id.clone();
    // The turn-0 report already carries them.
    let turn0 = g.last_to(player_email, "report");
    let names0: Vec<String> = attachments(&turn0.mail.raw)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(
        names0.contains(&format!("{id}-turn-0.json"))
            && names0.contains(&format!("{id}-turn-1.ics")),
        "{names0:?}"
    );
    g.daemon.resolve(&id).unwrap();
    let report = g.last_to(player_email, "report");
    let att = attachments(&report.mail.raw);
    let names: Vec<&str> = att.iter().map(|(n, _)| n.as_str()).collect();
    let json_name = format!("{id}-turn-1.json");
    let ics_name = format!("{id}-turn-2.ics");
    assert!(names.contains(&json_name.as_str()), "{names:?}");
    assert!(names.contains(&ics_name.as_str()), "{names:?}");
    let template = names
        .iter()
        .find(|n| n.starts_with(template_prefix))
        .expect("the ruleset's order template");
    let json = &att.iter().find(|(n, _)| *n == json_name).unwrap().1;
    let v: serde_json::Value = serde_json::from_slice(json).unwrap();
    assert_eq!(v["game"], id.as_str());
    assert_eq!(v["turn"], 1);
    assert_eq!(v["viewer"], "player");
    assert_eq!(v["order_template"], *template);
    // The JSON carries the same report as the mail's text.
    let body = String::from_utf8_lossy(&report.mail.raw).to_string();
    let first_line = v["text"]
        .as_str()
        .unwrap()
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap()
        .to_string();
    assert!(
        report.mail.body.contains(&first_line),
        "{first_line} not in {body}"
    );
    // The .ics holds the deadline the game row holds.
    let deadline = g
        .daemon
        .store
        .conn()
        .query_row("SELECT deadline FROM games WHERE id = ?1", [&id], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap();
    let d = chrono::DateTime::from_timestamp(deadline, 0).unwrap();
    let ics =
        String::from_utf8(att.iter().find(|(n, _)| *n == ics_name).unwrap().1.clone()).unwrap();
    assert!(
        ics.contains(&format!("DTSTART:{}", d.format("%Y%m%dT%H%M%SZ"))),
        "{ics}"
    );
    assert!(ics.replace("\r\n ", "").contains(deadline_word), "{ics}");
    assert_eq!(
        v["next_deadline"]["utc"],
        d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    );
    // The GM's report carries them too.
    let gm = g.last_to("gm@example.org", "gm");
    let gm_att = attachments(&gm.mail.raw);
    let gm_json = &gm_att
        .iter()
        .find(|(n, _)| *n == json_name)
        .expect("GM JSON")
        .1;
    let v: serde_json::Value = serde_json::from_slice(gm_json).unwrap();
    assert_eq!(v["viewer"], "game-master");
    assert_eq!(v["player"], serde_json::Value::Null);
    let _ = &g.clock;
}

#[test]
fn report_mail_carries_json_ics_and_template_nebulight() {
    check_report_attachments(
        "nebulight",
        "maxtor@example.org",
        "ordres-",
        "date limite des ordres du tour 2",
    );
}

#[test]
fn report_mail_carries_json_ics_and_template_eds() {
    check_report_attachments(
        "eds",
        "anna@example.org",
        "befehlsblatt-",
        "Abgabetermin der Befehle für Zug 2",
    );
}

fn journal_outcomes(g: &Game) -> Vec<String> {
    let c = g.daemon.store.conn();
    let mut st = c
        .prepare("SELECT outcome FROM mail_journal ORDER BY rowid")
        .unwrap();
    st.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn orders_count(g: &Game) -> i64 {
    g.daemon
        .store
        .conn()
        .query_row("SELECT COUNT(*) FROM orders", [], |r| r.get(0))
        .unwrap()
}

/// STATUS, HISTORY and RESEND through the mail loop in one game.
/// `words`: (header, status, history, resend keywords as a player of that
/// language writes them); `expect`: lines the answers must hold.
fn check_player_services(
    g: &mut Game,
    player: &str,
    email: &str,
    password: &str,
    header: [&str; 3],
    words: [&str; 3],
    expect: [&str; 4],
) {
    let id = g.id.clone();
    let [game_w, player_w, pw_w] = header;
    let [status_w, history_w, resend_w] = words;
    let block = |lines: &str| {
        format!("Hello\n\n{game_w} {id} {player_w} {player} {pw_w} {password}\n{lines}\nEND\n")
    };
    // STATUS before any turn: the turn in progress, nobody has sent orders.
    g.send(email, &block(status_w));
    let reply = g.last_to(email, "confirm");
    assert!(reply.mail.body.contains(expect[0]), "{}", reply.mail.body);
    assert!(reply.mail.body.contains(expect[1]), "{}", reply.mail.body);
    assert_eq!(orders_count(g), 0, "a mail of commands stores no orders");
    assert_eq!(journal_outcomes(g).last().unwrap(), "service");
    // A turn later: HISTORY lists it, RESEND 1 mails the report again.
    g.daemon.resolve(&id).unwrap();
    let original = g.last_to(email, "report");
    g.clock.advance(chrono::TimeDelta::hours(1));
    g.send(email, &block(&format!("{history_w}\n{resend_w} 1")));
    let reply = g.last_to(email, "confirm");
    assert!(reply.mail.body.contains(expect[2]), "{}", reply.mail.body);
    let again = g.last_to(email, "notice");
    assert!(
        again.mail.subject.contains(expect[3]),
        "{}",
        again.mail.subject
    );
    let strip = |b: &str| b.split("\n\n-- \n").next().unwrap().trim_end().to_string();
    assert!(
        strip(&original.mail.body).starts_with(&strip(&again.mail.body)),
        "the same report, sent again"
    );
    let names: Vec<String> = attachments(&again.mail.raw)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(names.contains(&format!("{id}-turn-1.json")), "{names:?}");
    // RESEND of a turn not resolved yet names the last one.
    g.send(email, &block(&format!("{resend_w} 7")));
    let reply = g.last_to(email, "confirm");
    assert!(
        reply.mail.body.contains(" 7") && reply.mail.body.contains('1'),
        "{}",
        reply.mail.body
    );
    // A GM command from a player is refused, nothing changes.
    g.send(email, &block("PAUSE"));
    let reply = g.last_to(email, "confirm");
    assert!(reply.mail.body.contains("PAUSE"), "{}", reply.mail.body);
    let status: String = g
        .daemon
        .store
        .conn()
        .query_row("SELECT status FROM games WHERE id = ?1", [&id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(status, "running");
}

#[test]
fn status_history_resend_nebulight_in_french() {
    let mut g = game("nebulight");
    check_player_services(
        &mut g,
        "maxtor",
        "maxtor@example.org",
        "change-me-1",
        ["PARTIE", "JOUEUR", "MOT-DE-PASSE"],
        ["ÉTAT", "HISTORIQUE", "RENVOI"],
        [
            "Tour en cours : 1",
            "En attente de : maxtor, miria",
            "Tour   1  résolu le",
            "compte rendu du tour 1 (nouvel envoi)",
        ],
    );
}

#[test]
fn status_history_resend_eds_in_german() {
    let mut g = game("eds");
    check_player_services(
        &mut g,
        "p1",
        "anna@example.org",
        "change-me-1",
        ["SPIEL", "SPIELER", "PASSWORT"],
        ["STAND", "VERLAUF", "NOCHMAL"],
        [
            "Laufender Zug: 1",
            "Es fehlen noch: p1, p2, p3",
            "Zug   1  ausgewertet am",
            "Auswertung von Zug 1 (erneut gesendet)",
        ],
    );
}

#[test]
fn status_history_resend_in_english() {
    let mut g = game_in("eds", Some("en"));
    check_player_services(
        &mut g,
        "p2",
        "bert@example.org",
        "change-me-2",
        ["GAME", "PLAYER", "PASSWORD"],
        ["STATUS", "HISTORY", "RESEND"],
        [
            "Turn in progress: 1",
            "Waiting for: p1, p2, p3",
            "Turn   1  resolved",
            "report of turn 1 (sent again)",
        ],
    );
}

#[test]
fn commands_before_orders_are_answered_and_the_orders_stored() {
    let mut g = game("nebulight");
    let id = g.id.clone();
    let body = format!("PARTIE {id} JOUEUR miria MOT-DE-PASSE change-me-2\nETAT\nFUSEAU Mars/Olympus\nM_200 C 10 VC F_19\nFIN\n");
    g.send("miria@example.org", &body);
    assert_eq!(
        orders_count(&g),
        1,
        "the orders after the commands are stored"
    );
    let stored: String = g
        .daemon
        .store
        .conn()
        .query_row("SELECT text FROM orders", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored.trim(), "M_200 C 10 VC F_19");
    assert!(
        stored.starts_with("\n\n"),
        "line numbers kept for the order parser: {stored:?}"
    );
    let answers = g
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "confirm")
        .collect::<Vec<_>>();
    assert_eq!(
        answers.len(),
        2,
        "a confirmation for the orders and one for the commands"
    );
    let cmd = answers
        .iter()
        .find(|r| r.mail.subject.contains("vos commandes"))
        .unwrap();
    // Commands are answered before the same mail's orders are stored.
    assert!(
        cmd.mail.body.contains("En attente de : maxtor, miria"),
        "{}",
        cmd.mail.body
    );
    assert!(
        cmd.mail
            .body
            .contains("Ligne 2 : FUSEAU Mars/Olympus\n  -> fuseau horaire inconnu"),
        "{}",
        cmd.mail.body
    );
    // The same mail again (a restart) answers nothing twice.
    let before = g.outbox().len();
    g.daemon.cycle().unwrap();
    assert_eq!(g.outbox().len(), before);
}

fn game_status(g: &Game) -> (String, Option<i64>) {
    g.daemon
        .store
        .conn()
        .query_row(
            "SELECT status, deadline FROM games WHERE id = ?1",
            [&g.id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

/// PAUSE, RESUME, EXTEND by the game master's mail; `words`: the header
/// keywords and (pause, resume, extend 48h) as written in that language;
/// `done`: the "done" answer for PAUSE.
fn check_gm_by_mail(name: &str, header: [&str; 3], words: [&str; 3], done: &str, wrong: &str) {
    let mut g = game_with(name, None, "\n[services]\ngm_password = \"maître\"\n");
    let stored: String = g
        .daemon
        .store
        .conn()
        .query_row("SELECT config FROM games", [], |r| r.get(0))
        .unwrap();
    assert!(
        !stored.contains("maître") && stored.contains("gm_password_hash"),
        "only the hash is stored"
    );
    let id = g.id.clone();
    let [game_w, player_w, pw_w] = header;
    let block = |pw: &str, line: &str| format!("{game_w} {id} {player_w} gm {pw_w} {pw}\n{line}\n");
    let gm = "gm@example.org";
    let (_, deadline) = game_status(&g);
    // A wrong password changes nothing.
    g.send(gm, &block("guess", words[0]));
    assert_eq!(game_status(&g).0, "running");
    assert!(g.last_to(gm, "error").mail.body.contains(wrong));
    // PAUSE: paused, every player told.
    g.send(gm, &block("maître", words[0]));
    assert_eq!(game_status(&g), ("paused".to_string(), None));
    assert!(
        g.last_to(gm, "confirm").mail.body.contains(done),
        "{}",
        g.last_to(gm, "confirm").mail.body
    );
    let notices = g
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "notice")
        .count();
    assert!(notices >= 2, "players told of the pause");
    // RESUME, then EXTEND 48h.
    g.clock.advance(chrono::TimeDelta::hours(1));
    g.send(gm, &block("maître", words[1]));
    let (status, resumed) = game_status(&g);
    assert_eq!(status, "running");
    let resumed = resumed.unwrap();
    g.clock.advance(chrono::TimeDelta::hours(1));
    g.send(gm, &block("maître", words[2]));
    assert_eq!(game_status(&g).1, Some(resumed + 48 * 3600));
    assert!(deadline.is_some());
    assert_eq!(
        journal_outcomes(&g)
            .iter()
            .filter(|o| *o == "service")
            .count(),
        3
    );
}

#[test]
fn gm_pause_resume_extend_by_mail_nebulight_in_french() {
    check_gm_by_mail(
        "nebulight",
        ["PARTIE", "JOUEUR", "MOT-DE-PASSE"],
        ["PAUSE", "REPRENDRE", "PROLONGER 2j"],
        "PAUSE : fait.",
        "Mot de passe du meneur de jeu incorrect",
    );
}

#[test]
fn gm_pause_resume_extend_by_mail_eds_in_german() {
    check_gm_by_mail(
        "eds",
        ["SPIEL", "SPIELER", "PASSWORT"],
        ["PAUSE", "FORTSETZEN", "VERLÄNGERN 48h"],
        "PAUSE: erledigt.",
        "Falsches Passwort der Spielleitung",
    );
}

fn reminders_to(g: &Game) -> Vec<String> {
    g.outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "reminder")
        .map(|r| r.mail.recipient)
        .collect()
}

/// Issue 10: reminders only to players without orders, never twice for
/// the same reminder point, however many cycles run (Nébulight: Friday
/// 20:00 Europe/Paris, reminders 24h and 2h before).
#[test]
fn reminders_never_twice_for_the_same_point_nebulight() {
    let mut g = game("nebulight");
    let at = |s: &str| {
        chrono::DateTime::parse_from_rfc3339(s)
            .unwrap()
            .with_timezone(&chrono::Utc)
    };
    g.clock.set(at("2026-12-03T20:00:00Z")); // 23 h before 2026-12-04 19:00Z
    for _ in 0..3 {
        g.daemon.cycle().unwrap();
    }
    let mut r = reminders_to(&g);
    r.sort();
    assert_eq!(r, ["maxtor@example.org", "miria@example.org"]);
    let id = g.id.clone();
    g.send(
        "maxtor@example.org",
        &format!("PARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1\nM_200 C 10 VC F_19\nFIN\n"),
    );
    g.clock.set(at("2026-12-04T17:30:00Z")); // inside the 2 h window
    for _ in 0..3 {
        g.daemon.cycle().unwrap();
    }
    let r = reminders_to(&g);
    assert_eq!(r.len(), 3, "{r:?}");
    assert_eq!(r[2], "miria@example.org", "only the player without orders");
    assert!(g
        .last_to("miria@example.org", "reminder")
        .mail
        .body
        .contains("2026-12-04 20:00 (Europe/Paris)"));
}

/// The same for EDS (interval 7 d, one reminder 24 h before), in German.
#[test]
fn reminders_never_twice_for_the_same_point_eds() {
    let mut g = game("eds");
    let (_, deadline) = game_status(&g);
    let deadline = chrono::DateTime::from_timestamp(deadline.unwrap(), 0).unwrap();
    g.clock.set(deadline - chrono::TimeDelta::hours(23));
    g.daemon.cycle().unwrap();
    g.clock.advance(chrono::TimeDelta::hours(1));
    g.daemon.cycle().unwrap();
    g.daemon.cycle().unwrap();
    let r = reminders_to(&g);
    assert_eq!(r.len(), 3, "{r:?}");
    assert!(g
        .last_to("carla@example.org", "reminder")
        .mail
        .subject
        .contains("Erinnerung"));
}
