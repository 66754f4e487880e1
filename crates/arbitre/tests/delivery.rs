//! Issue 14 items 6 and 14: how mail leaves. A refused login pauses
//! sending without failing any mail (through the real local Postfix); a
//! refused recipient or message fails that mail at once with the server's
//! words (a scripted SMTP server on loopback, since Postfix cannot be told
//! to refuse on demand); one SMTP connection carries many mails; EHLO
//! names the referee's domain.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::{Daemon, FixedClock};
use arbitre_mail::outbound::Security;
use arbitre_mail::{SmtpConfig, Transport};
use arbitre_store::{faults, OutboxStatus};
use chrono::Duration;
use common::*;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// What the scripted server saw.
#[derive(Default)]
struct Seen {
    connections: usize,
    ehlo: Vec<String>,
    delivered: Vec<String>,
}

/// An SMTP server on loopback: refuses RCPT TO `nobody@…` (550 5.1.1),
/// refuses the data of a mail to `toobig@…` (552 5.3.4), accepts the rest.
fn fake_smtp() -> (u16, Arc<Mutex<Seen>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let s = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            s.lock().unwrap().connections += 1;
            let s = Arc::clone(&s);
            std::thread::spawn(move || {
                let _ = session(stream, &s);
            });
        }
    });
    (port, seen)
}

fn session(stream: TcpStream, seen: &Mutex<Seen>) -> std::io::Result<()> {
    let mut w = stream.try_clone()?;
    let mut r = BufReader::new(stream);
    w.write_all(b"220 fake.test ESMTP\r\n")?;
    let mut rcpt = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let cmd = line.trim_end().to_string();
        let up = cmd.to_ascii_uppercase();
        let answer: &[u8] = if up.starts_with("EHLO") {
            seen.lock().unwrap().ehlo.push(cmd[5..].trim().to_string());
            b"250-fake.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n"
        } else if up.starts_with("RCPT TO") {
            rcpt = cmd.clone();
            if up.contains("<NOBODY@") {
                b"550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown\r\n"
            } else {
                b"250 2.1.5 Ok\r\n"
            }
        } else if up == "DATA" {
            w.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")?;
            loop {
                let mut l = Vec::new();
                if r.read_until(b'\n', &mut l)? == 0 {
                    return Ok(());
                }
                if l == b".\r\n" {
                    break;
                }
            }
            if rcpt.to_ascii_uppercase().contains("<TOOBIG@") {
                b"552 5.3.4 Message size exceeds fixed limit\r\n"
            } else {
                seen.lock().unwrap().delivered.push(rcpt.clone());
                b"250 2.0.0 Ok: queued\r\n"
            }
        } else if up == "QUIT" {
            w.write_all(b"221 2.0.0 Bye\r\n")?;
            return Ok(());
        } else {
            b"250 2.0.0 Ok\r\n"
        };
        w.write_all(answer)?;
    }
}

fn smtp(port: u16) -> Transport {
    Transport::Smtp(SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        security: Security::None,
        user: None,
        password: None,
        timeout_secs: 5,
        hello_name: None,
        ca_file: None,
    })
}

fn daemon_with(toml: &str, transport: Transport) -> (tempfile::TempDir, Arc<FixedClock>, Daemon) {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut cfg = config(dir.path());
    cfg.transport = transport;
    let mut d = Daemon::open(cfg, registry(), clock.clone()).unwrap();
    d.create_game(toml, dir.path()).unwrap();
    (dir, clock, d)
}

/// A game's turn-0 reports, a confirmation and the GM's mail leave on one
/// connection, across cycles; EHLO says the referee's domain.
#[test]
fn smtp_connection_reused() {
    let (port, seen) = fake_smtp();
    let (_dir, _clock, mut d) = daemon_with(&tally_toml("g1", ""), smtp(port));
    let r = d.cycle().unwrap();
    assert_eq!((r.sent, r.send_failures), (3, 0));
    d.deliver(&mail(
        "alice@example.org",
        "orders",
        &orders("g1", "alice", "wonderland", "ADD 2"),
    ))
    .unwrap();
    let r = d.cycle().unwrap();
    assert_eq!(r.sent, 1);
    let s = seen.lock().unwrap();
    assert_eq!(s.delivered.len(), 4);
    assert_eq!(s.connections, 1, "one connection for every mail");
    assert_eq!(s.ehlo, ["arbitre.test"], "EHLO names the referee's domain");
}

