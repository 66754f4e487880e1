//! The order block inside one text: header forms in three languages, block
//! ends, quoting, signatures and the line-numbering guarantee.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_mail::{find_envelope, BlockKind, EnvelopeError};

#[test]
fn header_forms_in_three_languages_case_insensitive() {
    for (text, kind) in [
        ("GAME g1 PLAYER p PASSWORD w", BlockKind::Orders),
        ("game g1 player p password w", BlockKind::Orders),
        ("Partie g1 Joueur p Mot-de-passe w", BlockKind::Orders),
        ("PARTIE g1 JOUEUR p MOTDEPASSE w", BlockKind::Orders),
        ("SPIEL g1 SPIELER p PASSWORT w", BlockKind::Orders),
        ("CHECK g1 PLAYER p PASSWORD w", BlockKind::Check),
        ("VERIFIER g1 JOUEUR p MOT-DE-PASSE w", BlockKind::Check),
        ("Vérifier g1 JOUEUR p MOT-DE-PASSE w", BlockKind::Check),
        ("PRUEFEN g1 SPIELER p PASSWORT w", BlockKind::Check),
        ("PRÜFEN g1 SPIELER p PASSWORT w", BlockKind::Check),
    ] {
        let env = find_envelope(&format!("{text}\nA\n")).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(env.kind, kind, "{text}");
        assert_eq!(
            (
                env.game.as_str(),
                env.player.as_str(),
                env.password.as_str()
            ),
            ("g1", "p", "w")
        );
        assert_eq!(env.orders, "A\n");
        assert!(env.commands.is_empty());
    }
}

#[test]
fn values_keep_their_case() {
    let env = find_envelope("GAME Neb-1 PLAYER Alice PASSWORD SeCreT").unwrap();
    assert_eq!(
        (
            env.game.as_str(),
            env.player.as_str(),
            env.password.as_str()
        ),
        ("Neb-1", "Alice", "SeCreT")
    );
    assert_eq!(env.orders, "");
}

#[test]
fn greetings_before_header_are_ignored_and_numbering_holds() {
    let text = "Hello,\n\nhere are my orders.\nGAME g PLAYER p PASSWORD w\nF1 M W3\n\nF2 A W7\nEND\nthanks\n";
    let env = find_envelope(text).unwrap();
    assert_eq!(env.header_line, 4);
    assert_eq!(env.orders, "F1 M W3\n\nF2 A W7\n");
    let lines: Vec<&str> = text.lines().collect();
    for (n, line) in env.orders.lines().enumerate() {
        assert_eq!(lines[env.header_line + n], line);
    }
}

#[test]
fn end_keywords_in_three_languages() {
    for end in ["END", "fin", "Ende", "  END  "] {
        let env = find_envelope(&format!("GAME g PLAYER p PASSWORD w\nA\n{end}\nB\n")).unwrap();
        assert_eq!(env.orders, "A\n", "{end}");
    }
    // "END" followed by more words is an order line, not the end.
    let env = find_envelope("GAME g PLAYER p PASSWORD w\nEND TURN now\nB\n").unwrap();
    assert_eq!(env.orders, "END TURN now\nB\n");
}

#[test]
fn quoted_lines_are_blanked_not_removed() {
    let env = find_envelope("GAME g PLAYER p PASSWORD w\n> old\nA\n  > older\nB\n").unwrap();
    assert_eq!(env.orders, "\nA\n\nB\n");
}

#[test]
fn quoted_header_never_counts() {
    assert_eq!(
        find_envelope("> GAME g PLAYER p PASSWORD w\n> A\n"),
        Err(EnvelopeError::NoBlock)
    );
    assert_eq!(
        find_envelope(">> GAME g PLAYER p PASSWORD w\n"),
        Err(EnvelopeError::NoBlock)
    );
    // The new block below a quoted one is found.
    let env =
        find_envelope("> GAME g PLAYER p PASSWORD old\nGAME g PLAYER p PASSWORD new\nA\n").unwrap();
    assert_eq!(env.password, "new");
    assert_eq!(env.header_line, 2);
}

#[test]
fn signature_delimiters_end_the_block() {
    for sig in ["-- ", "--"] {
        let env = find_envelope(&format!(
            "GAME g PLAYER p PASSWORD w\nA\n{sig}\nGAME over\nB\n"
        ))
        .unwrap();
        assert_eq!(env.orders, "A\n", "{sig:?}");
    }
    // A header inside a signature is not a block.
    assert_eq!(
        find_envelope("hi\n-- \nGAME g PLAYER p PASSWORD w\n"),
        Err(EnvelopeError::NoBlock)
    );
}

#[test]
fn prose_starting_with_a_keyword_is_not_a_header() {
    assert_eq!(
        find_envelope("Game on!\nCheck this out.\nSpiel ist aus.\n"),
        Err(EnvelopeError::NoBlock)
    );
}

