//! Issue 10, the player services that change something — `TIMEZONE`,
//! `PRESS`, `ABSENCE` — through the mail loop with real rulesets
//! (Nébulight in French, EDS in German, Scrambled Nations and WWK in
//! French) and the English default: drop .eml files into the Maildir, run
//! the serve cycle, read what the outbox and the archive hold.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_store::OutboxRow;
use chrono::{DateTime, TimeDelta, Utc};
use common::example_game::{game_with, Game};
use common::mail;
use mail_parser::{MessageParser, MimeHeaders};

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

impl Game {
    fn to(&self, to: &str, kind: &str) -> Vec<OutboxRow> {
        self.outbox()
            .into_iter()
            .filter(|r| r.mail.recipient == to && r.mail.kind == kind)
            .collect()
    }

    /// The raw mail, so a test can deliver the very same bytes twice.
    fn send_raw(&mut self, raw: &[u8]) {
        self.daemon.deliver(raw).unwrap();
        self.daemon.cycle().unwrap();
    }

    /// The answer to a mail of commands (the "your commands" reply).
    fn ask(&mut self, from: &str, body: &str) -> String {
        let before = self.to(from, "confirm").len();
        self.send(from, body);
        let after = self.to(from, "confirm");
        assert_eq!(after.len(), before + 1, "one answer to the commands");
        after.last().unwrap().mail.body.clone()
    }

    fn deadline(&self) -> DateTime<Utc> {
        let t: i64 = self
            .daemon
            .store
            .conn()
            .query_row(
                "SELECT deadline FROM games WHERE id = ?1",
                [&self.id],
                |r| r.get(0),
            )
            .unwrap();
        DateTime::from_timestamp(t, 0).unwrap()
    }

    fn zone_of(&self, player: &str) -> Option<String> {
        arbitre_store::settings::get(self.daemon.store.conn(), &self.id, player)
            .unwrap()
            .timezone
    }

    fn count(&self, sql: &str) -> i64 {
        self.daemon
            .store
            .conn()
            .query_row(sql, [], |r| r.get(0))
            .unwrap()
    }
}

// ---------------------------------------------------------------- TIMEZONE

