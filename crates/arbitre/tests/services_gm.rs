//! Issue 10, the game master's services, through the mail loop with real
//! rulesets: Nébulight in French, Evolution der Sterne in German, and EDS
//! in English for the third language. Mails are dropped into the Maildir,
//! the serve cycle runs, the database and the outbox are read.
//!
//! SET DEADLINE, EJECT, TAKEOVER, PREVIEW/RELEASE, ROLLBACK, the grace
//! period and the change-your-mind delay, and `arbitre status`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::Cli;
use arbitre::services::command::When;
use arbitre::{Clock, Daemon, FixedClock, Registry};
use arbitre_core::PlayerId;
use arbitre_store::{outbox, turns, OutboxRow, OutboxStatus};
use chrono::{DateTime, TimeDelta, Utc};
use clap::Parser;
use common::{config, mail, t0};
use std::path::PathBuf;
use std::sync::Arc;

/// How players of one language write, and the players of its example game.
#[derive(Clone, Copy)]
struct Lang {
    example: &'static str,
    language: Option<&'static str>,
    /// GAME, PLAYER, PASSWORD, END.
    words: [&'static str; 4],
    /// (id, address, password) of each seat.
    seats: &'static [(&'static str, &'static str, &'static str)],
}

const NEB_FR: Lang = Lang {
    example: "nebulight",
    language: None,
    words: ["PARTIE", "JOUEUR", "MOT-DE-PASSE", "FIN"],
    seats: &[
        ("maxtor", "maxtor@example.org", "change-me-1"),
        ("miria", "miria@example.org", "change-me-2"),
    ],
};

const EDS_DE: Lang = Lang {
    example: "eds",
    language: None,
    words: ["SPIEL", "SPIELER", "PASSWORT", "ENDE"],
    seats: &[
        ("p1", "anna@example.org", "change-me-1"),
        ("p2", "bert@example.org", "change-me-2"),
        ("p3", "carla@example.org", "change-me-3"),
    ],
};

const EDS_EN: Lang = Lang {
    language: Some("en"),
    words: ["GAME", "PLAYER", "PASSWORD", "END"],
    ..EDS_DE
};

const GM: &str = "gm@example.org";
const GM_PASSWORD: &str = "maître";

struct Game {
    _dir: tempfile::TempDir,
    clock: Arc<FixedClock>,
    daemon: Daemon,
    id: String,
    lang: Lang,
    /// Makes every GM mail unique (the journal drops a mail seen before).
    sent: usize,
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name)
        .join("game.toml")
}

fn toml_of(lang: Lang, services: &str) -> String {
    let mut text = std::fs::read_to_string(example(lang.example)).unwrap();
    if let Some(l) = lang.language {
        text = text
            .lines()
            .filter(|l| !l.starts_with("language"))
            .collect::<Vec<_>>()
            .join("\n");
        text = format!("language = \"{l}\"\n{text}\n");
    }
    text.push_str(&format!(
        "\n[services]\ngm_password = \"{GM_PASSWORD}\"\n{services}\n"
    ));
    text
}

/// The example game of `lang` with a GM password and `services` appended
/// to its `[services]` table.
fn game(lang: Lang, services: &str) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut daemon = Daemon::open(config(dir.path()), Registry::builtin(), clock.clone()).unwrap();
    let id = daemon
        .create_game(
            &toml_of(lang, services),
            example(lang.example).parent().unwrap(),
        )
        .unwrap();
    Game {
        _dir: dir,
        clock,
        daemon,
        id,
        lang,
        sent: 0,
    }
}

impl Game {
    fn outbox(&self) -> Vec<OutboxRow> {
        outbox::all(self.daemon.store.conn()).unwrap()
    }

    fn last_to(&self, to: &str, kind: &str) -> OutboxRow {
        self.outbox()
            .into_iter()
            .rfind(|r| r.mail.recipient == to && r.mail.kind == kind)
            .unwrap_or_else(|| panic!("no {kind} mail to {to}"))
    }

    fn count(&self, sql: &str) -> i64 {
        self.daemon
            .store
            .conn()
            .query_row(sql, [], |r| r.get(0))
            .unwrap()
    }

    fn deadline(&self) -> Option<i64> {
        self.daemon
            .store
            .conn()
            .query_row("SELECT deadline FROM games", [], |r| r.get(0))
            .unwrap()
    }

    fn turn(&self) -> u32 {
        self.daemon
            .store
            .conn()
            .query_row("SELECT turn FROM games", [], |r| r.get(0))
            .unwrap()
    }

    fn deliver(&mut self, from: &str, body: &str) {
        self.sent += 1;
        self.daemon
            .deliver(&mail(from, &format!("mail {}", self.sent), body))
            .unwrap();
        self.daemon.cycle().unwrap();
    }

