//! Formatting the referee's mail and the file transport.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_mail::{
    body_of, clean_stale_temp_files, find_in_mail, format_mail, parse_mail, valid_recipient,
    Attachment, AutoKind, MailError, Mailer, OutgoingMail, SendError, Transport, DEFAULT_MAX_SIZE,
};

fn confirmation() -> OutgoingMail {
    OutgoingMail {
        from: "Arbitre <arbitre@example.net>".into(),
        to: "Jürgen Groß <juergen@example.de>".into(),
        subject: "Bestätigung — partie « neb1 », tour 3".into(),
        body:
            "Bonjour Jürgen,\n\nVos ordres sont enregistrés : déjà 3 flottes.\nGrüße, Œdipe — €5\n"
                .into(),
        message_id: "neb1.3.juergen.confirm@arbitre.example.net".into(),
        in_reply_to: Some("a1b2c3@example.org".into()),
        auto_submitted: "auto-replied",
        date: "Sun, 29 Nov 2026 12:00:00 +0000".into(),
        attachments: vec![],
    }
}

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    let head = raw.split("\r\n\r\n").next().unwrap();
    head.split("\r\n")
        .find(|l| {
            l.to_ascii_lowercase()
                .starts_with(&format!("{}:", name.to_ascii_lowercase()))
        })
        .map(|l| l[name.len() + 1..].trim())
}

#[test]
fn headers_of_a_confirmation() {
    let raw = format_mail(&confirmation()).unwrap();
    let text = String::from_utf8(raw.clone()).unwrap();
    assert_eq!(
        header(&text, "Message-ID"),
        Some("<neb1.3.juergen.confirm@arbitre.example.net>")
    );
    assert_eq!(header(&text, "In-Reply-To"), Some("<a1b2c3@example.org>"));
    assert_eq!(header(&text, "References"), Some("<a1b2c3@example.org>"));
    assert_eq!(header(&text, "Auto-Submitted"), Some("auto-replied"));
    assert_eq!(
        header(&text, "Date"),
        Some("Sun, 29 Nov 2026 12:00:00 +0000")
    );
    assert!(text.to_ascii_lowercase().contains("charset=utf-8"));
    // 7-bit safe on the wire.
    assert!(raw.iter().all(|b| b.is_ascii()));
    // No bare LF.
    assert!(!text.replace("\r\n", "").contains('\n'));
}

#[test]
fn formatting_is_deterministic() {
    let mut m = confirmation();
    m.attachments.push(Attachment {
        name: "map.svg".into(),
        mime: "image/svg+xml".into(),
        content: b"<svg/>".to_vec(),
    });
    assert_eq!(format_mail(&m).unwrap(), format_mail(&m).unwrap());
}

#[test]
fn round_trip_utf8_subject_body_and_svg_attachment() {
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>Nébula — Besançon</text></svg>\n";
    let mut m = confirmation();
    m.auto_submitted = "auto-generated";
    m.in_reply_to = None;
    m.attachments.push(Attachment {
        name: "carte tour 3.svg".into(),
        mime: "image/svg+xml".into(),
        content: svg.as_bytes().to_vec(),
    });
    m.attachments.push(Attachment {
        name: "report.json".into(),
        mime: "application/json".into(),
        content: b"{\"turn\":3}".to_vec(),
    });
    let raw = format_mail(&m).unwrap();
    let text = String::from_utf8(raw.clone()).unwrap();
    assert_eq!(header(&text, "Auto-Submitted"), Some("auto-generated"));
    assert_eq!(header(&text, "In-Reply-To"), None);

    let parsed = parse_mail(&raw, DEFAULT_MAX_SIZE).unwrap();
    assert_eq!(parsed.subject, m.subject);
    assert_eq!(parsed.message_id.as_deref(), Some(m.message_id.as_str()));
    assert_eq!(parsed.from.as_ref().unwrap().email, "arbitre@example.net");
    // Our own reports are recognised as automatic: the daemon never answers itself.
    assert_eq!(parsed.auto, AutoKind::AutoSubmitted);
    assert_eq!(parsed.texts[0], m.body);
    assert_eq!(body_of(&raw).unwrap(), m.body);

    let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
    let atts: Vec<_> = msg.attachments().collect();
    assert_eq!(atts.len(), 2);
    use mail_parser::MimeHeaders;
    assert_eq!(atts[0].attachment_name(), Some("carte tour 3.svg"));
    assert_eq!(atts[0].content_type().unwrap().subtype(), Some("svg+xml"));
    assert_eq!(atts[0].contents(), svg.as_bytes());
    assert_eq!(atts[1].contents(), b"{\"turn\":3}");
}

