//! Issue 17 item 9, reports and answers that say what happened to the
//! player, through the mail loop with real rulesets: the "no orders
//! received" line, STATUS agreeing with early resolution (READY), RESEND
//! sending what was mailed then (with its .ics), and the game master's
//! deadline notices carrying the .ics in each player's own zone.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_store::{games, OutboxRow};
use chrono::Duration;
use common::*;
use mail_parser::{MessageParser, MimeHeaders};

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

/// A block of `player` in `game`, in the ruleset's own header words.
fn block(ruleset: &str, game: &str, player: &str, body: &str) -> String {
    let pw = match player {
        "p1" => "pw-one",
        "p2" => "pw-two",
        _ => "pw-three",
    };
    match ruleset {
        "eds" => format!("SPIEL {game} SPIELER {player} PASSWORT {pw}\n{body}\nENDE\n"),
        _ => format!("PARTIE {game} JOUEUR {player} MOT-DE-PASSE {pw}\n{body}\nFIN\n"),
    }
}

struct Case {
    ruleset: &'static str,
    game: &'static str,
    rules: &'static str,
    /// An order set that counts as sent (and ready, but in Scrambled).
    orders: &'static str,
}

const EDS: Case = Case {
    ruleset: "eds",
    game: "eds-t",
    rules: "map = \"trio\"",
    orders: "",
};
const SCN: Case = Case {
    ruleset: "scrambled",
    game: "scn-t",
    rules: "world = \"testland\"",
    orders: "TURN 1",
};

fn env_for(c: &Case, schedule: &str) -> Env {
    Env::with_game(&three_player_toml(c.game, c.ruleset, c.rules, schedule))
}

fn send(env: &Env, c: &Case, player: &str, body: &str) {
    env.drop_mail(&mail(
        &format!("{player}@example.org"),
        "orders",
        &block(c.ruleset, c.game, player, body),
    ));
}

fn turn_of(env: &Env, id: &str) -> u32 {
    games::require_game(env.daemon.store.conn(), id)
        .unwrap()
        .turn
}

fn attachments(row: &OutboxRow) -> Vec<(String, Vec<u8>)> {
    let m = MessageParser::default().parse(&row.mail.raw).unwrap();
    m.attachments()
        .map(|a| {
            (
                a.attachment_name().unwrap_or_default().to_string(),
                a.contents().to_vec(),
            )
        })
        .collect()
}

fn reports_of(env: &Env, to: &str) -> Vec<OutboxRow> {
    env.outbox()
        .into_iter()
        .filter(|r| r.mail.recipient == to && r.mail.kind == "report")
        .collect()
}

// ------------------------------------------------- no orders received

fn no_orders_line(c: &Case, line: &str) {
    let mut env = env_for(c, "");
    send(&env, c, "p1", c.orders);
    env.daemon.cycle().unwrap();
    env.daemon.resolve(c.game).unwrap();
    assert_eq!(turn_of(&env, c.game), 1);
    let silent = reports_of(&env, "p2@example.org");
    let silent = &silent.last().unwrap().mail.body;
    assert!(silent.contains(line), "{silent}");
    let sender = reports_of(&env, "p1@example.org");
    let sender = &sender.last().unwrap().mail.body;
    assert!(!sender.contains(line), "p1 sent orders: {sender}");
    // The turn-0 report (no turn played yet) never says it.
    let first = &reports_of(&env, "p2@example.org")[0].mail.body;
    assert!(!first.contains(line), "{first}");
}

#[test]
fn no_orders_line_eds() {
    no_orders_line(
        &EDS,
        "HINWEIS: Für Zug 1 sind keine Befehle von Dir eingegangen.",
    );
}

#[test]
fn no_orders_line_scrambled() {
    no_orders_line(
        &SCN,
        "NOTE : aucun ordre de votre part n'a été reçu pour le tour 1.",
    );
}

// ------------------------------------------------- STATUS and READY

fn status_of(env: &mut Env, c: &Case, player: &str) -> String {
    let to = format!("{player}@example.org");
    send(env, c, player, "STATUS");
    env.daemon.cycle().unwrap();
    env.last_to(&to, "confirm").unwrap().mail.body
}

