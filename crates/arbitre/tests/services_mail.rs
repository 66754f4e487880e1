//! Issue 10 through the mail loop, with real rulesets (Nébulight in French,
//! EDS in German) and the English default: drop .eml files into the
//! Maildir, run the serve cycle, read what the outbox holds.

mod common;

use arbitre::{Daemon, FixedClock, Registry};
use arbitre_store::{outbox, OutboxRow};
use common::{config, mail, t0};
use mail_parser::{MessageParser, MimeHeaders};
use std::path::PathBuf;
use std::sync::Arc;

struct Game {
    _dir: tempfile::TempDir,
    clock: Arc<FixedClock>,
    daemon: Daemon,
    id: String,
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name).join("game.toml")
}

fn game(name: &str) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut daemon = Daemon::open(config(dir.path()), Registry::builtin(), clock.clone()).unwrap();
    let id = daemon.create_game_file(&example(name)).unwrap();
    Game { _dir: dir, clock, daemon, id }
}

impl Game {
    fn outbox(&self) -> Vec<OutboxRow> {
        outbox::all(self.daemon.store.conn()).unwrap()
    }

    fn last_to(&self, to: &str, kind: &str) -> OutboxRow {
        self.outbox().into_iter().rfind(|r| r.mail.recipient == to && r.mail.kind == kind).unwrap_or_else(|| panic!("no {kind} mail to {to}"))
    }

    fn send(&mut self, from: &str, body: &str) {
        self.daemon.deliver(&mail(from, "orders", body)).unwrap();
        self.daemon.cycle().unwrap();
    }
}

/// (file name, content) of every attachment of a queued mail.
fn attachments(raw: &[u8]) -> Vec<(String, Vec<u8>)> {
    let m = MessageParser::default().parse(raw).unwrap();
    m.attachments()
        .map(|a| (a.attachment_name().unwrap_or("").to_string(), a.contents().to_vec()))
        .collect()
}

fn check_report_attachments(name: &str, player_email: &str, template_prefix: &str, deadline_word: &str) {
    let mut g = game(name);
    let id = g.id.clone();
    g.daemon.resolve(&id).unwrap();
    let report = g.last_to(player_email, "report");
    let att = attachments(&report.mail.raw);
    let names: Vec<&str> = att.iter().map(|(n, _)| n.as_str()).collect();
    let json_name = format!("{id}-turn-1.json");
    let ics_name = format!("{id}-turn-2.ics");
    assert!(names.contains(&json_name.as_str()), "{names:?}");
    assert!(names.contains(&ics_name.as_str()), "{names:?}");
    let template = names.iter().find(|n| n.starts_with(template_prefix)).expect("the ruleset's order template");
    let json = &att.iter().find(|(n, _)| *n == json_name).unwrap().1;
    let v: serde_json::Value = serde_json::from_slice(json).unwrap();
    assert_eq!(v["game"], id.as_str());
    assert_eq!(v["turn"], 1);
    assert_eq!(v["viewer"], "player");
    assert_eq!(v["order_template"], *template);
    // The JSON carries the same report as the mail's text.
    let body = String::from_utf8_lossy(&report.mail.raw).to_string();
    let first_line = v["text"].as_str().unwrap().lines().find(|l| !l.trim().is_empty()).unwrap().to_string();
    assert!(report.mail.body.contains(&first_line), "{first_line} not in {body}");
    // The .ics holds the deadline the game row holds.
    let deadline = g.daemon.store.conn().query_row("SELECT deadline FROM games WHERE id = ?1", [&id], |r| r.get::<_, i64>(0)).unwrap();
    let d = chrono::DateTime::from_timestamp(deadline, 0).unwrap();
    let ics = String::from_utf8(att.iter().find(|(n, _)| *n == ics_name).unwrap().1.clone()).unwrap();
    assert!(ics.contains(&format!("DTSTART:{}", d.format("%Y%m%dT%H%M%SZ"))), "{ics}");
    assert!(ics.replace("\r\n ", "").contains(deadline_word), "{ics}");
    assert_eq!(v["next_deadline"]["utc"], d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    // The GM's report carries them too.
    let gm = g.last_to("gm@example.org", "gm");
    let gm_att = attachments(&gm.mail.raw);
    let gm_json = &gm_att.iter().find(|(n, _)| *n == json_name).expect("GM JSON").1;
    let v: serde_json::Value = serde_json::from_slice(gm_json).unwrap();
    assert_eq!(v["viewer"], "game-master");
    assert_eq!(v["player"], serde_json::Value::Null);
    let _ = &g.clock;
}

#[test]
fn report_mail_carries_json_ics_and_template_nebulight() {
    check_report_attachments("nebulight", "maxtor@example.org", "ordres-", "date limite des ordres du tour 2");
}

#[test]
fn report_mail_carries_json_ics_and_template_eds() {
    check_report_attachments("eds", "anna@example.org", "befehlsblatt-", "Abgabetermin der Befehle für Zug 2");
}