/// Nébulight (Friday 20:00 Europe/Paris, reminders 24 h and 2 h): a player
/// in Montreal sees every deadline in Montreal time — the FUSEAU answer,
/// ÉTAT, the order confirmation, the reminder and the report's deadline
/// line — while the other player keeps Paris; FUSEAU DÉFAUT goes back.
#[test]
fn timezone_shown_everywhere_nebulight_in_french() {
    let mut g = game_with("nebulight", None, "");
    let id = g.id.clone();
    let block =
        |lines: &str| format!("PARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1\n{lines}\nFIN\n");
    assert_eq!(g.deadline(), at("2026-12-04T19:00:00Z"));
    let a = g.ask(
        "maxtor@example.org",
        &block("FUSEAU america/montreal\nÉTAT"),
    );
    assert!(
        a.contains(
            "FUSEAU : vos dates limites sont désormais affichées dans le fuseau America/Montreal."
        ),
        "{a}"
    );
    assert!(
        a.contains("Date limite : 2026-12-04 14:00 (America/Montreal)"),
        "the ÉTAT after FUSEAU in the same mail: {a}"
    );
    assert!(!a.contains("Europe/Paris"), "{a}");
    assert_eq!(g.zone_of("maxtor").as_deref(), Some("America/Montreal"));
    // The order confirmation.
    g.send("maxtor@example.org", &block("M_200 C 10 VC F_19"));
    let conf = g.last_to("maxtor@example.org", "confirm").mail.body;
    assert!(
        conf.contains("Date limite : 2026-12-04 14:00 (America/Montreal)"),
        "{conf}"
    );
    // Reminders: each player in their own zone.
    g.clock.set(at("2026-12-03T20:00:00Z"));
    g.daemon.cycle().unwrap();
    let rem = g.last_to("miria@example.org", "reminder").mail.body;
    assert!(rem.contains("2026-12-04 20:00 (Europe/Paris)"), "{rem}");
    g.send(
        "miria@example.org",
        &format!("PARTIE {id} JOUEUR miria MOT-DE-PASSE change-me-2\nFUSEAU Asia/Tokyo\nFIN\n"),
    );
    g.clock.set(at("2026-12-04T17:30:00Z"));
    g.daemon.cycle().unwrap();
    let rem = g.last_to("miria@example.org", "reminder").mail.body;
    assert!(rem.contains("2026-12-05 04:00 (Asia/Tokyo)"), "{rem}");
    // The report's deadline line: the next Friday, 20:00 in Paris.
    g.clock.set(at("2026-12-04T19:00:00Z"));
    g.daemon.cycle().unwrap();
    let report = g.last_to("maxtor@example.org", "report").mail.body;
    assert!(
        report.contains("Date limite : 2026-12-11 14:00 (America/Montreal)"),
        "{report}"
    );
    let report = g.last_to("miria@example.org", "report").mail.body;
    assert!(
        report.contains("Date limite : 2026-12-12 04:00 (Asia/Tokyo)"),
        "{report}"
    );
    // The JSON report's next deadline in the player's zone; the .ics in UTC.
    let raw = g.last_to("maxtor@example.org", "report").mail.raw;
    let parsed = MessageParser::default().parse(&raw[..]).unwrap();
    let att = |name: &str| {
        parsed
            .attachments()
            .find(|a| a.attachment_name() == Some(name))
            .map(|a| a.contents().to_vec())
            .unwrap()
    };
    let json: serde_json::Value = serde_json::from_slice(&att("neb-001-turn-1.json")).unwrap();
    assert_eq!(json["next_deadline"]["zone"], "America/Montreal");
    assert_eq!(json["next_deadline"]["utc"], "2026-12-11T19:00:00Z");
    let ics = String::from_utf8(att("neb-001-turn-2.ics")).unwrap();
    assert!(ics.contains("DTSTART:20261211T190000Z"), "{ics}");
    // HISTORY dates in the player's zone too.
    let a = g.ask("maxtor@example.org", &block("HISTORIQUE"));
    assert!(
        a.contains("Tour   1  résolu le 2026-12-04 14:00 (America/Montreal)"),
        "{a}"
    );
    // Back to the game's zone.
    let a = g.ask("maxtor@example.org", &block("FUSEAU DÉFAUT\nETAT"));
    assert!(a.contains("fuseau de la partie, Europe/Paris"), "{a}");
    assert!(
        a.contains("Date limite : 2026-12-11 20:00 (Europe/Paris)"),
        "{a}"
    );
    assert_eq!(g.zone_of("maxtor"), None);
    // A bad zone changes nothing and names the line.
    let a = g.ask(
        "miria@example.org",
        &format!("PARTIE {id} JOUEUR miria MOT-DE-PASSE change-me-2\nFUSEAU CET\nFIN\n"),
    );
    assert!(
        a.contains("Ligne 1 : FUSEAU CET") || a.contains("FUSEAU CET\n  -> fuseau horaire inconnu"),
        "{a}"
    );
    assert_eq!(g.zone_of("miria").as_deref(), Some("Asia/Tokyo"));
}

/// EDS (interval 7 d, the game's zone UTC) in German: ZEITZONE and STAND,
/// the zone kept across daylight saving (Europe/Berlin in December: +1).
#[test]
fn timezone_eds_in_german() {
    let mut g = game_with("eds", None, "");
    let id = g.id.clone();
    let d = g.deadline();
    let berlin = (d + TimeDelta::hours(1))
        .format("%Y-%m-%d %H:%M")
        .to_string();
    let a = g.ask(
        "bert@example.org",
        &format!(
            "SPIEL {id} SPIELER p2 PASSWORT change-me-2\nZEITZONE Europe/Berlin\nSTAND\nENDE\n"
        ),
    );
    assert!(
        a.contains(
            "ZEITZONE: Deine Abgabetermine werden jetzt in der Zeitzone Europe/Berlin angezeigt."
        ),
        "{a}"
    );
    assert!(
        a.contains(&format!("Abgabetermin: {berlin} (Europe/Berlin)")),
        "{a}"
    );
    assert_eq!(g.zone_of("p2").as_deref(), Some("Europe/Berlin"));
    // The game's own zone is the default: nothing stored.
    let a = g.ask(
        "bert@example.org",
        &format!("SPIEL {id} SPIELER p2 PASSWORT change-me-2\nZEITZONE UTC\nENDE\n"),
    );
    assert!(
        a.contains("in der Zeitzone des Spiels angezeigt, UTC"),
        "{a}"
    );
    assert_eq!(g.zone_of("p2"), None);
    // A reminder to a player who chose a zone.
    g.send(
        "carla@example.org",
        &format!("SPIEL {id} SPIELER p3 PASSWORT change-me-3\nZEITZONE America/New_York\nENDE\n"),
    );
    g.clock.set(d - TimeDelta::hours(23));
    g.daemon.cycle().unwrap();
    let rem = g.last_to("carla@example.org", "reminder").mail.body;
    let ny = (d - TimeDelta::hours(5))
        .format("%Y-%m-%d %H:%M")
        .to_string();
    assert!(rem.contains(&format!("{ny} (America/New_York)")), "{rem}");
}

