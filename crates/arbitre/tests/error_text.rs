//! Issue 16 item 3: the daemon's typed errors (the engine's, a ruleset's
//! panic, a mail's, `arbitre.toml`'s, a turn held for preview, the PNG
//! map's, no database, what the command was doing) reach the operator in
//! the command line's language. The English words are the `Display` of
//! the logs, word for word; French and German keep none of them.

use crate::common;
use arbitre::cli::{error_text, NoDatabase};
use arbitre::config::{ConfigError, ConfigProblem};
use arbitre::error_text::{config_text, daemon_error_text, engine_text, mail_text};
use arbitre::game_config::TomlKind;
use arbitre::png_map::{png_text, PngError};
use arbitre::DaemonError;
use arbitre_core::{EngineError, Lang};
use arbitre_mail::{ImapError, MailError};

/// Names the three languages spell alike (keys, commands, programs).
const SAME: &[&str] = &[
    "arbitre",
    "toml",
    "IMAP",
    "UIDVALIDITY",
    "send_retry_window",
    "referee",
    "inbox",
    "inbound",
    "path",
    "listen",
    "release",
    "rollback",
    "sudo",
    "chown",
    "status",
    "config",
    "docs",
    "operations",
    "SIGTERM",
    "SIGINT",
    "create",
    "game",
    "FILE",
    "resolve",
    "check",
    "resume",
    // French words too.
    "message",
    "configuration",
    "table",
    "port",
    "impossible",
];

/// The words of four letters or more of `en` that are not data.
fn english_words(en: &str, data: &[&str]) -> Vec<String> {
    en.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() > 3 && !w.contains(|c: char| c.is_ascii_digit()))
        .filter(|w| !SAME.contains(w))
        .filter(|w| !data.iter().any(|d| d.contains(w)))
        .map(str::to_string)
        .collect()
}

fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

type Render = Box<dyn Fn(Lang) -> String>;