#[test]
fn a_player_can_answer_a_report_with_a_block_and_we_find_it() {
    let mut m = confirmation();
    m.body = "GAME neb1 PLAYER juergen PASSWORD grüße\nF1 M W3\nEND\n".into();
    let raw = format_mail(&m).unwrap();
    let env = find_in_mail(&parse_mail(&raw, DEFAULT_MAX_SIZE).unwrap()).unwrap();
    assert_eq!(env.password, "grüße");
    assert_eq!(env.orders, "F1 M W3\n");
}

#[test]
fn header_injection_is_impossible() {
    // Subjects are cleaned (they may echo a player's subject).
    let mut m = confirmation();
    m.subject = "Re: orders\r\nBcc: victim@example.org\r\n\r\nspam".into();
    let text = String::from_utf8(format_mail(&m).unwrap()).unwrap();
    let head = text.split("\r\n\r\n").next().unwrap();
    assert!(!head.to_ascii_lowercase().contains("\r\nbcc:"), "{head}");
    assert!(head.contains("Re: orders Bcc: victim@example.org spam"));

    // Addresses, ids, dates and attachment names with line breaks are refused.
    type Mutation = Box<dyn Fn(&mut OutgoingMail)>;
    let cases: Vec<Mutation> = vec![
        Box::new(|m| m.to = "a@example.org\r\nBcc: v@example.org".into()),
        Box::new(|m| m.from = "Arbitre\n <arbitre@example.net>".into()),
        Box::new(|m| m.message_id = "x@y\r\nBcc: v@example.org".into()),
        Box::new(|m| m.in_reply_to = Some("a@b>\r\nX: y".into())),
        Box::new(|m| m.date = "Sun, 29 Nov 2026 12:00:00 +0000\r\nBcc: v@example.org".into()),
        Box::new(|m| {
            m.attachments.push(Attachment {
                name: "a\r\nBcc: v@example.org".into(),
                mime: "text/plain".into(),
                content: vec![],
            })
        }),
        Box::new(|m| m.auto_submitted = "auto-replied\r\nBcc: v@example.org"),
    ];
    for (i, f) in cases.iter().enumerate() {
        let mut m = confirmation();
        f(&mut m);
        assert!(
            matches!(format_mail(&m), Err(MailError::Format(_))),
            "case {i}"
        );
    }
}

#[test]
fn invalid_fields_are_format_errors() {
    let mut m = confirmation();
    m.date = "yesterday".into();
    assert!(matches!(format_mail(&m), Err(MailError::Format(_))));
    let mut m = confirmation();
    m.to = "not an address".into();
    assert!(matches!(format_mail(&m), Err(MailError::Format(_))));
    let mut m = confirmation();
    m.message_id = "<with-brackets@x>".into();
    assert!(matches!(format_mail(&m), Err(MailError::Format(_))));
}

#[test]
fn file_transport_writes_once_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("outbox");
    let t = Transport::File { dir: out.clone() };
    let raw = format_mail(&confirmation()).unwrap();
    t.send("arbitre@example.net", "juergen@example.de", &raw)
        .unwrap();
    t.send("arbitre@example.net", "juergen@example.de", &raw)
        .unwrap();
    let files: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(files, ["neb1.3.juergen.confirm@arbitre.example.net.eml"]);
    assert_eq!(std::fs::read(out.join(&files[0])).unwrap(), raw);
}