#[test]
fn timezone_in_english() {
    let mut g = game_with("eds", Some("en"), "");
    let id = g.id.clone();
    let a = g.ask(
        "anna@example.org",
        &format!("GAME {id} PLAYER p1 PASSWORD change-me-1\nTIMEZONE Asia/Kolkata\nSTATUS\nEND\n"),
    );
    assert!(
        a.contains("TIMEZONE: your deadlines are now shown in Asia/Kolkata."),
        "{a}"
    );
    assert!(
        a.contains("(Asia/Kolkata)") && a.contains("Deadline: "),
        "{a}"
    );
    let a = g.ask(
        "anna@example.org",
        &format!("GAME {id} PLAYER p1 PASSWORD change-me-1\nTIMEZONE default\nEND\n"),
    );
    assert!(
        a.contains("TIMEZONE: your deadlines are shown in the game's zone, UTC."),
        "{a}"
    );
    assert_eq!(g.zone_of("p1"), None);
}

// ------------------------------------------------------------------- PRESS

fn press_rows(g: &Game) -> Vec<(String, String, bool, String)> {
    arbitre_store::press::all(g.daemon.store.conn(), &g.id)
        .unwrap()
        .into_iter()
        .map(|r| (r.sender, r.recipients, r.anonymous, r.body))
        .collect()
}

