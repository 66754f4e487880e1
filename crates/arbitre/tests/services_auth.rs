//! Issue 10, authenticity beyond passwords, through the mail loop with real
//! rulesets (Nébulight in French, EDS in German, and English): DKIM
//! signatures made with a freshly generated key whose record is pinned in
//! the daemon's configuration (no DNS, no network), and per-player tokens.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::{Daemon, FixedClock, Registry};
use arbitre_mail::dkim::{DkimConfig, SigningDomain};
use arbitre_mail::DkimVerifier;
use arbitre_store::{outbox, OutboxRow};
use common::{config, mail, t0};
use std::path::PathBuf;
use std::sync::Arc;

struct Game {
    _dir: tempfile::TempDir,
    _clock: Arc<FixedClock>,
    daemon: Daemon,
    id: String,
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name)
        .join("game.toml")
}

/// The example game `name`, its language replaced when `lang` is given,
/// `edit` applied to its TOML text, with the DNS off and `keys` pinned.
fn game(
    name: &str,
    lang: Option<&str>,
    edit: &dyn Fn(String) -> String,
    keys: &[&SigningDomain],
) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut c = config(dir.path());
    let mut dkim = DkimConfig::off();
    for k in keys {
        dkim.records.insert(k.record_name(), k.record().unwrap());
    }
    c.dkim = DkimVerifier::new(dkim);
    let mut daemon = Daemon::open(c, Registry::builtin(), clock.clone()).unwrap();
    let path = example(name);
    let mut text = std::fs::read_to_string(&path).unwrap();
    if let Some(l) = lang {
        text = text
            .lines()
            .filter(|l| !l.starts_with("language"))
            .collect::<Vec<_>>()
            .join("\n");
        text = format!("language = \"{l}\"\n{text}\n");
    }
    let text = edit(text);
    let id = daemon.create_game(&text, path.parent().unwrap()).unwrap();
    Game {
        _dir: dir,
        _clock: clock,
        daemon,
        id,
    }
}

const REQUIRE_DKIM: &str = "\n[services]\nrequire_dkim = true\n";

fn require_dkim(t: String) -> String {
    format!("{t}{REQUIRE_DKIM}")
}

/// A token for the player whose password is `password`.
fn with_token(password: &'static str, token: &'static str) -> impl Fn(String) -> String {
    move |t: String| {
        t.replace(
            &format!("password = \"{password}\""),
            &format!("password = \"{password}\"\ntoken = \"{token}\""),
        )
    }
}

impl Game {
    fn outbox(&self) -> Vec<OutboxRow> {
        outbox::all(self.daemon.store.conn()).unwrap()
    }

    fn last_to(&self, to: &str, kind: &str) -> OutboxRow {
        self.outbox()
            .into_iter()
            .rfind(|r| r.mail.recipient == to && r.mail.kind == kind)
            .unwrap_or_else(|| panic!("no {kind} mail to {to}"))
    }

    fn send_raw(&mut self, raw: &[u8]) {
        self.daemon.deliver(raw).unwrap();
        self.daemon.cycle().unwrap();
    }

    fn orders(&self) -> i64 {
        self.daemon
            .store
            .conn()
            .query_row("SELECT COUNT(*) FROM orders", [], |r| r.get(0))
            .unwrap()
    }