/// Issue 22 item 3: the mailer's file transport writes a batch unsynced
/// and puts it in the folder at `sync`, all at once; a batch never synced
/// leaves nothing behind, and is written again by the next send.
#[test]
fn mailer_file_batch_appears_at_sync_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("outbox");
    let eml = |out: &std::path::Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    };
    let mails: Vec<Vec<u8>> = (0..3)
        .map(|i| {
            let mut m = confirmation();
            m.message_id = format!("neb1.3.p{i}.confirm@arbitre.example.net");
            format_mail(&m).unwrap()
        })
        .collect();
    let mut mailer = Mailer::new(Transport::File { dir: out.clone() });
    for raw in &mails {
        mailer
            .send("arbitre@example.net", "juergen@example.de", raw)
            .unwrap();
    }
    let staged = eml(&out);
    assert_eq!(staged.len(), 3);
    assert!(
        staged
            .iter()
            .all(|n| n.starts_with('.') && n.ends_with(".tmp")),
        "before sync only hidden temporary files: {staged:?}"
    );
    mailer.sync().unwrap();
    let names = eml(&out);
    assert_eq!(
        names,
        [
            "neb1.3.p0.confirm@arbitre.example.net.eml",
            "neb1.3.p1.confirm@arbitre.example.net.eml",
            "neb1.3.p2.confirm@arbitre.example.net.eml"
        ]
    );
    for (n, raw) in names.iter().zip(&mails) {
        assert_eq!(&std::fs::read(out.join(n)).unwrap(), raw);
    }
    // Sent already: a second send of the same mail stages nothing.
    mailer
        .send("arbitre@example.net", "juergen@example.de", &mails[0])
        .unwrap();
    assert_eq!(eml(&out), names);
    // A batch dropped unsynced (the daemon stopped) leaves no file; the
    // mail is still pending in the outbox and a new mailer writes it.
    let mut m = confirmation();
    m.message_id = "neb1.4.late@arbitre.example.net".into();
    let late = format_mail(&m).unwrap();
    let mut dropped = Mailer::new(Transport::File { dir: out.clone() });
    dropped
        .send("arbitre@example.net", "juergen@example.de", &late)
        .unwrap();
    drop(dropped);
    assert_eq!(eml(&out), names);
    let mut again = Mailer::new(Transport::File { dir: out.clone() });
    again
        .send("arbitre@example.net", "juergen@example.de", &late)
        .unwrap();
    again.sync().unwrap();
    assert!(out.join("neb1.4.late@arbitre.example.net.eml").exists());
}

/// A kill mid-write leaves a hidden `.tmp`; the next process's first send
/// removes the stale ones and those of a writer no longer running (a batch
/// killed before its sync), and keeps a fresh one of a running process (a
/// write in progress).
#[test]
fn file_transport_cleans_stale_temp_files_left_by_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("outbox");
    std::fs::create_dir_all(&out).unwrap();
    let stale = out.join(".neb1.2.alice@arbitre.example.net.4242.tmp");
    // pid 1 always runs; 999999999 is beyond any pid_max.
    let fresh = out.join(".neb1.2.bob@arbitre.example.net.1.tmp");
    let killed = out.join(".neb1.2.carol@arbitre.example.net.999999999.tmp");
    std::fs::write(&stale, b"From: half a mail").unwrap();
    std::fs::write(&fresh, b"From: being written").unwrap();
    std::fs::write(&killed, b"From: staged, never synced").unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    let t = Transport::File { dir: out.clone() };
    let raw = format_mail(&confirmation()).unwrap();
    t.send("arbitre@example.net", "juergen@example.de", &raw)
        .unwrap();
    assert!(!stale.exists(), "the stale temp file is removed");
    assert!(!killed.exists(), "the file of a writer gone is removed");
    assert!(
        fresh.exists(),
        "a recent temp file may be a write in progress"
    );
    assert!(out
        .join("neb1.3.juergen.confirm@arbitre.example.net.eml")
        .exists());
    // The function itself, with a zero age, removes the rest but never a mail.
    assert_eq!(clean_stale_temp_files(&out, std::time::Duration::ZERO), 1);
    assert!(!fresh.exists());
    assert!(out
        .join("neb1.3.juergen.confirm@arbitre.example.net.eml")
        .exists());
}

