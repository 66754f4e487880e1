//! Issue 10, the services' pure parts: command lines in FR/DE/EN, the
//! `[services]` policies, the .ics and JSON attachments, time zones.
//!
//! The mail-loop tests are in services_mail.rs.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre::services;
use arbitre_core::{Attachment, Lang, Report};
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use services::command::{parse_line, split_commands, Command, PressTarget, Reason, Role, When};
use services::json_report::{build, order_template_name, ReportFacts, ViewerKind, SCHEMA};
use services::settings::{AbsenceRefusal, NmrPolicy, PressPolicy, PressRefusal, ServicesToml};
use services::texts::{reason, svc_text, SvcMsg};
use services::zone::{parse_zone, player_zone, show_in};

fn cmd(s: &str) -> Command {
    parse_line(s).expect("a command").expect("well formed")
}

#[test]
fn player_commands_parse_in_three_languages() {
    assert_eq!(cmd("RESEND"), Command::Resend { turn: None });
    assert_eq!(cmd("renvoi 3"), Command::Resend { turn: Some(3) });
    assert_eq!(cmd("Nochmal 12"), Command::Resend { turn: Some(12) });
    for h in ["HISTORY", "historique", "VERLAUF"] {
        assert_eq!(cmd(h), Command::History, "{h}");
    }
    for s in ["STATUS", "état", "Etat", "stand"] {
        assert_eq!(cmd(s), Command::Status, "{s}");
    }
    assert_eq!(
        cmd("TIMEZONE europe/paris"),
        Command::Timezone(Tz::Europe__Paris)
    );
    assert_eq!(
        cmd("FUSEAU America/New_York"),
        Command::Timezone(Tz::America__New_York)
    );
    assert_eq!(
        cmd("ZEITZONE Europe/Berlin"),
        Command::Timezone(Tz::Europe__Berlin)
    );
    assert_eq!(
        cmd("PRESS TO ALL"),
        Command::Press {
            to: PressTarget::All,
            anonymous: false
        }
    );
    assert_eq!(
        cmd("presse à miria anonyme"),
        Command::Press {
            to: PressTarget::Player("miria".into()),
            anonymous: true
        }
    );
    assert_eq!(
        cmd("PRESSE AN alle ANONYM"),
        Command::Press {
            to: PressTarget::All,
            anonymous: true
        }
    );
    assert_eq!(
        cmd("ABSENCE 2026-12-24 2026-12-31"),
        Command::Absence {
            from: NaiveDate::from_ymd_opt(2026, 12, 24).unwrap(),
            to: NaiveDate::from_ymd_opt(2026, 12, 31).unwrap()
        }
    );
    for c in [
        "RESEND",
        "HISTORY",
        "STATUS",
        "TIMEZONE UTC",
        "PRESS ALL",
        "ABSENCE 2026-01-01 2026-01-02",
    ] {
        assert_eq!(cmd(c).role(), Role::Player, "{c}");
    }
}

#[test]
fn gm_commands_parse_in_three_languages() {
    assert_eq!(cmd("PAUSE"), Command::Pause);
    assert_eq!(cmd("reprendre"), Command::Resume);
    assert_eq!(cmd("FORTSETZEN"), Command::Resume);
    assert_eq!(cmd("EXTEND 48h"), Command::Extend(Duration::hours(48)));
    assert_eq!(cmd("prolonger 1j12h"), Command::Extend(Duration::hours(36)));
    assert_eq!(cmd("verlängern 2t"), Command::Extend(Duration::days(2)));
    assert_eq!(
        cmd("SET DEADLINE 2026-12-01 20:00"),
        Command::SetDeadline(When::Local(
            NaiveDate::from_ymd_opt(2026, 12, 1)
                .unwrap()
                .and_hms_opt(20, 0, 0)
                .unwrap()
        ))
    );
    assert_eq!(
        cmd("DATE-LIMITE 2026-12-01T19:00:00Z"),
        Command::SetDeadline(When::Instant(
            Utc.with_ymd_and_hms(2026, 12, 1, 19, 0, 0).unwrap()
        ))
    );
    assert_eq!(cmd("EJECT maxtor"), Command::Eject("maxtor".into()));
    assert_eq!(cmd("ausschließen 07"), Command::Eject("07".into()));
    assert_eq!(cmd("APERÇU"), Command::Preview);
    assert_eq!(cmd("vorschau"), Command::Preview);
    assert_eq!(cmd("ROLLBACK 4"), Command::Rollback(4));
    assert_eq!(cmd("zurück 2"), Command::Rollback(2));
    for c in [
        "PAUSE",
        "RESUME",
        "EXTEND 1h",
        "EJECT x",
        "PREVIEW",
        "ROLLBACK 1",
        "SET DEADLINE 2026-01-01 10:00",
    ] {
        assert_eq!(cmd(c).role(), Role::GameMaster, "{c}");
    }
}

