//! Issue 24, HTTP level: the web pages through the axum router with
//! tower's `oneshot`: public pages, login and its limits, CSRF, the order
//! form through the mail path (a double submission counts once; a SIGKILL
//! during a submission leaves one order set and one confirmation), and the
//! game master's commands through the request pipeline.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use crate::web;

use arbitre::web::Web;
use arbitre::Daemon;
use axum::http::StatusCode;
use common::*;
use std::path::Path;
use std::sync::Arc;
use web::*;

/// A public Tally game `g1` with a GM password, and a private one `g2`.
fn env_public() -> Env {
    let toml = tally_toml("g1", "")
        .replace("ruleset = \"tally\"", "ruleset = \"tally\"\npublic = true")
        + "[services]\ngm_password = \"gm-secret\"\n";
    let env = Env::with_game(&toml);
    let mut env = env;
    env.daemon
        .create_game(&tally_toml("g2", ""), env.dir.path())
        .unwrap();
    env
}

fn web_of(env: &Env) -> Arc<Web> {
    Web::open(
        env.daemon.config.clone(),
        Arc::clone(&env.daemon.registry),
        env.clock.clone(),
    )
    .unwrap()
}

#[tokio::test]
async fn web_public_list_shows_public_games_only() {
    let env = env_public();
    let web = web_of(&env);
    let list = get(&web, "/", None).await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(list.body.contains("/games/g1"), "{}", list.body);
    assert!(!list.body.contains("g2"), "{}", list.body);
    assert_eq!(
        get(&web, "/games/g2", None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&web, "/games/nope", None).await.status,
        StatusCode::NOT_FOUND
    );
    let page = get(&web, "/games/g1", None).await;
    assert_eq!(page.status, StatusCode::OK);
    // Who has sent orders: nobody yet; names shown (not a blind game).
    assert!(page.body.contains("Alice") && page.body.contains("no orders yet"));
    // No address, ever.
    assert!(!page.body.contains("@example.org"), "{}", page.body);
}

#[tokio::test]
async fn web_deadline_in_the_viewers_zone() {
    let env = env_public();
    let web = web_of(&env);
    // Created at t0 = 2026-12-01 12:00 UTC, interval 2d: 2026-12-03 12:00 UTC.
    let utc = get(&web, "/games/g1?tz=UTC", None).await;
    assert!(utc.body.contains("2026-12-03 12:00 (UTC)"), "{}", utc.body);
    let tokyo = get(&web, "/games/g1?tz=asia/tokyo", None).await;
    assert!(
        tokyo.body.contains("2026-12-03 21:00 (Asia/Tokyo)"),
        "{}",
        tokyo.body
    );
    // No zone chosen: the game's, and the script that asks the browser's.
    let none = get(&web, "/games/g1", None).await;
    assert!(none.body.contains("resolvedOptions().timeZone"));
    assert!(!tokyo.body.contains("resolvedOptions().timeZone"));
}

#[tokio::test]
async fn web_blind_game_names_nobody() {
    let toml = tally_toml("b1", "")
        .replace("ruleset = \"tally\"", "ruleset = \"tally\"\npublic = true")
        + "[services]\nshow_orders_sent = false\n";
    let env = Env::with_game(&toml);
    let web = web_of(&env);
    let page = get(&web, "/games/b1", None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("does not tell who has sent orders"));
    assert!(!page.body.contains("no orders yet"));
}