#[test]
fn file_transport_sanitises_hostile_message_ids() {
    let dir = tempfile::tempdir().unwrap();
    let t = Transport::File {
        dir: dir.path().to_path_buf(),
    };
    t.send(
        "a@example.org",
        "b@example.org",
        b"Message-ID: <../../etc/passwd@x>\r\n\r\nhi\r\n",
    )
    .unwrap();
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(files.len(), 1);
    assert!(!files[0].contains('/'));
    assert!(files[0].ends_with(".eml"));
}

#[test]
fn sendmail_transport_pipes_the_mail() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("fake-sendmail");
    let captured = dir.path().join("captured");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$@\" > {0}.args\ncat > {0}\n",
            captured.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let raw = format_mail(&confirmation()).unwrap();
    Transport::Sendmail {
        command: script.clone(),
    }
    .send("arbitre@example.net", "juergen@example.de", &raw)
    .unwrap();
    assert_eq!(std::fs::read(&captured).unwrap(), raw);
    let args = std::fs::read_to_string(dir.path().join("captured.args")).unwrap();
    assert!(
        args.contains("juergen@example.de") && args.contains("arbitre@example.net"),
        "{args}"
    );

    // A failing command is transient (the outbox retries).
    std::fs::write(&script, "#!/bin/sh\nexit 75\n").unwrap();
    assert!(matches!(
        Transport::Sendmail { command: script }.send(
            "arbitre@example.net",
            "juergen@example.de",
            &raw
        ),
        Err(SendError::Transient(_))
    ));
    // An invalid envelope address is permanent.
    assert!(matches!(
        Transport::File {
            dir: dir.path().into()
        }
        .send("a@b", "x", &raw)
        .and(
            Transport::Sendmail {
                command: "/bin/true".into()
            }
            .send("arbitre@example.net", "not an address", &raw)
        ),
        Err(SendError::Permanent(_))
    ));
}

/// Issue 14 item 13: no part of a mail leaves with a bare CR or LF (Postfix
/// with `smtpd_forbid_bare_newline = reject` refuses the whole mail for
/// one). The order template (text/plain bytes with `\n`) used to go out 7bit
/// with its bare LFs.
#[test]
fn every_part_leaves_with_crlf_only() {
    let mut m = confirmation();
    m.body = "line one\nline two\r\nlone CR\rend\n".into();
    for (name, mime, content) in [
        (
            "ordres.txt",
            "text/plain; charset=utf-8",
            "PARTIE g JOUEUR p MOT-DE-PASSE x\nFIN\n",
        ),
        ("map.svg", "image/svg+xml", "<svg>\n<g/>\n</svg>\n"),
        ("r.json", "application/json", "{\n\"a\": 1\n}\n"),
        ("d.ics", "text/calendar", "BEGIN:VCALENDAR\nEND:VCALENDAR\n"),
    ] {
        m.attachments.push(Attachment {
            name: name.into(),
            mime: mime.into(),
            content: content.as_bytes().to_vec(),
        });
    }
    let raw = format_mail(&m).unwrap();
    for (i, b) in raw.iter().enumerate() {
        match b {
            b'\r' => assert_eq!(raw.get(i + 1), Some(&b'\n'), "bare CR at byte {i}"),
            b'\n' => assert!(i > 0 && raw[i - 1] == b'\r', "bare LF at byte {i}"),
            _ => {}
        }
    }
    let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
    let atts: Vec<_> = msg.attachments().collect();
    assert_eq!(
        atts[0].contents(),
        b"PARTIE g JOUEUR p MOT-DE-PASSE x\r\nFIN\r\n",
        "text: CRLF"
    );
    assert_eq!(
        atts[1].contents(),
        b"<svg>\n<g/>\n</svg>\n",
        "not text: every byte kept"
    );
    assert_eq!(atts[2].contents(), b"{\n\"a\": 1\n}\n");
    assert_eq!(body_of(&raw).unwrap(), "line one\nline two\nlone CR\nend\n");
}