#[test]
fn bad_arguments_name_the_reason_and_orders_are_not_commands() {
    assert_eq!(
        parse_line("RESEND x"),
        Some(Err(Reason::BadNumber("x".into())))
    );
    assert_eq!(
        parse_line("TIMEZONE CET"),
        Some(Err(Reason::UnknownZone("CET".into())))
    );
    assert_eq!(
        parse_line("TIMEZONE Mars/Olympus"),
        Some(Err(Reason::UnknownZone("Mars/Olympus".into())))
    );
    assert_eq!(
        parse_line("ABSENCE 2026-12-31 2026-12-24"),
        Some(Err(Reason::BadRange))
    );
    assert_eq!(
        parse_line("ABSENCE 2026-13-01 2026-12-24"),
        Some(Err(Reason::BadDate("2026-13-01".into())))
    );
    assert_eq!(
        parse_line("EXTEND forever"),
        Some(Err(Reason::BadDuration("forever".into())))
    );
    assert_eq!(
        parse_line("EXTEND 0h"),
        Some(Err(Reason::BadDuration("0h".into())))
    );
    assert_eq!(
        parse_line("STATUS please"),
        Some(Err(Reason::TooManyArguments("please".into())))
    );
    assert_eq!(
        parse_line("ROLLBACK"),
        Some(Err(Reason::MissingArgument("turn")))
    );
    // Orders of the four rulesets are not commands.
    for order in ["F1 M W3", "[3 STATUS]", "A PAR - BUR", "W12 B 3", ""] {
        assert_eq!(parse_line(order), None, "{order}");
    }
    // Every reason reads differently in each language.
    let r = Reason::BadRange;
    let (e, f, d) = (
        reason(Lang::En, &r),
        reason(Lang::Fr, &r),
        reason(Lang::De, &r),
    );
    assert!(e != f && f != d && e != d);
}

#[test]
fn only_leading_lines_are_commands_and_line_numbers_are_kept() {
    let s = split_commands("STATUS\nTIMEZONE Europe/Paris\nF1 M W3\nSTATUS\n");
    assert_eq!(
        s.commands,
        vec![
            (1, Command::Status),
            (2, Command::Timezone(Tz::Europe__Paris))
        ]
    );
    assert!(!s.only_commands);
    // Line 3 of the block stays line 3 for the order parser; the later STATUS is an order.
    assert_eq!(s.orders, "\n\nF1 M W3\nSTATUS\n");
    let only = split_commands("\nRESEND 2\n\n");
    assert_eq!(only.commands, vec![(2, Command::Resend { turn: Some(2) })]);
    assert!(only.only_commands);
    let bad = split_commands("RESEND two\nHISTORY\n");
    assert_eq!(bad.errors.len(), 1);
    assert_eq!(bad.errors[0].line, 1);
    assert_eq!(bad.commands, vec![(2, Command::History)]);
    assert!(bad.only_commands);
    let press = split_commands("PRESS TO miria\nMeet me at W3.\nF1 M W3 is a lie\n");
    assert_eq!(
        press.press_text.as_deref(),
        Some("Meet me at W3.\nF1 M W3 is a lie")
    );
    assert!(
        press.orders.trim().is_empty(),
        "press text never becomes orders"
    );
    let orders = split_commands("F1 M W3\n");
    assert!(orders.commands.is_empty() && !orders.only_commands && orders.press_text.is_none());
}

