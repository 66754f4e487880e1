//! Issue 7, "done when" 1: a complete short game over real mail servers
//! (Postfix for submission, Dovecot for IMAP), as `.ci/mail-servers.sh`
//! sets them up on loopback with the users referee, alice and bob.
//!
//! The daemon is the real command line (`arbitre --config arbitre.toml ...`,
//! in-process through [`arbitre::cli::run`]) with `[inbound] kind = "imap"`
//! and `[outbound] kind = "smtp"`: nothing in between is faked. The players
//! submit their bots' orders by SMTP (submission port, STARTTLS + AUTH) and
//! read their own IMAP mailboxes. Every mail the referee sent must arrive
//! exactly once (matched by Message-ID against the outbox), confirmations
//! thread on the order mail, and the game must end.
//!
//! Skips with a message when the servers are not reachable, unless
//! `ARBITRE_TEST_SERVERS=1` (set by `.ci/run`), which makes it mandatory.
//! Each run uses a fresh game id, so mail left by earlier runs or by
//! crates/mail/tests/servers.rs in the same mailboxes is ignored.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre::cli::{run, Cli};
use arbitre::Registry;
use arbitre_mail::outbound::Security;
use arbitre_mail::{ImapConfig, ImapInbox, SmtpConfig, Transport, DEFAULT_MAX_SIZE};
use arbitre_store::{games, outbox, turns, GameStatus, OutboxRow, OutboxStatus, Store};
use clap::Parser;
use std::collections::BTreeMap;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Both tests use the referee's mailbox and the SMTP server: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// How long a mail may take from submission to a mailbox.
const DELIVERY: Duration = Duration::from_secs(60);

struct Servers {
    host: String,
    domain: String,
    imap: u16,
    submission: u16,
    ca: PathBuf,
    _guard: MutexGuard<'static, ()>,
}

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

