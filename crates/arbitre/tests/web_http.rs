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
                // Nothing was committed: the form is refused (log in again), and sent anew.
                assert_eq!(status, 403, "{body}");
                assert_eq!(counts(dir.path()), (0, 0));
                let (cookie, csrf, nonce) = socket_form(port);
                let form = encode(&[
                    ("csrf", &csrf),
                    ("nonce", &nonce),
                    ("player", "alice"),
                    ("action", "orders"),
                    ("orders", "ADD 5"),
                ]);
                let (status, _, body) =
                    http(port, "POST", "/play/g1/orders", Some(&cookie), Some(&form)).unwrap();
                assert_eq!(status, 200, "{body}");
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