#[tokio::test]
async fn web_login_cookie_is_secure_httponly_strict_with_expiry() {
    let env = env_public();
    let web = web_of(&env);
    let r = login(&web, "g1", "alice", "wonderland").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.location().as_deref(), Some("/play/g1"));
    let c = r.set_cookie("arbitre_session").unwrap();
    for part in ["HttpOnly", "Secure", "SameSite=Strict", "Max-Age=43200"] {
        assert!(c.contains(part), "{c}");
    }
    // Case-insensitive ids, as by mail; the page names the canonical game.
    let r = login(&web, "G1", "ALICE", "wonderland").await;
    assert_eq!(r.location().as_deref(), Some("/play/g1"));
    // Without a session, the player's page sends to the login.
    let p = get(&web, "/play/g1", None).await;
    assert_eq!(p.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn web_login_needs_its_csrf_token() {
    let env = env_public();
    let web = web_of(&env);
    let form = [
        ("csrf", "0123456789abcdef0123456789abcdef"),
        ("game", "g1"),
        ("player", "alice"),
        ("password", "wonderland"),
    ];
    // No cookie, or a cookie that is not the field's: refused.
    let r = post(&web, "/login", None, &form).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = post(
        &web,
        "/login",
        Some("arbitre_login=ffffffffffffffffffffffffffffffff"),
        &form,
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.set_cookie("arbitre_session").is_none());
}

#[tokio::test]
async fn web_wrong_passwords_count_with_the_mails() {
    let mut env = env_public();
    env.daemon.config.limits.wrong_passwords_per_seat_per_hour = 2;
    let web = web_of(&env);
    for _ in 0..2 {
        let r = login(&web, "g1", "alice", "guess").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    // Recorded as the mail path records them: the seat's next report tells.
    assert_eq!(
        env.count("SELECT count(*) FROM wrong_passwords WHERE player = 'alice'"),
        2
    );
    // Past the limit the web refuses the seat for the hour, even the right password.
    let r = login(&web, "g1", "alice", "wonderland").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    // The mail's counter is the same: a third wrong password by mail is
    // over the limit and goes unanswered.
    let d = &mut env.daemon;
    d.deliver(&mail(
        "alice@example.org",
        "o",
        &orders("g1", "alice", "guess2", "ADD 1"),
    ))
    .unwrap();
    d.process_inbox().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM wrong_passwords WHERE player = 'alice' AND answered = 0"),
        1
    );
    // Another seat is not affected.
    let r = login(&web, "g1", "bob", "builder").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
}

/// Logs alice in and returns her session cookie and the order form's
/// csrf and nonce.
async fn alice_form(web: &Arc<Web>) -> (String, String, String) {
    let cookie = session(web, "g1", "alice", "wonderland").await;
    let page = get(web, "/play/g1", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let csrf = field(&page.body, "csrf").unwrap();
    let nonce = field(&page.body, "nonce").unwrap();
    (cookie, csrf, nonce)
}

#[tokio::test]
async fn web_double_submission_counts_once() {
    let env = env_public();
    let web = web_of(&env);
    let (cookie, csrf, nonce) = alice_form(&web).await;
    let form = [
        ("csrf", csrf.as_str()),
        ("nonce", nonce.as_str()),
        ("player", "alice"),
        ("action", "orders"),
        ("orders", "ADD 3\r\nADD 4\r\n"),
    ];
    let first = post(&web, "/play/g1/orders", Some(&cookie), &form).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert!(first.body.contains("Received."), "{}", first.body);
    let second = post(&web, "/play/g1/orders", Some(&cookie), &form).await;
    assert_eq!(second.status, StatusCode::OK);
    assert!(
        second.body.contains("already been received"),
        "{}",
        second.body
    );
    // One order set, one journal row, one confirmation, mailed to alice.
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE player = 'alice'"),
        1
    );
    assert_eq!(env.count("SELECT count(*) FROM mail_journal"), 1);
    let confirms: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "confirm")
        .collect();
    assert_eq!(confirms.len(), 1);
    assert_eq!(confirms[0].mail.recipient, "alice@example.org");
    // The page shows the very confirmation that is mailed, both times.
    let body = &confirms[0].mail.body;
    let line = body.lines().find(|l| l.contains("ADD 4")).unwrap();
    assert!(first.text().contains(line.trim()), "{}", first.body);
    assert!(second.text().contains(line.trim()));
    // Stored as a mail's orders: the same text, the same verdicts.
    let text: String = env
        .daemon
        .store
        .conn()
        .query_row("SELECT text FROM orders", [], |r| r.get(0))
        .unwrap();
    assert_eq!(text.trim(), "ADD 3\nADD 4");
    // A new form (new nonce) with new orders replaces them, as a new mail does.
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    assert!(
        page.body.contains("ADD 3\nADD 4"),
        "the form shows the orders in force"
    );
    let nonce2 = field(&page.body, "nonce").unwrap();
    assert_ne!(nonce, nonce2);
    let form2 = [
        ("csrf", csrf.as_str()),
        ("nonce", nonce2.as_str()),
        ("player", "alice"),
        ("action", "orders"),
        ("orders", "ADD 9"),
    ];
    post(&web, "/play/g1/orders", Some(&cookie), &form2).await;
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE player = 'alice'"),
        2
    );
}

#[tokio::test]
async fn web_orders_need_session_and_csrf() {
    let env = env_public();
    let web = web_of(&env);
    let (cookie, csrf, nonce) = alice_form(&web).await;
    let bad = [
        ("csrf", "00000000000000000000000000000000"),
        ("nonce", nonce.as_str()),
        ("player", "alice"),
        ("action", "orders"),
        ("orders", "ADD 1"),
    ];
    let r = post(&web, "/play/g1/orders", Some(&cookie), &bad).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let good = [
        ("csrf", csrf.as_str()),
        ("nonce", nonce.as_str()),
        ("player", "alice"),
        ("action", "orders"),
        ("orders", "ADD 1"),
    ];
    let r = post(&web, "/play/g1/orders", None, &good).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // Bob's session cannot send alice's orders.
    let bob = session(&web, "g1", "bob", "builder").await;
    let r = post(&web, "/play/g1/orders", Some(&bob), &good).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(env.count("SELECT count(*) FROM orders"), 0);
}