    /// A GM mail with `commands`; returns the answer's body.
    fn gm(&mut self, commands: &str) -> String {
        let [g, p, pw, end] = self.lang.words;
        let body = format!(
            "{g} {} {p} gm {pw} {GM_PASSWORD}\n{commands}\n{end}\n",
            self.id
        );
        self.deliver(GM, &body);
        self.last_to(GM, "confirm").mail.body
    }

    /// An order mail from seat `i` (its own address and password).
    fn orders(&mut self, i: usize, lines: &str) {
        let (id, email, pw) = self.lang.seats[i];
        self.orders_as(email, id, pw, lines);
    }

    fn orders_as(&mut self, from: &str, player: &str, password: &str, lines: &str) {
        let [g, p, pw, end] = self.lang.words;
        let body = format!(
            "{g} {} {p} {player} {pw} {password}\n{lines}\n{end}\n",
            self.id
        );
        self.deliver(from, &body);
    }

    /// What the ruleset's bot would order for seat `i` now: valid orders
    /// in the game's own notation.
    fn bot(&self, i: usize) -> String {
        let state = turns::latest(self.daemon.store.conn(), &self.id)
            .unwrap()
            .state;
        let engine = self.daemon.registry.get(self.lang.example).unwrap();
        let seed: i64 = self
            .daemon
            .store
            .conn()
            .query_row("SELECT seed FROM games", [], |r| r.get(0))
            .unwrap();
        engine
            .bot_orders(&state, seed as u64, &PlayerId::new(self.lang.seats[i].0))
            .unwrap()
    }

    fn reports(&self, turn: u32) -> Vec<OutboxRow> {
        self.outbox()
            .into_iter()
            .filter(|r| r.mail.kind == "report" && r.mail.turn == Some(turn))
            .collect()
    }
}

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

// ---------------------------------------------------------------- SET DEADLINE

/// `words`: the SET DEADLINE line for 2026-12-10 20:00 local and one in the past.
fn check_set_deadline(
    lang: Lang,
    words: [&str; 2],
    want_utc: &str,
    done: &str,
    subject: &str,
    past: &str,
) {
    let mut g = game(lang, "");
    let before = g.deadline();
    let answer = g.gm(words[0]);
    assert!(answer.contains(done), "{answer}");
    assert_eq!(g.deadline(), Some(at(want_utc).timestamp()));
    for (_, email, _) in lang.seats {
        let n = g.last_to(email, "notice");
        assert!(n.mail.subject.contains(subject), "{}", n.mail.subject);
        assert!(n.mail.body.contains("2026-12-10 20:00"), "{}", n.mail.body);
    }
    // A deadline in the past is refused; nothing changes.
    let answer = g.gm(words[1]);
    assert!(answer.contains(past), "{answer}");
    assert_eq!(g.deadline(), Some(at(want_utc).timestamp()));
    assert_ne!(before, g.deadline());
}

#[test]
fn set_deadline_by_mail_nebulight_in_french() {
    // Europe/Paris in December is UTC+1.
    check_set_deadline(
        NEB_FR,
        [
            "FIXER DATE-LIMITE 2026-12-10 20:00",
            "FIXER DATE-LIMITE 2026-11-01 20:00",
        ],
        "2026-12-10T19:00:00Z",
        "SET DEADLINE : fait.",
        "nouvelle date limite",
        "n'est pas dans le futur",
    );
}

#[test]
fn set_deadline_by_mail_eds_in_german() {
    check_set_deadline(
        EDS_DE,
        ["SETZE TERMIN 2026-12-10 20:00", "TERMIN 2026-11-01 20:00"],
        "2026-12-10T20:00:00Z",
        "SET DEADLINE: erledigt.",
        "neuer Abgabetermin",
        "liegt nicht in der Zukunft",
    );
}

#[test]
fn set_deadline_by_mail_in_english_and_on_the_command_line() {
    check_set_deadline(
        EDS_EN,
        [
            "SET DEADLINE 2026-12-10 20:00",
            "SET DEADLINE 2026-11-01T20:00:00Z",
        ],
        "2026-12-10T20:00:00Z",
        "SET DEADLINE: done.",
        "new deadline",
        "is not in the future",
    );
    let mut g = game(NEB_FR, "");
    let local =
        chrono::NaiveDateTime::parse_from_str("2026-12-12 18:30", "%Y-%m-%d %H:%M").unwrap();
    let shown = g
        .daemon
        .set_deadline(&g.id.clone(), &When::Local(local))
        .unwrap();
    assert_eq!(shown, "2026-12-12 18:30 (Europe/Paris)");
    assert_eq!(g.deadline(), Some(at("2026-12-12T17:30:00Z").timestamp()));
    assert!(g
        .daemon
        .set_deadline(&g.id.clone(), &When::Instant(at("2026-11-30T00:00:00Z")))
        .is_err());
    let cli = Cli::try_parse_from(["arbitre", "deadline", "neb-001", "2026-12-12 18:30"]).unwrap();
    assert!(format!("{:?}", cli.command).contains("Deadline"));
    let _ = &g.clock;
}

