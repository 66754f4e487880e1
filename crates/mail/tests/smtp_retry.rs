//! SMTP failure classification and the retry loop, against a tiny scripted
//! SMTP server on loopback (a real Postfix cannot be told to answer 4xx on
//! demand). Runs everywhere: no installed server needed.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbitre_mail::outbound::Security;
use arbitre_mail::{format_mail, retry_delay, OutgoingMail, SendError, SmtpConfig, Transport};

/// How the fake server behaves on each successive connection; the last
/// entry repeats.
#[derive(Clone, Copy)]
enum Reply {
    /// 451 at MAIL FROM.
    Busy,
    /// 550 at RCPT TO.
    NoSuchUser,
    Accept,
}

struct FakeSmtp {
    port: u16,
    delivered: Arc<Mutex<Vec<Vec<u8>>>>,
    connections: Arc<Mutex<usize>>,
}

impl FakeSmtp {
    fn start(script: Vec<Reply>) -> FakeSmtp {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let delivered = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(Mutex::new(0usize));
        let (d, c) = (Arc::clone(&delivered), Arc::clone(&connections));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let n = {
                    let mut c = c.lock().unwrap();
                    *c += 1;
                    *c
                };
                let reply = script[(n - 1).min(script.len() - 1)];
                let mut w = stream.try_clone().unwrap();
                let mut r = BufReader::new(stream);
                let _ = session(&mut r, &mut w, reply, &d);
            }
        });
        FakeSmtp {
            port,
            delivered,
            connections,
        }
    }
}

fn session(
    r: &mut impl BufRead,
    w: &mut impl Write,
    reply: Reply,
    delivered: &Mutex<Vec<Vec<u8>>>,
) -> std::io::Result<()> {
    w.write_all(b"220 fake.test ESMTP\r\n")?;
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let cmd = line.trim_end().to_ascii_uppercase();
        let answer: &[u8] = if cmd.starts_with("EHLO") {
            b"250-fake.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n"
        } else if cmd.starts_with("MAIL FROM") {
            match reply {
                Reply::Busy => b"451 4.3.2 System busy, try again later\r\n",
                _ => b"250 2.1.0 Ok\r\n",
            }
        } else if cmd.starts_with("RCPT TO") {
            match reply {
                Reply::NoSuchUser => b"550 5.1.1 No such user\r\n",
                _ => b"250 2.1.5 Ok\r\n",
            }
        } else if cmd == "DATA" {
            w.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")?;
            let mut data = Vec::new();
            loop {
                let mut l = Vec::new();
                if r.read_until(b'\n', &mut l)? == 0 {
                    return Ok(());
                }
                if l == b".\r\n" {
                    break;
                }
                // Undo dot-stuffing.
                data.extend_from_slice(if l.starts_with(b"..") { &l[1..] } else { &l });
            }
            // The CRLF before the final dot belongs to the terminator (RFC 5321 §4.1.1.4).
            if data.ends_with(b"\r\n") {
                data.truncate(data.len() - 2);
            }
            delivered.lock().unwrap().push(data);
            b"250 2.0.0 Ok: queued\r\n"
        } else if cmd == "QUIT" {
            w.write_all(b"221 2.0.0 Bye\r\n")?;
            return Ok(());
        } else {
            b"250 2.0.0 Ok\r\n"
        };
        w.write_all(answer)?;
    }
}

fn transport(port: u16) -> Transport {
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

fn report() -> Vec<u8> {
    format_mail(&OutgoingMail {
        from: "arbitre@example.net".into(),
        to: "alice@example.org".into(),
        subject: "Compte rendu, tour 4".into(),
        body: "Rapport du tour 4.\n.\n..ligne qui commence par des points\n".into(),
        message_id: "neb1.4.alice.report@example.net".into(),
        in_reply_to: None,
        auto_submitted: "auto-generated",
        date: "Sun, 29 Nov 2026 18:00:00 +0000".into(),
        attachments: vec![],
    })
    .unwrap()
}

/// The outbox's loop in miniature: retry transient failures with backoff,
/// stop at success or at a permanent failure.
fn send_with_retries(t: &Transport, raw: &[u8], max_attempts: u32) -> (Result<(), SendError>, u32) {
    let mut attempt = 0;
    loop {
        attempt += 1;
        match t.send("arbitre@example.net", "alice@example.org", raw) {
            Ok(()) => return (Ok(()), attempt),
            Err(e @ SendError::Permanent(_)) => return (Err(e), attempt),
            Err(e) if attempt >= max_attempts => return (Err(e), attempt),
            Err(SendError::Transient(_) | SendError::Installation(_)) => {
                std::thread::sleep(retry_delay(
                    attempt,
                    Duration::from_millis(20),
                    Duration::from_millis(200),
                ))
            }
        }
    }
}

#[test]
fn smtp_4xx_then_2xx_is_delivered_exactly_once() {
    let server = FakeSmtp::start(vec![Reply::Busy, Reply::Busy, Reply::Accept]);
    let raw = report();
    let (result, attempts) = send_with_retries(&transport(server.port), &raw, 6);
    result.unwrap();
    assert_eq!(attempts, 3);
    assert_eq!(*server.connections.lock().unwrap(), 3);
    let delivered = server.delivered.lock().unwrap();
    assert_eq!(delivered.len(), 1, "delivered exactly once");
    assert_eq!(delivered[0], raw);
}

#[test]
fn smtp_4xx_is_transient_and_5xx_permanent() {
    let busy = FakeSmtp::start(vec![Reply::Busy]);
    match transport(busy.port).send("arbitre@example.net", "alice@example.org", &report()) {
        Err(SendError::Transient(msg)) => assert!(
            msg.contains("451") || msg.to_lowercase().contains("busy"),
            "{msg}"
        ),
        other => panic!("{other:?}"),
    }
    let reject = FakeSmtp::start(vec![Reply::NoSuchUser]);
    let (result, attempts) = send_with_retries(&transport(reject.port), &report(), 6);
    match result {
        Err(e @ SendError::Permanent(_)) => assert!(e.is_permanent()),
        other => panic!("{other:?}"),
    }
    assert_eq!(attempts, 1, "a permanent failure is not retried");
    assert!(reject.delivered.lock().unwrap().is_empty());
}

#[test]
fn connection_refused_is_the_installations() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    assert!(matches!(
        transport(port).send("arbitre@example.net", "alice@example.org", &report()),
        Err(SendError::Installation(_))
    ));
}

#[test]
fn retry_delay_doubles_up_to_the_cap() {
    let base = Duration::from_secs(60);
    let max = Duration::from_secs(6 * 3600);
    assert_eq!(retry_delay(1, base, max), Duration::from_secs(60));
    assert_eq!(retry_delay(2, base, max), Duration::from_secs(120));
    assert_eq!(retry_delay(5, base, max), Duration::from_secs(960));
    assert_eq!(retry_delay(10, base, max), max);
    assert_eq!(retry_delay(200, base, max), max);
}