/// English equal to `en` (the Display), French and German filled,
/// different, and without its English words.
fn check_all(texts: Vec<(String, Vec<&'static str>, Render)>) {
    let mut wrong = Vec::new();
    for (en, data, text) in &texts {
        if *en != text(Lang::En) {
            wrong.push(format!("en: {} != Display {en}", text(Lang::En)));
        }
        for lang in [Lang::Fr, Lang::De] {
            let t = text(lang);
            let id_like = t.split_whitespace().any(|w| {
                [
                    "err-",
                    "conf-",
                    "mail-err-",
                    "imap-err-",
                    "map-",
                    "cli-",
                    "ctx-",
                ]
                .iter()
                .any(|p| w.starts_with(p))
            });
            if id_like || t.contains('{') || t == *en {
                wrong.push(format!("{lang:?}: untranslated or unfilled: {t}"));
            }
            for w in english_words(en, data) {
                if has_word(&t, &w) {
                    wrong.push(format!("{lang:?}: English word '{w}' in: {t}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn other_io(detail: &str) -> std::io::Error {
    std::io::Error::other(detail.to_string())
}

#[test]
fn daemon_engine_and_mail_errors_every_kind_in_three_languages() {
    let mut texts: Vec<(String, Vec<&'static str>, Render)> = Vec::new();
    let mut daemon = |e: DaemonError, data: Vec<&'static str>| {
        let en = e.to_string();
        texts.push((
            en,
            data,
            Box::new(move |l| daemon_error_text(l, &e).unwrap()),
        ));
    };
    let engine = |e: EngineError| DaemonError::engine("neb-1", e);
    daemon(
        engine(EngineError::BadState("eof at 3".into())),
        vec!["eof"],
    );
    daemon(engine(EngineError::GameOver), vec![]);
    daemon(
        engine(EngineError::UnknownPlayer("zork".into())),
        vec!["zork"],
    );
    daemon(
        engine(EngineError::Panicked {
            during: "resolve",
            message: "index out of bounds".into(),
        }),
        vec!["index out of bounds"],
    );
    daemon(
        DaemonError::Panicked {
            game: "neb-1".into(),
            during: "check",
            message: "attempt to divide by zero".into(),
        },
        vec!["attempt to divide by zero"],
    );
    daemon(
        DaemonError::WrongTurn {
            game: "neb-1".into(),
            got: 4,
            expected: 3,
        },
        vec![],
    );
    daemon(
        DaemonError::Held {
            game: "neb-1".into(),
            turn: 2,
        },
        vec![],
    );
    daemon(DaemonError::GameOver("neb-1".into()), vec![]);
    daemon(DaemonError::Faulted("neb-1".into()), vec![]);
    daemon(
        arbitre::registry::UnknownRuleset {
            id: "nebulite".into(),
            known: vec!["nebulight".into(), "eds".into()],
        }
        .into(),
        vec!["nebulite", "nebulight"],
    );
    let mail = |e: MailError| DaemonError::Mail(e);
    daemon(
        mail(MailError::Io(other_io("disk on fire"))),
        vec!["disk on fire"],
    );
    daemon(mail(MailError::TooLarge { size: 9, limit: 5 }), vec![]);
    daemon(
        mail(MailError::Unparseable("no header".into())),
        vec!["no header"],
    );
    daemon(
        mail(MailError::Format("bad address".into())),
        vec!["bad address"],
    );
    let imap = [
        ImapError::Connect("imap.example.org:993".into()),
        ImapError::Tls("handshake".into()),
        ImapError::Auth("wrong password".into()),
        ImapError::Lost("reset by peer".into()),
        ImapError::Server("NO quota".into()),
        ImapError::TooLarge { size: 9, limit: 5 },
        ImapError::Gone { uid: 7 },
        ImapError::UidValidityChanged {
            listed: 1,
            current: 2,
        },
        ImapError::Config("no host".into()),
    ];
    for e in imap {
        let data = vec![
            "imap.example.org",
            "handshake",
            "wrong password",
            "reset by peer",
            "NO quota",
            "no host",
        ];
        daemon(mail(MailError::Imap(e)), data);
    }
    // A setup refusal quoting a line of the game's files hides it in
    // every language.
    let hidden = DaemonError::Engine {
        game: "neb-1".into(),
        err: Box::new(EngineError::BadState("line 2: secret = 42 is bad".into())),
        hidden: vec!["secret = 42".into()],
    };
    assert!(!hidden.to_string().contains("secret"), "{hidden}");
    for l in [Lang::En, Lang::Fr, Lang::De] {
        let t = daemon_error_text(l, &hidden).unwrap();
        assert!(!t.contains("secret"), "{t}");
    }
    texts.push((
        hidden.to_string(),
        vec![],
        Box::new(move |l| daemon_error_text(l, &hidden).unwrap()),
    ));
    // The engine's own kinds, and a mail's, as the daemon's are.
    let e = EngineError::UnknownPlayer("zork".into());
    texts.push((
        e.to_string(),
        vec!["zork"],
        Box::new(move |l| engine_text(l, &e)),
    ));
    let e = MailError::TooLarge { size: 9, limit: 5 };
    texts.push((e.to_string(), vec![], Box::new(move |l| mail_text(l, &e))));
    check_all(texts);
}

#[test]
fn config_and_png_errors_every_kind_in_three_languages() {
    let mut texts: Vec<(String, Vec<&'static str>, Render)> = Vec::new();
    let mut config = |e: ConfigError, data: Vec<&'static str>| {
        texts.push((e.to_string(), data, Box::new(move |l| config_text(l, &e))));
    };
    let invalid = |p: ConfigProblem| ConfigError::Invalid("/etc/arbitre/arbitre.toml".into(), p);
    config(invalid(ConfigProblem::InboxTwice), vec!["/etc/arbitre"]);
    config(
        invalid(ConfigProblem::Referee("nobody".into())),
        vec!["nobody"],
    );
    config(invalid(ConfigProblem::Language("es".into())), vec![]);
    config(
        invalid(ConfigProblem::RetryWindow(
            arbitre::timespec::parse_duration("soon").unwrap_err(),
        )),
        vec!["soon"],
    );
    config(
        invalid(ConfigProblem::RetryNotPositive("0h".into())),
        vec![],
    );
    config(
        invalid(ConfigProblem::WebListen("everywhere".into())),
        vec!["everywhere"],
    );
    for e in [
        PngError::Svg("unexpected end".into()),
        PngError::Size(0.0, 3.0),
    ] {
        texts.push((
            e.to_string(),
            vec!["unexpected end"],
            Box::new(move |l| png_text(l, &e)),
        ));
    }
    let e = PngError::Encode("out of memory".into());
    texts.push((
        e.to_string(),
        vec!["out of memory"],
        Box::new(move |l| png_text(l, &e)),
    ));
    let nodb = |config: Option<&str>| NoDatabase {
        database: "var/arbitre.db".into(),
        config: config.map(Into::into),
    };
    for c in [None, Some("/etc/arbitre/arbitre.toml")] {
        let e = nodb(c);
        texts.push((
            e.to_string(),
            vec!["/etc/arbitre", "var/arbitre.db"],
            Box::new(move |l| e.text(l)),
        ));
    }
    check_all(texts);
    // The TOML reader's refusal of arbitre.toml is placed and classified
    // as a game file's is; the logs keep the parser's own text.
    let e = arbitre::config::DaemonConfig::parse("inbx = \"x\"\n", std::path::Path::new("."))
        .unwrap_err();
    assert!(
        matches!(&e, ConfigError::Toml { kind, at: Some((1, 1)), .. }
            if matches!(&**kind, TomlKind::UnknownField { key, .. } if key == "inbx")),
        "{e:?}"
    );
    assert!(
        e.to_string().starts_with("arbitre.toml: TOML parse error"),
        "{e}"
    );
    assert!(
        config_text(Lang::Fr, &e).starts_with("arbitre.toml:1:1: clé inconnue `inbx`"),
        "{}",
        config_text(Lang::Fr, &e)
    );
}

/// The chain of a command's error: what the command was doing, then the
/// first typed refusal, each in the command line's language.
#[test]
fn error_chain_speaks_the_command_line_language() {
    use arbitre::cli::DoingExt;
    let failed: anyhow::Result<()> =
        Err(DaemonError::Mail(MailError::Io(other_io("disk on fire"))))
            .doing(|| ("ctx-opening-inbox", vec![]));
    let e = failed.unwrap_err();
    assert_eq!(
        error_text(Lang::En, &e),
        "opening the inbox: mail: mail I/O error: disk on fire"
    );
    assert_eq!(
        error_text(Lang::Fr, &e),
        "ouverture de la boîte de réception : courrier : erreur d'entrée-sortie du courrier : disk on fire"
    );
    assert_eq!(
        error_text(Lang::De, &e),
        "beim Öffnen des Posteingangs: Post: Ein-/Ausgabefehler der Post: disk on fire"
    );
}

/// Through the real binary: no database, a wrong arbitre.toml, an unknown
/// ruleset, a turn held for preview, each in French and German.
#[test]
fn lang_fr_de_operator_errors_follow_the_command_line() {
    use common::cli::{arbitre_bin, install, text};
    let run = |dir: &std::path::Path, args: &[&str], code: i32| {
        let out = arbitre_bin(dir, args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            text(&out.stderr)
        );
        text(&out.stderr)
    };
    // No database here.
    let empty = tempfile::tempdir().unwrap();
    let fr = run(empty.path(), &["--lang", "fr", "status"], 3);
    assert!(
        fr.contains("pas de base de données à var/arbitre.db (pas de ./arbitre.toml ici"),
        "{fr}"
    );
    let de = run(empty.path(), &["--lang", "de", "game", "list"], 3);
    assert!(de.contains("keine Datenbank unter var/arbitre.db"), "{de}");
    let en = run(empty.path(), &["status"], 3);
    assert!(
        en.contains("no database at var/arbitre.db (no ./arbitre.toml here"),
        "{en}"
    );
    // A wrong arbitre.toml.
    let bad = tempfile::tempdir().unwrap();
    std::fs::write(bad.path().join("arbitre.toml"), "referee = \"nobody\"\n").unwrap();
    let fr = run(bad.path(), &["--lang", "fr", "status"], 3);
    assert!(
        fr.contains("arbitre.toml: referee « nobody » n'est pas une adresse électronique"),
        "{fr}"
    );
    std::fs::write(bad.path().join("arbitre.toml"), "databse = \"x.db\"\n").unwrap();
    let de = run(bad.path(), &["--lang", "de", "status"], 3);
    assert!(de.contains("arbitre.toml:1:1: "), "{de}");
    assert!(!de.contains("unknown field"), "{de}");
    // An unknown ruleset.
    std::fs::write(bad.path().join("orders.txt"), "x\n").unwrap();
    let de = run(
        bad.path(),
        &["--lang", "de", "check", "nebulite", "orders.txt"],
        3,
    );
    assert!(de.contains("unbekanntes Regelwerk „nebulite“"), "{de}");
    // A turn held for preview.
    let dir = tempfile::tempdir().unwrap();
    install(dir.path());
    let scn = "id = \"scn-h\"\nruleset = \"scrambled\"\n[rules]\nworld = \"testland\"\n\
        [[players]]\nid = \"p1\"\nemail = \"p1@example.org\"\npassword = \"a\"\n\
        [[players]]\nid = \"p2\"\nemail = \"p2@example.org\"\npassword = \"b\"\n\
        [[players]]\nid = \"p3\"\nemail = \"p3@example.org\"\npassword = \"c\"\n";
    std::fs::write(dir.path().join("scn.toml"), scn).unwrap();
    run(dir.path(), &["game", "create", "scn.toml"], 0);
    run(dir.path(), &["preview", "scn-h", "next"], 0);
    run(dir.path(), &["turn", "scn-h"], 0);
    let fr = run(dir.path(), &["--lang", "fr", "turn", "scn-h"], 2);
    assert!(
        fr.contains("le tour 1 de scn-h est retenu pour relecture"),
        "{fr}"
    );
    let de = run(dir.path(), &["--lang", "de", "turn", "scn-h"], 2);
    assert!(
        de.contains("Zug 1 von scn-h ist zur Durchsicht zurückgehalten"),
        "{de}"
    );
    let en = run(dir.path(), &["turn", "scn-h"], 2);
    assert!(
        en.contains("turn 1 of scn-h is held for preview: release or roll it back first"),
        "{en}"
    );
    // No password on standard input.
    let fr = run(
        dir.path(),
        &["--lang", "fr", "password", "reset", "scn-h", "p1"],
        2,
    );
    assert!(
        fr.contains("pas de mot de passe : donnez-le sur la première ligne de l'entrée standard"),
        "{fr}"
    );
}