// ---------------------------------------------------------------- EJECT

/// The status screen's line of a seat.
fn seat_line(g: &Game, seat: &str) -> String {
    let s = g.daemon.status(None).unwrap();
    s.lines()
        .find(|l| l.split_whitespace().next() == Some(seat))
        .unwrap_or_else(|| panic!("no {seat} in {s}"))
        .to_string()
}

#[test]
fn eject_by_mail_nebulight_in_french() {
    let mut g = game(NEB_FR, "");
    let answer = g.gm("EJECTER miria");
    assert!(answer.contains("EJECT : fait."), "{answer}");
    assert!(g
        .last_to("maxtor@example.org", "notice")
        .mail
        .body
        .contains("Le joueur miria a été retiré de la partie neb-001"));
    assert_eq!(g.count("SELECT count(*) FROM seat_changes WHERE kind = 'eject' AND player = 'miria' AND turn = 1"), 1);
    // The ejected seat's orders are refused, clearly; nothing stored.
    let order = g.bot(1);
    g.orders(1, &order);
    let refused = g.last_to("miria@example.org", "error");
    assert!(
        refused
            .mail
            .body
            .contains("Le poste miria de la partie neb-001 ne joue plus"),
        "{}",
        refused.mail.body
    );
    assert_eq!(g.count("SELECT count(*) FROM orders"), 0);
    assert!(
        seat_line(&g, "miria").ends_with(" ejected"),
        "{}",
        g.daemon.status(None).unwrap()
    );
    // Not waited for: maxtor's orders alone resolve the turn early.
    let order = g.bot(0);
    g.orders(0, &order);
    assert_eq!(g.turn(), 1, "resolved without the ejected seat");
    // Ejecting twice is refused.
    assert!(g
        .gm("EJECTER miria")
        .contains("EJECT : Le poste miria est déjà retiré de la partie."));
}

#[test]
fn eject_by_mail_eds_in_german_the_bot_plays_the_seat() {
    let mut g = game(EDS_DE, "nmr = \"bot\"\nnmr_bot_after = 3\n");
    assert!(g.gm("AUSSCHLIESSEN p3").contains("EJECT: erledigt."));
    assert!(g
        .last_to("carla@example.org", "notice")
        .mail
        .body
        .contains("Spieler p3 wurde von der Spielleitung aus Spiel eds-001 entfernt"));
    g.orders(2, "");
    assert!(g
        .last_to("carla@example.org", "error")
        .mail
        .body
        .contains("Position p3 in Spiel eds-001 spielt nicht mehr mit"));
    let (o0, o1) = (g.bot(0), g.bot(1));
    g.orders(0, &o0);
    assert_eq!(g.turn(), 0, "p2 is still missing");
    g.orders(1, &o1);
    assert_eq!(g.turn(), 1);
    // From its first turn out, whatever nmr_bot_after says.
    assert_eq!(g.count("SELECT count(*) FROM orders WHERE player = 'p3' AND turn = 1 AND by_bot = 1 AND mail_sha256 IS NULL"), 1);
}

#[test]
fn eject_by_the_command_line_in_english() {
    let mut g = game(EDS_EN, "");
    let id = g.id.clone();
    assert_eq!(g.daemon.eject(&id, "P2").unwrap(), "p2");
    assert!(g
        .last_to("bert@example.org", "notice")
        .mail
        .body
        .contains("Player p2 has been removed from game eds-001"));
    g.orders(1, "");
    assert!(g
        .last_to("bert@example.org", "error")
        .mail
        .body
        .contains("Seat p2 of game eds-001 no longer plays"));
    let cli = Cli::try_parse_from(["arbitre", "player", "eject", "eds-001", "p2"]).unwrap();
    assert!(format!("{:?}", cli.command).contains("Eject"));
}

// ---------------------------------------------------------------- TAKEOVER

fn password_in(body: &str, label: &str) -> String {
    let line = body
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no '{label}' in {body}"));
    line[label.len()..].trim().to_string()
}

