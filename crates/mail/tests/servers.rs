//! Against real servers: Postfix (submission, STARTTLS + AUTH) and Dovecot
//! (IMAP, STARTTLS and implicit TLS), as set up by `.ci/mail-servers.sh`.
//!
//! The tests skip with a message when the servers are not reachable, unless
//! `ARBITRE_TEST_SERVERS=1` (set by `.ci/run`), which makes them mandatory.
//! Settings default to the script's values and can be overridden with the
//! variables it writes to `/var/lib/arbitre-test-mail/env`.
//!
//! The referee's inbox is shared by these tests, so they run one at a time
//! (a mutex) and each only touches messages carrying its own marker.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use arbitre_mail::outbound::Security;
use arbitre_mail::{
    body_of, format_mail, parse_mail, Attachment, AutoKind, ImapConfig, ImapError, ImapInbox,
    Inbox, InboxConfig, InboxEntry, OutgoingMail, SmtpConfig, Transport, DEFAULT_MAX_SIZE,
};

static SERIAL: Mutex<()> = Mutex::new(());

struct Servers {
    host: String,
    domain: String,
    imap: u16,
    imaps: u16,
    submission: u16,
    smtps: u16,
    ca: Option<PathBuf>,
    _guard: MutexGuard<'static, ()>,
}

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