#[test]
fn status_matches_ready_scrambled() {
    let c = SCN;
    let mut env = env_for(&c, "early = true");
    send(&env, &c, "p1", "TURN 1\nREADY");
    send(&env, &c, "p2", "TURN 1");
    env.daemon.cycle().unwrap();
    let s = status_of(&mut env, &c, "p1");
    assert!(s.contains("Ordres reçus de : p1, p2"), "{s}");
    assert!(
        s.contains(
            "Ordres en vigueur mais sans READY (le tour les attend jusqu'à la date limite) : p2"
        ),
        "{s}"
    );
    assert!(s.contains("En attente de : p3"), "{s}");
    // p3 ready too: p2 alone holds the turn, as STATUS says.
    send(&env, &c, "p3", "TURN 1\nREADY");
    env.daemon.cycle().unwrap();
    assert_eq!(turn_of(&env, c.game), 0, "p2 is not ready");
    let s = status_of(&mut env, &c, "p3");
    assert!(
        s.contains("sans READY (le tour les attend jusqu'à la date limite) : p2"),
        "{s}"
    );
    assert!(s.contains("En attente de : -"), "{s}");
    send(&env, &c, "p2", "TURN 1\nREADY");
    env.daemon.cycle().unwrap();
    assert_eq!(
        turn_of(&env, c.game),
        1,
        "everybody ready, as STATUS would say"
    );
}

#[test]
fn status_matches_ready_eds() {
    // EDS: any order sheet makes its ruler ready; no "without READY" line.
    let c = EDS;
    let mut env = env_for(&c, "early = true");
    send(&env, &c, "p1", "");
    env.daemon.cycle().unwrap();
    let s = status_of(&mut env, &c, "p1");
    assert!(s.contains("Befehle erhalten von: p1"), "{s}");
    assert!(!s.contains("READY"), "{s}");
    assert!(s.contains("Es fehlen noch: p2, p3"), "{s}");
    send(&env, &c, "p2", "");
    send(&env, &c, "p3", "");
    env.daemon.cycle().unwrap();
    env.clock.set(t0() + Duration::hours(1));
    env.daemon.cycle().unwrap();
    assert_eq!(turn_of(&env, c.game), 1, "all ready: resolved early");
}

// ------------------------------------------------- RESEND

fn resend_carries_ics(c: &Case, not_yet: &str) {
    let mut env = env_for(c, "");
    send(&env, c, "p1", c.orders);
    env.daemon.cycle().unwrap();
    env.daemon.resolve(c.game).unwrap();
    let mailed = reports_of(&env, "p1@example.org").pop().unwrap();
    let ics = format!("{}-turn-2.ics", c.game);
    assert!(
        attachments(&mailed).iter().any(|(n, _)| *n == ics),
        "the report carries {ics}"
    );
    // The deadline moves after the report was mailed: RESEND still sends
    // the report as it was mailed, with its deadline and its .ics.
    env.daemon.extend(c.game, Duration::days(2)).unwrap();
    send(&env, c, "p1", "RESEND");
    env.daemon.cycle().unwrap();
    let again = env.last_to("p1@example.org", "notice").unwrap();
    assert!(
        again.mail.subject.contains(c.game),
        "{}",
        again.mail.subject
    );
    assert_eq!(again.mail.body, mailed.mail.body, "the text as mailed");
    assert_eq!(
        attachments(&again),
        attachments(&mailed),
        "the attachments as mailed, .ics and JSON included"
    );
    // A turn not resolved yet: the last resolved turn's report, said so.
    send(&env, c, "p1", "RESEND 2");
    env.daemon.cycle().unwrap();
    let answer = env.last_to("p1@example.org", "confirm").unwrap().mail.body;
    assert!(answer.contains(not_yet), "{answer}");
    let resent = env.last_to("p1@example.org", "notice").unwrap();
    assert_ne!(resent.mail.message_id, again.mail.message_id);
    assert_eq!(resent.mail.turn, Some(1));
    assert_eq!(resent.mail.body, mailed.mail.body);
}

#[test]
fn resend_carries_ics_eds() {
    resend_carries_ics(
        &EDS,
        "Zug 2 ist noch nicht ausgewertet: hier ist die Auswertung des letzten ausgewerteten Zuges, 1.",
    );
}

#[test]
fn resend_carries_ics_scrambled() {
    resend_carries_ics(
        &SCN,
        "Le tour 2 n'est pas encore résolu : voici le compte rendu du dernier tour résolu, le 1.",
    );
}