#[test]
fn takeover_by_mail_nebulight_in_french() {
    let mut g = game(NEB_FR, "takeover_extend = \"24h\"\n");
    let deadline = g.deadline().unwrap();
    g.gm("EJECTER miria");
    let answer = g.gm("REMPLACER miria nouvelle@example.org Nouvelle Joueuse");
    assert!(answer.contains("TAKEOVER : fait."), "{answer}");
    assert_eq!(
        g.deadline(),
        Some(deadline + 24 * 3600),
        "[services] takeover_extend"
    );
    let (name, email): (String, String) = g
        .daemon
        .store
        .conn()
        .query_row(
            "SELECT name, email FROM players WHERE id = 'miria'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        (name.as_str(), email.as_str()),
        ("Nouvelle Joueuse", "nouvelle@example.org")
    );
    // The new player gets a generated password and the seat's last report.
    let welcome = g
        .outbox()
        .into_iter()
        .find(|r| {
            r.mail.recipient == "nouvelle@example.org"
                && r.mail.subject.contains("changement de joueur")
        })
        .unwrap();
    assert!(
        welcome
            .mail
            .body
            .contains("Bienvenue, Nouvelle Joueuse : vous jouez désormais le poste miria"),
        "{}",
        welcome.mail.body
    );
    // Sent with its password; the outbox keeps only a redacted copy (issue
    // 14 item 4), so the password is read from the mail that left.
    assert!(
        welcome
            .mail
            .body
            .contains("Votre mot de passe : [removed after sending]"),
        "{}",
        welcome.mail.body
    );
    let sent = std::fs::read_dir(g._dir.path().join("outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains(&welcome.mail.message_id))
        .expect("the welcome mail was sent");
    let pw = password_in(
        &arbitre_mail::body_of(&std::fs::read(sent).unwrap()).unwrap(),
        "Votre mot de passe :",
    );
    assert_eq!(pw.len(), 14);
    let report = g.last_to("nouvelle@example.org", "notice");
    assert!(
        report.mail.subject.contains("compte rendu du tour 0"),
        "{}",
        report.mail.subject
    );
    assert!(g
        .last_to("maxtor@example.org", "notice")
        .mail
        .body
        .contains("Le poste miria de la partie neb-001 est désormais joué par Nouvelle Joueuse."));
    // The old password no longer opens the seat; the new one does, and the
    // ejected seat plays again.
    let order = g.bot(1);
    g.orders(1, &order);
    assert!(g
        .last_to("miria@example.org", "error")
        .mail
        .body
        .contains("Mot de passe incorrect pour le joueur miria"));
    g.orders_as("nouvelle@example.org", "miria", &pw, &order);
    assert!(g
        .last_to("nouvelle@example.org", "confirm")
        .mail
        .subject
        .contains("tour 1"));
    assert_eq!(
        g.count("SELECT count(*) FROM orders WHERE player = 'miria'"),
        1
    );
    let kinds: Vec<String> = {
        let c = g.daemon.store.conn();
        let mut st = c.prepare("SELECT kind || ':' || coalesce(old_email, '') || '>' || coalesce(new_email, '') FROM seat_changes ORDER BY id").unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(
        kinds,
        [
            "eject:miria@example.org>",
            "takeover:miria@example.org>nouvelle@example.org"
        ]
    );
}

#[test]
fn takeover_eds_in_german_by_mail_and_on_the_command_line() {
    let mut g = game(EDS_DE, "");
    let deadline = g.deadline();
    assert!(g
        .gm("ERSETZEN p2 neu@example.org")
        .contains("TAKEOVER: erledigt."));
    assert_eq!(
        g.deadline(),
        deadline,
        "no takeover_extend: the deadline stays"
    );
    let welcome = g
        .outbox()
        .into_iter()
        .find(|r| {
            r.mail.recipient == "neu@example.org" && r.mail.subject.contains("Spielerwechsel")
        })
        .unwrap();
    assert!(
        welcome.mail.body.contains("Willkommen, p2"),
        "the name defaults to the seat's id: {}",
        welcome.mail.body
    );
    assert!(g
        .gm("ERSETZEN p9 x@example.org")
        .contains("keine Position „p9“"));
    assert!(g
        .gm("ERSETZEN p2 kein-mail")
        .contains("ist keine E-Mail-Adresse"));
    // On the command line, with a password the GM chose: nothing generated.
    let id = g.id.clone();
    assert_eq!(
        g.daemon
            .replace_player(
                &id,
                "p3",
                "dora@example.org",
                Some("Dora"),
                Some("geheim-7")
            )
            .unwrap(),
        None
    );
    let welcome = g
        .outbox()
        .into_iter()
        .rfind(|r| {
            r.mail.recipient == "dora@example.org"
                && r.mail.kind == "notice"
                && r.mail.subject.contains("Spielerwechsel")
        })
        .unwrap();
    assert!(
        !welcome.mail.body.contains("Passwort"),
        "{}",
        welcome.mail.body
    );
    g.orders_as("dora@example.org", "p3", "geheim-7", "");
    assert!(g
        .last_to("dora@example.org", "confirm")
        .mail
        .subject
        .contains("Zug 1"));
    let cli = Cli::try_parse_from([
        "arbitre", "player", "replace", "eds-001", "p3", "--email", "e@x.org", "--name", "E",
    ])
    .unwrap();
    assert!(format!("{:?}", cli.command).contains("Replace"));
}

// ---------------------------------------------------------------- PREVIEW / RELEASE

#[test]
fn preview_and_release_by_mail_nebulight_in_french() {
    let mut g = game(NEB_FR, "");
    assert!(g.gm("APERÇU").contains("PREVIEW : fait."));
    let (o0, o1) = (g.bot(0), g.bot(1));
    g.orders(0, &o0);
    g.orders(1, &o1);
    assert_eq!(g.turn(), 1);
    let reports = g.reports(1);
    assert_eq!(reports.len(), 2);
    assert!(
        reports.iter().all(|r| r.status == OutboxStatus::Held),
        "held, and the cycle's sender skipped them"
    );
    let preview = g
        .outbox()
        .into_iter()
        .find(|r| r.mail.kind == "gm" && r.mail.subject.contains("aperçu du tour 1"))
        .unwrap();
    for r in &reports {
        assert!(
            preview.mail.body.contains(&r.mail.body),
            "the GM reads every player's report as it will be sent"
        );
    }
    assert!(preview
        .mail
        .body
        .contains("compte rendu de maxtor <maxtor@example.org>"));
    assert!(g
        .daemon
        .status(None)
        .unwrap()
        .contains("running (turn 1 held for preview)"));
    // Past the deadline nothing resolves while the turn is held.
    let resolved_at = g.clock.now();
    g.clock.advance(TimeDelta::days(8));
    g.daemon.cycle().unwrap();
    assert_eq!(g.turn(), 1);
    let deadline = g.deadline().unwrap();
    let answer = g.gm("PUBLIER");
    assert!(
        answer.contains("PUBLIER : les 2 courrier(s) retenus du tour 1 partent"),
        "{answer}"
    );
    assert!(g.reports(1).iter().all(|r| r.status == OutboxStatus::Sent));
    // The deadline clock starts at the release.
    assert_eq!(
        g.deadline(),
        Some(deadline + (g.clock.now() - resolved_at).num_seconds())
    );
    let told = g.last_to("maxtor@example.org", "notice");
    assert!(
        told.mail.body.contains("repoussé la date limite"),
        "{}",
        told.mail.body
    );
    assert_eq!(told.status, OutboxStatus::Sent);
    // PREVIEW held one turn only; RELEASE with nothing held says so.
    assert!(g.gm("PUBLIER").contains("Aucun tour n'est retenu"));
    let (o0, o1) = (g.bot(0), g.bot(1));
    g.orders(0, &o0);
    g.orders(1, &o1);
    assert_eq!(g.turn(), 2);
    assert!(g.reports(2).iter().all(|r| r.status == OutboxStatus::Sent));
}

#[test]
fn preview_always_from_the_toml_eds_in_german() {
    let mut g = game(EDS_DE, "preview = \"always\"\n");
    let id = g.id.clone();
    for turn in 1..=2 {
        g.daemon.resolve(&id).unwrap();
        g.daemon.cycle().unwrap();
        assert!(
            g.reports(turn)
                .iter()
                .all(|r| r.status == OutboxStatus::Held),
            "turn {turn}"
        );
        let preview = g.last_to(GM, "gm");
        assert!(
            preview
                .mail
                .subject
                .contains(&format!("Vorschau auf Zug {turn}")),
            "{}",
            preview.mail.subject
        );
        assert!(preview
            .mail
            .body
            .contains("Auswertung für p1 <anna@example.org>"));
        assert_eq!(g.daemon.release(&id).unwrap(), (turn, 3));
        g.daemon.cycle().unwrap();
        assert!(g
            .reports(turn)
            .iter()
            .all(|r| r.status == OutboxStatus::Sent));
    }
    // PREVIEW OFF by mail: the next turn goes out at once... unless the TOML says always.
    assert!(g.gm("VORSCHAU AUS").contains("PREVIEW OFF: erledigt."));
    g.daemon.resolve(&id).unwrap();
    assert!(
        g.reports(3).iter().all(|r| r.status == OutboxStatus::Held),
        "the TOML's preview = \"always\" still holds"
    );
}

#[test]
fn preview_always_and_off_by_mail_in_english() {
    let mut g = game(EDS_EN, "");
    let id = g.id.clone();
    assert!(g.gm("PREVIEW ALWAYS").contains("PREVIEW ALWAYS: done."));
    g.daemon.resolve(&id).unwrap();
    assert!(g.reports(1).iter().all(|r| r.status == OutboxStatus::Held));
    assert!(g
        .last_to(GM, "gm")
        .mail
        .body
        .contains("Answer RELEASE to send them"));
    assert!(g
        .gm("RELEASE")
        .contains("RELEASE: the 3 held mail(s) of turn 1 are being sent"));
    g.daemon.resolve(&id).unwrap();
    assert!(
        g.reports(2).iter().all(|r| r.status == OutboxStatus::Held),
        "always"
    );
    assert!(g
        .gm("PREVIEW OFF\nRELEASE")
        .contains("RELEASE: the 3 held mail(s) of turn 2"));
    g.daemon.resolve(&id).unwrap();
    assert!(g
        .reports(3)
        .iter()
        .all(|r| r.status == OutboxStatus::Pending));
}

// ---------------------------------------------------------------- ROLLBACK

/// (player, body, JSON attachment) of every report of `turn` not cancelled.
fn live_reports(g: &Game, turn: u32) -> Vec<(String, String, Vec<u8>)> {
    let mut out: Vec<_> = g
        .reports(turn)
        .into_iter()
        .filter(|r| r.status != OutboxStatus::Cancelled)
        .map(|r| {
            let m = mail_parser::MessageParser::default()
                .parse(&r.mail.raw)
                .unwrap();
            use mail_parser::MimeHeaders;
            let json = m
                .attachments()
                .find(|a| a.attachment_name().is_some_and(|n| n.ends_with(".json")))
                .unwrap()
                .contents()
                .to_vec();
            (r.mail.player.clone().unwrap(), r.mail.body.clone(), json)
        })
        .collect();
    out.sort();
    out
}

/// Resolve turns 1 and 2 with the bots' orders, ROLLBACK 1, resolve again:
/// the same reports byte for byte; then ROLLBACK 1 and a changed order:
/// other reports. `rollback`: the command as written in the language;
/// `told`: what every player reads.
fn check_rollback(lang: Lang, rollback: &str, done: &str, told: &str) {
    let mut g = game(lang, "");
    let id = g.id.clone();
    let n = lang.seats.len();
    for i in 0..n {
        let o = g.bot(i);
        g.orders(i, &o);
    }
    assert_eq!(g.turn(), 1);
    // Turn 2's orders, resolved by `arbitre turn`: its reports are pending.
    let turn2: Vec<String> = (0..n).map(|i| g.bot(i)).collect();
    for (i, o) in turn2.iter().enumerate() {
        let (pid, email, pw) = lang.seats[i];
        let [gw, pw_w, pass_w, end] = lang.words;
        g.sent += 1;
        g.daemon
            .deliver(&mail(
                email,
                &format!("t2 {i}"),
                &format!("{gw} {id} {pw_w} {pid} {pass_w} {pw}\n{o}\n{end}\n"),
            ))
            .unwrap();
    }
    g.daemon.process_inbox().unwrap();
    // The GM resolves a minute later, and rolls back in that same minute.
    g.clock.advance(TimeDelta::minutes(1));
    assert_eq!(g.daemon.resolve(&id).unwrap(), 2);
    let first = live_reports(&g, 2);
    assert_eq!(first.len(), n);
    let answer = g.gm(rollback);
    assert!(answer.contains(done), "{answer}");
    assert_eq!(g.turn(), 1);
    assert_eq!(
        g.count("SELECT count(*) FROM rolled_back_turns WHERE turn = 2 AND to_turn = 1"),
        1
    );
    assert_eq!(g.count("SELECT count(*) FROM turns WHERE turn = 2"), 0);
    assert!(
        g.reports(2)
            .iter()
            .all(|r| r.status == OutboxStatus::Cancelled),
        "unsent reports of the undone turn never leave"
    );
    assert!(
        g.reports(1).iter().all(|r| r.status == OutboxStatus::Sent),
        "sent ones stay"
    );
    for (_, email, _) in lang.seats {
        assert!(
            g.last_to(email, "notice").mail.body.contains(told),
            "{}",
            g.last_to(email, "notice").mail.body
        );
    }
    assert_eq!(
        g.count("SELECT count(*) FROM orders WHERE turn = 2"),
        n as i64,
        "turn 2's orders stay in force"
    );
    // Resolving again: identical, byte for byte.
    assert_eq!(g.daemon.resolve(&id).unwrap(), 2);
    assert_eq!(
        live_reports(&g, 2),
        first,
        "same state, same orders, same RNG: same reports"
    );
    // Back again, one player changes their orders: another result.
    assert_eq!(g.daemon.rollback(&id, 1).unwrap(), [2]);
    g.daemon.cycle().unwrap();
    assert_eq!(
        g.turn(),
        1,
        "after a rollback, early resolution waits for a new order mail"
    );
    g.clock.advance(TimeDelta::minutes(1));
    let (pid, email, pw) = lang.seats[0];
    g.orders_as(email, pid, pw, "");
    assert_eq!(
        g.turn(),
        2,
        "the new orders complete the turn: resolved early"
    );
    let second = live_reports(&g, 2);
    assert_eq!(second.len(), n);
    assert_ne!(second, first, "changed orders change the turn");
    assert_eq!(
        g.count("SELECT count(*) FROM rolled_back_turns"),
        2,
        "both undone versions archived"
    );
    // Rolling forward is refused.
    assert!(g.daemon.rollback(&id, 2).is_err());
}

#[test]
fn rollback_then_resolve_gives_identical_reports_nebulight_in_french() {
    check_rollback(
        NEB_FR,
        "RETOUR 1",
        "ROLLBACK : fait.",
        "La partie neb-001 a été ramenée au tour 1 par le meneur de jeu",
    );
}

#[test]
fn rollback_then_resolve_gives_identical_reports_eds_in_german() {
    check_rollback(
        EDS_DE,
        "ZURÜCK 1",
        "ROLLBACK: erledigt.",
        "Spiel eds-001 wurde von der Spielleitung auf Zug 1 zurückgesetzt",
    );
}

#[test]
fn rollback_of_a_held_turn_and_out_of_range_in_english() {
    let mut g = game(EDS_EN, "");
    assert!(g
        .gm("ROLLBACK 0")
        .contains("Cannot roll back to turn 0: the last resolved turn is 0"));
    let id = g.id.clone();
    g.daemon.resolve(&id).unwrap();
    g.gm("PREVIEW");
    g.daemon.resolve(&id).unwrap();
    assert!(g.reports(2).iter().all(|r| r.status == OutboxStatus::Held));
    assert!(g.gm("ROLLBACK 1").contains("ROLLBACK: done."));
    assert!(
        g.reports(2)
            .iter()
            .all(|r| r.status == OutboxStatus::Cancelled),
        "a held turn rolled back is never sent"
    );
    assert!(!g.daemon.status(None).unwrap().contains("held for preview"));
    // An ended game runs again after a rollback.
    g.daemon.resolve(&id).unwrap();
    g.daemon.resolve(&id).unwrap();
    assert!(g.daemon.resolve(&id).is_err() || g.turn() >= 3);
    assert!(g
        .last_to("anna@example.org", "notice")
        .mail
        .body
        .contains("Game eds-001 has been rolled back to turn 1"));
}

// ---------------------------------------------------------------- grace, change_delay

#[test]
fn grace_period_takes_late_orders_nebulight_in_french() {
    let mut g = game(NEB_FR, "grace = \"2h\"\n");
    let deadline = DateTime::from_timestamp(g.deadline().unwrap(), 0).unwrap();
    g.clock.set(deadline + TimeDelta::hours(1));
    g.daemon.cycle().unwrap();
    assert_eq!(g.turn(), 0, "within the grace: not resolved");
    let o = g.bot(0);
    g.orders(0, &o);
    let c = g.last_to("maxtor@example.org", "confirm");
    assert!(c.mail.body.starts_with("EN RETARD : ces ordres sont arrivés après la date limite (2026-12-04 20:00 (Europe/Paris))"), "{}", c.mail.body);
    assert_eq!(g.turn(), 0);
    g.clock.set(deadline + TimeDelta::hours(2));
    g.daemon.cycle().unwrap();
    assert_eq!(g.turn(), 1, "resolved when the grace is over");
    assert_eq!(
        g.count("SELECT count(*) FROM orders WHERE turn = 1 AND player = 'maxtor'"),
        1
    );
}

#[test]
fn change_delay_waits_after_the_last_orders_eds_in_german() {
    let mut g = game(EDS_DE, "change_delay = \"15m\"\ngrace = \"1h\"\n");
    for i in 0..3 {
        let o = g.bot(i);
        g.orders(i, &o);
    }
    assert_eq!(
        g.turn(),
        0,
        "every player ready, but they may still change their mind"
    );
    assert!(!g
        .last_to("anna@example.org", "confirm")
        .mail
        .body
        .contains("VERSPÄTET"));
    g.clock.advance(TimeDelta::minutes(10));
    // A change of mind restarts the delay.
    g.orders(0, "");
    g.clock.advance(TimeDelta::minutes(10));
    g.daemon.cycle().unwrap();
    assert_eq!(g.turn(), 0);
    g.clock.advance(TimeDelta::minutes(5));
    g.daemon.cycle().unwrap();
    assert_eq!(g.turn(), 1);
}

#[test]
fn bad_service_durations_name_the_field() {
    for (field, bad) in [
        ("grace", "2 hours"),
        ("change_delay", "bientôt"),
        ("takeover_extend", "-1h"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FixedClock::new(t0()));
        let mut d = Daemon::open(config(dir.path()), Registry::builtin(), clock).unwrap();
        let text = toml_of(NEB_FR, &format!("{field} = \"{bad}\""));
        let e = d
            .create_game(&text, example("nebulight").parent().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("[services] {field}: bad duration '{bad}'")),
            "{e}"
        );
    }
}

// ---------------------------------------------------------------- status

#[test]
fn status_shows_every_game_missing_players_and_outbox_problems() {
    let mut g = game(EDS_DE, "");
    let id = g.id.clone();
    let o = g.bot(0);
    g.orders(0, &o);
    g.daemon.eject(&id, "p3").unwrap();
    let s = g.daemon.status(None).unwrap();
    assert!(s.contains("eds-001 (Evolution der Sterne), running"), "{s}");
    assert!(
        s.contains("  missing: p2\n"),
        "p1 sent orders, p3 is ejected: {s}"
    );
    assert!(!s.contains("outbox problems"), "{s}");
    // A failed mail and mails pending for over an hour are this game's problems.
    let rows = g.outbox();
    outbox::mark_failed(
        g.daemon.store.conn(),
        rows[0].id,
        t0().timestamp(),
        "550 no such user",
        true,
        5,
    )
    .unwrap();
    g.daemon.eject(&id, "p2").unwrap();
    g.clock.advance(TimeDelta::hours(2));
    let s = g.daemon.status(None).unwrap();
    // The two ejections' notices (3 each) were queued, never sent.
    assert!(
        s.contains(
            "  outbox problems: 1 failed, 6 pending after a failure or for over an hour, 0 held"
        ),
        "{s}"
    );
    assert!(s.contains("FAILED"), "{s}");
    assert!(!s.contains("missing:"), "{s}");
}

// ---------------------------------------------------------------- the command line

/// The new commands through `arbitre` itself (`cli::run`), on a database
/// the daemon would serve: deadline, preview, release, eject, replace,
/// rollback and status.
#[test]
fn gm_commands_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("arbitre.toml");
    std::fs::write(
        &cfg,
        format!("referee = \"{}\"\ninbox = \"inbox\"\ndatabase = \"arbitre.db\"\n[outbound]\nkind = \"file\"\ndir = \"outbox\"\n[argon2]\nm_cost = 8\nt_cost = 1\n", common::REFEREE),
    )
    .unwrap();
    let game = dir.path().join("game.toml");
    std::fs::write(&game, toml_of(EDS_EN, "")).unwrap();
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
    assert!(run(&["game", "create", game.to_str().unwrap()])
        .unwrap()
        .contains("game eds-001 created"));
    let out = run(&["deadline", "eds-001", "2099-01-01 12:00"]).unwrap();
    assert!(
        out.contains("game eds-001: deadline set to 2099-01-01 12:00 (UTC)"),
        "{out}"
    );
    assert!(run(&["deadline", "eds-001", "2000-01-01 12:00"])
        .unwrap_err()
        .contains("is not in the future"));
    assert!(run(&["deadline", "eds-001", "tomorrow"])
        .unwrap_err()
        .contains("bad deadline 'tomorrow'"));
    assert!(run(&["player", "eject", "eds-001", "p3"])
        .unwrap()
        .contains("player p3 ejected"));
    let out = run(&[
        "player",
        "replace",
        "eds-001",
        "p3",
        "--email",
        "dora@example.org",
        "--name",
        "Dora",
    ])
    .unwrap();
    assert!(
        out.contains("seat p3 now played by dora@example.org"),
        "{out}"
    );
    assert!(
        out.contains("new password (also mailed to the new player): "),
        "{out}"
    );
    assert!(run(&["preview", "eds-001"])
        .unwrap()
        .contains("preview next"));
    assert!(run(&["preview", "eds-001", "sometimes"])
        .unwrap_err()
        .contains("next, always or off"));
    assert!(run(&["turn", "eds-001"])
        .unwrap()
        .contains("turn 1 resolved"));
    assert!(run(&["status", "eds-001"])
        .unwrap()
        .contains("running (turn 1 held for preview)"));
    assert!(run(&["turn", "eds-001"])
        .unwrap_err()
        .contains("held for preview"));
    assert!(run(&["release", "eds-001"])
        .unwrap()
        .contains("turn 1 released, 3 mail(s)"));
    assert!(run(&["turn", "eds-001"])
        .unwrap()
        .contains("turn 2 resolved"));
    assert!(run(&["rollback", "eds-001", "0"])
        .unwrap()
        .contains("back to turn 0 (undone: 1, 2)"));
    let status = run(&["status"]).unwrap();
    assert!(status.contains("last resolved turn: 0"), "{status}");
    assert!(status.contains("missing: p1, p2, p3"), "{status}");
}

/// Issue 16 item 3: a GM command that cannot be done says why in the game's
/// language (these refusals were English in every game before the catalogue).
#[test]
fn gm_refusals_by_mail_speak_the_game_language() {
    let mut fr = game(NEB_FR, "");
    let id = fr.id.clone();
    let answer = fr.gm("RESUME");
    assert!(
        answer.contains(&format!(
            "RESUME : la partie {id} est en cours, pas en pause"
        )),
        "{answer}"
    );
    let mut de = game(EDS_DE, "");
    let id = de.id.clone();
    de.gm("PAUSE");
    let answer = de.gm("EXTEND 48h");
    assert!(
        answer.contains(&format!(
            "EXTEND: Spiel {id} hat keinen laufenden Abgabetermin, der verlängert werden könnte"
        )),
        "{answer}"
    );
    let mut en = game(EDS_EN, "");
    let id = en.id.clone();
    en.gm("PAUSE");
    let answer = en.gm("PAUSE");
    assert!(
        answer.contains(&format!("PAUSE: game {id} is paused, not running")),
        "{answer}"
    );
}