#[test]
fn services_table_policies() {
    let s: ServicesToml = toml::from_str(
        r#"
press = "grey"
nmr = "bot"
nmr_bot_after = 3
absence_max_days = 14
absence_max_per_game = 2
observers = ["kibitz@example.org"]
"#,
    )
    .unwrap();
    assert_eq!(s.press, PressPolicy::Grey);
    assert_eq!(s.press_allowed(true), Ok(()));
    assert!(!s.bot_plays(2) && s.bot_plays(3));
    assert_eq!(
        s.absence_allowed(15, 0),
        Err(AbsenceRefusal::TooLong { max: 14 })
    );
    assert_eq!(s.absence_allowed(14, 1), Ok(()));
    assert_eq!(
        s.absence_allowed(3, 2),
        Err(AbsenceRefusal::TooMany { max: 2 })
    );
    let d = ServicesToml::default();
    assert_eq!(d.press_allowed(false), Err(PressRefusal::NoPress));
    assert_eq!(d.nmr, NmrPolicy::Nothing);
    assert!(!d.bot_plays(100));
    assert_eq!(d.absence_allowed(1, 0), Err(AbsenceRefusal::NotAllowed));
    let open: ServicesToml = toml::from_str("press = \"open\"").unwrap();
    assert_eq!(open.press_allowed(true), Err(PressRefusal::NoAnonymous));
    assert_eq!(open.press_allowed(false), Ok(()));
    assert!(
        toml::from_str::<ServicesToml>("pres = \"open\"").is_err(),
        "typos are refused"
    );
}

#[test]
fn deadlines_in_the_players_zone_across_dst() {
    // 2026-03-29 is the spring change in Europe: 01:00 UTC = 03:00 CEST.
    let t = Utc.with_ymd_and_hms(2026, 3, 29, 19, 0, 0).unwrap();
    assert_eq!(
        show_in(t, Tz::Europe__Paris),
        "2026-03-29 21:00 (Europe/Paris)"
    );
    let before = Utc.with_ymd_and_hms(2026, 3, 28, 19, 0, 0).unwrap();
    assert_eq!(
        show_in(before, Tz::Europe__Paris),
        "2026-03-28 20:00 (Europe/Paris)"
    );
    assert_eq!(
        show_in(t, Tz::America__New_York),
        "2026-03-29 15:00 (America/New_York)"
    );
    assert_eq!(parse_zone("EUROPE/BERLIN"), Some(Tz::Europe__Berlin));
    assert_eq!(parse_zone("EST"), None);
    assert_eq!(player_zone(Some("Asia/Tokyo"), Tz::UTC), Tz::Asia__Tokyo);
    assert_eq!(
        player_zone(Some("nowhere"), Tz::Europe__Paris),
        Tz::Europe__Paris
    );
    // A GM's local deadline in the spring gap moves one hour later.
    let gap = When::Local(
        NaiveDate::from_ymd_opt(2026, 3, 29)
            .unwrap()
            .and_hms_opt(2, 30, 0)
            .unwrap(),
    );
    assert_eq!(
        gap.resolve(Tz::Europe__Paris),
        Utc.with_ymd_and_hms(2026, 3, 29, 1, 30, 0).unwrap()
    );
}

fn report_with_template() -> Report {
    Report::text("Compte rendu du tour 3", "Tour 3\nW3 : 12 vaisseaux\n\n")
        .with_attachment(
            "ordres-tour-4.txt",
            "text/plain",
            b"PARTIE neb JOUEUR a MOT-DE-PASSE ?\nFIN\n".to_vec(),
        )
        .with_attachment("carte-tour-3.svg", "image/svg+xml", b"<svg/>".to_vec())
}

