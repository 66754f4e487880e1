//! Issue 14, "the real mail path" (items 10, 11, 12, 15, 16), without real
//! servers: an IMAP inbox that cannot be reached, duplicate deliveries
//! through the Maildir, configuration safety, signals and logs. The same
//! items against Dovecot and Postfix are in servers_e2e.rs.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::{run, Cli};
use arbitre::Clock;
use arbitre_mail::outbound::Security;
use arbitre_mail::{ImapConfig, InboxConfig};
use arbitre_store::{journal, turns};
use chrono::TimeDelta;
use clap::Parser;
use common::*;
use std::path::Path;
use std::time::Duration;

/// A port on loopback where nothing listens (bound, then released).
fn dead_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

fn dead_imap() -> InboxConfig {
    let mut c = ImapConfig::new("127.0.0.1", dead_port(), Security::None, "referee", "pw");
    c.timeout_secs = 2;
    InboxConfig::Imap(c)
}

/// Item 10: the inbox is one input among others. With the IMAP server down
/// (nothing listening), the daemon opens, a cycle still resolves the due
/// turn and sends its reports, the failure is reported, and the inbox backs
/// off instead of being hammered every cycle.
#[test]
fn imap_outage_daemon_keeps_running() {
    let dir = tempfile::tempdir().unwrap();
    let clock = std::sync::Arc::new(arbitre::FixedClock::new(t0()));
    let mut cfg = config(dir.path());
    cfg.inbox = dead_imap();
    cfg.poll_seconds = 10;
    let mut d = arbitre::Daemon::open(cfg, registry(), clock.clone())
        .expect("opening never logs in to IMAP");
    d.create_game(&tally_toml("g1", ""), dir.path()).unwrap();
    assert!(
        !d.inbox.is_connected(),
        "no IMAP session was opened by Daemon::open"
    );
    d.send_outbox().unwrap();
    let reports_before = std::fs::read_dir(dir.path().join("outbox"))
        .unwrap()
        .count();

    clock.advance(TimeDelta::days(3));
    let r = d
        .cycle()
        .expect("an unreachable inbox does not fail the cycle");
    assert!(
        r.inbox_error
            .as_deref()
            .is_some_and(|e| e.contains("connect")),
        "{r:?}"
    );
    assert_eq!(
        r.resolved,
        vec![("g1".to_string(), 1)],
        "the deadline was resolved meanwhile"
    );
    assert!(r.sent > 0, "and its reports were sent");
    assert!(
        std::fs::read_dir(dir.path().join("outbox"))
            .unwrap()
            .count()
            > reports_before
    );
    assert_eq!(d.inbox_health.failures, 1);
    let retry_at = d.inbox_health.retry_at.expect("a retry is scheduled");
    assert_eq!(
        retry_at,
        clock.now() + TimeDelta::seconds(10),
        "first retry after one poll interval"
    );

    // Backing off: the next cycle before the retry instant leaves the inbox alone.
    let r = d.cycle().unwrap();
    assert!(r.inbox_error.is_some());
    assert_eq!(
        d.inbox_health.failures, 1,
        "no new attempt before the retry instant"
    );
    // The wait after a cycle ends at the retry instant at the latest.
    assert!(d.wait_budget().unwrap() <= Duration::from_secs(10));

    clock.advance(TimeDelta::seconds(10));
    d.cycle().unwrap();
    assert_eq!(d.inbox_health.failures, 2, "tried again, failed again");
    assert_eq!(
        d.inbox_health.retry_at,
        Some(clock.now() + TimeDelta::seconds(20)),
        "the pause doubles"
    );
}

