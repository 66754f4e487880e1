//! Issue 14, what an attacker found (items 1, 2, 3, 4, 5, 9 and 13), each
//! through the real mail loop: a mail delivered into the Maildir, one
//! `cycle` (inbox → resolution → outbox sent by the file transport), and
//! the outbox and journal read back. docs/reliability.md, "Attacks and
//! failures tried", names these tests.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::config::Limits;
use arbitre::fixture::Run;
use arbitre::Registry;
use arbitre_store::{games, outbox, OutboxStatus};
use chrono::TimeDelta;
use common::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn journal_details(env: &Env) -> Vec<(String, String)> {
    arbitre_store::journal::entries(env.daemon.store.conn())
        .unwrap()
        .into_iter()
        .map(|e| (e.outcome.to_string(), e.detail))
        .collect()
}

fn to_count(env: &Env, recipient: &str) -> usize {
    env.outbox()
        .iter()
        .filter(|r| r.mail.recipient == recipient)
        .count()
}

/// The least of `n` runs: what the work costs, without the noise of a
/// machine shared with other builds.
fn best_of(n: usize, mut f: impl FnMut(usize) -> Duration) -> Duration {
    (0..n).map(&mut f).min().unwrap_or_default()
}

/// An order block of `n` Tally lines (`ADD 1` … `ADD 9`), with one bad line
/// at the end that the confirmation must list.
fn block(n: usize, salt: usize) -> String {
    let mut lines = String::with_capacity(n * 8);
    for i in 0..n.saturating_sub(1) {
        lines.push_str(&format!("ADD {}\n", (i + salt) % 9 + 1));
    }
    lines.push_str("JUMP");
    orders("g1", "alice", "wonderland", &lines)
}

// --- item 1 ----------------------------------------------------------------

/// True when 4x the work took well under 16x the time (quadratic) in one of
/// three tries: `measure(n)` times the work for size n. A machine shared
/// with other builds can slow one try down; a quadratic step fails all three.
fn linear(what: &str, n: usize, mut measure: impl FnMut(usize) -> Duration) {
    let mut seen = Vec::new();
    for _ in 0..3 {
        let (a, b) = (measure(n), measure(4 * n));
        let ratio = b.as_secs_f64() / a.as_secs_f64().max(1e-6);
        if ratio < 10.0 {
            return;
        }
        seen.push(format!("{ratio:.1}x ({a:?} -> {b:?})"));
    }
    panic!(
        "{what}: 4x the size took {} the time; linear is ~4x, quadratic 16x",
        seen.join(", ")
    );
}