/// Issue 14 item 9: a file send that fails mid-write (here the file-size
/// limit, as a full disk or a quota would) leaves no `.tmp` behind; the
/// mail is a transient failure, retried later under its final name. The
/// limit is set on a child run of this test (`ulimit -f`, SIGXFSZ ignored
/// so the write fails with EFBIG instead of killing the process).
#[test]
fn failed_file_send_leaves_no_tmp() {
    const CHILD: &str = "ARBITRE_TMP_CHILD_DIR";
    if let Ok(dir) = std::env::var(CHILD) {
        let out = std::path::PathBuf::from(dir);
        let t = Transport::File { dir: out.clone() };
        let mut m = confirmation();
        m.body = "x".repeat(64 * 1024);
        let raw = format_mail(&m).unwrap();
        let e = t
            .send("arbitre@example.net", "juergen@example.de", &raw)
            .unwrap_err();
        assert!(!e.is_permanent(), "{e}");
        let left: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "nothing left behind: {left:?}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("outbox");
    std::fs::create_dir_all(&out).unwrap();
    let exe = std::env::current_exe().unwrap();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 8; exec \"$0\" --exact outbound::failed_file_send_leaves_no_tmp --test-threads 1")
        .arg(&exe)
        .env(CHILD, &out)
        // Pipes, not inherited files: the size limit would also refuse the
        // child's own output when it goes to a log file.
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "the child run failed: {status:?}\n{}{}",
        String::from_utf8_lossy(&status.stdout),
        String::from_utf8_lossy(&status.stderr)
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}

/// Regression: the WWK order sheet left as `text/plain` with no charset, so a
/// mail client read its UTF-8 accents ("unités") as US-ASCII garbage.
#[test]
fn text_attachment_without_charset_is_declared_utf8() {
    let mut m = confirmation();
    for (name, mime) in [
        ("ordres-t01.txt", "text/plain"),
        ("guide.md", "text/markdown;"),
        ("latin.txt", "text/plain; charset=iso-8859-1"),
    ] {
        m.attachments.push(Attachment {
            name: name.into(),
            mime: mime.into(),
            content: "# vos unités à Besançon\n".as_bytes().to_vec(),
        });
    }
    let raw = format_mail(&m).unwrap();
    let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
    use mail_parser::MimeHeaders;
    let charsets: Vec<_> = msg
        .attachments()
        .map(|a| {
            a.content_type()
                .and_then(|ct| ct.attribute("charset"))
                .map(str::to_ascii_lowercase)
        })
        .collect();
    assert_eq!(
        charsets,
        [
            Some("utf-8".to_string()),
            Some("utf-8".to_string()),
            // A charset the caller named is left as it is.
            Some("iso-8859-1".to_string()),
        ]
    );
    let first = msg.attachments().next().unwrap();
    // Text parts travel with CR LF line ends.
    assert_eq!(first.text_contents(), Some("# vos unités à Besançon\r\n"));
}

/// The daemon checks a reply address with `valid_recipient` instead of
/// formatting a probe mail (issue 22 item 1): both must agree on every
/// address, the ones the fuzz loop found included (`a@b@c`, a NUL byte).
#[test]
fn valid_recipient_agrees_with_format_mail() {
    let cases = [
        "juergen@example.de",
        "Jürgen Groß <juergen@example.de>",
        "a@b@c",
        "a\0b@example.org",
        "no-at-sign",
        "\"quoted name\" <q@example.org>",
        "bad\r\nBcc: x@example.org",
        "",
        "<>",
        "x@[127.0.0.1]",
    ];
    for to in cases {
        let mut m = confirmation();
        m.to = to.to_string();
        assert_eq!(
            valid_recipient(to),
            format_mail(&m).is_ok(),
            "{to:?}: valid_recipient and format_mail disagree"
        );
    }
    assert!(valid_recipient("juergen@example.de"));
    assert!(!valid_recipient("a@b@c"));
}
