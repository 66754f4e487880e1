//! MIME decoding of real-world client shapes (samples in tests/data/) and
//! hostile input. Each test parses a sample, finds the block and checks the
//! exact decoded text the order parser will see.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_mail::{
    find_in_mail, parse_mail, AutoKind, BlockKind, EnvelopeError, MailError, DEFAULT_MAX_SIZE,
};

fn sample(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn parse(name: &str) -> arbitre_mail::InboundMail {
    parse_mail(&sample(name), DEFAULT_MAX_SIZE).expect(name)
}

#[test]
fn thunderbird_alternative_prefers_plain_text_and_unflows() {
    let m = parse("thunderbird_alternative.eml");
    assert_eq!(m.subject, "Ordres tour 3 — nébula");
    let from = m.from.clone().unwrap();
    assert_eq!(from.email, "alice@example.org");
    assert_eq!(from.name.as_deref(), Some("Alice Martin"));
    assert_eq!(m.message_id.as_deref(), Some("a1b2c3@example.org"));
    assert_eq!(m.auto, AutoKind::Human);
    assert_eq!(m.texts.len(), 2, "plain then HTML: {:?}", m.texts);
    assert!(m.texts[0].starts_with("Bonjour l'arbitre,\n\nPARTIE neb1"));
    assert!(!m.texts[0].contains('\r'));
    // The HTML alternative is converted too, as a fallback.
    assert!(m.texts[1].contains("PARTIE neb1 JOUEUR alice MOT-DE-PASSE sésame\nF1 M W3\n"));
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.kind, BlockKind::Orders);
    assert_eq!(
        (
            env.game.as_str(),
            env.player.as_str(),
            env.password.as_str()
        ),
        ("neb1", "alice", "sésame")
    );
    assert_eq!(env.header_line, 3);
    assert_eq!(env.orders, "F1 M W3\nF2 A W7\n");
    assert_eq!(m.sha256.len(), 64);
}

#[test]
fn outlook_windows_1252_quoted_printable_and_original_message_ignored() {
    let m = parse("outlook_alternative.eml");
    assert_eq!(
        m.from.as_ref().unwrap().name.as_deref(),
        Some("Bob Schmidt")
    );
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.password, "grüße");
    assert_eq!(env.orders, "Flotte 3 nach München – sofort\n");
    // The quoted original below "-----Original Message-----" is not a block.
    assert!(m.texts[0].contains("PASSWORT alt"));
    assert_eq!(env.header_line, 3);
}

#[test]
fn html_only_mail_is_converted_and_blockquote_never_counts() {
    let m = parse("html_only.eml");
    assert_eq!(m.texts.len(), 1);
    assert_eq!(m.plain_texts, 0);
    assert!(m.is_html_only());
    let tb = parse("thunderbird_alternative.eml");
    assert_eq!(tb.plain_texts, 1);
    assert!(!tb.is_html_only());
    assert!(!parse("empty_body.eml").is_html_only());
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.game, "wwk1");
    assert_eq!(env.password, "p&w");
    assert_eq!(env.orders, "A1 -> B2\nB3 évite\n");
    assert!(m.texts[0].contains("> GAME wwk1 PLAYER carol PASSWORD old"));
}

#[test]
fn format_flowed_soft_breaks_are_unwrapped() {
    let m = parse("format_flowed.eml");
    assert_eq!(
        m.texts[0],
        "Hello referee, this is a long greeting line that the client wrapped with a soft break.\n\
         GAME neb2 PLAYER dave PASSWORD pw\n\
         F1 M W3 and a very long order comment that was wrapped by the client for transport\n\
         END\n"
    );
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.header_line, 2);
    assert_eq!(env.orders.lines().count(), 1);
}

#[test]
fn bom_and_crlf_are_removed() {
    let m = parse("bom_crlf.eml");
    assert_eq!(
        m.texts[0],
        "GAME neb3 PLAYER erin PASSWORD pw\nF1 M W3\nEND\n"
    );
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.header_line, 1);
    assert_eq!(env.orders, "F1 M W3\n");
}

#[test]
fn tabs_and_no_break_spaces_separate_tokens() {
    let m = parse("tabs_nbsp.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(
        (
            env.game.as_str(),
            env.player.as_str(),
            env.password.as_str()
        ),
        ("neb4", "frank", "pw")
    );
    assert_eq!(env.orders, "F1 M W3\n");
}