#[test]
fn huge_order_block_linear() {
    // The formatter alone: lettre's CRLF conversion inserted each CR in
    // place, so 4x the lines cost 16x the time. Linear now: about 4x.
    let mail = |n: usize| arbitre_mail::OutgoingMail {
        from: REFEREE.into(),
        to: "alice@example.org".into(),
        subject: "s".into(),
        body: "Zeile mit Umlaut ä und Text\n".repeat(n),
        message_id: format!("m{n}@arbitre.test"),
        in_reply_to: None,
        auto_submitted: "auto-replied",
        date: "Tue, 1 Dec 2026 10:00:00 +0000".into(),
        attachments: Vec::new(),
    };
    linear("format_mail", 50_000, |n| {
        let m = mail(n);
        best_of(2, |_| {
            let t = Instant::now();
            let raw = arbitre_mail::format_mail(&m).unwrap();
            assert!(raw.len() > m.body.len());
            t.elapsed()
        })
    });

    // The whole mail loop: read, decode, check, confirm, store, send.
    let mut env = Env::new();
    env.daemon.config.limits.max_order_lines = 0;
    let mut seq = 0;
    linear("the mail loop", 20_000, |n| {
        best_of(2, |_| {
            seq += 1;
            env.drop_mail(&mail_with(
                "alice@example.org",
                &format!("big {seq}"),
                &block(n, seq),
                "",
            ));
            let t = Instant::now();
            assert_eq!(env.daemon.cycle().unwrap().mails, 1);
            t.elapsed()
        })
    });
    // Tally takes three ADDs a turn: the rest are errors, and every error
    // is listed with its line (the three accepted lines are counted).
    let confirm = env.last_to("alice@example.org", "confirm").unwrap();
    assert!(
        confirm.mail.body.contains("80000  ERROR    JUMP"),
        "{}",
        &confirm.mail.body[confirm.mail.body.len() - 2000..]
    );
    assert!(
        confirm
            .mail
            .body
            .contains("(3 lines accepted without remark are not repeated here"),
        "{}",
        &confirm.mail.body[..500]
    );
    assert!(
        env.count("SELECT count(*) FROM orders") >= 4,
        "every block stored whole"
    );

    // A long block of accepted lines: counted, not echoed; the errors listed.
    let registry = registry();
    let row = games::require_game(env.daemon.store.conn(), "g1").unwrap();
    let game = arbitre::daemon::GameView::new(&registry, row).unwrap();
    let mut verdicts: Vec<arbitre_core::LineVerdict> = (1..=50_000)
        .map(|line| arbitre_core::LineVerdict {
            line,
            text: "MOVE 1 2".into(),
            verdict: arbitre_core::Verdict::Ok,
        })
        .collect();
    verdicts[999].verdict = arbitre_core::Verdict::Error("no such fleet".into());
    verdicts[40_000].verdict = arbitre_core::Verdict::Warning("late".into());
    verdicts[40_001].text = format!("MOVE {}", "9".repeat(5_000));
    verdicts[40_001].verdict = arbitre_core::Verdict::Error("too far".into());
    let checked = arbitre_core::Checked {
        verdicts,
        orders: 49_997,
        errors: 2,
        warnings: 1,
        ready: true,
        refused: false,
    };
    let text = arbitre::inbound::confirmation(&game, 1, "alice", true, &checked);
    assert!(text.len() < 4_096, "{} bytes:\n{text}", text.len());
    assert!(
        text.contains("1000  ERROR    MOVE 1 2\n               -> no such fleet"),
        "{text}"
    );
    assert!(text.contains("40001  WARNING  MOVE 1 2"), "{text}");
    // A long line is cut in a long confirmation, its reason kept.
    assert!(
        text.contains(&format!(
            "40002  ERROR    MOVE {}…\n               -> too far",
            "9".repeat(95)
        )),
        "{text}"
    );
    assert!(
        text.contains("(49997 lines accepted without remark are not repeated here"),
        "{text}"
    );
}

#[test]
fn max_order_lines() {
    let toml = tally_toml("g1", "").replace("seed = 42", "seed = 42\nlanguage = \"fr\"");
    let mut env = Env::with_game(&toml);
    assert_eq!(Limits::default().max_order_lines, 20_000);
    env.daemon.config.limits.max_order_lines = 100;
    env.drop_mail(&mail("alice@example.org", "trop", &block(101, 0)));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        0,
        "nothing stored"
    );
    let refusal = env
        .last_to("alice@example.org", "error")
        .expect("a refusal");
    assert!(
        refusal
            .mail
            .body
            .contains("Votre bloc d'ordres compte 101 lignes ; cet arbitre en accepte au plus 100"),
        "{}",
        refusal.mail.body
    );
    assert!(journal_details(&env)
        .iter()
        .any(|(o, d)| o == "rejected" && d.contains("order block of 101 lines")));
    // At the limit it is read, checked and stored as usual.
    env.drop_mail(&mail("alice@example.org", "juste", &block(100, 0)));
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM orders"), 1);
    assert!(env.last_to("alice@example.org", "confirm").is_some());
}

// --- item 2 ----------------------------------------------------------------