/// Issue 22 item 4: once a report is `keep_sent_mail_turns` turns old its
/// raw copy is dropped; RESEND still mails its text as it was, with the
/// attachments drawn again from the turn's state: the maps and the rules
/// files byte for byte, the JSON without the deadline that has passed (its
/// `text` then says no date either), and no calendar file for it.
fn resend_after_retention(c: &Case) {
    let mut env = env_for(c, "");
    env.daemon.config.keep_sent_mail_turns = 1;
    send(&env, c, "p1", c.orders);
    env.daemon.cycle().unwrap();
    env.daemon.resolve(c.game).unwrap();
    env.daemon.cycle().unwrap();
    let mailed = reports_of(&env, "p1@example.org").pop().unwrap();
    assert_eq!(mailed.mail.turn, Some(1));
    assert!(
        mailed.pruned_at.is_none(),
        "the last turn's mail is kept whole"
    );
    let before = attachments(&mailed);
    env.daemon.resolve(c.game).unwrap();
    env.daemon.cycle().unwrap();
    let pruned = env
        .outbox()
        .into_iter()
        .find(|r| r.id == mailed.id)
        .unwrap();
    assert!(
        pruned.pruned_at.is_some(),
        "turn 1 is one turn behind turn 2"
    );
    assert!(pruned.mail.raw.is_empty());
    assert_eq!(pruned.mail.body, mailed.mail.body);
    let kept = reports_of(&env, "p1@example.org").pop().unwrap();
    assert_eq!(kept.mail.turn, Some(2));
    assert!(kept.pruned_at.is_none() && !kept.mail.raw.is_empty());

    send(&env, c, "p1", "RESEND 1");
    env.daemon.cycle().unwrap();
    let again = env.last_to("p1@example.org", "notice").unwrap();
    assert_eq!(again.mail.body, mailed.mail.body, "the text as mailed");
    let after = attachments(&again);
    let ics = format!("{}-turn-2.ics", c.game);
    let expected: Vec<_> = before.iter().filter(|(n, _)| *n != ics).collect();
    assert_eq!(
        after.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        expected.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "the same attachments but the passed deadline's calendar file"
    );
    for ((name, new), (_, old)) in after.iter().zip(&expected) {
        if name.ends_with(".json") {
            let strip = |b: &[u8]| {
                let mut v: serde_json::Value = serde_json::from_slice(b).unwrap();
                let o = v.as_object_mut().unwrap();
                let deadline = o.remove("next_deadline").unwrap();
                // The report's text, with its deadline line, is the body.
                o.remove("text").unwrap();
                if let Some(view) = o.get_mut("view").and_then(|v| v.as_object_mut()) {
                    view.remove("deadline");
                }
                (v, deadline.is_null())
            };
            let (new, new_has_none) = strip(new);
            let (old, old_has_none) = strip(old);
            assert_eq!(new, old, "{name}: the same but its deadline");
            assert_eq!((new_has_none, old_has_none), (true, false), "{name}");
        } else {
            assert_eq!(new, old, "{name} drawn again byte for byte");
        }
    }
}

#[test]
fn resend_after_retention_eds() {
    resend_after_retention(&EDS);
}

#[test]
fn resend_after_retention_scrambled() {
    resend_after_retention(&SCN);
}

#[test]
fn keep_sent_mail_turns_zero_keeps_every_mail() {
    let mut env = env_for(&SCN, "");
    env.daemon.config.keep_sent_mail_turns = 0;
    for _ in 0..3 {
        env.daemon.resolve(SCN.game).unwrap();
        env.daemon.cycle().unwrap();
    }
    let reports = reports_of(&env, "p1@example.org");
    assert_eq!(reports.len(), 4, "setup and three turns");
    assert!(reports
        .iter()
        .all(|r| r.pruned_at.is_none() && !r.mail.raw.is_empty()));
    // The default keeps three turns: the setup's and turn 1's go next.
    env.daemon.config.keep_sent_mail_turns = 3;
    env.daemon.resolve(SCN.game).unwrap();
    env.daemon.cycle().unwrap();
    let pruned: Vec<_> = reports_of(&env, "p1@example.org")
        .into_iter()
        .filter(|r| r.pruned_at.is_some())
        .filter_map(|r| r.mail.turn)
        .collect();
    assert_eq!(pruned, vec![0, 1]);
}

// ------------------------------------------------- deadline notices