#[test]
fn malformed_headers_name_line_and_reason() {
    let cases = [
        ("GAME g PLAYER p", "PASSWORD"),
        ("GAME g PASSWORD w", "PLAYER"),
        ("GAME g PLAYER PASSWORD w", "missing"),
        ("GAME g PASSWORD w PLAYER p", "order"),
        (
            "GAME g PLAYER p PASSWORD w please",
            "unexpected text after the password: please",
        ),
    ];
    for (header, reason_part) in cases {
        match find_envelope(&format!("hello\n{header}\nA\n")) {
            Err(EnvelopeError::Malformed { line, text, reason }) => {
                assert_eq!(line, 2, "{header}");
                assert_eq!(text, header);
                assert!(reason.contains(reason_part), "{header}: {reason}");
            }
            other => panic!("{header}: {other:?}"),
        }
    }
}

#[test]
fn a_valid_header_wins_over_an_earlier_malformed_one() {
    let env = find_envelope("GAME g PLAYER p\nGAME g PLAYER p PASSWORD w\nA\n").unwrap();
    assert_eq!(env.header_line, 2);
}

#[test]
fn crlf_and_nbsp_inside_text() {
    let env = find_envelope("GAME\u{a0}g\u{202f}PLAYER\tp PASSWORD w\r\nA\r\nEND\r\n").unwrap();
    assert_eq!(env.player, "p");
    assert_eq!(env.orders, "A\n");
}

#[test]
fn eds_template_header_is_recognised_and_the_password_blanked() {
    let text = "Hallo Spielleitung,\n\nEDS BEFEHLE\nGALAXIS: ANDROMEDA\nHERRSCHER: 07\nKENNWORT: sonne42\nMONAT: J1/M4\n\n[3 STATUS]\n04,3 / 06,2\nENDE\nGruß\n";
    let env = find_envelope(text).unwrap();
    assert_eq!(env.kind, BlockKind::Orders);
    assert_eq!(
        (
            env.game.as_str(),
            env.player.as_str(),
            env.password.as_str()
        ),
        ("ANDROMEDA", "07", "sonne42")
    );
    assert_eq!(env.header_line, 3);
    assert_eq!(
        env.orders,
        "\n\n\nMONAT: J1/M4\n\n[3 STATUS]\n04,3 / 06,2\n" // game, player, password lines blanked; MONAT kept (EDS-15)
    );
    assert!(!env.orders.contains("sonne42"));
    // Numbering holds.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[env.header_line + 3], "MONAT: J1/M4"); // text line header_line + 4 (1-based)
    assert_eq!(env.orders.lines().nth(3), Some("MONAT: J1/M4"));
}

#[test]
fn eds_header_missing_a_field_is_malformed() {
    match find_envelope("eds befehle\nGALAXIS: A\nMONAT: J1/M4\n[3]\n") {
        Err(EnvelopeError::Malformed { line, reason, .. }) => {
            assert_eq!(line, 1);
            assert!(
                reason.contains("HERRSCHER:") && reason.contains("KENNWORT:"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Quoted EDS header never counts.
    assert_eq!(
        find_envelope("> EDS BEFEHLE\n> GALAXIS: A\n> HERRSCHER: 1\n> KENNWORT: k\n"),
        Err(EnvelopeError::NoBlock)
    );
}

#[test]
fn scrambled_nations_multi_line_header() {
    // SCN §6.1: GAME, PLAYER, TURN and an optional PASSWORD, one per line.
    let text = "Salut,\ngame scn-1\nPLAYER marie\nTURN 7\nPASSWORD x9\nMOVE 3 LYON -> DIJON\nEND\n";
    let env = find_envelope(text).unwrap();
    assert_eq!(
        (
            env.game.as_str(),
            env.player.as_str(),
            env.password.as_str()
        ),
        ("scn-1", "marie", "x9")
    );
    assert_eq!(env.header_line, 2);
    // The TURN line stays (the ruleset checks it, SCN-53); the others are blanked.
    assert_eq!(env.orders, "\nTURN 7\n\nMOVE 3 LYON -> DIJON\n");
    // Without PASSWORD the password is empty (and never matches a stored one).
    let env = find_envelope("GAME scn-1\nPLAYER marie\nTURN 7\nREADY\n").unwrap();
    assert_eq!(env.password, "");
    assert_eq!(env.orders, "\nTURN 7\nREADY\n");
}

#[test]
fn wwk_multi_line_header() {
    // WWK §3.1: WWK ORDERS, GAME, TURN, NATION, KEY.
    let text = "WWK ORDERS\nGAME w1\nTURN 3\nNATION FRA\nKEY s3\nNAT BUY 2 INF\nEND\nignored\n";
    let env = find_envelope(text).unwrap();
    assert_eq!(
        (
            env.game.as_str(),
            env.player.as_str(),
            env.password.as_str()
        ),
        ("w1", "FRA", "s3")
    );
    assert_eq!(env.header_line, 1);
    assert_eq!(env.orders, "\nTURN 3\n\n\nNAT BUY 2 INF\n");
    // Missing NATION.
    match find_envelope("WWK ORDERS\nGAME w1\nKEY s3\n") {
        Err(EnvelopeError::Malformed {
            line: 1, reason, ..
        }) => assert!(reason.contains("PLAYER"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_lone_game_line_is_not_a_header() {
    assert_eq!(
        find_envelope("Game night\nsee you\n"),
        Err(EnvelopeError::NoBlock)
    );
    assert_eq!(
        find_envelope("GAME x\nF1 M W3\n"),
        Err(EnvelopeError::NoBlock)
    );
}