fn servers() -> Option<Servers> {
    let guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let port = |name: &str, d: u16| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let s = Servers {
        host: env_or("ARBITRE_TEST_MAIL_HOST", "localhost"),
        domain: env_or("ARBITRE_TEST_MAIL_DOMAIN", "arbitre.test"),
        imap: port("ARBITRE_TEST_IMAP_PORT", 143),
        submission: port("ARBITRE_TEST_SUBMISSION_PORT", 587),
        ca: PathBuf::from(env_or(
            "ARBITRE_TEST_MAIL_CA",
            "/var/lib/arbitre-test-mail/ca.pem",
        )),
        _guard: guard,
    };
    let reachable = [s.imap, s.submission].iter().all(|p| {
        std::net::ToSocketAddrs::to_socket_addrs(&(s.host.as_str(), *p))
            .ok()
            .into_iter()
            .flatten()
            .any(|a| TcpStream::connect_timeout(&a, Duration::from_secs(2)).is_ok())
    });
    if reachable && s.ca.is_file() {
        return Some(s);
    }
    let msg = format!(
        "mail servers not reachable on {} (IMAP {}, submission {}, CA {}): run `bash .ci/mail-servers.sh` as root",
        s.host,
        s.imap,
        s.submission,
        s.ca.display()
    );
    if std::env::var("ARBITRE_TEST_SERVERS").as_deref() == Ok("1") {
        panic!("ARBITRE_TEST_SERVERS=1 but {msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

impl Servers {
    fn addr(&self, user: &str) -> String {
        format!("{user}@{}", self.domain)
    }

    /// The daemon's arbitre.toml: IMAP inbox and SMTP submission as the
    /// referee, the password read from a file next to it.
    fn daemon_config(&self, dir: &Path) -> PathBuf {
        std::fs::write(dir.join("referee.pw"), "referee-secret\n").unwrap();
        let cfg = dir.join("arbitre.toml");
        std::fs::write(
            &cfg,
            format!(
                r#"referee = "{referee}"
database = "arbitre.db"
poll_seconds = 1
max_send_attempts = 5
# The welcome mail (issue 17) is tested in welcome_by_mail.rs.
welcome = false

[inbound]
kind = "imap"
host = "{host}"
port = {imap}
security = "starttls"
user = "referee"
password_file = "referee.pw"
ca_file = "{ca}"
timeout_secs = 20

[outbound]
kind = "smtp"
host = "{host}"
port = {submission}
security = "starttls"
user = "referee"
password_file = "referee.pw"
timeout_secs = 20

[argon2]
m_cost = 8
t_cost = 1
"#,
                referee = self.addr("referee"),
                host = self.host,
                imap = self.imap,
                submission = self.submission,
                ca = self.ca.display(),
            ),
        )
        .unwrap();
        cfg
    }

    fn imap(&self, user: &str) -> ImapInbox {
        let mut cfg = ImapConfig::new(
            &self.host,
            self.imap,
            Security::StartTls,
            user,
            &format!("{user}-secret"),
        );
        cfg.ca_file = Some(self.ca.clone());
        cfg.timeout_secs = 20;
        ImapInbox::connect(&cfg).expect("IMAP login")
    }

    /// `user` submits `raw` to the referee over SMTP, as a mail client does.
    fn submit(&self, user: &str, raw: &[u8]) {
        let smtp = Transport::Smtp(SmtpConfig {
            host: self.host.clone(),
            port: self.submission,
            security: Security::StartTls,
            user: Some(user.to_owned()),
            password: Some(format!("{user}-secret")),
            timeout_secs: 20,
            hello_name: None,
            ca_file: None,
        });
        smtp.send(&self.addr(user), &self.addr("referee"), raw)
            .expect("SMTP submission");
    }
}

/// A fresh id per run: the mailboxes outlive the test.
fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{prefix}-{}-{}", std::process::id(), nanos % 1_000_000_000)
}

fn arbitre(config: &Path, args: &[&str]) -> String {
    let mut argv = vec!["arbitre", "--config", config.to_str().unwrap()];
    argv.extend_from_slice(args);
    let mut out = Vec::new();
    let code = run(
        Cli::try_parse_from(&argv).unwrap(),
        Registry::builtin(),
        &mut out,
    )
    .unwrap_or_else(|e| panic!("arbitre {args:?}: {e:#}"));
    assert_eq!(code, 0, "arbitre {args:?}");
    String::from_utf8(out).unwrap()
}

fn game_toml(s: &Servers, id: &str, gm: &str) -> String {
    format!(
        r#"id = "{id}"
ruleset = "nebulight"
seed = 7
language = "fr"
gm_email = "{gm}"

[schedule]
interval = "7d"
early = true

[rules]
map = "duel-petit"
turns = 3

[[players]]
id = "alice"
name = "Alice"
email = "{alice}"
password = "alice-pw"

[[players]]
id = "bob"
name = "Bob"
email = "{bob}"
password = "bob-pw"
"#,
        alice = s.addr("alice"),
        bob = s.addr("bob"),
    )
}

/// An order mail as a mail client writes it (UTF-8, CRLF).
fn order_mail(s: &Servers, player: &str, game: &str, turn: u32, orders: &str) -> (String, Vec<u8>) {
    let mid = format!(
        "{}@client.{}",
        unique(&format!("{player}-t{turn}")),
        s.domain
    );
    let body = format!("Bonjour l'arbitre,\n\nGAME {game} PLAYER {player} PASSWORD {player}-pw\n{}\nEND\n\nÀ bientôt\n", orders.trim_end());
    let raw = format!(
        "From: {player} <{from}>\r\nTo: {to}\r\nSubject: ordres tour {turn}\r\nDate: {date}\r\nMessage-ID: <{mid}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        body.replace('\n', "\r\n"),
        from = s.addr(player),
        to = s.addr("referee"),
        date = chrono::Utc::now().to_rfc2822(),
    );
    (mid, raw.into_bytes())
}

/// The value of header `name` (first occurrence, unfolded) in a raw mail.
fn header(raw: &[u8], name: &str) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let head = text
        .split("\r\n\r\n")
        .next()
        .unwrap_or("")
        .replace("\r\n ", " ")
        .replace("\r\n\t", " ");
    let prefix = format!("{}:", name.to_ascii_lowercase());
    head.split("\r\n")
        .find(|l| l.to_ascii_lowercase().starts_with(&prefix))
        .map(|l| l[prefix.len()..].trim().to_string())
}

fn bare_id(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

/// File names of the MIME attachments of a raw mail.
fn attachment_names(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let mut names: Vec<String> = text
        .match_indices("filename=")
        .map(|(i, _)| {
            let rest = &text[i + "filename=".len()..];
            let rest = rest.trim_start_matches('"');
            rest.chars()
                .take_while(|c| *c != '"' && *c != ';' && *c != '\r' && *c != '\n')
                .collect()
        })
        .collect();
    names.sort();
    names
}

/// Every message in `user`'s INBOX (read or not) whose subject names the
/// game, by Message-ID, with how many copies arrived.
fn mailbox(s: &Servers, user: &str, game: &str) -> BTreeMap<String, (usize, Vec<u8>)> {
    let mut inbox = s.imap(user);
    let mut out: BTreeMap<String, (usize, Vec<u8>)> = BTreeMap::new();
    for e in inbox.pending_all().unwrap() {
        let raw = inbox.read(&e, DEFAULT_MAX_SIZE).unwrap();
        let m = arbitre_mail::parse_mail(&raw, DEFAULT_MAX_SIZE).unwrap();
        if !m.subject.contains(&format!("[{game}]")) {
            continue;
        }
        let id = bare_id(m.message_id.as_deref().unwrap_or(""));
        let entry = out.entry(id).or_insert((0, raw));
        entry.0 += 1;
    }
    let _ = inbox.logout();
    out
}

/// The sent outbox rows addressed to `recipient` for `game`.
fn sent_to(db: &Path, game: &str, recipient: &str) -> Vec<OutboxRow> {
    let store = Store::open(db).unwrap();
    outbox::all(store.conn())
        .unwrap()
        .into_iter()
        .filter(|r| r.mail.recipient == recipient && r.mail.game_id.as_deref() == Some(game))
        .collect()
}

/// Waits until every mail the referee sent to `user` for `game` is in
/// their IMAP mailbox; returns the mailbox.
fn wait_delivered(
    s: &Servers,
    db: &Path,
    game: &str,
    user: &str,
) -> BTreeMap<String, (usize, Vec<u8>)> {
    let start = Instant::now();
    loop {
        let sent = sent_to(db, game, &s.addr(user));
        assert!(
            sent.iter().all(|r| r.status == OutboxStatus::Sent),
            "unsent mail to {user}: {sent:#?}"
        );
        let got = mailbox(s, user, game);
        let missing: Vec<_> = sent
            .iter()
            .filter(|r| !got.contains_key(&bare_id(&r.mail.message_id)))
            .map(|r| r.mail.subject.clone())
            .collect();
        if missing.is_empty() {
            return got;
        }
        assert!(
            start.elapsed() < DELIVERY,
            "{user} never received {missing:?}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
fn nebulight_game_played_over_postfix_and_dovecot() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let cfg = s.daemon_config(dir.path());
    let db = dir.path().join("arbitre.db");
    let game = unique("neb");
    let toml = dir.path().join("game.toml");
    // The GM's copy goes to the referee's own inbox: the daemon must read it
    // there and never answer it (no mail loop).
    std::fs::write(&toml, game_toml(&s, &game, &s.addr("referee"))).unwrap();

    let out = arbitre(&cfg, &["game", "create", toml.to_str().unwrap()]);
    assert!(out.contains(&format!("game {game} created")), "{out}");
    assert!(
        out.contains("3 mail(s) sent"),
        "turn-0 report to alice, bob and the GM over SMTP: {out}"
    );
    for user in ["alice", "bob"] {
        let got = wait_delivered(&s, &db, &game, user);
        assert_eq!(got.len(), 1, "{user}: the turn-0 report");
    }

    let registry = Registry::builtin();
    let mut turn = 1;
    let mut order_ids: BTreeMap<(String, u32), String> = BTreeMap::new();
    loop {
        // Each player's bot writes their orders from the current state, as
        // a player reading their report would.
        let orders = {
            let store = Store::open(&db).unwrap();
            let row = games::require_game(store.conn(), &game).unwrap();
            let engine = registry.get("nebulight").unwrap();
            let state = turns::latest(store.conn(), &game).unwrap().state;
            ["alice", "bob"].map(|p| {
                engine
                    .bot_orders(&state, row.seed, &arbitre_core::PlayerId::new(p))
                    .unwrap()
            })
        };
        for (p, o) in ["alice", "bob"].iter().zip(&orders) {
            let (mid, raw) = order_mail(&s, p, &game, turn, o);
            s.submit(p, &raw);
            order_ids.insert((p.to_string(), turn), mid);
        }
        // `serve --once` until both mails came through Postfix and Dovecot
        // and the turn resolved early (both players sent orders).
        let start = Instant::now();
        loop {
            arbitre(&cfg, &["serve", "--once"]);
            let store = Store::open(&db).unwrap();
            if games::require_game(store.conn(), &game).unwrap().turn >= turn {
                break;
            }
            assert!(start.elapsed() < DELIVERY, "turn {turn} never resolved");
            std::thread::sleep(Duration::from_millis(300));
        }
        for user in ["alice", "bob"] {
            let got = wait_delivered(&s, &db, &game, user);
            let sent = sent_to(&db, &game, &s.addr(user));
            let confirm = sent
                .iter()
                .find(|r| r.mail.kind == "confirm" && r.mail.turn == Some(turn));
            let confirm = confirm
                .unwrap_or_else(|| panic!("no confirmation to {user} for turn {turn}: {sent:#?}"));
            let raw = &got[&bare_id(&confirm.mail.message_id)].1;
            assert_eq!(
                header(raw, "In-Reply-To").map(|h| bare_id(&h)).as_deref(),
                Some(order_ids[&(user.to_string(), turn)].as_str()),
                "the confirmation threads on the order mail"
            );
            assert_eq!(
                header(raw, "Auto-Submitted").as_deref(),
                Some("auto-replied")
            );
            let body = arbitre_mail::body_of(raw).unwrap();
            assert!(body.contains(game.as_str()), "{body}");
            let report = sent
                .iter()
                .find(|r| r.mail.kind == "report" && r.mail.turn == Some(turn));
            let report = report.unwrap_or_else(|| panic!("no report to {user} for turn {turn}"));
            let raw = &got[&bare_id(&report.mail.message_id)].1;
            assert_eq!(
                header(raw, "Auto-Submitted").as_deref(),
                Some("auto-generated")
            );
            // The player reads the very report the referee stored, with its
            // attachments as MIME parts.
            assert_eq!(
                arbitre_mail::body_of(raw).unwrap().trim_end(),
                report.mail.body.trim_end()
            );
            assert_eq!(
                attachment_names(raw),
                attachment_names(&report.mail.raw),
                "attachments of the turn {turn} report"
            );
        }
        let store = Store::open(&db).unwrap();
        if games::require_game(store.conn(), &game).unwrap().status == GameStatus::Over {
            break;
        }
        turn += 1;
        assert!(
            turn <= 3,
            "rules turns = 3: the game must be over after turn 3"
        );
    }
    assert_eq!(turn, 3, "the game ends after its third turn");
    let status = arbitre(&cfg, &["status", &game]);
    assert!(status.contains("over"), "{status}");
    assert!(status.contains("outbox: 0 pending, 0 failed"), "{status}");

    // Exactly once: a last cycle sends nothing more, and after a pause
    // (anything late would have arrived) every mailbox holds each mail the
    // referee sent once, and nothing else for this game.
    let out = arbitre(&cfg, &["serve", "--once"]);
    assert!(out.contains("0 mail(s) sent"), "{out}");
    std::thread::sleep(Duration::from_secs(2));
    for user in ["alice", "bob"] {
        let got = wait_delivered(&s, &db, &game, user);
        let sent = sent_to(&db, &game, &s.addr(user));
        let dup: Vec<_> = got
            .iter()
            .filter(|(_, (n, _))| *n != 1)
            .map(|(id, (n, _))| format!("{id} x{n}"))
            .collect();
        assert!(dup.is_empty(), "{user} received duplicates: {dup:?}");
        assert_eq!(
            got.len(),
            sent.len(),
            "{user}: exactly the mails the outbox sent"
        );
        // turn-0 report, then a confirmation and a report per turn.
        assert_eq!(
            sent.len(),
            1 + 2 * 3,
            "{user}: {:#?}",
            sent.iter().map(|r| &r.mail.subject).collect::<Vec<_>>()
        );
        let reports = sent.iter().filter(|r| r.mail.kind == "report").count();
        assert_eq!(reports, 4, "{user}: one report per turn 0..=3");
    }
    // The GM's copies reached the referee's inbox and were read, never answered.
    let store = Store::open(&db).unwrap();
    let answered_self = outbox::all(store.conn())
        .unwrap()
        .into_iter()
        .filter(|r| r.mail.recipient == s.addr("referee") && r.mail.kind != "gm")
        .count();
    assert_eq!(answered_self, 0, "the referee never answers its own mail");
}

#[test]
fn permanent_smtp_failure_is_recorded_and_shown_in_status() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let cfg = s.daemon_config(dir.path());
    let db = dir.path().join("arbitre.db");
    let game = unique("fail");
    let toml = dir.path().join("game.toml");
    // Postfix refuses an unknown user of its virtual domain at RCPT TO with
    // 550 5.1.1: a permanent failure, not to be retried.
    let nobody = s.addr("nobody-here");
    std::fs::write(&toml, game_toml(&s, &game, &nobody)).unwrap();
    let out = arbitre(&cfg, &["game", "create", toml.to_str().unwrap()]);
    assert!(out.contains("2 mail(s) sent, 1 failed"), "{out}");

    let store = Store::open(&db).unwrap();
    let rows = outbox::all(store.conn()).unwrap();
    let failed: Vec<_> = rows.iter().filter(|r| r.mail.recipient == nobody).collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(
        failed[0].status,
        OutboxStatus::Failed,
        "5xx is permanent: {:?}",
        failed[0]
    );
    assert_eq!(failed[0].attempts, 1, "a permanent failure is not retried");
    let err = failed[0].last_error.clone().unwrap_or_default();
    assert!(err.contains("550") || err.contains("5.1.1"), "{err}");
    drop(store);

    let status = arbitre(&cfg, &["status"]);
    assert!(status.contains("outbox: 0 pending, 1 failed"), "{status}");
    assert!(
        status.contains(&format!(
            "FAILED <{}> to {nobody}",
            bare_id(&failed[0].mail.message_id)
        )) || status.contains(&format!("to {nobody}")),
        "{status}"
    );
    // A later cycle does not try it again.
    // (An idle `serve --once` prints nothing, issue 19 item 11.)
    let out = arbitre(&cfg, &["serve", "--once"]);
    assert!(
        out.is_empty() || out.contains("0 mail(s) sent, 0 send failure(s)"),
        "{out}"
    );
}

/// The built binary's `arbitre serve` loop (not `--once`): between cycles it
/// waits on the IMAP inbox (IDLE on Dovecot), so a submitted order mail is
/// confirmed without any outside nudge.
#[test]
fn serve_loop_wakes_on_imap_mail_and_confirms() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let cfg = s.daemon_config(dir.path());
    // A long poll: only IDLE (or the cycle's own timeout) can wake it early.
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("poll_seconds = 1", "poll_seconds = 30");
    std::fs::write(&cfg, text).unwrap();
    let db = dir.path().join("arbitre.db");
    let game = unique("loop");
    let toml = dir.path().join("game.toml");
    std::fs::write(&toml, game_toml(&s, &game, &s.addr("referee"))).unwrap();
    arbitre(&cfg, &["game", "create", toml.to_str().unwrap()]);

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbitre"))
        .args(["--config", cfg.to_str().unwrap(), "serve"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start arbitre serve");
    // Give the daemon time to finish its first cycle and enter IDLE.
    std::thread::sleep(Duration::from_secs(3));
    let orders = {
        let store = Store::open(&db).unwrap();
        let row = games::require_game(store.conn(), &game).unwrap();
        let state = turns::latest(store.conn(), &game).unwrap().state;
        Registry::builtin()
            .get("nebulight")
            .unwrap()
            .bot_orders(&state, row.seed, &arbitre_core::PlayerId::new("alice"))
            .unwrap()
    };
    let (mid, raw) = order_mail(&s, "alice", &game, 1, &orders);
    s.submit("alice", &raw);
    let start = Instant::now();
    let confirmed = loop {
        let got = mailbox(&s, "alice", &game);
        let reply = got.values().find(|(_, raw)| {
            header(raw, "In-Reply-To").map(|h| bare_id(&h)).as_deref() == Some(mid.as_str())
        });
        if let Some((n, _)) = reply {
            break *n;
        }
        if start.elapsed() > Duration::from_secs(25) {
            break 0;
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        confirmed, 1,
        "the serving daemon answered alice's order mail once, well before its 30 s poll"
    );
    let store = Store::open(&db).unwrap();
    let confirms = outbox::all(store.conn())
        .unwrap()
        .into_iter()
        .filter(|r| r.mail.kind == "confirm")
        .count();
    assert_eq!(confirms, 1, "one confirmation queued");
}

// ---------------------------------------------------------------------------
// Issue 14, the real mail path: items 10 (IMAP outage), 11 (IDLE past a
// deadline) and 12 (duplicate delivery), against the second, stoppable
// Dovecot of .ci/mail-servers.sh (same mailboxes, IMAP on its own port,
// imap_idle_notify_interval of 2 s) and the main Postfix.

/// The stoppable Dovecot. Dropping it starts it again if a test stopped it
/// (even when the test fails), so later tests find it running.
struct Outage {
    conf: PathBuf,
    port: u16,
    stopped: bool,
}

impl Outage {
    fn get() -> Option<Outage> {
        let conf = PathBuf::from(env_or(
            "ARBITRE_TEST_OUTAGE_DOVECOT_CONF",
            "/var/lib/arbitre-test-mail/dovecot-outage.conf",
        ));
        let port = env_or("ARBITRE_TEST_OUTAGE_IMAP_PORT", "10143")
            .parse()
            .unwrap_or(10143);
        let o = Outage {
            conf,
            port,
            stopped: false,
        };
        if o.conf.is_file() && o.listening() {
            return Some(o);
        }
        let msg = format!("second Dovecot ({}, port {port}) not running: rerun `bash .ci/mail-servers.sh` as root", o.conf.display());
        if std::env::var("ARBITRE_TEST_SERVERS").as_deref() == Ok("1") {
            panic!("ARBITRE_TEST_SERVERS=1 but {msg}");
        }
        eprintln!("SKIPPED: {msg}");
        None
    }

    fn listening(&self) -> bool {
        TcpStream::connect_timeout(
            &std::net::SocketAddr::from(([127, 0, 0, 1], self.port)),
            Duration::from_secs(2),
        )
        .is_ok()
    }

    fn wait_listening(&self, up: bool) {
        let start = Instant::now();
        while self.listening() != up {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "Dovecot on {} never {}",
                self.port,
                if up { "came up" } else { "went down" }
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn stop(&mut self) {
        let st = std::process::Command::new("doveadm")
            .arg("-c")
            .arg(&self.conf)
            .arg("stop")
            .status()
            .expect("doveadm stop");
        assert!(st.success(), "doveadm stop: {st:?}");
        self.stopped = true;
        self.wait_listening(false);
    }

    fn start(&mut self) {
        let st = std::process::Command::new("dovecot")
            .arg("-c")
            .arg(&self.conf)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("dovecot start");
        assert!(st.success(), "dovecot start: {st:?}");
        self.stopped = false;
        self.wait_listening(true);
    }

    /// The daemon's configuration, reading this Dovecot instead of the main one.
    fn daemon_config(&self, s: &Servers, dir: &Path, poll_seconds: u64) -> PathBuf {
        let cfg = s.daemon_config(dir);
        let text = std::fs::read_to_string(&cfg)
            .unwrap()
            .replacen(
                &format!("port = {}\n", s.imap),
                &format!("port = {}\n", self.port),
                1,
            )
            .replace(
                "poll_seconds = 1\n",
                &format!("poll_seconds = {poll_seconds}\n"),
            );
        std::fs::write(&cfg, text).unwrap();
        cfg
    }
}

impl Drop for Outage {
    fn drop(&mut self) {
        if self.stopped {
            let _ = std::process::Command::new("dovecot")
                .arg("-c")
                .arg(&self.conf)
                .stdin(std::process::Stdio::null())
                .status();
        }
    }
}

/// `arbitre serve` as the real binary, its log kept in a file.
struct Serving {
    child: std::process::Child,
    log: PathBuf,
}

impl Serving {
    fn start(cfg: &Path, dir: &Path) -> Serving {
        let log = dir.join("serve.log");
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_arbitre"))
            .args(["--config", cfg.to_str().unwrap(), "serve"])
            .env("ARBITRE_LOG", "info")
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("start arbitre serve");
        Serving { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn assert_running(&mut self) {
        if let Some(st) = self.child.try_wait().unwrap() {
            panic!("arbitre serve exited ({st:?}):\n{}", self.log());
        }
    }

    /// SIGTERM, then the exit status must be success.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success());
        let start = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                assert!(
                    st.success(),
                    "arbitre serve after SIGTERM: {st:?}\n{}",
                    self.log()
                );
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "arbitre serve ignored SIGTERM:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_until(what: &str, limit: Duration, mut f: impl FnMut() -> bool, serving: &mut Serving) {
    let start = Instant::now();
    while !f() {
        serving.assert_running();
        assert!(
            start.elapsed() < limit,
            "{what}: not within {limit:?}\n{}",
            serving.log()
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

fn turn_of(db: &Path, game: &str) -> u32 {
    let store = Store::open(db).unwrap();
    games::require_game(store.conn(), game).unwrap().turn
}

fn bot_orders(db: &Path, game: &str, player: &str) -> String {
    let store = Store::open(db).unwrap();
    let row = games::require_game(store.conn(), game).unwrap();
    let state = turns::latest(store.conn(), game).unwrap().state;
    Registry::builtin()
        .get("nebulight")
        .unwrap()
        .bot_orders(&state, row.seed, &arbitre_core::PlayerId::new(player))
        .unwrap()
}

fn journal_of(db: &Path, mid: &str) -> Vec<arbitre_store::JournalEntry> {
    let store = Store::open(db).unwrap();
    arbitre_store::journal::entries(store.conn())
        .unwrap()
        .into_iter()
        .filter(|e| e.message_id.as_deref().map(bare_id).as_deref() == Some(mid))
        .collect()
}

fn orders_count(db: &Path, game: &str, player: &str, turn: u32) -> i64 {
    let store = Store::open(db).unwrap();
    store
        .conn()
        .query_row(
            "SELECT count(*) FROM orders WHERE game_id = ?1 AND player = ?2 AND turn = ?3",
            rusqlite::params![game, player, turn],
            |r| r.get(0),
        )
        .unwrap()
}

/// Item 10: Dovecot stopped under a running daemon. It keeps serving: the
/// deadline that passes meanwhile is resolved and its reports are sent
/// (Postfix is up); a player's mail delivered during the outage is read
/// once Dovecot is back; and SIGTERM still stops it cleanly.
#[test]
fn imap_outage_daemon_keeps_running() {
    let Some(s) = servers() else { return };
    let Some(mut dovecot) = Outage::get() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = dovecot.daemon_config(&s, dir.path(), 1);
    let db = dir.path().join("arbitre.db");
    let game = unique("outage");
    let toml = dir.path().join("game.toml");
    std::fs::write(&toml, game_toml(&s, &game, &s.addr("referee"))).unwrap();
    arbitre(&cfg, &["game", "create", toml.to_str().unwrap()]);

    let mut serving = Serving::start(&cfg, dir.path());
    std::thread::sleep(Duration::from_secs(3));
    serving.assert_running();
    dovecot.stop();
    // An IMAP session open at the stop can outlive it for a while: wait
    // until the daemon has really lost its inbox.
    let log_file = serving.log.clone();
    let noticed = || {
        std::fs::read_to_string(&log_file)
            .unwrap_or_default()
            .contains("inbox unreachable")
    };
    wait_until(
        "the daemon noticed the outage",
        Duration::from_secs(90),
        noticed,
        &mut serving,
    );
    let deadline = (chrono::Utc::now() + chrono::Duration::seconds(4)).to_rfc3339();
    arbitre(&cfg, &["deadline", &game, &deadline]);
    wait_until(
        "turn 1 resolved by its deadline while Dovecot is down",
        Duration::from_secs(60),
        || turn_of(&db, &game) == 1,
        &mut serving,
    );
    assert!(!dovecot.listening(), "still down when the turn resolved");
    // The game master's turn mail (plain text) leaves through Postfix
    // meanwhile. (Players' reports carry an attachment that a Postfix with
    // smtpd_forbid_bare_newline refuses until item 13 is fixed.)
    wait_until(
        "turn 1 mail to the GM sent while Dovecot is down",
        Duration::from_secs(60),
        || {
            let store = Store::open(&db).unwrap();
            outbox::all(store.conn()).unwrap().into_iter().any(|r| {
                r.mail.game_id.as_deref() == Some(game.as_str())
                    && r.mail.kind == "gm"
                    && r.mail.turn == Some(1)
                    && r.status == OutboxStatus::Sent
            })
        },
        &mut serving,
    );
    // Alice's orders for turn 2 reach the mailbox (Postfix delivers through
    // the main Dovecot) while the daemon's IMAP server is still down.
    let (mid, raw) = order_mail(&s, "alice", &game, 2, &bot_orders(&db, &game, "alice"));
    s.submit("alice", &raw);
    std::thread::sleep(Duration::from_secs(2));
    assert!(journal_of(&db, &mid).is_empty(), "not readable yet");
    serving.assert_running();
    dovecot.start();
    wait_until(
        "alice's mail read after Dovecot came back",
        Duration::from_secs(120),
        || !journal_of(&db, &mid).is_empty(),
        &mut serving,
    );
    assert_eq!(orders_count(&db, &game, "alice", 2), 1);
    let log = serving.log();
    assert!(
        log.contains("inbox unreachable"),
        "the outage was logged:\n{log}"
    );
    assert!(
        log.contains("inbox reachable again"),
        "and the recovery:\n{log}"
    );
    serving.stop();
}

/// Item 11: with poll_seconds = 60 and Dovecot's keep-alive every 2 s, the
/// serving daemon still resolves a deadline due in a few seconds, on time:
/// its IDLE wait ends at the deadline.
#[test]
fn idle_ends_at_cycle_deadline() {
    let Some(s) = servers() else { return };
    let Some(dovecot) = Outage::get() else { return };
    let dir = tempfile::tempdir().unwrap();
    let cfg = dovecot.daemon_config(&s, dir.path(), 60);
    let db = dir.path().join("arbitre.db");
    let game = unique("idle");
    let toml = dir.path().join("game.toml");
    std::fs::write(&toml, game_toml(&s, &game, &s.addr("referee"))).unwrap();
    arbitre(&cfg, &["game", "create", toml.to_str().unwrap()]);
    // Whole seconds: the database keeps deadlines to the second.
    let deadline = chrono::DateTime::from_timestamp(chrono::Utc::now().timestamp() + 8, 0).unwrap();
    arbitre(&cfg, &["deadline", &game, &deadline.to_rfc3339()]);
    let mut serving = Serving::start(&cfg, dir.path());
    // Well before the 60 s poll: only the deadline can have ended the wait
    // (or a stray mail to the referee, which would wake IDLE early too).
    wait_until(
        "turn resolved at its deadline under IDLE",
        Duration::from_secs(40),
        || turn_of(&db, &game) == 1,
        &mut serving,
    );
    assert!(chrono::Utc::now() >= deadline, "not before the deadline");
    serving.stop();
}

/// Item 12: the same mail submitted twice through Postfix arrives with
/// different `Received:` lines (so different bytes); it is played once,
/// and a third copy after the turn resolved is not played as next turn's.
#[test]
fn duplicate_delivery_by_message_id() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let cfg = s.daemon_config(dir.path());
    let db = dir.path().join("arbitre.db");
    let game = unique("dup");
    let toml = dir.path().join("game.toml");
    std::fs::write(&toml, game_toml(&s, &game, &s.addr("referee"))).unwrap();
    arbitre(&cfg, &["game", "create", toml.to_str().unwrap()]);
    let (mid, raw) = order_mail(&s, "alice", &game, 1, &bot_orders(&db, &game, "alice"));
    s.submit("alice", &raw);
    s.submit("alice", &raw);
    let cycle_until = |what: &str, f: &dyn Fn() -> bool| {
        let start = Instant::now();
        while !f() {
            assert!(start.elapsed() < DELIVERY, "{what}");
            arbitre(&cfg, &["serve", "--once"]);
            std::thread::sleep(Duration::from_millis(300));
        }
    };
    cycle_until("both copies read", &|| journal_of(&db, &mid).len() == 2);
    let rows = journal_of(&db, &mid);
    assert_ne!(
        rows[0].sha256, rows[1].sha256,
        "Postfix made the two copies differ"
    );
    assert_eq!(
        rows.iter().filter(|r| r.outcome == "stored").count(),
        1,
        "{rows:#?}"
    );
    assert!(
        rows.iter()
            .any(|r| r.outcome == "ignored" && r.detail.contains("duplicate delivery")),
        "{rows:#?}"
    );
    assert_eq!(orders_count(&db, &game, "alice", 1), 1);
    let confirms = || {
        sent_to(&db, &game, &s.addr("alice"))
            .into_iter()
            .filter(|r| r.mail.kind == "confirm")
            .count()
    };
    assert_eq!(confirms(), 1, "one answer");

    let (_, bob) = order_mail(&s, "bob", &game, 1, &bot_orders(&db, &game, "bob"));
    s.submit("bob", &bob);
    cycle_until("turn 1 resolved", &|| turn_of(&db, &game) == 1);
    s.submit("alice", &raw);
    cycle_until("the third copy read", &|| journal_of(&db, &mid).len() == 3);
    assert_eq!(
        orders_count(&db, &game, "alice", 2),
        0,
        "not played again as turn 2's orders"
    );
    assert_eq!(confirms(), 1);
}