/// Item 10: `arbitre status` (and every command that only reads the
/// database) works while the IMAP server is down: it never logs in. And
/// `serve --once` with the server down still runs its cycle and says why
/// the inbox was not read, instead of failing with a database error.
#[test]
fn status_never_opens_the_inbox() {
    let dir = tempfile::tempdir().unwrap();
    let port = dead_port();
    let toml = format!(
        "referee = \"{REFEREE}\"\ndatabase = \"arbitre.db\"\n[inbound]\nkind = \"imap\"\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"none\"\nuser = \"referee\"\npassword_file = \"pw\"\ntimeout_secs = 2\n[outbound]\nkind = \"file\"\ndir = \"outbox\"\n[argon2]\nm_cost = 8\nt_cost = 1\n"
    );
    std::fs::write(dir.path().join("pw"), "pw\n").unwrap();
    let cfg = dir.path().join("arbitre.toml");
    std::fs::write(&cfg, toml).unwrap();
    let game = dir.path().join("g.toml");
    std::fs::write(&game, tally_toml("g1", "")).unwrap();
    let cli = |args: &[&str]| -> anyhow::Result<String> {
        let mut argv = vec!["arbitre", "--config", cfg.to_str().unwrap()];
        argv.extend_from_slice(args);
        let mut out = Vec::new();
        run(Cli::try_parse_from(&argv).unwrap(), registry(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    };
    cli(&["game", "create", game.to_str().unwrap()]).expect("game create needs no inbox");
    let status = cli(&["status"]).expect("status needs no inbox");
    assert!(status.contains("g1"), "{status}");
    cli(&["report", "g1", "alice"]).expect("report needs no inbox");
    let once = cli(&["serve", "--once"]).expect("serve --once runs without its inbox");
    assert!(
        once.contains("inbox not read") && once.contains(&port.to_string()),
        "{once}"
    );
    assert!(
        !once.contains("arbitre.db"),
        "the message does not blame the database: {once}"
    );
}

/// Item 11: the wait between two cycles ends at the next due instant — a
/// deadline, a reminder — even with a poll interval far longer.
#[test]
fn idle_ends_at_cycle_deadline() {
    let mut env = Env::with_game(&tally_toml("g1", "reminders = [\"2h\"]"));
    env.daemon.config.poll_seconds = 7 * 24 * 3600;
    let deadline = env
        .daemon
        .next_due()
        .unwrap()
        .expect("a running game is due some day");
    // The reminder, two hours before the deadline, comes first.
    let row = arbitre_store::games::require_game(env.daemon.store.conn(), "g1").unwrap();
    let game_deadline = chrono::DateTime::from_timestamp(row.deadline.unwrap(), 0).unwrap();
    assert_eq!(deadline, game_deadline - TimeDelta::hours(2));
    assert_eq!(
        env.daemon.wait_budget().unwrap(),
        (deadline - t0()).to_std().unwrap()
    );
    // Past the reminder: the deadline itself.
    env.clock.set(game_deadline - TimeDelta::minutes(5));
    assert_eq!(env.daemon.wait_budget().unwrap(), Duration::from_secs(300));
    // Past the deadline: no wait at all.
    env.clock.set(game_deadline + TimeDelta::seconds(1));
    assert_eq!(env.daemon.wait_budget().unwrap(), Duration::ZERO);
    // A short poll interval still wins.
    env.daemon.config.poll_seconds = 60;
    env.clock.set(t0());
    assert_eq!(env.daemon.wait_budget().unwrap(), Duration::from_secs(60));
}

/// Item 12: the same mail delivered again with extra trace headers (an MTA
/// retry) is played once, before and after its turn resolves; a mail from
/// another sender reusing the Message-ID is not taken for a copy.
#[test]
fn duplicate_delivery_by_message_id() {
    let mut env = Env::new();
    let first = mail(
        "alice@example.org",
        "orders",
        &orders("g1", "alice", "wonderland", "ADD 2"),
    );
    let again = |hop: &str| {
        let mut raw = format!(
            "Received: from {hop} by mx.arbitre.test; Tue, 1 Dec 2026 10:0{} +0000\r\n",
            hop.len() % 10
        )
        .into_bytes();
        raw.extend_from_slice(&first);
        raw
    };
    env.drop_mail(&first);
    env.daemon.cycle().unwrap();
    env.drop_mail(&again("relay-1.example"));
    env.daemon.cycle().unwrap();
    let orders_for = |env: &Env, turn: u32| {
        env.count(&format!("SELECT count(*) FROM orders WHERE game_id = 'g1' AND player = 'alice' AND turn = {turn}"))
    };
    assert_eq!(orders_for(&env, 1), 1, "the copy stored nothing");
    assert_eq!(
        env.outbox()
            .iter()
            .filter(|r| r.mail.kind == "confirm")
            .count(),
        1,
        "and was not answered"
    );
    let rows = journal::entries(env.daemon.store.conn()).unwrap();
    assert_eq!(rows.len(), 2, "both deliveries are journaled");
    assert!(
        rows.iter()
            .any(|r| r.outcome == "ignored" && r.detail.contains("duplicate delivery")),
        "{rows:?}"
    );

    // Bob's orders resolve turn 1 (early); then the MTA delivers alice's mail a third time.
    env.drop_mail(&mail(
        "bob@example.org",
        "orders",
        &orders("g1", "bob", "builder", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        turns::latest(env.daemon.store.conn(), "g1").unwrap().turn,
        1
    );
    env.drop_mail(&again("relay-22.example"));
    env.daemon.cycle().unwrap();
    assert_eq!(
        orders_for(&env, 2),
        0,
        "the late copy is not played as next turn's orders"
    );
    assert_eq!(
        env.outbox()
            .iter()
            .filter(|r| r.mail.kind == "confirm")
            .count(),
        2,
        "alice's and bob's only"
    );

    // Same Message-ID, another sender: handled as a mail of its own.
    let stolen = String::from_utf8(first.clone())
        .unwrap()
        .replace("From: alice@example.org", "From: bob@example.org")
        .replace("alice wonderland", "x");
    let stolen = stolen.replace(
        "PLAYER alice PASSWORD wonderland",
        "PLAYER bob PASSWORD builder",
    );
    env.drop_mail(stolen.as_bytes());
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count(
            "SELECT count(*) FROM orders WHERE game_id = 'g1' AND player = 'bob' AND turn = 2"
        ),
        1
    );
}

/// Item 15: a game's TOML may give `password_hash` (argon2id) instead of a
/// clear password; the player logs in with the password, the database holds
/// that very hash, and a malformed or non-argon2id hash is refused.
#[test]
fn game_create_accepts_argon2_password_hash() {
    let phc = arbitre_store::PasswordHasher::fast()
        .hash("wonderland", "any-salt-seed")
        .unwrap();
    let toml = tally_toml("g1", "").replace(
        "password = \"wonderland\"",
        &format!("password_hash = \"{phc}\""),
    );
    assert!(!toml.contains("wonderland"));
    let mut env = Env::with_game(&toml);
    let alice = arbitre_store::games::player_nocase(env.daemon.store.conn(), "g1", "alice")
        .unwrap()
        .unwrap();
    assert_eq!(alice.password_hash, phc);
    let stored = arbitre_store::games::require_game(env.daemon.store.conn(), "g1")
        .unwrap()
        .config;
    assert!(
        !stored.contains("argon2"),
        "the stored copy holds no hash: {stored}"
    );
    env.drop_mail(&mail(
        "alice@example.org",
        "orders",
        &orders("g1", "alice", "wonderland", "ADD 2"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE player = 'alice'"),
        1,
        "the password matches its hash"
    );

    let dir = tempfile::tempdir().unwrap();
    let mut d = arbitre::Daemon::open(config(dir.path()), registry(), env.clock.clone()).unwrap();
    for (bad, why) in [
        (
            "$argon2i$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
            "does not use argon2id",
        ),
        ("wonderland", "not a PHC string"),
        (
            "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ",
            "no salt or no hash",
        ),
    ] {
        let t = tally_toml("g2", "").replace(
            "password = \"wonderland\"",
            &format!("password_hash = \"{bad}\""),
        );
        let e = d.create_game(&t, dir.path()).unwrap_err().to_string();
        assert!(e.contains("alice") && e.contains(why), "{bad}: {e}");
        assert!(
            !e.contains(bad) || bad == "wonderland" && !e.contains("wonderland"),
            "the error never echoes the value: {e}"
        );
    }
    let both = tally_toml("g2", "").replace(
        "password = \"wonderland\"",
        &format!("password = \"w\"\npassword_hash = \"{phc}\""),
    );
    assert!(d
        .create_game(&both, dir.path())
        .unwrap_err()
        .to_string()
        .contains("not both"));
}

/// Item 15: `arbitre password hash` prints an argon2id PHC string that
/// verifies the password read from its input.
#[test]
fn password_hash_command_prints_argon2id() {
    let dir = tempfile::tempdir().unwrap();
    let pw = dir.path().join("pw");
    std::fs::write(&pw, "s3cret\n").unwrap();
    let mut out = Vec::new();
    let cfg = dir.path().join("arbitre.toml");
    std::fs::write(&cfg, "[argon2]\nm_cost = 8\nt_cost = 1\n").unwrap();
    run(
        Cli::try_parse_from([
            "arbitre",
            "--config",
            cfg.to_str().unwrap(),
            "password",
            "hash",
            "--from",
            pw.to_str().unwrap(),
        ])
        .unwrap(),
        registry(),
        &mut out,
    )
    .unwrap();
    let phc = String::from_utf8(out).unwrap().trim().to_string();
    assert!(phc.starts_with("$argon2id$"), "{phc}");
    assert!(arbitre_store::PasswordHasher::verify("s3cret", &phc));
    assert!(!arbitre_store::PasswordHasher::verify("s3cret ", &phc));
}

/// Item 15: SIGTERM (systemd's stop) and SIGINT end `arbitre serve` cleanly:
/// exit status 0, after the step in progress, well before its next poll.
#[test]
fn sigterm_stops_cleanly() {
    for signal in ["TERM", "INT"] {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("arbitre.toml");
        std::fs::write(
            &cfg,
            format!("referee = \"{REFEREE}\"\npoll_seconds = 3600\n"),
        )
        .unwrap();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbitre"))
            .args(["--config", cfg.to_str().unwrap(), "serve"])
            .env("ARBITRE_LOG", "info")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until the daemon holds its lock: its first cycle is under way.
        let lock = dir.path().join("var").join("arbitre.db");
        let start = std::time::Instant::now();
        while !lock.exists() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(500));
        let killed = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if start.elapsed() > Duration::from_secs(60) {
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let Some(status) = status else {
            let _ = child.kill();
            panic!("SIG{signal}: arbitre serve did not stop");
        };
        let mut err = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
        assert!(status.success(), "SIG{signal}: exit {status:?}\n{err}");
        assert!(err.contains("stop requested"), "SIG{signal}: {err}");
    }
}

/// Item 16: the systemd unit sets RUST_LOG; it is honoured, and ARBITRE_LOG
/// wins when both are set. A filter that does not parse falls back.
#[test]
fn rust_log_honoured_arbitre_log_wins() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(
        arbitre::cli::log_filter(env(&[("RUST_LOG", "debug")])).to_string(),
        "debug"
    );
    assert_eq!(
        arbitre::cli::log_filter(env(&[("RUST_LOG", "debug"), ("ARBITRE_LOG", "warn")]))
            .to_string(),
        "warn"
    );
    assert_eq!(
        arbitre::cli::log_filter(env(&[("ARBITRE_LOG", "arbitre=trace")])).to_string(),
        "arbitre=trace"
    );
    assert_eq!(arbitre::cli::log_filter(env(&[])).to_string(), "info");
    assert_eq!(
        arbitre::cli::log_filter(env(&[
            ("ARBITRE_LOG", "arbitre=loud"),
            ("RUST_LOG", "error")
        ]))
        .to_string(),
        "error"
    );
}

/// Item 16: "attempt to write a readonly database" names the file and the
/// fix (run as the daemon's user; chown).
#[test]
fn readonly_database_error_names_file_and_fix() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arbitre.db");
    drop(arbitre_store::Store::open(&db).unwrap());
    let ro = rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap();
    let e = ro.execute("CREATE TABLE x (a)", []).unwrap_err();
    let e = arbitre::cli::explain_readonly(anyhow::Error::new(e), Some(Path::new(&db)));
    let text = format!("{e:#}");
    assert!(text.contains(&db.display().to_string()), "{text}");
    assert!(
        text.contains("sudo -u arbitre") && text.contains("chown"),
        "{text}"
    );
    assert!(
        text.contains("readonly database"),
        "the original error stays: {text}"
    );
    let other =
        arbitre::cli::explain_readonly(anyhow::anyhow!("no such game"), Some(Path::new(&db)));
    assert_eq!(format!("{other:#}"), "no such game");
}