/// A recipient refused at RCPT (550) or a message refused after DATA
/// (552) fails that mail at once, with the server's words; the others
/// leave; the GM is told; `outbox retry` and `drop` manage it.
#[test]
fn permanent_rcpt_refusal_fails_one_mail() {
    let (port, seen) = fake_smtp();
    let toml = tally_toml("g1", "").replace("bob@example.org", "nobody@example.org");
    let (_dir, clock, mut d) = daemon_with(&toml, smtp(port));
    let r = d.cycle().unwrap();
    assert_eq!((r.sent, r.send_failures), (2, 1));
    let rows = arbitre_store::outbox::all(d.store.conn()).unwrap();
    let bad = rows
        .iter()
        .find(|r| r.mail.recipient == "nobody@example.org")
        .unwrap();
    assert_eq!(
        (bad.status, bad.attempts),
        (OutboxStatus::Failed, 1),
        "failed at once, not retried"
    );
    let why = bad.last_error.clone().unwrap();
    assert!(
        why.contains("5.1.1") && why.contains("User unknown"),
        "the server's reason is kept: {why}"
    );
    let told = rows
        .iter()
        .find(|r| r.mail.kind == "notice" && r.mail.recipient == "gm@arbitre.test")
        .expect("the GM is told");
    assert!(
        told.mail
            .body
            .contains(&format!("arbitre outbox retry {}", bad.id))
            && told.mail.body.contains("User unknown")
    );
    assert!(
        faults::sending_pause(d.store.conn()).unwrap().is_none(),
        "not the installation's failure"
    );
    let list = d.outbox_list(false).unwrap();
    assert!(
        list.contains(&format!("#{} failed report to nobody@example.org", bad.id))
            && list.contains("5.1.1"),
        "{list}"
    );
    let status = d.status(None).unwrap();
    assert!(status.contains(&format!("FAILED #{}", bad.id)), "{status}");
    // The GM's notice leaves in the next cycle; the failed mail is not tried again.
    clock.advance(Duration::minutes(10));
    let r = d.cycle().unwrap();
    assert_eq!((r.sent, r.send_failures), (1, 0));
    // Retried by hand: refused again, failed again; dropped: never sent.
    d.outbox_retry(bad.id).unwrap();
    assert_eq!(d.cycle().unwrap().send_failures, 1);
    d.outbox_drop(bad.id).unwrap();
    assert!(d.outbox_retry(bad.id).is_err());
    assert_eq!(
        arbitre_store::outbox::get(d.store.conn(), bad.id)
            .unwrap()
            .unwrap()
            .status,
        OutboxStatus::Cancelled
    );

    // Refused after DATA: the same, for that mail only.
    let toml = tally_toml("g2", "").replace("alice@example.org", "toobig@example.org");
    d.create_game(&toml, _dir.path()).unwrap();
    let r = d.cycle().unwrap();
    assert_eq!((r.sent, r.send_failures), (2, 1));
    let rows = arbitre_store::outbox::all(d.store.conn()).unwrap();
    let big = rows
        .iter()
        .find(|r| r.mail.recipient == "toobig@example.org")
        .unwrap();
    assert_eq!(big.status, OutboxStatus::Failed);
    assert!(
        big.last_error.as_deref().unwrap_or("").contains("5.3.4"),
        "{:?}",
        big.last_error
    );
    assert!(seen
        .lock()
        .unwrap()
        .delivered
        .iter()
        .all(|r| !r.contains("nobody") && !r.contains("toobig")));
}

struct Postfix {
    host: String,
    domain: String,
    port: u16,
    ca: PathBuf,
}

fn postfix() -> Option<Postfix> {
    let env = |n: &str, d: &str| std::env::var(n).unwrap_or_else(|_| d.to_string());
    let p = Postfix {
        host: env("ARBITRE_TEST_MAIL_HOST", "localhost"),
        domain: env("ARBITRE_TEST_MAIL_DOMAIN", "arbitre.test"),
        port: env("ARBITRE_TEST_SUBMISSION_PORT", "587")
            .parse()
            .unwrap_or(587),
        ca: PathBuf::from(env(
            "ARBITRE_TEST_MAIL_CA",
            "/var/lib/arbitre-test-mail/ca.pem",
        )),
    };
    let up = std::net::ToSocketAddrs::to_socket_addrs(&(p.host.as_str(), p.port))
        .ok()
        .into_iter()
        .flatten()
        .any(|a| TcpStream::connect_timeout(&a, std::time::Duration::from_secs(2)).is_ok());
    if up && p.ca.is_file() {
        return Some(p);
    }
    let msg = format!(
        "Postfix submission not reachable on {}:{} (CA {})",
        p.host,
        p.port,
        p.ca.display()
    );
    if std::env::var("ARBITRE_TEST_SERVERS").as_deref() == Ok("1") {
        panic!("ARBITRE_TEST_SERVERS=1 but {msg}");
    }
    eprintln!("SKIPPED: {msg}: run `bash .ci/mail-servers.sh` as root");
    None
}