#[test]
fn json_report_matches_the_published_schema() {
    let report = report_with_template();
    let deadline = Utc.with_ymd_and_hms(2026, 12, 4, 19, 0, 0).unwrap();
    let facts = ReportFacts {
        game: "neb-001",
        ruleset: "nebulight",
        lang: Lang::Fr,
        turn: 3,
        viewer: ViewerKind::Player,
        player: Some("maxtor"),
        report: &report,
        deadline: Some((deadline, Tz::Europe__Paris)),
        outcome: None,
    };
    let j = build(&facts);
    let v: serde_json::Value = serde_json::from_slice(&j.to_bytes()).unwrap();
    let schema: serde_json::Value = serde_json::from_str(SCHEMA).unwrap();
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut a = required.clone();
    a.sort();
    let mut b = keys.clone();
    b.sort();
    assert_eq!(
        a, b,
        "docs/schemas/report.schema.json and the JSON report list the same fields"
    );
    let props = schema["properties"].as_object().unwrap();
    assert!(keys.iter().all(|k| props.contains_key(*k)));
    assert_eq!(
        v["schema_version"],
        schema["properties"]["schema_version"]["const"]
    );
    assert_eq!(v["schema"], schema["properties"]["schema"]["const"]);
    assert_eq!(v["next_deadline"]["utc"], "2026-12-04T19:00:00Z");
    assert_eq!(v["next_deadline"]["local"], "2026-12-04T20:00:00+01:00");
    assert_eq!(v["order_template"], "ordres-tour-4.txt");
    assert_eq!(v["text"], "Tour 3\nW3 : 12 vaisseaux");
    assert_eq!(v["attachments"][1]["bytes"], 6);
    assert_eq!(v["over"], false);
    // Deterministic bytes.
    assert_eq!(build(&facts).to_bytes(), j.to_bytes());
}

/// Issue 22 item 5: the view is kept as JSON text and written into the
/// report by hand; the bytes are those serde wrote when it was a `Value`
/// in the struct's last field.
#[test]
fn json_report_view_bytes_are_those_of_the_value() {
    let view = serde_json::json!({
        "zeta": [1, -2, 3.25, [], {}, {"b": "x\ny \"q\" é"}],
        "alpha": {"nested": [{"k": null, "a": true}]},
        "mid": "ligne\nsuivante",
    });
    let report = report_with_template().with_view(&view);
    let facts = ReportFacts {
        game: "scn-1",
        ruleset: "scrambled",
        lang: Lang::Fr,
        turn: 2,
        viewer: ViewerKind::Player,
        player: Some("p1"),
        report: &report,
        deadline: None,
        outcome: None,
    };
    let j = build(&facts);
    #[derive(serde::Serialize)]
    struct WithValue<'a> {
        #[serde(flatten)]
        report: &'a services::json_report::JsonReport,
        view: &'a serde_json::Value,
    }
    let mut want = serde_json::to_vec_pretty(&WithValue {
        report: &j,
        view: &view,
    })
    .unwrap();
    want.push(b'\n');
    assert_eq!(
        String::from_utf8(j.to_bytes()).unwrap(),
        String::from_utf8(want).unwrap()
    );
}

#[test]
fn order_templates_of_the_rulesets_are_found() {
    let att = |n: &str, m: &str| Attachment {
        name: n.into(),
        mime: m.into(),
        content: vec![],
    };
    assert_eq!(
        order_template_name(&[att("befehlsblatt-J1M5.txt", "text/plain")]).as_deref(),
        Some("befehlsblatt-J1M5.txt")
    );
    assert_eq!(
        order_template_name(&[att("ordres-t05.txt", "text/plain; charset=utf-8")]).as_deref(),
        Some("ordres-t05.txt")
    );
    assert_eq!(
        order_template_name(&[
            att("jets-t04.json", "application/json"),
            att("carte-t4.svg", "image/svg+xml")
        ]),
        None
    );
}