fn port(name: &str, default: u16) -> u16 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn servers() -> Option<Servers> {
    let guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let host = env_or("ARBITRE_TEST_MAIL_HOST", "localhost");
    let s = Servers {
        domain: env_or("ARBITRE_TEST_MAIL_DOMAIN", "arbitre.test"),
        imap: port("ARBITRE_TEST_IMAP_PORT", 143),
        imaps: port("ARBITRE_TEST_IMAPS_PORT", 993),
        submission: port("ARBITRE_TEST_SUBMISSION_PORT", 587),
        smtps: port("ARBITRE_TEST_SMTPS_PORT", 465),
        ca: Some(PathBuf::from(env_or(
            "ARBITRE_TEST_MAIL_CA",
            "/var/lib/arbitre-test-mail/ca.pem",
        )))
        .filter(|p| p.is_file()),
        host,
        _guard: guard,
    };
    let reachable = [s.imap, s.imaps, s.submission, s.smtps].iter().all(|p| {
        std::net::ToSocketAddrs::to_socket_addrs(&(s.host.as_str(), *p))
            .ok()
            .into_iter()
            .flatten()
            .any(|a| TcpStream::connect_timeout(&a, Duration::from_secs(2)).is_ok())
    });
    if reachable {
        return Some(s);
    }
    let msg = format!(
        "mail servers not reachable on {} (IMAP {}, IMAPS {}, submission {}, SMTPS {}): run `bash .ci/mail-servers.sh` as root",
        s.host, s.imap, s.imaps, s.submission, s.smtps
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

    fn smtp(&self, user: &str) -> Transport {
        Transport::Smtp(SmtpConfig {
            host: self.host.clone(),
            port: self.submission,
            security: Security::StartTls,
            user: Some(user.to_owned()),
            password: Some(format!("{user}-secret")),
            timeout_secs: 20,
            hello_name: None,
            ca_file: None,
        })
    }

    fn imap_cfg(&self, user: &str, port: u16, security: Security) -> ImapConfig {
        let mut cfg = ImapConfig::new(&self.host, port, security, user, &format!("{user}-secret"));
        cfg.ca_file = self.ca.clone();
        cfg.timeout_secs = 20;
        cfg
    }

    fn imap(&self, user: &str) -> ImapInbox {
        ImapInbox::connect(&self.imap_cfg(user, self.imap, Security::StartTls)).expect("IMAP login")
    }

    /// `from` submits a mail to `to` over SMTP; returns its marker.
    fn submit(&self, from: &str, to: &str, marker: &str, body: &str) {
        let mail = OutgoingMail {
            from: self.addr(from),
            to: self.addr(to),
            subject: format!("test {marker}"),
            body: body.to_owned(),
            message_id: format!("{marker}@{}", self.domain),
            in_reply_to: None,
            auto_submitted: "auto-generated",
            date: "Sun, 29 Nov 2026 12:00:00 +0000".into(),
            attachments: vec![],
        };
        let raw = format_mail(&mail).unwrap();
        self.smtp(from)
            .send(&self.addr(from), &self.addr(to), &raw)
            .expect("SMTP submission");
    }
}

fn marker(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{tag}-{}-{nanos}", std::process::id())
}

/// The daemon's loop in miniature: list, read, record in the journal
/// (keyed by SHA-256), then mark done. Returns the subjects processed now.
fn process(
    inbox: &mut ImapInbox,
    marker: &str,
    journal: &mut BTreeSet<String>,
) -> Result<Vec<String>, ImapError> {
    let mut processed = Vec::new();
    for e in inbox.pending()? {
        let raw = inbox.read(&e, DEFAULT_MAX_SIZE)?;
        let mail = parse_mail(&raw, DEFAULT_MAX_SIZE).unwrap();
        if !mail.subject.contains(marker) {
            continue; // another test's mail
        }
        if journal.insert(mail.sha256.clone()) {
            processed.push(mail.subject.clone());
        }
        inbox.mark_done(&e)?;
    }
    Ok(processed)
}

/// Waits until `inbox` holds a pending mail whose subject has `marker`.
fn wait_for(inbox: &mut ImapInbox, marker: &str) {
    let start = Instant::now();
    loop {
        for e in inbox.pending().unwrap() {
            let raw = inbox.read(&e, DEFAULT_MAX_SIZE).unwrap();
            if parse_mail(&raw, DEFAULT_MAX_SIZE)
                .unwrap()
                .subject
                .contains(marker)
            {
                return;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "mail {marker} never arrived"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn smtp_submission_then_imap_read_exactly_once() {
    let Some(s) = servers() else { return };
    let m = marker("once");
    s.submit(
        "alice",
        "referee",
        &m,
        "GAME neb1 PLAYER alice PASSWORD pw\nF1 M W3\nEND\n",
    );
    let mut inbox = s.imap("referee");
    wait_for(&mut inbox, &m);
    let mut journal = BTreeSet::new();
    let first = process(&mut inbox, &m, &mut journal).unwrap();
    assert_eq!(first, [format!("test {m}")]);
    // Marked done: neither this session nor a new one sees it again.
    assert!(process(&mut inbox, &m, &mut journal).unwrap().is_empty());
    inbox.logout().unwrap();
    let mut again = s.imap("referee");
    let mut fresh_journal = BTreeSet::new();
    assert!(
        process(&mut again, &m, &mut fresh_journal)
            .unwrap()
            .is_empty(),
        "flag survived reconnection"
    );
}

#[test]
fn smtp_implicit_tls_works_and_bad_smtp_password_is_installation() {
    let Some(s) = servers() else { return };
    let m = marker("smtps");
    let mail = OutgoingMail {
        from: s.addr("bob"),
        to: s.addr("alice"),
        subject: format!("test {m}"),
        body: "Grüße über implizites TLS\n".into(),
        message_id: format!("{m}@{}", s.domain),
        in_reply_to: None,
        auto_submitted: "auto-generated",
        date: "Sun, 29 Nov 2026 12:00:00 +0000".into(),
        attachments: vec![],
    };
    let raw = format_mail(&mail).unwrap();
    let tls = |password: &str| {
        Transport::Smtp(SmtpConfig {
            host: s.host.clone(),
            port: s.smtps,
            security: Security::Tls,
            user: Some("bob".into()),
            password: Some(password.into()),
            timeout_secs: 20,
            hello_name: None,
            ca_file: None,
        })
    };
    tls("bob-secret")
        .send(&s.addr("bob"), &s.addr("alice"), &raw)
        .expect("SMTPS");
    let mut inbox = s.imap("alice");
    wait_for(&mut inbox, &m);
    let mut journal = BTreeSet::new();
    assert_eq!(process(&mut inbox, &m, &mut journal).unwrap().len(), 1);
    match tls("wrong").send(&s.addr("bob"), &s.addr("alice"), &raw) {
        // Issue 14 item 6: the installation's failure, not the mail's.
        Err(e) => assert!(
            e.is_installation(),
            "535 authentication failure is the installation's: {e}"
        ),
        Ok(()) => panic!("sent with a wrong password"),
    }
}

#[test]
fn implicit_tls_and_starttls_both_work_and_bad_password_is_refused() {
    let Some(s) = servers() else { return };
    let tls = ImapInbox::connect(&s.imap_cfg("alice", s.imaps, Security::Tls)).expect("IMAPS");
    assert!(tls.uid_validity() > 0);
    tls.logout().unwrap();
    let starttls = s.imap("alice");
    assert!(starttls.supports_idle());
    starttls.logout().unwrap();
    let mut bad = s.imap_cfg("alice", s.imap, Security::StartTls);
    bad.password = "wrong".into();
    match ImapInbox::connect(&bad) {
        Err(e @ ImapError::Auth(_)) => assert!(!e.is_transient()),
        other => panic!("expected Auth error, got {other:?}"),
    }
    // Implicit TLS spoken to the plain port fails cleanly, no hang.
    let wrong = s.imap_cfg("alice", s.imap, Security::Tls);
    assert!(matches!(
        ImapInbox::connect(&wrong),
        Err(ImapError::Tls(_) | ImapError::Lost(_))
    ));
}

/// A TCP relay in front of Dovecot whose connections the test can cut.
struct Relay {
    port: u16,
    conns: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn start(host: &str, target: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let conns = Arc::new(Mutex::new(Vec::new()));
        let c2 = Arc::clone(&conns);
        let host = host.to_owned();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { return };
                let Ok(upstream) = TcpStream::connect((host.as_str(), target)) else {
                    return;
                };
                let mut list = c2.lock().unwrap();
                list.push(client.try_clone().unwrap());
                list.push(upstream.try_clone().unwrap());
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), upstream.try_clone().unwrap()),
                    (upstream, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Relay { port, conns }
    }

    fn cut(&self) {
        for s in self.conns.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

#[test]
fn imap_connection_cut_between_fetch_and_flag_is_processed_once_after_reconnect() {
    let Some(s) = servers() else { return };
    let m = marker("cut");
    s.submit(
        "bob",
        "referee",
        &m,
        "SPIEL eds1 SPIELER bob PASSWORT pw\nENDE\n",
    );
    let relay = Relay::start("127.0.0.1", s.imap);
    let mut cfg = s.imap_cfg("referee", relay.port, Security::StartTls);
    cfg.host = "localhost".into();
    let mut inbox = ImapInbox::connect(&cfg).expect("IMAP through relay");
    wait_for(&mut inbox, &m);

    // Fetch and record, then the connection drops before the flag.
    let mut journal = BTreeSet::new();
    let mut processed = Vec::new();
    let mut cut_done = false;
    for e in inbox.pending().unwrap() {
        let raw = inbox.read(&e, DEFAULT_MAX_SIZE).unwrap();
        let mail = parse_mail(&raw, DEFAULT_MAX_SIZE).unwrap();
        if !mail.subject.contains(&m) {
            continue;
        }
        if journal.insert(mail.sha256.clone()) {
            processed.push(mail.subject.clone());
        }
        relay.cut();
        let err = inbox.mark_done(&e).expect_err("the connection was cut");
        assert!(err.is_transient(), "{err}");
        cut_done = true;
        break;
    }
    assert!(cut_done);
    drop(inbox);

    // Reconnect: the mail is still pending (fetched with PEEK, never flagged),
    // is fetched again, recognised by the journal, and only flagged.
    let mut inbox = ImapInbox::connect(&cfg).expect("reconnect");
    let again = process(&mut inbox, &m, &mut journal).unwrap();
    assert!(again.is_empty(), "processed twice: {again:?}");
    assert_eq!(processed, [format!("test {m}")]);
    // And now it is done for good.
    let mut fresh = BTreeSet::new();
    assert!(process(&mut inbox, &m, &mut fresh).unwrap().is_empty());
}

#[test]
fn unified_inbox_reconnects_by_itself_after_a_cut() {
    let Some(s) = servers() else { return };
    let m = marker("inbox");
    s.submit(
        "alice",
        "referee",
        &m,
        "GAME neb1 PLAYER alice PASSWORD pw\nEND\n",
    );
    let relay = Relay::start("127.0.0.1", s.imap);
    let mut cfg = s.imap_cfg("referee", relay.port, Security::StartTls);
    cfg.host = "localhost".into();
    let mut inbox = Inbox::open(&InboxConfig::Imap(cfg)).unwrap();
    let find = |inbox: &mut Inbox| -> Option<InboxEntry> {
        for e in inbox.pending().ok()? {
            let raw = inbox.read(&e, DEFAULT_MAX_SIZE).ok()?;
            if parse_mail(&raw, DEFAULT_MAX_SIZE)
                .unwrap()
                .subject
                .contains(&m)
            {
                return Some(e);
            }
        }
        None
    };
    let start = Instant::now();
    let entry = loop {
        if let Some(e) = find(&mut inbox) {
            break e;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "mail never arrived"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    // The head of a message can be read without the rest.
    let head = inbox.read_head(&entry, 20).unwrap();
    assert_eq!(head.len(), 20);
    relay.cut();
    let err = inbox.mark_done(&entry).expect_err("cut");
    assert!(err.is_transient(), "{err}");
    // Next call reconnects; the entry is still valid (same UIDVALIDITY).
    let again = inbox.pending().unwrap();
    assert!(again.contains(&entry));
    inbox.mark_done(&entry).unwrap();
    assert!(!inbox.pending().unwrap().contains(&entry));
}

#[test]
fn processed_folder_receives_done_mail() {
    let Some(s) = servers() else { return };
    let m = marker("move");
    s.submit("alice", "bob", &m, "hello bob\n");
    let mut cfg = s.imap_cfg("bob", s.imap, Security::StartTls);
    cfg.processed_folder = Some("Traités".into()); // non-ASCII: modified UTF-7 on the wire
    let mut inbox = ImapInbox::connect(&cfg).unwrap();
    wait_for(&mut inbox, &m);
    let mut journal = BTreeSet::new();
    assert_eq!(process(&mut inbox, &m, &mut journal).unwrap().len(), 1);
    inbox.logout().unwrap();
    // The processed folder now holds it (read it as an inbox of its own).
    let mut pcfg = s.imap_cfg("bob", s.imap, Security::StartTls);
    pcfg.folder = "Traités".into();
    let mut processed = ImapInbox::connect(&pcfg).unwrap();
    let mut found = false;
    for e in processed.pending_all().unwrap() {
        let raw = processed.read(&e, DEFAULT_MAX_SIZE).unwrap();
        found |= parse_mail(&raw, DEFAULT_MAX_SIZE)
            .unwrap()
            .subject
            .contains(&m);
    }
    assert!(found, "mail not in Traités");
}

#[test]
fn idle_wakes_up_when_mail_arrives() {
    let Some(s) = servers() else { return };
    let mut inbox = s.imap("alice");
    assert!(inbox.supports_idle());
    let m = marker("idle");
    let sender = std::thread::spawn({
        let host = s.host.clone();
        let domain = s.domain.clone();
        let port = s.submission;
        let m = m.clone();
        move || {
            std::thread::sleep(Duration::from_millis(500));
            let srv = Servers {
                host,
                domain,
                imap: 0,
                imaps: 0,
                submission: port,
                smtps: 0,
                ca: None,
                _guard: leak_guard(),
            };
            srv.submit("bob", "alice", &m, "ping\n");
        }
    });
    let start = Instant::now();
    let mut woke = false;
    while start.elapsed() < Duration::from_secs(30) && !woke {
        woke = inbox.wait(Duration::from_secs(10)).unwrap();
    }
    sender.join().unwrap();
    assert!(woke, "IDLE never reported the new mail");
    wait_for(&mut inbox, &m);
    let mut journal = BTreeSet::new();
    assert_eq!(process(&mut inbox, &m, &mut journal).unwrap().len(), 1);
}

/// The sender thread above runs while the test holds the real guard.
fn leak_guard() -> MutexGuard<'static, ()> {
    static OTHER: Mutex<()> = Mutex::new(());
    OTHER.lock().unwrap_or_else(|p| p.into_inner())
}

#[test]
fn players_find_the_referees_report_with_attachment_in_their_imap_mailbox() {
    let Some(s) = servers() else { return };
    let m = marker("report");
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>Besançon</text></svg>\n";
    let report = OutgoingMail {
        from: format!("Arbitre <{}>", s.addr("referee")),
        to: format!("Alice <{}>", s.addr("alice")),
        subject: format!("Compte rendu — tour 1 {m}"),
        body: "Bonjour Alice,\nVos flottes ont conquis Besançon. Grüße!\n".into(),
        message_id: format!("{m}@{}", s.domain),
        in_reply_to: Some(format!("orders-{m}@{}", s.domain)),
        auto_submitted: "auto-generated",
        date: "Sun, 29 Nov 2026 18:00:00 +0100".into(),
        attachments: vec![Attachment {
            name: "carte.svg".into(),
            mime: "image/svg+xml".into(),
            content: svg.as_bytes().to_vec(),
        }],
    };
    let raw = format_mail(&report).unwrap();
    s.smtp("referee")
        .send(&s.addr("referee"), &s.addr("alice"), &raw)
        .unwrap();

    let mut inbox = s.imap("alice");
    wait_for(&mut inbox, &m);
    for e in inbox.pending().unwrap() {
        let got = inbox.read(&e, DEFAULT_MAX_SIZE).unwrap();
        let mail = parse_mail(&got, DEFAULT_MAX_SIZE).unwrap();
        if !mail.subject.contains(&m) {
            continue;
        }
        assert_eq!(mail.subject, report.subject);
        assert_eq!(mail.auto, AutoKind::AutoSubmitted);
        assert_eq!(body_of(&got).unwrap(), report.body);
        let parsed = mail_parser::MessageParser::default().parse(&got).unwrap();
        assert_eq!(parsed.attachment(0).unwrap().contents(), svg.as_bytes());
        assert_eq!(
            parsed.in_reply_to().as_text(),
            Some(format!("orders-{m}@{}", s.domain).as_str())
        );
        inbox.mark_done(&e).unwrap();
        return;
    }
    panic!("report not found");
}

/// Issue 14 item 13: Postfix with `smtpd_forbid_bare_newline = reject` (as
/// `.ci/mail-servers.sh` sets it, exclusions empty) accepts a report with
/// every kind of attachment the referee sends — an order template in
/// text/plain with `\n` line ends, an ASCII SVG map, a JSON report, an .ics —
/// and refuses the same mail with one bare LF (so the test would fail if
/// the server were not that strict).
#[test]
fn postfix_forbidding_bare_newlines_accepts_every_report_part() {
    let Some(s) = servers() else { return };
    let m = marker("crlf");
    let template =
        "PARTIE neb-001 JOUEUR alice MOT-DE-PASSE ...\nFLOTTE 1 VERS 4\nFLOTTE 2 VERS 7\nFIN\n";
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<text>A</text>\n</svg>\n";
    let json = "{\n  \"turn\": 1,\n  \"worlds\": [1, 2]\n}\n";
    let ics = "BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n";
    let att = |name: &str, mime: &str, content: &str| Attachment {
        name: name.into(),
        mime: mime.into(),
        content: content.as_bytes().to_vec(),
    };
    let report = OutgoingMail {
        from: s.addr("referee"),
        to: s.addr("alice"),
        subject: format!("report {m}"),
        body: "Turn 1.\nBare lines\nand a lone CR\rhere.\n".into(),
        message_id: format!("{m}@{}", s.domain),
        in_reply_to: None,
        auto_submitted: "auto-generated",
        date: "Sun, 29 Nov 2026 18:00:00 +0100".into(),
        attachments: vec![
            att("ordres.txt", "text/plain; charset=utf-8", template),
            att("carte.svg", "image/svg+xml", svg),
            att("report.json", "application/json", json),
            att("deadline.ics", "text/calendar; charset=utf-8", ics),
        ],
    };
    let raw = format_mail(&report).unwrap();
    s.smtp("referee")
        .send(&s.addr("referee"), &s.addr("alice"), &raw)
        .expect("Postfix accepts the report");
    // The control: one bare LF, and the same server refuses the mail.
    let mut bad = raw.clone();
    let at = bad.windows(2).position(|w| w == b"\r\n").unwrap();
    bad.remove(at);
    let refused = s
        .smtp("referee")
        .send(&s.addr("referee"), &s.addr("alice"), &bad)
        .unwrap_err();
    assert!(refused.is_permanent(), "{refused}");

    let mut inbox = s.imap("alice");
    wait_for(&mut inbox, &m);
    for e in inbox.pending().unwrap() {
        let got = inbox.read(&e, DEFAULT_MAX_SIZE).unwrap();
        let mail = parse_mail(&got, DEFAULT_MAX_SIZE).unwrap();
        if !mail.subject.contains(&m) {
            continue;
        }
        let parsed = mail_parser::MessageParser::default().parse(&got).unwrap();
        // Text parts arrive with CRLF line ends (canonical text), the rest byte for byte.
        let crlf = |t: &str| t.replace('\n', "\r\n");
        assert_eq!(
            parsed.attachment(0).unwrap().contents(),
            crlf(template).as_bytes()
        );
        assert_eq!(parsed.attachment(1).unwrap().contents(), svg.as_bytes());
        assert_eq!(parsed.attachment(2).unwrap().contents(), json.as_bytes());
        assert_eq!(
            parsed.attachment(3).unwrap().contents(),
            crlf(ics).as_bytes()
        );
        inbox.mark_done(&e).unwrap();
        return;
    }
    panic!("report not found");
}

/// Issue 14 item 11, against a real Dovecot: the second instance of
/// `.ci/mail-servers.sh` sends `* OK Still here` every
/// `imap_idle_notify_interval` (2 s); an IDLE wait of three intervals ends
/// on time instead of restarting its timeout at every keep-alive.
#[test]
fn idle_ends_at_cycle_deadline_despite_dovecot_keepalives() {
    let Some(s) = servers() else { return };
    let outage_port = port("ARBITRE_TEST_OUTAGE_IMAP_PORT", 10143);
    let notify = port("ARBITRE_TEST_OUTAGE_IDLE_NOTIFY_SECS", 2);
    let cfg = s.imap_cfg("alice", outage_port, Security::StartTls);
    let mut inbox = match ImapInbox::connect(&cfg) {
        Ok(i) => i,
        Err(e) if std::env::var("ARBITRE_TEST_SERVERS").as_deref() != Ok("1") => {
            eprintln!("SKIPPED: second Dovecot on port {outage_port} not reachable ({e}): rerun .ci/mail-servers.sh");
            return;
        }
        Err(e) => panic!("second Dovecot on port {outage_port}: {e}"),
    };
    assert!(inbox.supports_idle());
    let wait = Duration::from_secs(u64::from(notify) * 3 + 1);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // Mail from other tests may wake it early: wait again for the rest.
        let start = Instant::now();
        let mut r = Ok(false);
        while r.is_ok() && start.elapsed() < wait {
            r = inbox
                .wait(wait - start.elapsed())
                .map_err(|e| e.to_string());
        }
        let _ = tx.send((r, start.elapsed()));
    });
    // The bug made this wait endless while keep-alives kept coming.
    let (r, elapsed) = rx
        .recv_timeout(wait * 5)
        .expect("IDLE ended at its deadline despite Dovecot's keep-alives");
    r.expect("IDLE wait");
    assert!(elapsed >= wait, "not early either: {elapsed:?}");
}