fn deadline_notice_ics_player_zone(c: &Case, game_zone_line: &str, tokyo_line: &str) {
    let mut env = env_for(c, "");
    send(&env, c, "p1", "TIMEZONE Asia/Tokyo");
    env.daemon.cycle().unwrap();
    env.daemon.extend(c.game, Duration::days(1)).unwrap();
    let deadline = games::require_game(env.daemon.store.conn(), c.game)
        .unwrap()
        .deadline
        .unwrap();
    let stamp = chrono::DateTime::from_timestamp(deadline, 0)
        .unwrap()
        .format("DTSTART:%Y%m%dT%H%M%SZ")
        .to_string();
    let ics = format!("{}-turn-1.ics", c.game);
    for (who, line) in [("p1", tokyo_line), ("p2", game_zone_line)] {
        let n = env
            .last_to(&format!("{who}@example.org"), "notice")
            .unwrap();
        assert!(n.mail.body.contains(line), "{who}: {}", n.mail.body);
        let cal = attachments(&n)
            .into_iter()
            .find(|(name, _)| *name == ics)
            .unwrap_or_else(|| panic!("{who}: no {ics}"));
        let cal = String::from_utf8(cal.1).unwrap();
        assert!(cal.contains(&stamp), "{who}: {cal}");
    }
    // Pause: no deadline, no calendar.
    env.daemon.pause(c.game).unwrap();
    let n = env.last_to("p1@example.org", "notice").unwrap();
    assert!(attachments(&n).is_empty(), "{}", n.mail.body);
}

#[test]
fn deadline_notice_ics_player_zone_eds() {
    // t0 + 7 days + 1 day, in UTC (the game's zone) and in Tokyo.
    deadline_notice_ics_player_zone(
        &EDS,
        "Abgabetermin: 2026-12-09 12:00 (UTC)",
        "Abgabetermin: 2026-12-09 21:00 (Asia/Tokyo)",
    );
}

#[test]
fn deadline_notice_ics_player_zone_scrambled() {
    deadline_notice_ics_player_zone(
        &SCN,
        "Date limite : 2026-12-09 12:00 (UTC)",
        "Date limite : 2026-12-09 21:00 (Asia/Tokyo)",
    );
}

// ------------------------------------------------- the Besitztümerblatt's ZAT

/// Issue 17 item 9: the EDS Besitztümerblatt prints the real
/// Zugabgabetermin (no longer "siehe Begleitschreiben"), in the reader's
/// own TIMEZONE, agreeing with the deadline line of the mail around it and
/// with the JSON view.
#[test]
fn issue17_9_eds_besitztuemerblatt_real_deadline() {
    let c = &EDS;
    let mut env = env_for(c, "");
    let first_deadline = games::require_game(env.daemon.store.conn(), c.game)
        .unwrap()
        .deadline
        .unwrap();
    let t0 = chrono::DateTime::from_timestamp(first_deadline, 0).unwrap();
    assert_eq!(t0.to_rfc3339(), "2026-12-08T12:00:00+00:00");
    // Turn 0: the game's zone (UTC), nobody has chosen one yet.
    let first = &reports_of(&env, "p1@example.org")[0].mail.body;
    assert!(
        first.contains("Zugabgabetermin: Di., 08.12.2026, 12:00 Uhr (UTC)"),
        "{first}"
    );
    assert!(!first.contains("siehe Begleitschreiben"), "{first}");
    send(&env, c, "p1", "TIMEZONE Asia/Tokyo");
    env.daemon.cycle().unwrap();
    env.daemon.resolve(c.game).unwrap();
    assert_eq!(turn_of(&env, c.game), 1);
    let next = games::require_game(env.daemon.store.conn(), c.game)
        .unwrap()
        .deadline
        .unwrap();
    // Resolved before its deadline (the fixed clock): the next one is the
    // same slot, 2026-12-08 12:00 UTC.
    assert_eq!(next, first_deadline);
    let tokyo = reports_of(&env, "p1@example.org").pop().unwrap();
    let body = &tokyo.mail.body;
    assert!(
        body.contains("Zugabgabetermin: Di., 08.12.2026, 21:00 Uhr (Asia/Tokyo)"),
        "{body}"
    );
    // The mail's own deadline line says the same instant.
    assert!(body.contains("2026-12-08 21:00 (Asia/Tokyo)"), "{body}");
    assert!(!body.contains("siehe Begleitschreiben"), "{body}");
    let utc = reports_of(&env, "p2@example.org").pop().unwrap();
    assert!(
        utc.mail
            .body
            .contains("Zugabgabetermin: Di., 08.12.2026, 12:00 Uhr (UTC)"),
        "{}",
        utc.mail.body
    );
    // The JSON report's view carries the same deadline as data.
    let json = attachments(&tokyo)
        .into_iter()
        .find(|(n, _)| n.ends_with(".json"))
        .expect("a JSON report");
    let json: serde_json::Value = serde_json::from_slice(&json.1).unwrap();
    let d = &json["view"]["deadline"];
    assert_eq!(d["zone"], "Asia/Tokyo", "{json}");
    assert_eq!(d["utc"], next, "{json}");
    assert_eq!((d["day"].as_u64(), d["hour"].as_u64()), (Some(8), Some(21)));
    // Paused: no deadline is known, the sheet keeps the old line.
    env.daemon.pause(c.game).unwrap();
    env.daemon.resolve(c.game).unwrap();
    let paused = reports_of(&env, "p1@example.org").pop().unwrap();
    assert!(
        paused
            .mail
            .body
            .contains("Zugabgabetermin: siehe Begleitschreiben der Spielleitung"),
        "{}",
        paused.mail.body
    );
}