#[test]
fn ics_attachment_carries_the_next_deadline() {
    let report = report_with_template();
    let deadline = Utc.with_ymd_and_hms(2026, 12, 4, 19, 0, 0).unwrap();
    let stamp: DateTime<Utc> = Utc.with_ymd_and_hms(2026, 11, 27, 19, 0, 3).unwrap();
    let facts = ReportFacts {
        game: "eds-1",
        ruleset: "eds",
        lang: Lang::De,
        turn: 3,
        viewer: ViewerKind::Player,
        player: Some("07"),
        report: &report,
        deadline: Some((deadline, Tz::Europe__Berlin)),
        outcome: None,
    };
    let att = services::report_attachments(&facts, "ref.example", stamp);
    assert_eq!(
        att.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        ["eds-1-turn-3.json", "eds-1-turn-4.ics"]
    );
    let ics = String::from_utf8(att[1].content.clone()).unwrap();
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"));
    assert!(ics.contains("\r\nUID:deadline.eds-1.t4@ref.example\r\n"));
    assert!(ics.contains("\r\nDTSTART:20261204T190000Z\r\n"));
    assert!(ics.contains("\r\nDTSTAMP:20261127T190003Z\r\n"));
    assert!(ics.ends_with("END:VCALENDAR\r\n"));
    // Folded at 75 octets, never inside a character; escapes commas.
    for line in ics.split("\r\n") {
        assert!(line.len() <= 75, "{line}");
    }
    let unfolded = ics.replace("\r\n ", "");
    assert!(
        unfolded.contains("SUMMARY:eds-1: Abgabetermin der Befehle für Zug 4\r\n"),
        "{unfolded}"
    );
    assert!(
        unfolded.contains("DESCRIPTION:Abgabetermin: 2026-12-04 20:00 (Europe/Berlin)\r\n"),
        "{unfolded}"
    );
    // Game over: no deadline, no .ics, the JSON says so.
    let over = ReportFacts {
        deadline: None,
        outcome: Some("Maxtor gagne"),
        ..facts
    };
    let att = services::report_attachments(&over, "ref.example", stamp);
    assert_eq!(att.len(), 1);
    let v: serde_json::Value = serde_json::from_slice(&att[0].content).unwrap();
    assert_eq!(v["over"], true);
    assert_eq!(v["next_deadline"], serde_json::Value::Null);
}

#[test]
fn service_messages_exist_in_french_german_and_english() {
    let samples = [
        SvcMsg::ResendSubject { game: "g", turn: 2 },
        SvcMsg::NoSuchTurn { turn: 9, last: 2 },
        SvcMsg::HistorySubject { game: "g" },
        SvcMsg::StatusMissing { players: "a, b" },
        SvcMsg::TimezoneSet {
            zone: "Europe/Paris",
            example: "x",
        },
        SvcMsg::PressNone,
        SvcMsg::PressNoAnonymous,
        SvcMsg::AbsenceTooLong { max: 3 },
        SvcMsg::GmOnly { command: "PAUSE" },
        SvcMsg::GmWrongPassword,
        SvcMsg::RolledBack { game: "g", turn: 2 },
        SvcMsg::PreviewSubject { game: "g", turn: 3 },
        SvcMsg::DkimVerdict { verdict: "pass" },
        SvcMsg::ObserverSubject {
            game: "g",
            subject: "s",
        },
    ];
    for m in &samples {
        let (e, f, d) = (
            svc_text(Lang::En, m),
            svc_text(Lang::Fr, m),
            svc_text(Lang::De, m),
        );
        assert!(e != f && f != d && e != d, "{m:?}");
    }
    assert_eq!(
        svc_text(Lang::Fr, &SvcMsg::StatusTurn { turn: 4 }),
        "Tour en cours : 4"
    );
    assert_eq!(
        svc_text(Lang::De, &SvcMsg::StatusTurn { turn: 4 }),
        "Laufender Zug: 4"
    );
}