#[tokio::test]
async fn web_check_button_stores_nothing_and_answers() {
    let env = env_public();
    let web = web_of(&env);
    let (cookie, csrf, nonce) = alice_form(&web).await;
    let r = post(
        &web,
        "/play/g1/orders",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("nonce", &nonce),
            ("player", "alice"),
            ("action", "check"),
            ("orders", "ADD 3\nADD 99"),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(env.count("SELECT count(*) FROM orders"), 0);
    let check = env.last_to("alice@example.org", "check").unwrap();
    assert!(check.mail.body.contains("ADD 99"));
    assert!(
        r.text().contains("1 to 10"),
        "the ruleset's diagnostic is shown: {}",
        r.body
    );
}

#[tokio::test]
async fn web_player_reports_and_map_files() {
    let mut env = env_public();
    env.daemon.resolve("g1").unwrap();
    let web = web_of(&env);
    let cookie = session(&web, "g1", "alice", "wonderland").await;
    let home = get(&web, "/play/g1", Some(&cookie)).await;
    assert!(home.body.contains("/play/g1/turns/1"), "{}", home.body);
    let r = get(&web, "/play/g1/turns/1", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK);
    // The report as mailed.
    let mailed = env
        .outbox()
        .into_iter()
        .rfind(|r| r.mail.kind == "report" && r.mail.player.as_deref() == Some("alice"))
        .unwrap();
    let first = mailed.mail.body.lines().next().unwrap();
    assert!(r.text().contains(first), "{}", r.body);
    // A turn not yet played is not there; another player's page needs their login.
    assert_eq!(
        get(&web, "/play/g1/turns/2", Some(&cookie)).await.status,
        StatusCode::NOT_FOUND
    );
    let gm = get(&web, "/gm/g1", Some(&cookie)).await;
    assert_eq!(gm.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn web_gm_commands_go_through_the_request_pipeline() {
    let env = env_public();
    let web = web_of(&env);
    // The players' password does not open the GM's pages.
    let r = login(&web, "g1", "gm", "wonderland").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let cookie = session(&web, "g1", "gm", "gm-secret").await;
    let page = get(&web, "/gm/g1", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.body.contains("missing"),
        "both seats are missing: {}",
        page.body
    );
    let csrf = field(&page.body, "csrf").unwrap();
    // Without the token: refused, nothing changed.
    let r = post(
        &web,
        "/gm/g1/command",
        Some(&cookie),
        &[("csrf", "x"), ("line", "PAUSE")],
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let notices_before = env.count("SELECT count(*) FROM outbox WHERE kind = 'notice'");
    let r = post(
        &web,
        "/gm/g1/command",
        Some(&cookie),
        &[("csrf", &csrf), ("line", "PAUSE")],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let status: String = env
        .daemon
        .store
        .conn()
        .query_row("SELECT status FROM games WHERE id = 'g1'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(status, "paused");
    // The players are told, as for the CLI's and the mail's PAUSE.
    assert_eq!(
        env.count("SELECT count(*) FROM outbox WHERE kind = 'notice'"),
        notices_before + 2
    );
    // A command that cannot be done says why and changes nothing.
    let r = post(
        &web,
        "/gm/g1/command",
        Some(&cookie),
        &[("csrf", &csrf), ("line", "PAUSE")],
    )
    .await;
    assert!(r.body.contains("paused"), "{}", r.body);
    let r = post(
        &web,
        "/gm/g1/command",
        Some(&cookie),
        &[("csrf", &csrf), ("line", "RESUME\nEXTEND 1d")],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    let deadline: i64 = env
        .daemon
        .store
        .conn()
        .query_row("SELECT deadline FROM games WHERE id = 'g1'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(
        deadline > t0().timestamp() + 2 * 86400,
        "extended after the resume"
    );
    // A GM session is for its game only.
    assert_eq!(
        get(&web, "/gm/g2", Some(&cookie)).await.status,
        StatusCode::SEE_OTHER
    );
}

#[test]
fn web_listen_in_arbitre_toml() {
    let c = arbitre::config::DaemonConfig::parse(
        "[web]\nlisten = \"127.0.0.1:8099\"\n",
        Path::new("."),
    )
    .unwrap();
    assert_eq!(c.web_listen, Some("127.0.0.1:8099".parse().unwrap()));
    let none = arbitre::config::DaemonConfig::parse("", Path::new(".")).unwrap();
    assert_eq!(none.web_listen, None);
    assert!(
        arbitre::config::DaemonConfig::parse("[web]\nlisten = \"8080\"\n", Path::new(".")).is_err()
    );
}

// ---- over a real socket: the web thread, and SIGKILL during a submission ----

const CHILD_DIR: &str = "ARBITRE_WEB_CHILD_DIR";
const CHILD_PORT: &str = "ARBITRE_WEB_CHILD_PORT";

#[test]
#[ignore = "the web server child of web_sigkill_during_submission; runs only with ARBITRE_WEB_CHILD_DIR set"]
fn child_web_server() {
    let Ok(dir) = std::env::var(CHILD_DIR) else {
        return;
    };
    let port: u16 = std::env::var(CHILD_PORT).unwrap().parse().unwrap();
    let clock = Arc::new(arbitre::FixedClock::new(t0()));
    let web = Web::open(config(Path::new(&dir)), Arc::new(registry()), clock).unwrap();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    arbitre::web::run_blocking(web, ([127, 0, 0, 1], port).into(), stop).unwrap();
}

/// One HTTP/1.1 request over a socket; `None` if the server died.
fn http(
    port: u16,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    form: Option<&str>,
) -> Option<(u16, String, String)> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .ok()?;
    let body = form.unwrap_or("");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    if form.is_some() {
        req.push_str(&format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).ok()?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).ok()?;
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, head.to_string(), body.to_string()))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn spawn_child(dir: &Path, port: u16, failpoint: Option<&str>) -> std::process::Child {
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--ignored",
        "--exact",
        &common::test_name(module_path!(), "child_web_server"),
        "--nocapture",
    ])
    .env(CHILD_DIR, dir)
    .env(CHILD_PORT, port.to_string())
    .env_remove("ARBITRE_FAILPOINT")
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null());
    if let Some(fp) = failpoint {
        cmd.env("ARBITRE_FAILPOINT", fp);
    }
    let child = cmd.spawn().unwrap();
    let start = std::time::Instant::now();
    while http(port, "GET", "/style.css", None, None).is_none() {
        assert!(
            start.elapsed().as_secs() < 60,
            "the web child did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child
}

fn set_cookie_of(head: &str, name: &str) -> String {
    let line = head
        .lines()
        .find(|l| {
            l.to_ascii_lowercase().starts_with("set-cookie:") && l.contains(&format!("{name}="))
        })
        .unwrap();
    let v = line.split_once(':').unwrap().1.trim();
    v.split(';').next().unwrap().to_string()
}

/// Logs alice in over the socket; returns (cookie, csrf, nonce).
fn socket_form(port: u16) -> (String, String, String) {
    let (_, head, _) = http(port, "GET", "/login", None, None).unwrap();
    let login_cookie = set_cookie_of(&head, "arbitre_login");
    let token = login_cookie.split_once('=').unwrap().1.to_string();
    let form = encode(&[
        ("csrf", &token),
        ("game", "g1"),
        ("player", "alice"),
        ("password", "wonderland"),
    ]);
    let (status, head, _) = http(port, "POST", "/login", Some(&login_cookie), Some(&form)).unwrap();
    assert_eq!(status, 303);
    let cookie = set_cookie_of(&head, "arbitre_session");
    let (_, _, page) = http(port, "GET", "/play/g1", Some(&cookie), None).unwrap();
    (
        cookie,
        field(&page, "csrf").unwrap(),
        field(&page, "nonce").unwrap(),
    )
}

fn counts(dir: &Path) -> (i64, i64) {
    let c = rusqlite::Connection::open(dir.join("arbitre.db")).unwrap();
    let orders = c
        .query_row("SELECT count(*) FROM orders", [], |r| r.get(0))
        .unwrap();
    let confirms = c
        .query_row(
            "SELECT count(*) FROM outbox WHERE kind = 'confirm'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    (orders, confirms)
}

#[test]
fn web_sigkill_during_submission() {
    use std::os::unix::process::ExitStatusExt;
    for failpoint in ["before-commit", "after-commit-before-move"] {
        let dir = tempfile::tempdir().unwrap();
        {
            let clock = Arc::new(arbitre::FixedClock::new(t0()));
            let mut d = Daemon::open(config(dir.path()), registry(), clock).unwrap();
            d.create_game(&tally_toml("g1", ""), dir.path()).unwrap();
        }
        let port = free_port();
        let mut child = spawn_child(dir.path(), port, Some(failpoint));
        let (cookie, csrf, nonce) = socket_form(port);
        let form = encode(&[
            ("csrf", &csrf),
            ("nonce", &nonce),
            ("player", "alice"),
            ("action", "orders"),
            ("orders", "ADD 5"),
        ]);
        // The server dies in the middle of the submission: no answer.
        let answer = http(port, "POST", "/play/g1/orders", Some(&cookie), Some(&form));
        assert!(
            answer.is_none() || answer.as_ref().is_some_and(|a| a.0 >= 500),
            "{answer:?}"
        );
        let status = child.wait().unwrap();
        assert!(
            status.signal().is_some(),
            "{failpoint}: the child was killed: {status:?}"
        );
        let port = free_port();
        let mut child = spawn_child(dir.path(), port, None);
        // The browser sends the same form again (its session died with the server).
        let (status, _, body) =
            http(port, "POST", "/play/g1/orders", Some(&cookie), Some(&form)).unwrap();
        match failpoint {
            "before-commit" => {
                // Nothing was committed; the session is in the database and
                // survived the restart: the same form is taken now.
                assert_eq!(status, 200, "{body}");
                assert!(body.contains("Received."), "{body}");
            }
            _ => {
                // Committed before the kill: the retry is recognised and shows the answer.
                assert_eq!(status, 200, "{body}");
                assert!(body.contains("already been received"), "{body}");
                assert!(body.contains("ADD 5"), "{body}");
            }
        }
        assert_eq!(
            counts(dir.path()),
            (1, 1),
            "{failpoint}: one order set, one confirmation"
        );
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

#[test]
fn web_thread_beside_the_daemon_stops_with_it() {
    let env = env_public();
    let web = web_of(&env);
    let port = free_port();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let t = arbitre::web::spawn(web, ([127, 0, 0, 1], port).into(), Arc::clone(&stop)).unwrap();
    let start = std::time::Instant::now();
    let page = loop {
        if let Some(p) = http(port, "GET", "/", None, None) {
            break p;
        }
        assert!(start.elapsed().as_secs() < 30);
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(page.0, 200);
    assert!(page.2.contains("/games/g1"));
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    t.join().unwrap();
    assert!(http(port, "GET", "/", None, None).is_none());
}

// ---- issue 24 leftovers (branch web2) ----

/// Public games `open` (sign-up open, 4 seats at most, 2 taken), `open_free`
/// (open, no limit), `closed` (no sign-up).
fn env_signups() -> Env {
    let public = |id: &str, extra: &str| {
        tally_toml(id, "").replace("ruleset = \"tally\"", "ruleset = \"tally\"\npublic = true")
            + extra
    };
    let mut env = Env::with_game(&public(
        "open",
        "[signup]\nopen = true\napprove = \"auto\"\nmax_players = 4\n",
    ));
    for toml in [
        public("nolimit", "[signup]\nopen = true\n"),
        public("closed", ""),
    ] {
        env.daemon.create_game(&toml, env.dir.path()).unwrap();
    }
    env
}

/// The list's row of `game`, from its link to the end of the row.
fn row_of<'a>(body: &'a str, game: &str) -> &'a str {
    let at = body.find(&format!("href=\"/games/{game}\"")).unwrap();
    let rest = &body[at..];
    &rest[..rest.find("</tr>").unwrap()]
}

#[tokio::test]
async fn web_list_free_seats_and_signup() {
    let env = env_signups();
    let web = web_of(&env);
    let list = get(&web, "/", None).await;
    assert_eq!(list.status, StatusCode::OK);
    let text = list.text();
    let open = row_of(&text, "open");
    // 4 seats at most, alice and bob seated: 2 free; the JOIN line to mail.
    assert!(open.contains("<td>2</td>"), "{open}");
    assert!(open.contains("JOIN open [your name]"), "{open}");
    assert!(open.contains(&env.daemon.config.referee), "{open}");
    let nolimit = row_of(&text, "nolimit");
    assert!(nolimit.contains("no limit"), "{nolimit}");
    assert!(nolimit.contains("JOIN nolimit"), "{nolimit}");
    let closed = row_of(&text, "closed");
    assert!(closed.contains("<td>—</td>"), "{closed}");
    assert!(!closed.contains("JOIN"), "{closed}");
    // The number of players is not what the column shows.
    assert!(!open.contains("Players"), "{open}");
}

#[tokio::test]
async fn web_list_full_game_says_full() {
    let public = tally_toml("full", "")
        .replace("ruleset = \"tally\"", "ruleset = \"tally\"\npublic = true")
        + "[signup]\nopen = true\nmax_players = 2\n";
    let env = Env::with_game(&public);
    let web = web_of(&env);
    let text = get(&web, "/", None).await.text();
    let row = row_of(&text, "full");
    assert!(row.contains("<td>0</td>") && row.contains("full"), "{row}");
    assert!(!row.contains("JOIN"), "{row}");
}

#[tokio::test]
async fn web_require_dkim_game_takes_web_orders() {
    let toml = tally_toml("d1", "")
        .replace("ruleset = \"tally\"", "ruleset = \"tally\"\npublic = true")
        + "[services]\nrequire_dkim = true\n";
    let mut env = Env::with_game(&toml);
    let web = web_of(&env);
    // By mail, unsigned: refused, as the game asks.
    env.daemon
        .deliver(&mail(
            "alice@example.org",
            "o",
            &orders("d1", "alice", "wonderland", "ADD 2"),
        ))
        .unwrap();
    env.daemon.process_inbox().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM orders"), 0);
    // From the web, after a password login: stored.
    let cookie = session(&web, "d1", "alice", "wonderland").await;
    let page = get(&web, "/play/d1", Some(&cookie)).await;
    let csrf = field(&page.body, "csrf").unwrap();
    let nonce = field(&page.body, "nonce").unwrap();
    let r = post(
        &web,
        "/play/d1/orders",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("nonce", &nonce),
            ("player", "alice"),
            ("action", "orders"),
            ("orders", "ADD 3"),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("Received."), "{}", r.body);
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE player = 'alice'"),
        1
    );
}

#[tokio::test]
async fn web_over_size_form_gets_a_page() {
    let mut env = env_public();
    env.daemon.config.max_mail_size = 1000;
    let web = web_of(&env);
    let (cookie, csrf, nonce) = alice_form(&web).await;
    // Over 3 x max_mail_size + 64 KiB once encoded.
    let big = "ADD 1\n".repeat(20_000);
    let r = post(
        &web,
        "/play/g1/orders",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("nonce", &nonce),
            ("player", "alice"),
            ("action", "orders"),
            ("orders", &big),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        r.body.contains("<html"),
        "a page, not a bare 413: {}",
        r.body
    );
    assert!(
        r.body
            .contains("larger than the referee accepts (1000 bytes"),
        "{}",
        r.body
    );
    assert_eq!(env.count("SELECT count(*) FROM orders"), 0);
}

#[tokio::test]
async fn web_body_limit_follows_max_mail_size() {
    // axum's default limit is 2 MB; the default max_mail_size is 10 MB: a
    // 3 MB form is read (here refused for its CSRF token, not its size).
    let env = env_public();
    let web = web_of(&env);
    let big = "x".repeat(3 * 1024 * 1024);
    let r = post(
        &web,
        "/login",
        None,
        &[
            ("csrf", "x"),
            ("game", "g1"),
            ("player", "alice"),
            ("password", &big),
        ],
    )
    .await;
    assert_eq!(
        r.status,
        StatusCode::FORBIDDEN,
        "{}",
        &r.body[..r.body.len().min(300)]
    );
}

#[tokio::test]
async fn web_french_game_page_has_no_english_chrome() {
    let toml = tally_toml("f1", "").replace(
        "ruleset = \"tally\"",
        "ruleset = \"tally\"\npublic = true\nlanguage = \"fr\"",
    );
    let env = Env::with_game(&toml);
    let web = web_of(&env);
    assert_eq!(env.daemon.config.language, arbitre_core::Lang::En);
    // "Archive " with its space: the French page says "Archives".
    let english = [
        "login", "Log in", "Log out", "Archive ", "Deadline", "Turn ",
    ];
    let public = get(&web, "/games/f1", None).await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.body);
    let cookie = session(&web, "f1", "alice", "wonderland").await;
    let home = get(&web, "/play/f1", Some(&cookie)).await;
    assert_eq!(home.status, StatusCode::OK, "{}", home.body);
    for page in [&public, &home] {
        assert!(page.body.contains("<html lang=\"fr\""), "{}", page.body);
        let chrome = chrome_of(&page.body);
        for word in english {
            assert!(!chrome.contains(word), "English {word:?} in {chrome}");
        }
    }
    // The public page offers the login; the player's page, behind it, offers
    // the logout instead.
    assert!(public.body.contains(">Connexion<"), "{}", public.body);
    assert!(!home.body.contains(">Connexion<"), "{}", home.body);
    assert!(home.body.contains("Déconnexion"), "{}", home.body);
    // Elsewhere the operator's language.
    let list = get(&web, "/", None).await;
    assert!(list.body.contains("<html lang=\"en\""));
    assert!(list.body.contains(">Log in<"), "{}", list.body);
}

/// A page's visible text outside what the ruleset wrote (the reports'
/// `<pre>` blocks and subjects, `<h3>`) and outside the script.
fn chrome_of(body: &str) -> String {
    let mut s = body.to_string();
    for (open, close) in [
        ("<pre>", "</pre>"),
        ("<h3>", "</h3>"),
        ("<script>", "</script>"),
    ] {
        while let Some(a) = s.find(open) {
            let b = s[a..].find(close).map_or(s.len(), |b| a + b + close.len());
            s.replace_range(a..b, " ");
        }
    }
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[tokio::test]
async fn web_session_survives_a_restart() {
    let env = env_public();
    let web = web_of(&env);
    let r = login(&web, "g1", "alice", "wonderland").await;
    let token = r.cookie("arbitre_session").unwrap();
    let cookie = format!("arbitre_session={token}");
    drop(web);
    // The web server again, on the same database: still logged in.
    let web = web_of(&env);
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    // Stored as a hash: the token itself is nowhere in the database, nor
    // the password.
    assert_eq!(env.count("SELECT count(*) FROM web_sessions"), 1);
    assert_eq!(
        env.count(&format!(
            "SELECT count(*) FROM web_sessions WHERE token_sha256 = '{token}' OR csrf = '{token}'"
        )),
        0
    );
    assert_eq!(
        env.count("SELECT count(*) FROM web_sessions WHERE credential LIKE '%wonderland%'"),
        0
    );
    // The form shown after the restart still sends orders.
    let csrf = field(&page.body, "csrf").unwrap();
    let nonce = field(&page.body, "nonce").unwrap();
    let r = post(
        &web,
        "/play/g1/orders",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("nonce", &nonce),
            ("player", "alice"),
            ("action", "orders"),
            ("orders", "ADD 5"),
        ],
    )
    .await;
    assert!(r.body.contains("Received."), "{}", r.body);
    assert_eq!(env.count("SELECT count(*) FROM orders"), 1);
}

#[tokio::test]
async fn web_logout_deletes_the_session_row() {
    let env = env_public();
    let web = web_of(&env);
    let cookie = session(&web, "g1", "alice", "wonderland").await;
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    let csrf = field(&page.body, "csrf").unwrap();
    assert_eq!(env.count("SELECT count(*) FROM web_sessions"), 1);
    let r = post(&web, "/logout", Some(&cookie), &[("csrf", &csrf)]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(env.count("SELECT count(*) FROM web_sessions"), 0);
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn web_expired_sessions_are_refused_and_purged() {
    let env = env_public();
    let web = web_of(&env);
    let alice = session(&web, "g1", "alice", "wonderland").await;
    env.clock.advance(chrono::TimeDelta::hours(13));
    assert_eq!(
        get(&web, "/play/g1", Some(&alice)).await.status,
        StatusCode::SEE_OTHER
    );
    // The next login purges the expired row.
    session(&web, "g1", "bob", "builder").await;
    assert_eq!(env.count("SELECT count(*) FROM web_sessions"), 1);
    assert_eq!(
        env.count("SELECT count(*) FROM web_sessions WHERE player = 'bob'"),
        1
    );
}

#[tokio::test]
async fn web_session_ends_when_the_seat_changes_hands() {
    let env = env_public();
    let web = web_of(&env);
    let alice = session(&web, "g1", "alice", "wonderland").await;
    assert_eq!(
        get(&web, "/play/g1", Some(&alice)).await.status,
        StatusCode::OK
    );
    // The game master gives alice's seat to someone else (new password).
    let gm = session(&web, "g1", "gm", "gm-secret").await;
    let page = get(&web, "/gm/g1", Some(&gm)).await;
    let csrf = field(&page.body, "csrf").unwrap();
    let r = post(
        &web,
        "/gm/g1/command",
        Some(&gm),
        &[
            ("csrf", &csrf),
            ("line", "TAKEOVER alice carol@example.org Carol"),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        get(&web, "/play/g1", Some(&alice)).await.status,
        StatusCode::SEE_OTHER,
        "the old holder's session ended"
    );
}

#[tokio::test]
async fn web_login_checks_the_players_token() {
    let toml = tally_toml("t1", "")
        .replace("ruleset = \"tally\"", "ruleset = \"tally\"\npublic = true")
        .replace(
            "password = \"wonderland\"",
            "password = \"wonderland\"\ntoken = \"tok-alice\"",
        );
    let env = Env::with_game(&toml);
    let web = web_of(&env);
    // The right password without the token: refused.
    let r = login(&web, "t1", "alice", "wonderland").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let form = get(&web, "/login", None).await;
    let t = form.cookie("arbitre_login").unwrap();
    let r = post(
        &web,
        "/login",
        Some(&format!("arbitre_login={t}")),
        &[
            ("csrf", &t),
            ("game", "t1"),
            ("player", "alice"),
            ("password", "wonderland"),
            ("token", "tok-alice"),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let cookie = format!("arbitre_session={}", r.cookie("arbitre_session").unwrap());
    let page = get(&web, "/play/t1", Some(&cookie)).await;
    let csrf = field(&page.body, "csrf").unwrap();
    let nonce = field(&page.body, "nonce").unwrap();
    let r = post(
        &web,
        "/play/t1/orders",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("nonce", &nonce),
            ("player", "alice"),
            ("action", "orders"),
            ("orders", "ADD 5"),
        ],
    )
    .await;
    assert!(r.body.contains("Received."), "{}", r.body);
}

#[tokio::test]
async fn web_form_block_for_another_seat_needs_its_password() {
    // A second block in alice's form naming bob is a mail like any other:
    // the login proves alice's seat only.
    let env = env_public();
    let web = web_of(&env);
    let (cookie, csrf, nonce) = alice_form(&web).await;
    let orders = "ADD 1\nEND\nGAME g1 PLAYER bob PASSWORD web-login\nADD 2\nEND";
    let r = post(
        &web,
        "/play/g1/orders",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("nonce", &nonce),
            ("player", "alice"),
            ("action", "orders"),
            ("orders", orders),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE player = 'bob'"),
        0
    );
}

/// Posts a settings form of alice's page (`service` and its fields) with a
/// fresh nonce; returns the answer page and the form as sent.
async fn alice_service(
    web: &Arc<Web>,
    cookie: &str,
    service: &str,
    fields: &[(&str, &str)],
) -> (web::Resp, Vec<(String, String)>) {
    let page = get(web, "/play/g1", Some(cookie)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    // The settings forms follow the order form: take their csrf and a nonce
    // of the service form asked for.
    let at = page
        .body
        .find(&format!("name=\"service\" value=\"{service}\""))
        .unwrap();
    let before = &page.body[..at];
    let nonce_at = before.rfind("name=\"nonce\" value=\"").unwrap();
    let nonce = field(&before[nonce_at..], "nonce").unwrap();
    let csrf = field(&page.body, "csrf").unwrap();
    let mut form: Vec<(String, String)> = vec![
        ("csrf".into(), csrf),
        ("nonce".into(), nonce),
        ("player".into(), "alice".into()),
        ("service".into(), service.into()),
    ];
    form.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let r = post_owned(web, "/play/g1/service", cookie, &form).await;
    (r, form)
}

async fn post_owned(
    web: &Arc<Web>,
    path: &str,
    cookie: &str,
    form: &[(String, String)],
) -> web::Resp {
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    post(web, path, Some(cookie), &pairs).await
}

/// The answers mailed to alice for her commands.
fn command_answers(env: &Env) -> Vec<String> {
    env.outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "confirm" && r.mail.recipient == "alice@example.org")
        .map(|r| r.mail.body)
        .collect()
}

#[tokio::test]
async fn web_timezone_form_as_the_mail_command() {
    let env = env_public();
    let web = web_of(&env);
    let cookie = session(&web, "g1", "alice", "wonderland").await;
    let (r, form) = alice_service(&web, &cookie, "timezone", &[("zone", "Asia/Tokyo")]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("Received."), "{}", r.body);
    let tz: String = env
        .daemon
        .store
        .conn()
        .query_row(
            "SELECT timezone FROM player_settings WHERE player = 'alice'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tz, "Asia/Tokyo");
    // The answer shown is the one mailed.
    let answers = command_answers(&env);
    assert_eq!(answers.len(), 1);
    let line = answers[0]
        .lines()
        .find(|l| l.contains("Asia/Tokyo"))
        .unwrap();
    assert!(r.text().contains(line.trim()), "{}", r.body);
    // No orders were stored or replaced.
    assert_eq!(env.count("SELECT count(*) FROM orders"), 0);
    // Sent twice: counted once.
    let again = post_owned(&web, "/play/g1/service", &cookie, &form).await;
    assert!(
        again.body.contains("already been received"),
        "{}",
        again.body
    );
    assert_eq!(command_answers(&env).len(), 1);
    assert_eq!(env.count("SELECT count(*) FROM mail_journal"), 1);
    // The page now shows the deadline in the chosen zone.
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    assert!(page.body.contains("(Asia/Tokyo)"), "{}", page.body);
}

#[tokio::test]
async fn web_timezone_form_refuses_an_unknown_zone_as_the_mail_does() {
    let env = env_public();
    let web = web_of(&env);
    let cookie = session(&web, "g1", "alice", "wonderland").await;
    let (r, _) = alice_service(
        &web,
        &cookie,
        "timezone",
        &[("zone", "Mars/Olympus\nPAUSE")],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.text().contains("Mars/Olympus"), "{}", r.body);
    assert_eq!(
        env.count("SELECT count(*) FROM player_settings WHERE timezone IS NOT NULL"),
        0
    );
    // The field's second line never became a command of its own.
    assert!(!r.text().contains("PAUSE"), "{}", r.body);
}

/// `g1` of [`env_public`] with press and absences allowed.
fn env_services() -> Env {
    let toml = tally_toml("g1", "")
        .replace("ruleset = \"tally\"", "ruleset = \"tally\"\npublic = true")
        + "[services]\ngm_password = \"gm-secret\"\npress = \"grey\"\nabsence_max_days = 14\n";
    Env::with_game(&toml)
}

#[tokio::test]
async fn web_absence_form_as_the_mail_command() {
    let env = env_services();
    let web = web_of(&env);
    let cookie = session(&web, "g1", "alice", "wonderland").await;
    let fields = [("from", "2026-12-10"), ("to", "2026-12-12")];
    let (r, form) = alice_service(&web, &cookie, "absence", &fields).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("Received."), "{}", r.body);
    assert_eq!(
        env.count(
            "SELECT count(*) FROM absences WHERE player = 'alice' \
             AND first_day = '2026-12-10' AND last_day = '2026-12-12'"
        ),
        1
    );
    let answers = command_answers(&env);
    assert_eq!(answers.len(), 1);
    let line = answers[0]
        .lines()
        .find(|l| l.contains("2026-12-1"))
        .unwrap();
    assert!(r.text().contains(line.trim()), "{}", r.body);
    let again = post_owned(&web, "/play/g1/service", &cookie, &form).await;
    assert!(
        again.body.contains("already been received"),
        "{}",
        again.body
    );
    assert_eq!(env.count("SELECT count(*) FROM absences"), 1);
    assert_eq!(command_answers(&env).len(), 1);
}

#[tokio::test]
async fn web_press_form_as_the_mail_command() {
    let env = env_services();
    let web = web_of(&env);
    let cookie = session(&web, "g1", "alice", "wonderland").await;
    let fields = [
        ("press_to", "bob"),
        ("text", "Bob, shall we share the board?"),
    ];
    let (r, form) = alice_service(&web, &cookie, "press", &fields).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("Received."), "{}", r.body);
    assert_eq!(
        env.count("SELECT count(*) FROM press WHERE sender = 'alice' AND recipients = 'bob'"),
        1
    );
    let to_bob = || {
        env.outbox()
            .into_iter()
            .filter(|r| {
                r.mail.recipient == "bob@example.org" && r.mail.body.contains("share the board")
            })
            .count()
    };
    assert_eq!(to_bob(), 1);
    assert_eq!(command_answers(&env).len(), 1);
    let again = post_owned(&web, "/play/g1/service", &cookie, &form).await;
    assert!(
        again.body.contains("already been received"),
        "{}",
        again.body
    );
    assert_eq!(env.count("SELECT count(*) FROM press"), 1);
    assert_eq!(to_bob(), 1);
    assert_eq!(command_answers(&env).len(), 1);
}

/// Posts a settings form of alice's page that the page may not show: the
/// csrf of her page and a new nonce of our own.
async fn alice_forced(
    web: &Arc<Web>,
    cookie: &str,
    service: &str,
    fields: &[(&str, &str)],
) -> web::Resp {
    let page = get(web, "/play/g1", Some(cookie)).await;
    let csrf = field(&page.body, "csrf").unwrap();
    let nonce = format!("{:032x}", rand_nonce());
    let mut form: Vec<(String, String)> = vec![
        ("csrf".into(), csrf),
        ("nonce".into(), nonce),
        ("player".into(), "alice".into()),
        ("service".into(), service.into()),
    ];
    form.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    post_owned(web, "/play/g1/service", cookie, &form).await
}

/// A fresh number for a nonce (the tests' nonces need only differ).
fn rand_nonce() -> u128 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(1);
    u128::from(N.fetch_add(1, Ordering::SeqCst)) << 64 | 0xfeed
}

/// What a form may store: press, absences, journal entries, mails, orders.
fn stored(env: &Env) -> Vec<i64> {
    ["press", "absences", "mail_journal", "outbox", "orders"]
        .iter()
        .map(|t| env.count(&format!("SELECT count(*) FROM {t}")))
        .collect()
}

#[tokio::test]
async fn web_press_and_absence_forms_hidden_and_refused_when_the_game_forbids_them() {
    // env_public: no `press`, no `absence_max_days`: neither is allowed.
    let env = env_public();
    let web = web_of(&env);
    let cookie = session(&web, "g1", "alice", "wonderland").await;
    let before = stored(&env);
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    assert!(page.body.contains("value=\"timezone\""), "{}", page.body);
    assert!(!page.body.contains("value=\"press\""), "{}", page.body);
    assert!(!page.body.contains("value=\"absence\""), "{}", page.body);
    assert!(!page.body.contains("name=\"press_to\""), "{}", page.body);
    // Posted anyway: refused with the mail's reason, and nothing stored.
    let r = alice_forced(
        &web,
        &cookie,
        "press",
        &[("press_to", "ALL"), ("text", "hello")],
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(r.text().contains("This game has no press"), "{}", r.body);
    assert!(r.text().contains("Nothing was stored."), "{}", r.body);
    let fields = [("from", "2026-12-10"), ("to", "2026-12-12")];
    let r = alice_forced(&web, &cookie, "absence", &fields).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(
        r.text().contains("This game does not allow absences."),
        "{}",
        r.body
    );
    assert_eq!(stored(&env), before, "nothing stored, journaled or mailed");
}

#[tokio::test]
async fn web_signed_press_only_and_absence_limit_hide_what_they_forbid() {
    let toml = tally_toml("g1", "")
        + "[services]\npress = \"open\"\nabsence_max_days = 14\nabsence_max_per_game = 1\n";
    let env = Env::with_game(&toml);
    let web = web_of(&env);
    let cookie = session(&web, "g1", "alice", "wonderland").await;
    let before = stored(&env);
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    // Open press: the form, but no "anonymous" box.
    assert!(page.body.contains("value=\"press\""), "{}", page.body);
    assert!(!page.body.contains("name=\"anonymous\""), "{}", page.body);
    let anonymous = [("press_to", "bob"), ("anonymous", "1"), ("text", "boo")];
    let r = alice_forced(&web, &cookie, "press", &anonymous).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(r.text().contains("only signed press"), "{}", r.body);
    assert_eq!(stored(&env), before, "nothing stored, journaled or mailed");
    // Signed press goes through.
    let r = alice_forced(
        &web,
        &cookie,
        "press",
        &[("press_to", "bob"), ("text", "hi")],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(env.count("SELECT count(*) FROM press"), 1);
    // One absence allowed: after it, the form is gone, and a second is refused.
    assert!(page.body.contains("value=\"absence\""), "{}", page.body);
    let fields = [("from", "2026-12-10"), ("to", "2026-12-12")];
    let (r, _) = alice_service(&web, &cookie, "absence", &fields).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(env.count("SELECT count(*) FROM absences"), 1);
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    assert!(!page.body.contains("value=\"absence\""), "{}", page.body);
    let journal = env.count("SELECT count(*) FROM mail_journal");
    let outbox = env.count("SELECT count(*) FROM outbox");
    let fields = [("from", "2026-12-20"), ("to", "2026-12-21")];
    let r = alice_forced(&web, &cookie, "absence", &fields).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(
        r.text().contains("already declared the 1 absence"),
        "{}",
        r.body
    );
    assert_eq!(env.count("SELECT count(*) FROM absences"), 1);
    assert_eq!(env.count("SELECT count(*) FROM mail_journal"), journal);
    assert_eq!(env.count("SELECT count(*) FROM outbox"), outbox);
}

#[tokio::test]
async fn web_order_form_hidden_and_refused_once_the_game_is_over() {
    let env = env_public();
    let web = web_of(&env);
    let (cookie, csrf, nonce) = alice_form(&web).await;
    let before = stored(&env);
    env.daemon
        .store
        .conn()
        .execute("UPDATE games SET status = 'over' WHERE id = 'g1'", [])
        .unwrap();
    let page = get(&web, "/play/g1", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(!page.body.contains("name=\"orders\""), "{}", page.body);
    assert!(page.text().contains("Game g1 is over"), "{}", page.body);
    for action in ["orders", "check"] {
        let form = [
            ("csrf", csrf.as_str()),
            ("nonce", nonce.as_str()),
            ("player", "alice"),
            ("action", action),
            ("orders", "ADD 1"),
        ];
        let r = post(&web, "/play/g1/orders", Some(&cookie), &form).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
        assert!(r.text().contains("Game g1 is over"), "{}", r.body);
    }
    assert_eq!(stored(&env), before, "nothing stored, journaled or mailed");
}
