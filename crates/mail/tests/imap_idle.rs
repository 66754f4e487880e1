//! Issue 14 item 11: IMAP IDLE ends at the caller's deadline whatever the
//! server sends. A scripted IMAP server on loopback answers the login and
//! SELECT, then, during IDLE, sends Dovecot's keep-alive (`* OK Still
//! here`) every 100 ms — what `imap_idle_notify_interval` does, much faster.
//! Before the fix every keep-alive restarted the wait's timeout, so the wait
//! never ended. (servers.rs checks the same against a real Dovecot.)
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_mail::outbound::Security;
use arbitre_mail::{ImapConfig, ImapInbox};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Serves one connection; returns how many keep-alives it sent during IDLE.
fn scripted_server(listener: TcpListener, keepalives: Arc<AtomicUsize>) {
    let (stream, _) = listener.accept().unwrap();
    let mut out = stream.try_clone().unwrap();
    let mut lines = BufReader::new(stream);
    out.write_all(b"* OK scripted IMAP ready\r\n").unwrap();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut words = line.split_whitespace();
        let tag = words.next().unwrap_or("*").to_string();
        let cmd = words.next().unwrap_or("").to_ascii_uppercase();
        let reply = match cmd.as_str() {
            "CAPABILITY" => format!("* CAPABILITY IMAP4rev1 IDLE\r\n{tag} OK done\r\n"),
            "SELECT" => format!(
                "* FLAGS (\\Seen)\r\n* OK [PERMANENTFLAGS (\\Seen \\*)] ok\r\n* 0 EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\n{tag} OK [READ-WRITE] done\r\n"
            ),
            "IDLE" => {
                out.write_all(b"+ idling\r\n").unwrap();
                let done = Arc::new(AtomicBool::new(false));
                let mut ka_out = out.try_clone().unwrap();
                let (ka_done, ka_count) = (done.clone(), keepalives.clone());
                let pinger = std::thread::spawn(move || {
                    while !ka_done.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(100));
                        if ka_done.load(Ordering::SeqCst) || ka_out.write_all(b"* OK Still here\r\n").is_err() {
                            return;
                        }
                        ka_count.fetch_add(1, Ordering::SeqCst);
                    }
                });
                // Until the client's DONE.
                let mut done_line = String::new();
                let _ = lines.read_line(&mut done_line);
                done.store(true, Ordering::SeqCst);
                let _ = pinger.join();
                format!("{tag} OK IDLE terminated\r\n")
            }
            "LOGOUT" => format!("* BYE\r\n{tag} OK bye\r\n"),
            _ => format!("{tag} OK done\r\n"),
        };
        if out.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

fn connect() -> (ImapInbox, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let keepalives = Arc::new(AtomicUsize::new(0));
    let k = keepalives.clone();
    std::thread::spawn(move || scripted_server(listener, k));
    let mut cfg = ImapConfig::new("127.0.0.1", port, Security::None, "referee", "pw");
    cfg.timeout_secs = 5;
    (
        ImapInbox::connect(&cfg).expect("login to the scripted server"),
        keepalives,
    )
}

#[test]
fn idle_ends_at_cycle_deadline() {
    let (mut inbox, keepalives) = connect();
    assert!(inbox.supports_idle());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let start = Instant::now();
        let r = inbox
            .wait(Duration::from_millis(1500))
            .map_err(|e| e.to_string());
        let _ = tx.send((r, start.elapsed(), inbox));
    });
    // A generous watchdog: the bug made the wait endless, not slow.
    let (result, elapsed, _inbox) = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("IDLE ended despite the keep-alives");
    assert_eq!(result, Ok(false), "a keep-alive is not new mail");
    assert!(
        elapsed >= Duration::from_millis(1500),
        "it did not end early either: {elapsed:?}"
    );
    assert!(
        keepalives.load(Ordering::SeqCst) >= 3,
        "keep-alives kept coming during the wait"
    );
}

/// Item 15: a stop request (SIGTERM) ends an IDLE wait long before its end.
#[test]
fn idle_wait_ends_when_stop_is_requested() {
    let (mut inbox, _) = connect();
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let s = stop.clone();
    std::thread::spawn(move || {
        let r = inbox
            .wait_or_stop(Duration::from_secs(3600), Some(&s))
            .map_err(|e| e.to_string());
        let _ = tx.send(r);
    });
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::SeqCst);
    let r = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the wait noticed the stop request");
    assert_eq!(r, Ok(false));
}