/// A wrong SMTP password (Postfix answers 535): nothing is failed, sending
/// pauses, the status says why from the first try, the GM is told once;
/// once the password is fixed, every mail leaves.
#[test]
fn smtp_auth_failure_pauses_not_fails() {
    let Some(p) = postfix() else { return };
    let transport = |password: &str| {
        Transport::Smtp(SmtpConfig {
            host: p.host.clone(),
            port: p.port,
            security: Security::StartTls,
            user: Some("referee".into()),
            password: Some(password.into()),
            timeout_secs: 20,
            hello_name: None,
            // `[outbound] ca_file`: the test servers' private CA.
            ca_file: Some(p.ca.clone()),
        })
    };
    let toml = tally_toml("auth-1", "")
        .replace("interval = \"2d\"", "interval = \"30d\"")
        .replace("alice@example.org", &format!("alice@{}", p.domain))
        .replace("bob@example.org", &format!("bob@{}", p.domain))
        .replace("gm@arbitre.test", &format!("alice@{}", p.domain));
    let (dir, clock, mut d) = daemon_with(&toml, transport("not-the-password"));
    // The turn-0 reports carry attachments with bare LFs, which this
    // Postfix refuses (issue 14 item 13, fixed apart): dropped here, the
    // mails of this test are a player's confirmation and the GM's notice.
    for r in arbitre_store::outbox::all(d.store.conn()).unwrap() {
        d.outbox_drop(r.id).unwrap();
    }
    d.deliver(&mail(
        &format!("alice@{}", p.domain),
        "orders",
        &orders("auth-1", "alice", "wonderland", "ADD 2"),
    ))
    .unwrap();
    let r = d.cycle().unwrap();
    assert_eq!(r.mails, 1);
    assert_eq!(
        (r.sent, r.send_failures),
        (0, 0),
        "the mails are not charged for the installation's failure"
    );
    let c = d.store.conn();
    let pause = faults::sending_pause(c)
        .unwrap()
        .expect("sending is paused");
    assert!(pause.reason.contains("535"), "{}", pause.reason);
    let rows: Vec<_> = arbitre_store::outbox::all(c)
        .unwrap()
        .into_iter()
        .filter(|r| r.status != OutboxStatus::Cancelled)
        .collect();
    assert_eq!(rows.len(), 2, "the confirmation and the GM's notice");
    assert!(
        rows.iter()
            .all(|r| r.status == OutboxStatus::Pending && r.attempts == 0),
        "nothing failed, nothing charged"
    );
    assert_eq!(
        rows.iter()
            .filter(|r| r.mail.message_id.contains("paused"))
            .count(),
        1,
        "the GM is told"
    );
    let status = d.status(None).unwrap();
    assert!(
        status.contains("sending PAUSED since") && status.contains("535"),
        "{status}"
    );
    // Tried again after the pause's delay, still refused: one pause, one notice.
    clock.advance(Duration::seconds(30));
    d.cycle().unwrap();
    assert_eq!(
        faults::sending_pause(d.store.conn())
            .unwrap()
            .unwrap()
            .last_try,
        pause.last_try,
        "not before its delay"
    );
    clock.advance(Duration::seconds(40));
    d.cycle().unwrap();
    let again = faults::sending_pause(d.store.conn()).unwrap().unwrap();
    assert_eq!((again.id, again.since), (pause.id, pause.since));
    assert!(again.last_try > pause.last_try);
    // A day of outage later: still nothing failed (the window is not spent on it).
    clock.advance(Duration::days(4));
    d.cycle().unwrap();
    let rows = arbitre_store::outbox::all(d.store.conn()).unwrap();
    assert!(rows
        .iter()
        .all(|r| matches!(r.status, OutboxStatus::Pending | OutboxStatus::Cancelled)));
    assert_eq!(
        rows.iter()
            .filter(|r| r.mail.message_id.contains("paused"))
            .count(),
        1,
        "told once per pause"
    );

    // The GM fixes the password: everything leaves.
    d.config.transport = transport("referee-secret");
    clock.advance(Duration::hours(1));
    let r = d.cycle().unwrap();
    let errors: Vec<_> = arbitre_store::outbox::all(d.store.conn())
        .unwrap()
        .into_iter()
        .filter_map(|r| r.last_error)
        .collect();
    assert_eq!((r.sent, r.send_failures), (2, 0), "{errors:?}");
    assert!(
        faults::sending_pause(d.store.conn()).unwrap().is_none(),
        "sending resumed"
    );
    assert!(arbitre_store::outbox::all(d.store.conn())
        .unwrap()
        .iter()
        .all(|r| matches!(r.status, OutboxStatus::Sent | OutboxStatus::Cancelled)));
    drop(dir);
}