#[test]
fn iso_8859_1_french_accents() {
    let m = parse("latin1.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.password, "été");
    assert_eq!(env.orders, "Armée de l'île à Besançon\n");
}

#[test]
fn windows_1252_specials() {
    let m = parse("cp1252.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.orders, "Œuvre «\u{a0}cœur\u{a0}» – €5\n");
}

#[test]
fn base64_body() {
    let m = parse("base64.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.password, "sésame");
    assert_eq!(env.header_line, 2);
    assert_eq!(env.orders, "F1 M W3 — déjà\n");
}

#[test]
fn quoted_printable_body_with_soft_line_break() {
    let m = parse("quoted_printable.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(
        env.orders,
        "F1 M W3 — déjà une très longue ligne coupée par le client\n"
    );
}

#[test]
fn block_in_text_plain_attachment() {
    let m = parse("attachment_block.eml");
    assert_eq!(m.texts.len(), 2);
    assert_eq!(m.texts[0].trim(), "Hi, my orders are attached.");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.player, "alice");
    assert_eq!(env.orders, "F1 M W3\n");
}

#[test]
fn garbled_mime_does_not_fail() {
    let m = parse("garbled.eml");
    // Whatever mail-parser recovers, the order text is still found somewhere.
    assert!(
        m.texts
            .iter()
            .any(|t| t.contains("GAME neb1 PLAYER alice PASSWORD pw")),
        "{:?}",
        m.texts
    );
    assert_eq!(m.auto, AutoKind::Human);
}

#[test]
fn unknown_charset_falls_back_to_latin1() {
    let m = parse("unknown_charset.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.password, "grüß");
    assert_eq!(env.orders, "Flotte nach Köln\n");
}

#[test]
fn lying_utf8_label_falls_back_to_latin1() {
    let m = parse("lying_charset.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.password, "grüß");
    assert_eq!(env.orders, "Flotte nach Köln\n");
}

#[test]
fn mail_over_the_limit_is_rejected_before_parsing() {
    let mut raw = b"From: a@example.org\r\nSubject: big\r\n\r\n".to_vec();
    raw.resize(20 * 1024 * 1024, b'x');
    match parse_mail(&raw, DEFAULT_MAX_SIZE) {
        Err(MailError::TooLarge { size, limit }) => {
            assert_eq!(size, 20 * 1024 * 1024);
            assert_eq!(limit, DEFAULT_MAX_SIZE);
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

#[test]
fn empty_body_gives_no_text_and_no_block() {
    let m = parse("empty_body.eml");
    assert!(m.texts.is_empty());
    assert_eq!(m.subject, "empty");
    assert_eq!(find_in_mail(&m), Err(EnvelopeError::NoBlock));
    assert!(matches!(
        parse_mail(b"", DEFAULT_MAX_SIZE),
        Err(MailError::Unparseable(_))
    ));
    assert!(matches!(
        parse_mail(b"\r\n\r\n", DEFAULT_MAX_SIZE),
        Err(MailError::Unparseable(_))
    ));
}

#[test]
fn thousands_of_parts_are_capped() {
    let mut raw = String::from("From: a@example.org\r\nSubject: parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n");
    for i in 0..5000 {
        raw.push_str(&format!(
            "--b\r\nContent-Type: text/plain\r\n\r\npart {i}\r\n"
        ));
    }
    raw.push_str("--b--\r\n");
    let m = parse_mail(raw.as_bytes(), DEFAULT_MAX_SIZE).unwrap();
    assert!(
        m.texts.len() < arbitre_mail::parse::MAX_PARTS,
        "{}",
        m.texts.len()
    );
    assert_eq!(m.texts[0].trim(), "part 0");
}

#[test]
fn deep_nesting_does_not_blow_up() {
    let depth = 3000;
    let mut raw = String::from("From: a@example.org\r\nSubject: deep\r\nMIME-Version: 1.0\r\n");
    for i in 0..depth {
        raw.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"
        ));
    }
    raw.push_str("Content-Type: text/plain\r\n\r\nGAME g PLAYER p PASSWORD w\r\n");
    for i in (0..depth).rev() {
        raw.push_str(&format!("--b{i}--\r\n"));
    }
    // Nested message/rfc822 too.
    let mut nested =
        String::from("From: x@example.org\r\nSubject: n\r\n\r\nGAME g PLAYER p PASSWORD w\r\n");
    for _ in 0..50 {
        nested = format!(
            "From: x@example.org\r\nSubject: n\r\nContent-Type: message/rfc822\r\n\r\n{nested}"
        );
    }
    for input in [raw, nested] {
        let m = parse_mail(input.as_bytes(), DEFAULT_MAX_SIZE).unwrap();
        let _ = find_in_mail(&m);
    }
}

#[test]
fn auto_replies_and_bounces_are_detected() {
    assert_eq!(parse("vacation.eml").auto, AutoKind::AutoSubmitted);
    assert_eq!(parse("bounce.eml").auto, AutoKind::Bounce);
    assert_eq!(parse("bounce_return_path.eml").auto, AutoKind::Bounce);
    assert_eq!(parse("list.eml").auto, AutoKind::List);
    assert_eq!(parse("precedence.eml").auto, AutoKind::Precedence);
    assert_eq!(parse("auto_submitted_no.eml").auto, AutoKind::Human);
    assert_eq!(parse("thunderbird_alternative.eml").auto, AutoKind::Human);
}

#[test]
fn quoted_block_in_reply_never_counts() {
    let m = parse("quoted_reply.eml");
    assert_eq!(find_in_mail(&m), Err(EnvelopeError::NoBlock));
}

#[test]
fn reply_with_new_block_keeps_line_numbers_and_drops_quotes() {
    let m = parse("reply_with_new_block.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.password, "pw");
    assert_eq!(env.orders, "F1 M W3\n\nF2 A W7\n");
    // Line N of the orders is line header_line + N of the text.
    let text_lines: Vec<&str> = m.texts[0].lines().collect();
    for (n, line) in env.orders.lines().enumerate() {
        if !line.is_empty() {
            assert_eq!(text_lines[env.header_line + n], line);
        }
    }
}

#[test]
fn signature_ends_the_block() {
    let m = parse("signature.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.orders, "F1 M W3\nF2 A W7\n");
}

#[test]
fn malformed_header_is_reported_with_its_line() {
    let m = parse("malformed_header.eml");
    match find_in_mail(&m) {
        Err(EnvelopeError::Malformed { line, text, reason }) => {
            assert_eq!(line, 2);
            assert_eq!(text, "GAME neb1 PLAYER alice");
            assert!(reason.contains("PASSWORD"), "{reason}");
        }
        other => panic!("expected Malformed, got {other:?}"),
    }
}

#[test]
fn check_block_in_french() {
    let env = find_in_mail(&parse("check_block.eml")).unwrap();
    assert_eq!(env.kind, BlockKind::Check);
    assert_eq!(env.game, "neb1");
    assert_eq!(env.orders, "F1 M W3\n");
}

/// Deterministic pseudo-random bytes and mutations of the samples: nothing
/// may panic.
#[test]
fn no_panic_on_random_or_mutated_input() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    let mut samples: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    samples.sort();
    for round in 0..3000 {
        let mut bytes = if round % 3 == 0 {
            (0..(next() % 512))
                .map(|_| next() as u8)
                .collect::<Vec<u8>>()
        } else {
            samples[(next() as usize) % samples.len()].clone()
        };
        let mutations = 1 + next() % 8;
        for _ in 0..mutations {
            if bytes.is_empty() {
                break;
            }
            let pos = (next() as usize) % bytes.len();
            match next() % 4 {
                0 => bytes[pos] = next() as u8,
                1 => {
                    bytes.truncate(pos);
                }
                2 => bytes.insert(
                    pos,
                    [b'=', b'<', b'>', b'\r', b'\n', b'-', 0xC3, 0xFF][(next() % 8) as usize],
                ),
                _ => {
                    bytes.remove(pos);
                }
            }
        }
        if let Ok(m) = parse_mail(&bytes, DEFAULT_MAX_SIZE) {
            let _ = find_in_mail(&m);
        }
    }
}

#[test]
fn gmail_quoted_printable_with_soft_breaks_and_encoded_from() {
    let m = parse("gmail_alternative.eml");
    assert_eq!(m.subject, "Ordres pour le tour 5");
    let from = m.from.clone().unwrap();
    assert_eq!(from.name.as_deref(), Some("Renée Dupré"));
    assert_eq!(from.email, "renee@gmail.example");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(
        (env.player.as_str(), env.password.as_str()),
        ("renée", "étoile")
    );
    assert_eq!(
        env.orders,
        "F1 M W3 (une ligne d'ordres très longue que Gmail coupe à 76 caractères)\n"
    );
    // The HTML alternative decodes to the same orders.
    let html = arbitre_mail::find_envelope(&m.texts[1]).unwrap();
    assert_eq!(html.orders, env.orders);
}

#[test]
fn apple_mail_flowed_delsp_joins_the_wrapped_order_line() {
    let m = parse("apple_flowed_delsp.eml");
    let env = find_in_mail(&m).unwrap();
    assert_eq!(env.password, "köln");
    // delsp=yes: the space before the soft break is deleted when joining.
    assert_eq!(
        env.orders,
        "[17 UEBERWEISEN]\n6,2500 / 15,725 / 16,1000 / 17,200 / 18,300 / 19, 400\n"
    );
}