// ------------------------------------------------- first report after a position

/// The report each player of a game started from a position is mailed at
/// creation: the position is game `c` after one resolved turn, exported.
fn first_report_after_position(c: &Case) -> String {
    first_report_after_position_env(c).2
}

/// The daemon, the copy's id and p2's first report of a game started from
/// the position after turn 1 of `c`.
fn first_report_after_position_env(c: &Case) -> (Env, String, String) {
    let mut env = env_for(c, "");
    env.daemon.resolve(c.game).unwrap();
    let pos = env.daemon.export_position(c.game, None).unwrap();
    std::fs::write(env.dir.path().join("pos.toml"), &pos).unwrap();
    let copy = format!("{}-pos", c.game);
    let rules = c
        .rules
        .lines()
        .filter(|l| !l.starts_with("map"))
        .collect::<Vec<_>>()
        .join("\n");
    let toml = three_player_toml(
        &copy,
        c.ruleset,
        &format!("{rules}\nposition_file = \"pos.toml\""),
        "",
    );
    env.daemon.create_game(&toml, env.dir.path()).unwrap();
    assert_eq!(turn_of(&env, &copy), 1, "the position is after turn 1");
    let first = env
        .outbox()
        .into_iter()
        .find(|r| {
            r.mail.recipient == "p2@example.org"
                && r.mail.kind == "report"
                && r.mail.game_id.as_deref() == Some(copy.as_str())
        })
        .expect("a first report");
    (env, copy, first.mail.body)
}

#[test]
fn issue17_9_first_report_after_position_eds() {
    let body = first_report_after_position(&EDS);
    // No Monatsbericht of a month this game never evaluated, no "no
    // orders received" line; the sheet itself is there.
    assert!(!body.contains("MONATSBERICHT"), "{body}");
    assert!(!body.contains("Auswertung von"), "{body}");
    assert!(!body.contains("keine Befehle"), "{body}");
    assert!(body.contains("BESITZTÜMERBLATT"), "{body}");
    assert!(body.contains("HERRSCHERLISTE"), "{body}");
}

/// The same first report asked again by RESEND is written again from the
/// position's state: it claims no evaluation either.
#[test]
fn issue17_9_first_report_after_position_resent_eds() {
    let (mut env, copy, _) = first_report_after_position_env(&EDS);
    env.drop_mail(&mail(
        "p2@example.org",
        "orders",
        &block(EDS.ruleset, &copy, "p2", "RESEND"),
    ));
    env.daemon.cycle().unwrap();
    let again = env
        .outbox()
        .into_iter()
        .rev()
        .find(|r| {
            r.mail.recipient == "p2@example.org"
                && r.mail.kind == "report"
                && r.mail.game_id.as_deref() == Some(copy.as_str())
        })
        .unwrap();
    let body = again.mail.body;
    assert!(body.contains("BESITZTÜMERBLATT"), "{body}");
    assert!(!body.contains("MONATSBERICHT"), "{body}");
    assert!(!body.contains("Auswertung von"), "{body}");
}

#[test]
fn issue17_9_first_report_after_position_scrambled() {
    let body = first_report_after_position(&SCN);
    assert!(!body.contains("aucun ordre"), "{body}");
}