/// Issue 14 item 14: a game created by `arbitre game create` has a random
/// part in its Message-IDs, so re-creating it after a dry run never
/// reuses the old Message-IDs (which mail clients would drop as
/// duplicates); games created for replays and fixtures stay deterministic.
#[test]
fn recreated_game_gets_new_message_ids() {
    let ids = |salted: bool| {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FixedClock::new(t0()));
        let mut d = Daemon::open(config(dir.path()), registry(), clock).unwrap();
        if salted {
            let toml = dir.path().join("g1.toml");
            std::fs::write(&toml, tally_toml("g1", "")).unwrap();
            d.create_game_file(&toml).unwrap();
        } else {
            d.create_game(&tally_toml("g1", ""), dir.path()).unwrap();
        }
        d.deliver(&mail(
            "alice@example.org",
            "orders",
            &orders("g1", "alice", "wonderland", "ADD 2"),
        ))
        .unwrap();
        d.cycle().unwrap();
        let ids: Vec<String> = arbitre_store::outbox::all(d.store.conn())
            .unwrap()
            .into_iter()
            .map(|r| r.mail.message_id)
            .collect();
        assert_eq!(ids.len(), 4);
        ids
    };
    let (a, b) = (ids(true), ids(true));
    for id in &a {
        assert!(!b.contains(id), "{id} reused by the re-created game");
        assert!(
            id.starts_with("report.g1.")
                || id.starts_with("gm.g1.")
                || id.starts_with("confirm.g1."),
            "{id}"
        );
    }
    assert_eq!(
        ids(false),
        ids(false),
        "deterministic without the random part"
    );
    assert!(ids(false).contains(&"report.g1.t0.alice@arbitre.test".to_string()));
}

/// Issue 22 item 3: the file transport's sent marks share one commit per
/// batch (the transport is idempotent: a resend finds the file), after one
/// fsync of the folder; every mail is still marked and its file written.
#[test]
fn file_transport_marks_a_batch_in_one_commit() {
    use std::os::raw::{c_int, c_void};
    unsafe extern "C" fn commit(p: *mut c_void) -> c_int {
        // SAFETY: `p` is the `u64` below, alive until the hook is removed.
        unsafe { *(p as *mut u64) += 1 };
        0
    }
    let mut env = Env::new();
    let pending = env
        .outbox()
        .iter()
        .filter(|r| r.status == OutboxStatus::Pending)
        .count();
    assert!(pending >= 3, "game creation queues mails: {pending}");
    let mut commits: u64 = 0;
    // SAFETY: the daemon's open connection; the hook is removed before
    // `commits` goes out of scope.
    unsafe {
        rusqlite::ffi::sqlite3_commit_hook(
            env.daemon.store.conn().handle(),
            Some(commit),
            &mut commits as *mut u64 as *mut c_void,
        );
    }
    let (sent, failed) = env.daemon.send_outbox().unwrap();
    unsafe {
        rusqlite::ffi::sqlite3_commit_hook(
            env.daemon.store.conn().handle(),
            None,
            std::ptr::null_mut(),
        );
    }
    assert_eq!((sent, failed), (pending, 0));
    assert_eq!(commits, 1, "{sent} mails marked sent in one commit");
    assert!(env.outbox().iter().all(|r| r.status == OutboxStatus::Sent));
    let files = std::fs::read_dir(env.outbox_dir())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".eml")
        })
        .count();
    assert_eq!(files, pending);
}