#[test]
fn flood_reply_to_reflection() {
    let mut env = Env::new();
    env.daemon.config.limits = Limits::default();
    let victim = "victim@example.net";
    for i in 0..200 {
        // No block, an unknown game, an unknown player, a wrong password.
        let body = match i % 4 {
            0 => "Hello, please answer me.".to_string(),
            1 => orders("nosuch", "x", "y", "ADD 1"),
            2 => orders("g1", "mallory", "y", "ADD 1"),
            _ => orders("g1", "alice", &format!("guess{i}"), "ADD 1"),
        };
        let headers = format!("Reply-To: {victim}\r\n");
        env.drop_mail(&mail_with(
            &format!("bot{i}@spam{}.example", i % 7),
            &format!("m{i}"),
            &body,
            &headers,
        ));
    }
    env.daemon.cycle().unwrap();
    assert!(
        env.daemon.inbox.pending().unwrap().is_empty(),
        "every mail read"
    );
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal"),
        200,
        "every mail journaled once"
    );
    assert!(
        to_count(&env, victim) <= 1,
        "{} mails to the victim",
        to_count(&env, victim)
    );
    assert_eq!(env.count("SELECT count(*) FROM orders"), 0);
    // The counters are O(1) rows, not a scan of the journal: a handful per
    // address and game, whatever the burst.
    assert!(
        env.count("SELECT count(*) FROM rate_counters") < 40,
        "{} counter rows",
        env.count("SELECT count(*) FROM rate_counters")
    );
    // The real players are still served, at their own address.
    env.drop_mail(&mail(
        "alice@example.org",
        "mine",
        &orders("g1", "alice", "wonderland", "ADD 2"),
    ));
    env.daemon.cycle().unwrap();
    assert!(env.last_to("alice@example.org", "confirm").is_some());
    // An hour later the victim may get one answer again, not more.
    env.clock.set(t0() + TimeDelta::hours(1));
    for i in 0..5 {
        env.drop_mail(&mail_with(
            &format!("late{i}@spam.example"),
            "again",
            &orders("nosuch", "x", "y", "ADD 1"),
            &format!("Reply-To: {victim}\r\n"),
        ));
    }
    env.daemon.cycle().unwrap();
    assert!(
        to_count(&env, victim) <= 2,
        "{} mails to the victim",
        to_count(&env, victim)
    );
}

// --- item 3 ----------------------------------------------------------------