/// Nébulight in French, open press: signed press to one player, relayed
/// once even when the same mail arrives twice; anonymous press, press to
/// oneself, to an unknown player and empty press are refused.
#[test]
fn press_open_nebulight_in_french() {
    // Without a policy: no press.
    let mut g = game_with("nebulight", None, "");
    let id = g.id.clone();
    let block =
        |lines: &str| format!("PARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1\n{lines}\nFIN\n");
    let a = g.ask("maxtor@example.org", &block("PRESSE À miria\nBonjour"));
    assert!(
        a.contains("Cette partie n'a pas de messagerie : rien n'a été transmis."),
        "{a}"
    );
    assert!(g.to("miria@example.org", "notice").is_empty());
    assert!(press_rows(&g).is_empty());

    let mut g = game_with(
        "nebulight",
        None,
        "\n[services]\npress = \"open\"\nobservers = [\"kibitz@example.org\"]\n",
    );
    let raw = mail(
        "maxtor@example.org",
        "presse",
        &block("PRESSE À miria\nAlliance contre les pirates ?\nM_200 C 10 VC F_19 reste du texte"),
    );
    g.send_raw(&raw);
    let relayed = g.to("miria@example.org", "notice");
    assert_eq!(relayed.len(), 1);
    let m = &relayed[0].mail;
    assert!(
        m.subject.contains("[neb-001] message de Maxtor (maxtor)"),
        "{}",
        m.subject
    );
    assert!(m.body.contains("Message de Maxtor (maxtor) pour vous, transmis par l'arbitre de la partie neb-001 (tour 1) :"), "{}", m.body);
    assert!(
        m.body
            .contains("Alliance contre les pirates ?\nM_200 C 10 VC F_19 reste du texte"),
        "{}",
        m.body
    );
    assert!(
        m.body.contains("PRESSE À maxtor"),
        "how to answer: {}",
        m.body
    );
    assert!(
        g.to("kibitz@example.org", "notice").is_empty(),
        "observers never get private press"
    );
    let a = g.last_to("maxtor@example.org", "confirm").mail.body;
    assert!(a.contains("Votre message a été transmis à : miria"), "{a}");
    assert_eq!(
        g.count("SELECT count(*) FROM orders"),
        0,
        "the press text is never orders"
    );
    let sha: String = g
        .daemon
        .store
        .conn()
        .query_row("SELECT mail_sha256 FROM press", [], |r| r.get(0))
        .unwrap();
    let journal: i64 = g
        .daemon
        .store
        .conn()
        .query_row(
            "SELECT count(*) FROM mail_journal WHERE sha256 = ?1",
            [&sha],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(journal, 1, "the archive row names the mail");
    // Exactly once: the very same mail again.
    g.send_raw(&raw);
    assert_eq!(g.to("miria@example.org", "notice").len(), 1);
    assert_eq!(press_rows(&g).len(), 1);
    // Press to ALL goes to the observers too.
    g.send(
        "miria@example.org",
        &format!(
            "PARTIE {id} JOUEUR miria MOT-DE-PASSE change-me-2\nPRESSE A TOUS\nD'accord.\nFIN\n"
        ),
    );
    assert_eq!(g.to("maxtor@example.org", "notice").len(), 1);
    let obs = g.last_to("kibitz@example.org", "notice").mail.body;
    assert!(
        obs.contains("Message de Miria (miria) à tous les joueurs") && obs.contains("D'accord."),
        "{obs}"
    );
    let a = g.last_to("miria@example.org", "confirm").mail.body;
    assert!(
        a.contains("transmis à : maxtor") && a.contains("aussi été envoyé aux 1 observateur(s)"),
        "{a}"
    );
    // Refusals.
    let a = g.ask(
        "maxtor@example.org",
        &block("PRESSE À miria ANONYME\nDevine qui c'est."),
    );
    assert!(
        a.contains("Cette partie n'accepte que des messages signés : rien n'a été transmis."),
        "{a}"
    );
    let a = g.ask(
        "maxtor@example.org",
        &block("PRESSE À maxtor\nNote pour moi."),
    );
    assert!(
        a.contains("vous ne pouvez pas vous écrire à vous-même"),
        "{a}"
    );
    let a = g.ask(
        "maxtor@example.org",
        &block("PRESSE À zorglub\nQui es-tu ?"),
    );
    assert!(
        a.contains("Il n'y a pas de joueur « zorglub » : rien n'a été transmis."),
        "{a}"
    );
    let a = g.ask("maxtor@example.org", &block("PRESSE À miria\n\n"));
    assert!(a.contains("le message est vide"), "{a}");
    assert_eq!(
        g.to("miria@example.org", "notice").len(),
        1,
        "nothing relayed by the refusals"
    );
    assert_eq!(
        press_rows(&g),
        vec![
            (
                "maxtor".to_string(),
                "miria".to_string(),
                false,
                "Alliance contre les pirates ?\nM_200 C 10 VC F_19 reste du texte".to_string()
            ),
            (
                "miria".to_string(),
                "ALL".to_string(),
                false,
                "D'accord.".to_string()
            ),
        ]
    );
}

/// EDS in German, grey press: anonymous press to all reaches the two other
/// players and the observer without the sender's name; the archive keeps
/// the true sender. A recipient may be named by player name too.
#[test]
fn press_grey_eds_in_german() {
    let mut g = game_with(
        "eds",
        None,
        "\n[services]\npress = \"grey\"\nobservers = [\"kibitz@example.org\"]\n",
    );
    let id = g.id.clone();
    let a = g.ask("anna@example.org", &format!("SPIEL {id} SPIELER p1 PASSWORT change-me-1\nPRESSE AN ALLE ANONYM\nBert plant einen Angriff.\nENDE\n"));
    assert!(
        a.contains("Deine Nachricht wurde weitergeleitet an: p2, p3"),
        "{a}"
    );
    assert!(
        g.to("anna@example.org", "notice").is_empty(),
        "not to the sender"
    );
    for to in [
        "bert@example.org",
        "carla@example.org",
        "kibitz@example.org",
    ] {
        let m = g.last_to(to, "notice").mail;
        assert!(
            m.subject.contains("Nachricht von einem anonymen Spieler"),
            "{}",
            m.subject
        );
        assert!(m.body.contains("Bert plant einen Angriff."), "{}", m.body);
        assert!(
            !m.body.contains("Anna") && !m.body.contains("p1"),
            "anonymous: {}",
            m.body
        );
    }
    assert!(g
        .last_to("bert@example.org", "notice")
        .mail
        .body
        .contains("Der Absender ist anonym"));
    assert_eq!(
        press_rows(&g),
        vec![(
            "p1".to_string(),
            "ALL".to_string(),
            true,
            "Bert plant einen Angriff.".to_string()
        )]
    );
    // Signed private press, the recipient named by player name.
    let a = g.ask(
        "bert@example.org",
        &format!(
            "SPIEL {id} SPIELER p2 PASSWORT change-me-2\nPRESSE AN carla\nStimmt nicht!\nENDE\n"
        ),
    );
    assert!(a.contains("weitergeleitet an: p3"), "{a}");
    let m = g.last_to("carla@example.org", "notice").mail;
    assert!(
        m.subject.contains("Nachricht von Bert (p2)") && m.body.contains("PRESSE AN p2"),
        "{}",
        m.body
    );
    assert_eq!(
        g.to("kibitz@example.org", "notice").len(),
        1,
        "private press is not for observers"
    );
}

#[test]
fn press_in_english_and_scrambled_in_french() {
    let mut g = game_with("eds", Some("en"), "\n[services]\npress = \"grey\"\n");
    let id = g.id.clone();
    let a = g.ask("anna@example.org", &format!("GAME {id} PLAYER p1 PASSWORD change-me-1\nPRESS TO p3 ANONYMOUS\nWatch your back.\nEND\n"));
    assert!(a.contains("Your press was relayed to: p3"), "{a}");
    let m = g.last_to("carla@example.org", "notice").mail;
    assert!(
        m.subject.contains("press from an anonymous player") && m.body.contains("Watch your back."),
        "{}",
        m.body
    );
    let a = g.ask(
        "anna@example.org",
        &format!("GAME {id} PLAYER p1 PASSWORD change-me-1\nPRESS TO p1\nme\nEND\n"),
    );
    assert!(a.contains("you cannot send press to yourself"), "{a}");
    // An ejected seat neither sends press nor receives press to ALL.
    arbitre_store::settings::set_ejected(g.daemon.store.conn(), &id, "p3", Some(1)).unwrap();
    let a = g.ask(
        "anna@example.org",
        &format!("GAME {id} PLAYER p1 PASSWORD change-me-1\nPRESS TO ALL\nHello all.\nEND\n"),
    );
    assert!(a.contains("Your press was relayed to: p2"), "{a}");
    assert_eq!(g.to("carla@example.org", "notice").len(), 1);
    let a = g.ask(
        "carla@example.org",
        &format!("GAME {id} PLAYER p3 PASSWORD change-me-3\nPRESS TO p1\nLet me back.\nEND\n"),
    );
    assert!(a.contains("your seat is no longer in the game"), "{a}");
    assert_eq!(
        arbitre_store::press::all(g.daemon.store.conn(), &id)
            .unwrap()
            .len(),
        2
    );

    let mut g = game_with("scrambled", None, "\n[services]\npress = \"open\"\n");
    let id = g.id.clone();
    // The same mail delivered twice before one cycle (one batch): relayed once.
    let raw = mail("carla@example.org", "presse", &format!("PARTIE {id} JOUEUR p3 MOT-DE-PASSE change-me-3\nPRESSE À TOUS\nLa Normandie arme des flottes.\nFIN\n"));
    g.daemon.deliver(&raw).unwrap();
    g.send_raw(&raw);
    let a = g.last_to("carla@example.org", "confirm").mail.body;
    assert!(a.contains("transmis à : p1, p2"), "{a}");
    assert_eq!(g.to("carla@example.org", "confirm").len(), 1);
    for to in ["anna@example.org", "bert@example.org"] {
        let got = g.to(to, "notice");
        assert_eq!(got.len(), 1, "{to}");
        assert!(got[0].mail.body.contains("La Normandie arme des flottes."));
    }
    assert_eq!(
        arbitre_store::press::all(g.daemon.store.conn(), &id)
            .unwrap()
            .len(),
        1
    );
}

// ----------------------------------------------------------------- ABSENCE

const LIMITS: &str = "\n[services]\nabsence_max_days = 14\nabsence_max_per_game = 2\n";

/// Nébulight (Friday 20:00 Paris): an absence covering the deadline's day
/// moves it to the day after the absence at 20:00, every player is told in
/// their zone, STATUS shows it; the same absence never moves a later
/// deadline; the limits are enforced.
#[test]
fn absence_moves_the_deadline_nebulight_in_french() {
    // Not allowed without limits.
    let mut g = game_with("nebulight", None, "");
    let id = g.id.clone();
    let block =
        |lines: &str| format!("PARTIE {id} JOUEUR miria MOT-DE-PASSE change-me-2\n{lines}\nFIN\n");
    let a = g.ask("miria@example.org", &block("ABSENCE 2026-12-03 2026-12-05"));
    assert!(a.contains("Cette partie n'accepte pas d'absences."), "{a}");
    assert_eq!(g.count("SELECT count(*) FROM absences"), 0);

    let mut g = game_with("nebulight", None, LIMITS);
    g.send(
        "maxtor@example.org",
        &format!(
            "PARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1\nFUSEAU America/Montreal\nFIN\n"
        ),
    );
    assert_eq!(g.deadline(), at("2026-12-04T19:00:00Z"));
    let a = g.ask(
        "miria@example.org",
        &block("ABSENCE 2026-12-03 2026-12-14\nETAT"),
    );
    assert!(
        a.contains("Absence enregistrée du 2026-12-03 au 2026-12-14."),
        "{a}"
    );
    assert!(
        a.contains("La date limite est reportée au 2026-12-15 20:00 (Europe/Paris)."),
        "{a}"
    );
    assert!(
        a.contains("Date limite : 2026-12-15 20:00 (Europe/Paris)"),
        "ÉTAT after the absence: {a}"
    );
    assert!(
        a.contains("Absences déclarées : miria 2026-12-03..2026-12-14"),
        "{a}"
    );
    assert_eq!(g.deadline(), at("2026-12-15T19:00:00Z"));
    // Everyone is told, in their own zone, with the moved .ics.
    let n = g.last_to("maxtor@example.org", "notice").mail;
    assert!(
        n.subject.contains("date limite du tour 1 reportée"),
        "{}",
        n.subject
    );
    assert!(
        n.body
            .contains("est reportée au 2026-12-15 14:00 (America/Montreal), car miria est absent"),
        "{}",
        n.body
    );
    assert!(String::from_utf8_lossy(&n.raw).contains("neb-001-turn-1.ics"));
    assert!(g
        .last_to("miria@example.org", "notice")
        .mail
        .body
        .contains("2026-12-15 20:00 (Europe/Paris)"));
    assert!(g
        .last_to("gm@example.org", "notice")
        .mail
        .body
        .contains("car miria est absent"));
    // The turn resolves early during the absence (as when every player is
    // ready): the next deadline, Friday 2026-12-04, falls in the absence
    // but is not moved again — one absence, one move.
    g.clock.set(at("2026-12-02T10:00:00Z"));
    g.daemon.resolve(&id).unwrap();
    assert_eq!(g.deadline(), at("2026-12-04T19:00:00Z"), "once per absence");
    assert!(g
        .last_to("miria@example.org", "report")
        .mail
        .body
        .contains("Date limite : 2026-12-04 20:00 (Europe/Paris)"));
    // Limits: overlapping, too long, in the past, too many.
    let a = g.ask("miria@example.org", &block("ABSENCE 2026-12-10 2026-12-20"));
    assert!(
        a.contains("elle chevauche votre absence du 2026-12-03 au 2026-12-14"),
        "{a}"
    );
    let a = g.ask("miria@example.org", &block("ABSENCE 2027-01-01 2027-01-31"));
    assert!(
        a.contains("Une absence dure au plus 14 jour(s) dans cette partie."),
        "{a}"
    );
    let a = g.ask("miria@example.org", &block("ABSENCE 2026-11-01 2026-11-02"));
    assert!(a.contains("le 2026-11-02 est déjà passé"), "{a}");
    let a = g.ask("miria@example.org", &block("ABSENCE 2027-01-01 2027-01-02"));
    assert!(
        a.contains("Absence enregistrée du 2027-01-01 au 2027-01-02."),
        "{a}"
    );
    let a = g.ask("miria@example.org", &block("ABSENCE 2027-02-01 2027-02-02"));
    assert!(
        a.contains("Vous avez déjà déclaré les 2 absence(s) permises dans cette partie."),
        "{a}"
    );
    assert_eq!(g.count("SELECT count(*) FROM absences"), 2);
}

/// Issue 16 item 1: an ABSENCE is decided as a value (its row under the id
/// it will take, the deadline it moves, the mark that it moved one, the
/// notices) and nothing is written until `request::apply`; the same
/// decision written twice leaves one absence, one move, one mark.
#[test]
fn absence_decided_then_written_twice_is_once() {
    use arbitre::request::{self, Ctx, Request, ServiceMail, Write};
    use arbitre::services::command::Command;
    let g = game_with("nebulight", None, LIMITS);
    let day = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
    let loaded = arbitre::loaded::Loaded::new();
    let ctx = Ctx {
        tx: g.daemon.store.conn(),
        registry: &g.daemon.registry,
        loaded: &loaded,
        config: &g.daemon.config,
        now: g.daemon.now(),
        tag: "0123456789abcdef",
    };
    let req = Request::Service {
        game: g.id.clone(),
        player: "miria".into(),
        command: Command::Absence {
            from: day("2026-12-03"),
            to: day("2026-12-14"),
        },
        mail: ServiceMail {
            reply_to: "miria@example.org".into(),
            sha: "0123456789abcdef0123".into(),
            press_text: None,
        },
    };
    let first = request::handle(&ctx, &req).unwrap();
    assert_eq!(
        g.count("SELECT count(*) FROM absences"),
        0,
        "decided, not written"
    );
    assert_eq!(g.deadline(), at("2026-12-04T19:00:00Z"));
    assert!(g.to("maxtor@example.org", "notice").is_empty());
    let again = request::handle(&ctx, &req).unwrap();
    assert_eq!(first.writes, again.writes, "the same decision twice");
    let Some(Write::Absence(row)) = first.writes.first().cloned() else {
        panic!("{:?}", first.writes);
    };
    assert!(first.writes.iter().any(|w| matches!(
        w,
        Write::AbsenceUsed { absence, .. } if *absence == row.id
    )));
    request::apply(&ctx, first).unwrap();
    let mut again = again;
    again.mails.clear();
    request::apply(&ctx, again).unwrap();
    assert_eq!(g.count("SELECT count(*) FROM absences"), 1);
    assert_eq!(
        g.count(&format!(
            "SELECT count(*) FROM reminders WHERE label = 'absence#{}'",
            row.id
        )),
        1
    );
    assert_eq!(g.deadline(), at("2026-12-15T19:00:00Z"));
    assert_eq!(g.to("maxtor@example.org", "notice").len(), 1);
}

/// EDS (interval 7 d, UTC) in German: an absence that does not touch the
/// current deadline moves the next one, computed when the turn resolves;
/// the report's deadline line shows the moved deadline.
#[test]
fn absence_moves_the_next_deadline_at_resolution_eds_in_german() {
    let mut g = game_with("eds", None, LIMITS);
    let id = g.id.clone();
    let d1 = g.deadline();
    let next_day = (d1 + TimeDelta::days(7)).date_naive();
    let from = next_day - TimeDelta::days(1);
    let to = next_day + TimeDelta::days(1);
    let a = g.ask(
        "bert@example.org",
        &format!("SPIEL {id} SPIELER p2 PASSWORT change-me-2\nABWESENHEIT {from} {to}\nENDE\n"),
    );
    assert!(
        a.contains(&format!("Abwesenheit vom {from} bis {to} eingetragen.")),
        "{a}"
    );
    assert!(
        !a.contains("Der Abgabetermin ist auf") && g.deadline() == d1,
        "the current deadline is not in it: {a}"
    );
    g.clock.set(d1);
    g.daemon.cycle().unwrap();
    let moved = (to + TimeDelta::days(1)).and_time(d1.time()).and_utc();
    assert_eq!(g.deadline(), moved);
    let report = g.last_to("anna@example.org", "report").mail.body;
    assert!(
        report.contains(&format!(
            "Abgabetermin: {} (UTC)",
            moved.format("%Y-%m-%d %H:%M")
        )),
        "{report}"
    );
    let n = g.last_to("carla@example.org", "notice").mail;
    assert!(
        n.subject.contains("Abgabetermin von Zug 2 verschoben"),
        "{}",
        n.subject
    );
    assert!(
        n.body
            .contains("weil p2 an dem Tag, auf den er fiel, abwesend ist"),
        "{}",
        n.body
    );
}

/// A blind game (`show_orders_sent = false`) does not tell who is away;
/// English texts.
#[test]
fn absence_in_a_blind_game_in_english() {
    let mut g = game_with(
        "eds",
        Some("en"),
        "\n[services]\nabsence_max_days = 3\nshow_orders_sent = false\n",
    );
    let id = g.id.clone();
    let d = g.deadline().date_naive();
    let a = g.ask(
        "carla@example.org",
        &format!("GAME {id} PLAYER p3 PASSWORD change-me-3\nABSENCE {d} {d}\nEND\n"),
    );
    assert!(
        a.contains(&format!("Absence recorded from {d} to {d}."))
            && a.contains("The deadline has moved to"),
        "{a}"
    );
    let n = g.last_to("anna@example.org", "notice").mail.body;
    assert!(
        n.contains("because a player is away") && !n.contains("p3"),
        "{n}"
    );
    assert!(
        g.last_to("gm@example.org", "notice")
            .mail
            .body
            .contains("because p3 is away"),
        "the GM knows"
    );
    let a = g.ask(
        "carla@example.org",
        &format!("GAME {id} PLAYER p3 PASSWORD change-me-3\nABSENCE 2027-03-01 2027-03-04\nEND\n"),
    );
    assert!(
        a.contains("An absence may last at most 3 day(s) in this game."),
        "{a}"
    );
    // STATUS: a blind game shows a player only their own absences.
    let a = g.ask(
        "carla@example.org",
        &format!("GAME {id} PLAYER p3 PASSWORD change-me-3\nSTATUS\nEND\n"),
    );
    assert!(a.contains(&format!("Absences: p3 {d}..{d}")), "{a}");
    let a = g.ask(
        "anna@example.org",
        &format!("GAME {id} PLAYER p1 PASSWORD change-me-1\nSTATUS\nEND\n"),
    );
    assert!(!a.contains("Absences") && !a.contains("p3"), "{a}");
}

/// WWK (Sunday, Europe/Paris) in French: the moved deadline keeps its
/// local time across the end of daylight saving is not at stake in
/// December, but the local time is kept in the game's zone.
#[test]
fn absence_keeps_the_local_time_wwk() {
    let mut g = game_with("wwk", None, LIMITS);
    let id = g.id.clone();
    let d = g.deadline();
    let local = d.with_timezone(&chrono_tz::Europe::Paris);
    let day = local.date_naive();
    let a = g.ask(
        "anna@example.org",
        &format!("PARTIE {id} JOUEUR p1 MOT-DE-PASSE change-me-1\nABSENCE {day} {day}\nFIN\n"),
    );
    assert!(a.contains("La date limite est reportée au"), "{a}");
    let moved = g.deadline().with_timezone(&chrono_tz::Europe::Paris);
    assert_eq!(moved.date_naive(), day + TimeDelta::days(1));
    assert_eq!(moved.time(), local.time());
    let _ = &g.clock;
}

/// Across the spring daylight-saving change (Europe/Paris, 2027-03-28): a
/// Friday 20:00 deadline moved past an absence lands on Sunday 20:00 local
/// time, one hour earlier in UTC.
#[test]
fn absence_move_keeps_local_time_across_dst_nebulight() {
    let mut g = game_with("nebulight", None, LIMITS);
    let id = g.id.clone();
    g.clock.set(at("2027-03-20T10:00:00Z"));
    arbitre_store::games::set_deadline(
        g.daemon.store.conn(),
        &id,
        Some(at("2027-03-26T19:00:00Z").timestamp()),
    )
    .unwrap();
    let a = g.ask("maxtor@example.org", &format!("PARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1\nABSENCE 2027-03-26 2027-03-27\nFIN\n"));
    assert!(
        a.contains("La date limite est reportée au 2027-03-28 20:00 (Europe/Paris)."),
        "{a}"
    );
    assert_eq!(g.deadline(), at("2027-03-28T18:00:00Z"));
    let n = g.last_to("miria@example.org", "notice").mail.body;
    assert!(
        n.contains("reportée au 2027-03-28 20:00 (Europe/Paris), car maxtor est absent"),
        "{n}"
    );
}

/// An ejected seat (EJECT) is not reminded and not listed as awaited by
/// STATUS (EDS in German).
#[test]
fn ejected_seat_neither_reminded_nor_awaited_eds() {
    let mut g = game_with("eds", None, "");
    let id = g.id.clone();
    arbitre_store::settings::set_ejected(g.daemon.store.conn(), &id, "p3", Some(1)).unwrap();
    let a = g.ask(
        "anna@example.org",
        &format!("SPIEL {id} SPIELER p1 PASSWORT change-me-1\nSTAND\nENDE\n"),
    );
    assert!(
        a.contains("Es fehlen noch: p1, p2") && !a.contains("p3"),
        "{a}"
    );
    let d = g.deadline();
    g.clock.set(d - TimeDelta::hours(23));
    g.daemon.cycle().unwrap();
    let mut to: Vec<String> = g
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "reminder")
        .map(|r| r.mail.recipient)
        .collect();
    to.sort();
    assert_eq!(to, ["anna@example.org", "bert@example.org"]);
}