    fn last_outcome(&self) -> (String, String) {
        self.daemon
            .store
            .conn()
            .query_row(
                "SELECT outcome, detail FROM mail_journal ORDER BY rowid DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap()
    }
}

fn neb_orders(id: &str) -> String {
    format!(
        "Bonjour,\n\nPARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1\nM_200 C 10 VC F_19\nFIN\n"
    )
}

fn eds_orders(id: &str) -> String {
    format!("Hallo,\n\nSPIEL {id} SPIELER p1 PASSWORT change-me-1\nR1 S\nENDE\n")
}

// --- DKIM required -------------------------------------------------------

#[test]
fn dkim_required_signed_mail_is_stored_and_the_confirmation_says_pass_nebulight() {
    let key = SigningDomain::generate("example.org", "neb").unwrap();
    let mut g = game("nebulight", None, &require_dkim, &[&key]);
    let raw = key
        .sign(&mail(
            "Maxtor <maxtor@example.org>",
            "ordres",
            &neb_orders(&g.id),
        ))
        .unwrap();
    g.send_raw(&raw);
    assert_eq!(g.orders(), 1, "{:?}", g.last_outcome());
    let confirm = g.last_to("maxtor@example.org", "confirm");
    assert!(
        confirm
            .mail
            .body
            .contains("DKIM : signature valide (example.org)"),
        "{}",
        confirm.mail.body
    );
    // Before the referee's signature, after the orders' summary.
    let (main, _) = confirm.mail.body.split_once("\n-- \n").unwrap();
    assert!(
        main.trim_end()
            .ends_with("DKIM : signature valide (example.org)"),
        "{main}"
    );
}

#[test]
fn dkim_required_signed_mail_is_stored_and_the_confirmation_says_pass_eds() {
    let key = SigningDomain::generate("example.org", "eds").unwrap();
    let mut g = game("eds", None, &require_dkim, &[&key]);
    let raw = key
        .sign(&mail(
            "Anna <anna@example.org>",
            "Befehle",
            &eds_orders(&g.id),
        ))
        .unwrap();
    g.send_raw(&raw);
    assert_eq!(g.orders(), 1, "{:?}", g.last_outcome());
    let confirm = g.last_to("anna@example.org", "confirm");
    assert!(
        confirm
            .mail
            .body
            .contains("DKIM: gültige Signatur (example.org)"),
        "{}",
        confirm.mail.body
    );
}

#[test]
fn dkim_required_signature_of_a_parent_domain_counts_for_a_subdomain_player() {
    let key = SigningDomain::generate("example.org", "s").unwrap();
    let sub = |t: String| require_dkim(t.replace("anna@example.org", "anna@mail.example.org"));
    let mut g = game("eds", Some("en"), &sub, &[&key]);
    let raw = key
        .sign(&mail("anna@mail.example.org", "orders", &eds_orders(&g.id)))
        .unwrap();
    g.send_raw(&raw);
    assert_eq!(g.orders(), 1, "{:?}", g.last_outcome());
    let confirm = g.last_to("anna@mail.example.org", "confirm");
    assert!(
        confirm
            .mail
            .body
            .contains("DKIM: valid signature (example.org)"),
        "{}",
        confirm.mail.body
    );
}

#[test]
fn dkim_required_unsigned_mail_is_refused_in_three_languages() {
    let key = SigningDomain::generate("example.org", "s").unwrap();
    for (name, lang, expect) in [
        ("nebulight", None, "la partie neb-001 exige une signature DKIM valide de votre domaine (example.org), et ce courrier n'est pas signé"),
        ("eds", None, "das Spiel eds-001 verlangt eine gültige DKIM-Signatur Deiner Domain (example.org), und diese Mail ist nicht signiert"),
        ("eds", Some("en"), "game eds-001 requires a valid DKIM signature from your domain (example.org), and this mail is not signed"),
    ] {
        let mut g = game(name, lang, &require_dkim, &[&key]);
        let (from, body) = if name == "nebulight" { ("maxtor@example.org", neb_orders(&g.id)) } else { ("anna@example.org", eds_orders(&g.id)) };
        g.send_raw(&mail(from, "orders", &body));
        assert_eq!(g.orders(), 0, "nothing stored");
        let (outcome, detail) = g.last_outcome();
        assert_eq!(outcome, "rejected");
        assert!(detail.contains("DKIM required") && detail.contains("unsigned"), "{detail}");
        let err = g.last_to(from, "error");
        assert!(err.mail.body.contains(expect), "{}", err.mail.body);
        assert!(!err.mail.body.contains("change-me-1"), "the password is never echoed");
    }
}

#[test]
fn dkim_required_tampered_body_is_refused_nebulight_and_eds() {
    let key = SigningDomain::generate("example.org", "s").unwrap();
    let mut g = game("nebulight", None, &require_dkim, &[&key]);
    let signed = String::from_utf8(
        key.sign(&mail("maxtor@example.org", "ordres", &neb_orders(&g.id)))
            .unwrap(),
    )
    .unwrap();
    // A relay (or an attacker) changed one order after signing.
    let tampered = signed.replace("C 10 VC", "C 99 VC");
    assert_ne!(tampered, signed);
    g.send_raw(tampered.as_bytes());
    assert_eq!(g.orders(), 0);
    let err = g.last_to("maxtor@example.org", "error");
    assert!(
        err.mail.body.contains(
            "la signature de ce courrier est invalide : le texte a été modifié après la signature"
        ),
        "{}",
        err.mail.body
    );

    let mut g = game("eds", None, &require_dkim, &[&key]);
    let signed = String::from_utf8(
        key.sign(&mail("anna@example.org", "Befehle", &eds_orders(&g.id)))
            .unwrap(),
    )
    .unwrap();
    g.send_raw(signed.replace("R1 S", "R1 X").as_bytes());
    assert_eq!(g.orders(), 0);
    let err = g.last_to("anna@example.org", "error");
    assert!(
        err.mail
            .body
            .contains("ungültig: der Text wurde nach dem Signieren verändert"),
        "{}",
        err.mail.body
    );
}

#[test]
fn dkim_required_signature_of_another_domain_is_refused() {
    // The From domain is the player's, the signer a relay: misaligned.
    let relay = SigningDomain::generate("relay.example", "r").unwrap();
    let mut g = game("nebulight", None, &require_dkim, &[&relay]);
    g.send_raw(
        &relay
            .sign(&mail("maxtor@example.org", "ordres", &neb_orders(&g.id)))
            .unwrap(),
    );
    assert_eq!(g.orders(), 0);
    let err = g.last_to("maxtor@example.org", "error");
    assert!(
        err.mail
            .body
            .contains("signée par relay.example, pas par le domaine de l'expéditeur example.org"),
        "{}",
        err.mail.body
    );
    // The right password from another, validly signed, address: not the
    // registered domain.
    let other = SigningDomain::generate("other.example", "o").unwrap();
    let mut g = game("eds", Some("en"), &require_dkim, &[&other]);
    g.send_raw(
        &other
            .sign(&mail("anna@other.example", "orders", &eds_orders(&g.id)))
            .unwrap(),
    );
    assert_eq!(g.orders(), 0);
    let err = g.last_to("anna@other.example", "error");
    assert!(
        err.mail.body.contains(
            "from your registered domain (example.org); this mail is signed by other.example"
        ),
        "{}",
        err.mail.body
    );
}

#[test]
fn dkim_required_key_that_cannot_be_looked_up_is_a_temporary_refusal() {
    let key = SigningDomain::generate("example.org", "s").unwrap();
    // DNS off and the key not pinned: the verdict is temperror, never a crash.
    let mut g = game("eds", None, &require_dkim, &[]);
    g.send_raw(
        &key.sign(&mail("anna@example.org", "Befehle", &eds_orders(&g.id)))
            .unwrap(),
    );
    assert_eq!(g.orders(), 0);
    let err = g.last_to("anna@example.org", "error");
    assert!(
        err.mail.body.contains("kann gerade nicht geprüft werden")
            && err.mail.body.contains("in einigen Minuten erneut"),
        "{}",
        err.mail.body
    );
    let (outcome, detail) = g.last_outcome();
    assert_eq!(outcome, "rejected");
    assert!(detail.contains("cannot check now"), "{detail}");
}

#[test]
fn dkim_required_applies_to_service_commands_too() {
    let key = SigningDomain::generate("example.org", "s").unwrap();
    let mut g = game("nebulight", None, &require_dkim, &[&key]);
    let id = g.id.clone();
    g.send_raw(&mail(
        "maxtor@example.org",
        "etat",
        &format!("PARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1\nETAT\nFIN\n"),
    ));
    let err = g.last_to("maxtor@example.org", "error");
    assert!(
        err.mail.body.contains("n'est pas signé"),
        "{}",
        err.mail.body
    );
    assert!(
        g.outbox().iter().all(|r| r.mail.kind != "confirm"),
        "no answer to the commands"
    );
}

// --- DKIM not required ---------------------------------------------------

#[test]
fn without_require_dkim_a_signed_mail_shows_its_verdict_and_an_unsigned_one_nothing() {
    let key = SigningDomain::generate("example.org", "s").unwrap();
    let mut g = game("nebulight", None, &|t| t, &[&key]);
    g.send_raw(&mail("maxtor@example.org", "ordres", &neb_orders(&g.id)));
    let confirm = g.last_to("maxtor@example.org", "confirm");
    assert!(!confirm.mail.body.contains("DKIM"), "{}", confirm.mail.body);
    // A tampered signed mail is still taken (the game does not require
    // DKIM), and the player is told the signature failed.
    let signed = String::from_utf8(
        key.sign(&mail("maxtor@example.org", "ordres 2", &neb_orders(&g.id)))
            .unwrap(),
    )
    .unwrap();
    g.send_raw(signed.replace("C 10 VC", "C 11 VC").as_bytes());
    assert_eq!(g.orders(), 2);
    let confirm = g.last_to("maxtor@example.org", "confirm");
    assert!(
        confirm
            .mail
            .body
            .contains("DKIM : signature invalide : le texte a été modifié après la signature"),
        "{}",
        confirm.mail.body
    );
}

// --- tokens ---------------------------------------------------------------

#[test]
fn token_right_wrong_missing_nebulight_in_french() {
    let mut g = game(
        "nebulight",
        None,
        &with_token("change-me-1", "lune-42"),
        &[],
    );
    let id = g.id.clone();
    // Never stored in clear: only the argon2id hash, and not in the game's TOML copy.
    let c = g.daemon.store.conn();
    let config: String = c
        .query_row("SELECT config FROM games WHERE id = ?1", [&id], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(!config.contains("lune-42"), "{config}");
    let hash: String = c
        .query_row(
            "SELECT token_hash FROM player_settings WHERE game_id = ?1 AND player = 'maxtor'",
            [&id],
            |r| r.get(0),
        )
        .unwrap();
    assert!(hash.starts_with("$argon2id$") && !hash.contains("lune-42"));
    // Missing.
    g.send_raw(&mail("maxtor@example.org", "ordres", &neb_orders(&id)));
    assert_eq!(g.orders(), 0);
    let err = g.last_to("maxtor@example.org", "error");
    assert!(
        err.mail
            .body
            .contains("la partie neb-001 exige le jeton du joueur maxtor")
            && err.mail.body.contains("JETON <votre jeton>"),
        "{}",
        err.mail.body
    );
    // Wrong, on the line after the header.
    let wrong = format!("PARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1\nJETON soleil-1\nM_200 C 10 VC F_19\nFIN\n");
    g.send_raw(&mail("maxtor@example.org", "ordres 2", &wrong));
    assert_eq!(g.orders(), 0);
    let err = g.last_to("maxtor@example.org", "error");
    assert!(
        err.mail
            .body
            .contains("le jeton donné pour le joueur maxtor de la partie neb-001 est faux"),
        "{}",
        err.mail.body
    );
    assert!(
        !err.mail.body.contains("soleil-1"),
        "the token is never echoed"
    );
    assert_eq!(g.last_outcome().1, "wrong token for player 'maxtor'");
    // Right, on the header line.
    let right = format!("PARTIE {id} JOUEUR maxtor MOT-DE-PASSE change-me-1 JETON lune-42\nM_200 C 10 VC F_19\nFIN\n");
    g.send_raw(&mail("maxtor@example.org", "ordres 3", &right));
    assert_eq!(g.orders(), 1);
    let confirm = g.last_to("maxtor@example.org", "confirm");
    assert!(
        confirm.mail.body.contains("Jeton : correct"),
        "{}",
        confirm.mail.body
    );
    assert!(!confirm.mail.body.contains("lune-42"));
    // The other player has no token: nothing changes for her.
    let miria =
        format!("PARTIE {id} JOUEUR miria MOT-DE-PASSE change-me-2\nM_200 C 10 VC F_19\nFIN\n");
    g.send_raw(&mail("miria@example.org", "ordres", &miria));
    assert_eq!(g.orders(), 2);
    assert!(!g
        .last_to("miria@example.org", "confirm")
        .mail
        .body
        .contains("Jeton"));
}

#[test]
fn token_right_wrong_missing_eds_in_german() {
    let mut g = game("eds", None, &with_token("change-me-1", "Stern7"), &[]);
    let id = g.id.clone();
    g.send_raw(&mail("anna@example.org", "Befehle", &eds_orders(&id)));
    assert_eq!(g.orders(), 0);
    assert!(g
        .last_to("anna@example.org", "error")
        .mail
        .body
        .contains("das Spiel eds-001 verlangt die Marke von Spieler p1"));
    let wrong = format!("SPIEL {id} SPIELER p1 PASSWORT change-me-1\nMARKE: Mond\nR1 S\nENDE\n");
    g.send_raw(&mail("anna@example.org", "Befehle 2", &wrong));
    assert_eq!(g.orders(), 0);
    assert!(g
        .last_to("anna@example.org", "error")
        .mail
        .body
        .contains("die für Spieler p1 im Spiel eds-001 angegebene Marke ist falsch"));
    let right = format!("SPIEL {id} SPIELER p1 PASSWORT change-me-1\nMARKE: Stern7\nR1 S\nENDE\n");
    g.send_raw(&mail("anna@example.org", "Befehle 3", &right));
    assert_eq!(g.orders(), 1);
    let stored: String = g
        .daemon
        .store
        .conn()
        .query_row("SELECT text FROM orders", [], |r| r.get(0))
        .unwrap();
    assert!(
        !stored.contains("Stern7") && stored.contains("R1 S"),
        "the token line is blanked: {stored:?}"
    );
    assert!(g
        .last_to("anna@example.org", "confirm")
        .mail
        .body
        .contains("Marke: korrekt"));
}

#[test]
fn token_in_english_and_on_service_commands() {
    let mut g = game(
        "eds",
        Some("en"),
        &with_token("change-me-2", "blue-moon"),
        &[],
    );
    let id = g.id.clone();
    // A mail of commands only speaks for the player too.
    g.send_raw(&mail(
        "bert@example.org",
        "status",
        &format!("GAME {id} PLAYER p2 PASSWORD change-me-2\nSTATUS\nEND\n"),
    ));
    let err = g.last_to("bert@example.org", "error");
    assert!(
        err.mail
            .body
            .contains("game eds-001 requires the token of player p2")
            && err.mail.body.contains("TOKEN <your token>"),
        "{}",
        err.mail.body
    );
    g.send_raw(&mail(
        "bert@example.org",
        "status 2",
        &format!("GAME {id} PLAYER p2 PASSWORD change-me-2 TOKEN blue-moon\nSTATUS\nEND\n"),
    ));
    let answer = g.last_to("bert@example.org", "confirm");
    assert!(
        answer.mail.body.contains("Turn in progress: 1"),
        "{}",
        answer.mail.body
    );
    assert!(
        answer.mail.body.contains("Token: correct"),
        "{}",
        answer.mail.body
    );
    g.send_raw(&mail(
        "bert@example.org",
        "orders",
        &format!("GAME {id} PLAYER p2 PASSWORD change-me-2\nTOKEN blue-moon\nR1 S\nEND\n"),
    ));
    assert_eq!(g.orders(), 1);
    assert!(g
        .last_to("bert@example.org", "confirm")
        .mail
        .body
        .contains("Token: correct"));
}

#[test]
fn token_and_dkim_together() {
    let key = SigningDomain::generate("example.org", "s").unwrap();
    let both = |t: String| require_dkim(with_token("change-me-1", "lune-42")(t));
    let mut g = game("nebulight", Some("en"), &both, &[&key]);
    let id = g.id.clone();
    // A signed mail without the token is refused for the token.
    g.send_raw(
        &key.sign(&mail("maxtor@example.org", "orders", &neb_orders(&id)))
            .unwrap(),
    );
    assert_eq!(g.orders(), 0);
    assert!(g
        .last_to("maxtor@example.org", "error")
        .mail
        .body
        .contains("requires the token"));
    let body = format!(
        "GAME {id} PLAYER maxtor PASSWORD change-me-1 TOKEN lune-42\nM_200 C 10 VC F_19\nEND\n"
    );
    g.send_raw(
        &key.sign(&mail("maxtor@example.org", "orders 2", &body))
            .unwrap(),
    );
    assert_eq!(g.orders(), 1, "{:?}", g.last_outcome());
    let confirm = g.last_to("maxtor@example.org", "confirm");
    assert!(
        confirm
            .mail
            .body
            .contains("DKIM: valid signature (example.org)\nToken: correct"),
        "{}",
        confirm.mail.body
    );
}

#[test]
fn a_game_file_with_a_bad_token_is_refused_at_create() {
    let dir = tempfile::tempdir().unwrap();
    let mut daemon = Daemon::open(
        config(dir.path()),
        Registry::builtin(),
        Arc::new(FixedClock::new(t0())),
    )
    .unwrap();
    let path = example("eds");
    let text = with_token("change-me-1", "two words")(std::fs::read_to_string(&path).unwrap());
    let err = daemon
        .create_game(&text, path.parent().unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("token must be one word"), "{err}");
}

#[test]
fn a_token_belongs_to_the_player_not_the_seat_after_a_takeover() {
    let mut g = game(
        "nebulight",
        Some("en"),
        &with_token("change-me-1", "lune-42"),
        &[],
    );
    let id = g.id.clone();
    g.daemon
        .replace_player(
            &id,
            "maxtor",
            "newbie@example.net",
            Some("Newbie"),
            Some("fresh-pw"),
        )
        .unwrap();
    // The newcomer never received the old holder's token: not asked for.
    let body = format!("GAME {id} PLAYER maxtor PASSWORD fresh-pw\nM_200 C 10 VC F_19\nEND\n");
    g.send_raw(&mail("newbie@example.net", "orders", &body));
    assert_eq!(g.orders(), 1, "{:?}", g.last_outcome());
    let confirm = g.last_to("newbie@example.net", "confirm");
    assert!(
        !confirm.mail.body.contains("Token"),
        "{}",
        confirm.mail.body
    );
}