#[test]
fn strangers_cannot_lock_out_seated_player() {
    let mut env = Env::new();
    env.daemon.config.limits = Limits {
        per_game_per_hour: 20,
        ..Limits::default()
    };
    for i in 0..60 {
        env.drop_mail(&mail(
            &format!("guesser{i}@evil.example"),
            &format!("g{i}"),
            &orders("g1", "alice", &format!("pw{i}"), "ADD 1"),
        ));
    }
    env.daemon.cycle().unwrap();
    let limited = env.count("SELECT count(*) FROM mail_journal WHERE outcome LIKE 'rate-limited%'");
    assert!(
        limited >= 40,
        "the per-game limit held the strangers: {limited}"
    );
    // The game's real players, from their registered addresses, are served.
    env.drop_mail(&mail(
        "alice@example.org",
        "mine",
        &orders("g1", "alice", "wonderland", "ADD 3"),
    ));
    env.drop_mail(&mail(
        "Bob@Example.org",
        "mine",
        &orders("g1", "bob", "builder", "ADD 4"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        2,
        "both seated players' orders stored"
    );
    assert!(env.last_to("alice@example.org", "confirm").is_some());
    // Strangers aiming their answers at alice (Reply-To) exhaust the
    // reply-address limit, not alice's own: she is still served.
    env.clock.set(t0() + TimeDelta::hours(1));
    for i in 0..40 {
        env.drop_mail(&mail_with(
            &format!("r{i}@evil.example"),
            &format!("r{i}"),
            "hello",
            "Reply-To: alice@example.org\r\n",
        ));
    }
    env.daemon.cycle().unwrap();
    assert!(
        env.count("SELECT count(*) FROM mail_journal WHERE outcome LIKE 'rate-limited%'") > limited,
        "the reply address was limited"
    );
    env.drop_mail(&mail(
        "alice@example.org",
        "still mine",
        &orders("g1", "alice", "wonderland", "ADD 6"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        3,
        "alice served after the Reply-To flood"
    );
    // A stranger with the right password is still a stranger: over the
    // per-game limit of the hour, refused.
    for i in 0..25 {
        env.drop_mail(&mail(
            &format!("more{i}@evil.example"),
            "x",
            &orders("g1", "alice", "nope", "ADD 5"),
        ));
    }
    env.drop_mail(&mail(
        "elsewhere@example.net",
        "x",
        &orders("g1", "alice", "wonderland", "ADD 5"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        3,
        "the stranger refused"
    );
}

#[test]
fn per_seat_wrong_password_limit() {
    let mut env = Env::new();
    env.daemon.config.limits = Limits {
        wrong_passwords_per_seat_per_hour: 3,
        ..Limits::default()
    };
    // Six wrong passwords from alice's own (forged) address.
    for i in 0..6 {
        env.drop_mail(&mail(
            "alice@example.org",
            &format!("w{i}"),
            &orders("g1", "alice", &format!("nope{i}"), "ADD 1"),
        ));
    }
    env.daemon.cycle().unwrap();
    let errors = env
        .outbox()
        .iter()
        .filter(|r| r.mail.recipient == "alice@example.org" && r.mail.kind == "error")
        .count();
    assert_eq!(errors, 3, "the first three answered, then silent");
    let notices: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.recipient == "gm@arbitre.test" && r.mail.kind == "notice")
        .collect();
    assert_eq!(notices.len(), 1, "the game master told once");
    assert!(
        notices[0]
            .mail
            .body
            .contains("more than 3 mails within an hour named player alice"),
        "{}",
        notices[0].mail.body
    );
    // More guesses this hour: still silent, the GM is not told again.
    env.drop_mail(&mail(
        "x@evil.example",
        "w7",
        &orders("g1", "alice", "nope7", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.outbox()
            .iter()
            .filter(|r| r.mail.recipient == "gm@arbitre.test" && r.mail.kind == "notice")
            .count(),
        1
    );
    // The right password is served at once.
    env.drop_mail(&mail(
        "alice@example.org",
        "real",
        &orders("g1", "alice", "wonderland", "ADD 2"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM orders"), 1);
    // The seat's report counts every attempt of the turn, answered or not.
    env.clock.set(t0() + TimeDelta::days(3));
    env.daemon.cycle().unwrap();
    let report = env
        .last_to("alice@example.org", "report")
        .expect("turn 1 report");
    assert!(
        report
            .mail
            .body
            .contains("WARNING: 7 mail(s) this turn used your player name"),
        "{}",
        report.mail.body
    );
}

// --- item 4 ----------------------------------------------------------------

fn welcome_password(body: &str) -> String {
    body.lines()
        .find_map(|l| l.strip_prefix("Your password: "))
        .expect("a password line")
        .trim()
        .to_string()
}

#[test]
fn generated_password_redacted_after_send() {
    let toml = format!(
        "{}\n[services]\ngm_password = \"gm-secret\"\n",
        tally_toml("g1", "")
    );
    let mut env = Env::with_game(&toml);
    env.daemon.cycle().unwrap();
    // TAKEOVER by mail: the password is generated and mailed to carol.
    env.drop_mail(&mail(
        "gm@arbitre.test",
        "takeover",
        &orders(
            "g1",
            "gm",
            "gm-secret",
            "TAKEOVER bob carol@example.org Carol",
        ),
    ));
    let report = env.daemon.cycle().unwrap();
    assert!(report.sent > 0);
    let welcome = env
        .outbox()
        .into_iter()
        .find(|r| r.mail.recipient == "carol@example.org" && r.mail.body.contains("Carol"))
        .expect("welcome mail");
    assert_eq!(welcome.status, OutboxStatus::Sent);
    // Sent with the password (the file transport's copy is the mail that left) ...
    let sent_file = std::fs::read_dir(env.outbox_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains(&welcome.mail.message_id))
        .unwrap();
    let left = String::from_utf8_lossy(&std::fs::read(&sent_file).unwrap()).to_string();
    let pw = welcome_password(&arbitre_mail::body_of(left.as_bytes()).unwrap());
    assert!(pw.len() >= 8);
    // ... and kept nowhere in the database once sent.
    assert!(
        welcome.mail.body.contains(arbitre::outgoing::REDACTED),
        "{}",
        welcome.mail.body
    );
    let leaks = |env: &Env| {
        env.outbox().iter().filter(|r| r.mail.body.contains(&pw) || String::from_utf8_lossy(&r.mail.raw).contains(&pw)).count()
            + env.count(&format!("SELECT count(*) FROM outbox WHERE instr(coalesce(redacted_body, ''), '{pw}') > 0 OR instr(coalesce(CAST(redacted_raw AS TEXT), ''), '{pw}') > 0")) as usize
    };
    assert_eq!(leaks(&env), 0, "the password stays in the outbox");
    // The password works, and a RESEND never repeats it.
    env.drop_mail(&mail(
        "carol@example.org",
        "resend",
        &orders("g1", "bob", &pw, "RESEND"),
    ));
    env.daemon.cycle().unwrap();
    assert!(
        env.outbox()
            .iter()
            .any(|r| r.mail.recipient == "carol@example.org"
                && r.mail.subject.contains("sent again")),
        "RESEND served"
    );
    assert_eq!(leaks(&env), 0);

    // `arbitre player replace` without a password: the same.
    let generated = env
        .daemon
        .replace_player("g1", "alice", "dave@example.org", None, None)
        .unwrap()
        .expect("generated");
    let pending = env
        .outbox()
        .into_iter()
        .find(|r| r.mail.recipient == "dave@example.org" && r.mail.body.contains(&generated))
        .expect("welcome queued with its password");
    assert_eq!(pending.status, OutboxStatus::Pending, "kept until sent");
    env.daemon.cycle().unwrap();
    assert!(
        !env.outbox().iter().any(|r| r.mail.body.contains(&generated)
            || String::from_utf8_lossy(&r.mail.raw).contains(&generated))
    );
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_arbitre")
}

fn arbitre_cmd(dir: &Path, args: &[&str], stdin: &str) -> (bool, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin())
        .arg("--config")
        .arg(dir.join("arbitre.toml"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("ARBITRE_LOG", "error")
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn cli_password_from_stdin_or_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("arbitre.toml"),
        "referee = \"ref@arbitre.test\"\n[argon2]\nm_cost = 8\nt_cost = 1\n",
    )
    .unwrap();
    let game =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nebulight/bots-duel/game.toml");
    let (ok, out) = arbitre_cmd(d, &["game", "create", game.to_str().unwrap()], "");
    assert!(ok, "{out}");
    let store = || arbitre_store::Store::open(&d.join("var/arbitre.db")).unwrap();
    let works = |player: &str, pw: &str| {
        let p = games::player_nocase(store().conn(), "neb-bots-duel", player)
            .unwrap()
            .unwrap();
        arbitre_store::PasswordHasher::verify(pw, &p.password_hash)
    };
    // On the command line: refused, nothing changed.
    let (ok, out) = arbitre_cmd(
        d,
        &[
            "player",
            "replace",
            "neb-bots-duel",
            "maxtor",
            "--email",
            "new@example.org",
            "--password",
            "visible-in-ps",
        ],
        "",
    );
    assert!(
        !ok && out.contains("never taken on the command line"),
        "{out}"
    );
    assert!(works("maxtor", "mx-pass"));
    // From standard input.
    let (ok, out) = arbitre_cmd(
        d,
        &[
            "player",
            "replace",
            "neb-bots-duel",
            "maxtor",
            "--email",
            "new@example.org",
            "--password-stdin",
        ],
        "from-stdin\n",
    );
    assert!(ok, "{out}");
    assert!(
        !out.contains("from-stdin"),
        "the password is not echoed: {out}"
    );
    assert!(works("maxtor", "from-stdin"));
    // From a file.
    std::fs::write(d.join("pw.txt"), "from-file\nignored second line\n").unwrap();
    let pw_file = d.join("pw.txt");
    let (ok, out) = arbitre_cmd(
        d,
        &[
            "player",
            "replace",
            "neb-bots-duel",
            "miria",
            "--email",
            "n2@example.org",
            "--password-file",
            pw_file.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{out}");
    assert!(works("miria", "from-file"));
    // password reset: standard input and --password-file.
    let (ok, out) = arbitre_cmd(
        d,
        &["password", "reset", "neb-bots-duel", "miria"],
        "reset-stdin\n",
    );
    assert!(ok, "{out}");
    assert!(works("miria", "reset-stdin"));
    std::fs::write(&pw_file, "reset-file\n").unwrap();
    let (ok, out) = arbitre_cmd(
        d,
        &[
            "password",
            "reset",
            "neb-bots-duel",
            "miria",
            "--password-file",
            pw_file.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{out}");
    assert!(works("miria", "reset-file"));
    // An empty standard input is refused, not taken as an empty password.
    let (ok, out) = arbitre_cmd(d, &["password", "reset", "neb-bots-duel", "miria"], "");
    assert!(!ok && out.contains("no password"), "{out}");
    assert!(works("miria", "reset-file"));
}

// --- item 5 ----------------------------------------------------------------

#[test]
fn ids_unique_ignoring_case() {
    let mut env = Env::with_game(&tally_toml("Case-X", ""));
    let e = env
        .daemon
        .create_game(&tally_toml("case-x", ""), env.dir.path())
        .unwrap_err();
    assert!(e.to_string().contains("already exists"), "{e}");
    assert_eq!(env.count("SELECT count(*) FROM games"), 1);
    // Two players differing by case in one game.
    let twins = tally_toml("other", "").replace("id = \"bob\"", "id = \"ALICE\"");
    let e = env.daemon.create_game(&twins, env.dir.path()).unwrap_err();
    // (The game TOML already refuses it; the store would too.)
    assert!(e.to_string().contains("'ALICE' appears twice"), "{e}");
    assert_eq!(
        env.count("SELECT count(*) FROM games"),
        1,
        "nothing of it kept"
    );
    // A mail naming the game in another case reaches the one game.
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("CASE-x", "Alice", "wonderland", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE game_id = 'Case-X'"),
        1
    );
    assert!(env.daemon.id_collisions().unwrap().is_empty());
    // A database written before the check: reported by status (and serve).
    let c = env.daemon.store.conn();
    c.execute_batch(
        "CREATE TEMP TABLE g AS SELECT * FROM games WHERE id = 'Case-X'; UPDATE g SET id = 'case-x'; INSERT INTO games SELECT * FROM g;
         CREATE TEMP TABLE p AS SELECT * FROM players WHERE game_id = 'Case-X'; UPDATE p SET game_id = 'case-x'; INSERT INTO players SELECT * FROM p;
         CREATE TEMP TABLE t AS SELECT * FROM turns WHERE game_id = 'Case-X'; UPDATE t SET game_id = 'case-x'; INSERT INTO turns SELECT * FROM t;
         INSERT INTO players (game_id, id, name, email, password_hash) SELECT game_id, 'BOB', name, email, password_hash FROM players WHERE game_id = 'Case-X' AND id = 'bob';",
    )
    .unwrap();
    let warnings = env.daemon.id_collisions().unwrap();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    let status = env.daemon.status(None).unwrap();
    assert!(
        status.contains("WARNING: games Case-X, case-x differ only by case"),
        "{status}"
    );
    assert!(
        status.contains("WARNING: players BOB, bob of game Case-X differ only by case"),
        "{status}"
    );
}

// --- item 9 ----------------------------------------------------------------

#[test]
fn reply_to_referee_is_answered_to_from() {
    let mut env = Env::new();
    let headers = format!("Reply-To: Referee <{REFEREE}>\r\n");
    env.drop_mail(&mail_with(
        "alice@example.org",
        "orders",
        &orders("g1", "alice", "wonderland", "ADD 1"),
        &headers,
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM orders"), 1, "not dropped");
    assert!(
        env.last_to("alice@example.org", "confirm").is_some(),
        "answered to the From"
    );
    assert_eq!(to_count(&env, REFEREE), 0, "never to ourselves");
    // Mail FROM the referee is still never answered (no loops).
    env.drop_mail(&mail(
        REFEREE,
        "loop",
        &orders("g1", "alice", "wonderland", "ADD 2"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal WHERE outcome = 'ignored'"),
        1
    );
}

#[test]
fn unknown_game_refusal_in_registered_players_language() {
    let toml = tally_toml("g1", "").replace("seed = 42", "seed = 42\nlanguage = \"fr\"");
    let mut env = Env::with_game(&toml);
    // English header words, unknown game, from a registered player of a French game.
    env.drop_mail(&mail(
        "alice@example.org",
        "a",
        &orders("nosuch", "alice", "x", "ADD 1"),
    ));
    env.drop_mail(&mail("alice@example.org", "b", "no block at all"));
    env.daemon.cycle().unwrap();
    let bodies: Vec<String> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.recipient == "alice@example.org")
        .map(|r| r.mail.body)
        .collect();
    assert!(
        bodies
            .iter()
            .any(|b| b.contains("Il n'y a pas de partie « nosuch »")),
        "{bodies:?}"
    );
    assert!(
        bodies
            .iter()
            .any(|b| b.contains("Aucun bloc d'ordres trouvé")),
        "{bodies:?}"
    );
    // A stranger still gets the header's (or the referee's) language.
    env.drop_mail(&mail(
        "stranger@example.net",
        "c",
        &orders("nosuch", "x", "y", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert!(env
        .last_to("stranger@example.net", "error")
        .unwrap()
        .mail
        .body
        .contains("There is no game 'nosuch'"));
}

#[test]
fn player_pause_is_journaled_as_refused() {
    let mut env = Env::new();
    env.drop_mail(&mail(
        "alice@example.org",
        "p",
        &orders("g1", "alice", "wonderland", "PAUSE"),
    ));
    env.daemon.cycle().unwrap();
    let details = journal_details(&env);
    let (_, d) = details
        .iter()
        .find(|(o, _)| o == "service")
        .expect("a service row");
    assert!(!d.contains("0 refused"), "{d}");
    assert!(
        d.contains("none served; refused: PAUSE (game master only)"),
        "{d}"
    );
    assert_eq!(
        env.count("SELECT status = 'running' FROM games"),
        1,
        "the game is not paused"
    );
}

#[test]
fn map_file_errors_never_echo_the_file() {
    let secret = "root:x:0:0:hunter2-secret-line";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("secret.txt"),
        format!("{secret}\nsecond line\n"),
    )
    .unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    for (fixture, key) in [
        ("eds/bots-trio", "map_file"),
        ("eds/bots-trio", "position_file"),
        ("scrambled/bots-hexagone", "map_file"),
        ("scrambled/bots-hexagone", "position_file"),
        ("wwk/bots-trio", "map_file"),
        ("wwk/bots-trio", "position_file"),
    ] {
        let toml = std::fs::read_to_string(fixtures.join(fixture).join("game.toml")).unwrap();
        let toml = toml.replacen("[rules]", &format!("[rules]\n{key} = \"secret.txt\""), 1);
        let mut d = arbitre::Daemon::open(
            config(dir.path()),
            Registry::builtin(),
            std::sync::Arc::new(arbitre::FixedClock::new(t0())),
        )
        .unwrap();
        let Err(e) = d.create_game(&toml, dir.path()) else {
            continue;
        };
        let e = e.to_string();
        assert!(!e.contains("hunter2"), "{fixture} {key}: {e}");
        assert!(!e.contains("second line"), "{fixture} {key}: {e}");
    }
}

// --- item 13 ---------------------------------------------------------------

/// The bytes where `raw` has a CR not followed by LF or an LF not preceded by CR.
fn bare_line_ends(raw: &[u8]) -> Vec<usize> {
    let mut bad = Vec::new();
    for (i, b) in raw.iter().enumerate() {
        match b {
            b'\r' if raw.get(i + 1) != Some(&b'\n') => bad.push(i),
            b'\n' if i == 0 || raw[i - 1] != b'\r' => bad.push(i),
            _ => {}
        }
    }
    bad
}

fn turn_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.is_dir()
                && p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("turn-")
                && !p.ends_with("turn-000")
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_outgoing_mail_of_every_fixture_is_crlf_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut checked = 0;
    let mut with_attachments = 0;
    for dir in arbitre::fixture::find_fixtures(&root) {
        let (mut run, _) = Run::start(&dir.join("game.toml"), Registry::builtin()).unwrap();
        for t in turn_dirs(&dir) {
            let mut inbox: Vec<PathBuf> = std::fs::read_dir(t.join("inbox"))
                .map(|r| r.map(|e| e.unwrap().path()).collect())
                .unwrap_or_default();
            inbox.sort();
            let mails: Vec<Vec<u8>> = inbox.iter().map(|p| std::fs::read(p).unwrap()).collect();
            run.step(&mails).unwrap();
        }
        for r in outbox::all(run.daemon.store.conn()).unwrap() {
            let bad = bare_line_ends(&r.mail.raw);
            assert!(
                bad.is_empty(),
                "{}: {} has bare CR/LF at bytes {:?}",
                dir.display(),
                r.mail.message_id,
                &bad[..bad.len().min(5)]
            );
            checked += 1;
            with_attachments += usize::from(
                String::from_utf8_lossy(&r.mail.raw).contains("Content-Disposition: attachment"),
            );
        }
    }
    assert!(checked > 100, "{checked} mails checked");
    assert!(
        with_attachments > 10,
        "{with_attachments} mails with attachments"
    );
}
