//! Issue 24 item 6: the web pages in a real browser. Headless Chromium,
//! driven through chromedriver by fantoccini, plays the demo game: opens
//! the list of games and the game's public page, logs in, sends orders,
//! sees the confirmation, fills in the TIMEZONE, ABSENCE and PRESS forms
//! and sends the press, opens the report and its map, then the game
//! master's page.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them). Without them the test prints SKIPPED and passes, unless
//! `ARBITRE_TEST_BROWSER=1` (set by `.ci/run`) makes it mandatory, as
//! `ARBITRE_TEST_SERVERS` does for the mail servers.
//! `ARBITRE_WEB_SCREENSHOTS=1` writes its screenshots into docs/img/
//! (the ones docs/web.md shows); otherwise into a temporary folder.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre::web::Web;
use arbitre::{Registry, SystemClock};
use arbitre_core::PlayerId;
use arbitre_store::{games, turns};
use fantoccini::{ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

/// Chromium and chromedriver, or why not (SKIPPED, or a failure when
/// ARBITRE_TEST_BROWSER=1).
fn browser() -> Option<(PathBuf, PathBuf)> {
    let found = (
        which("chromium").or_else(|| which("chromium-browser")),
        which("chromedriver"),
    );
    if let (Some(c), Some(d)) = found {
        return Some((c, d));
    }
    let msg = "chromium or chromedriver not found: apt-get install chromium chromium-driver";
    if std::env::var("ARBITRE_TEST_BROWSER").as_deref() == Ok("1") {
        panic!("ARBITRE_TEST_BROWSER=1 but {msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_for(port: u16) {
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "port {port} never opened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The element `css` once the page shows it: a click that submits a form
/// returns before the next page has loaded on a busy machine (CI's run of
/// e3fca96 looked for the confirmation too early). On time-out, the page
/// the browser shows instead.
async fn wait_css(c: &fantoccini::Client, css: &str) -> fantoccini::elements::Element {
    let t = Instant::now();
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await {
            return e;
        }
        if t.elapsed() > Duration::from_secs(30) {
            let url = c
                .current_url()
                .await
                .map(|u| u.to_string())
                .unwrap_or_default();
            let page = c.source().await.unwrap_or_default();
            panic!("no `{css}` after 30 s on {url}:\n{page}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_browser_end_to_end() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let shots = if std::env::var("ARBITRE_WEB_SCREENSHOTS").as_deref() == Ok("1") {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/img")
    } else {
        std::env::temp_dir().join(format!("arbitre-web-shots-{}", std::process::id()))
    };
    std::fs::create_dir_all(&shots).unwrap();

    // The README's demo: a public game of the first ruleset, one turn played.
    let dir = tempfile::tempdir().unwrap();
    let mut sink = Vec::new();
    arbitre::demo::run(
        dir.path(),
        Registry::builtin(),
        1,
        arbitre_core::Lang::En,
        &mut sink,
    )
    .unwrap();
    let config = arbitre::config::DaemonConfig::under(dir.path());
    let (game, orders) = {
        let store = arbitre_store::Store::open(&config.database).unwrap();
        let row = games::games(store.conn()).unwrap().pop().unwrap();
        let state = turns::latest(store.conn(), &row.id).unwrap().state;
        let engine = Registry::builtin();
        let orders = engine
            .get(&row.ruleset)
            .unwrap()
            .bot_orders(&state, row.seed, &PlayerId::new("alice"))
            .unwrap();
        (row.id, orders)
    };
    let web = Web::open(config, Arc::new(Registry::builtin()), Arc::new(SystemClock)).unwrap();
    let port = free_port();
    let stop = Arc::new(AtomicBool::new(false));
    let server =
        arbitre::web::spawn(web, ([127, 0, 0, 1], port).into(), Arc::clone(&stop)).unwrap();
    wait_for(port);
    let base = format!("http://127.0.0.1:{port}");

    // Chromium as the machine's probe starts it: as root, in a closed
    // network, with a fresh profile. Without the background-networking
    // flags it keeps dialling Google's hosts; without its own profile and
    // HOME it can die before writing DevToolsActivePort (CI run of 935a008).
    let profile = tempfile::tempdir().unwrap();
    let driver_log = profile.path().join("chromedriver.log");
    let dport = free_port();
    let _driver = Driver(
        Command::new(&chromedriver)
            .arg(format!("--port={dport}"))
            .arg(format!("--log-path={}", driver_log.display()))
            .env("HOME", profile.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for(dport);
    let mut last_err = None;
    let mut client = None;
    // A slow 2-core machine may miss Chromium's first start; a second
    // try with a new profile tells a flake from a broken browser.
    for attempt in 0..3 {
        let data_dir = profile.path().join(format!("data-{attempt}"));
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-quic", "--no-first-run", "--no-default-browser-check",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-crash-reporter", "--disable-extensions",
                    format!("--user-data-dir={}", data_dir.display()),
                    "--window-size=800,1000",
                ],
            }),
        );
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{dport}"))
            .await
        {
            Ok(c) => {
                client = Some(c);
                break;
            }
            Err(e) => {
                eprintln!("browser session, attempt {}: {e}", attempt + 1);
                last_err = Some(e);
            }
        }
    }
    let Some(c) = client else {
        let log = std::fs::read_to_string(&driver_log).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(60).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        panic!(
            "no browser session after 3 tries: {last_err:?}\nchromedriver log (tail):\n{}",
            tail.join("\n")
        );
    };
    let shot = |name: &'static str, png: Vec<u8>| {
        std::fs::write(shots.join(name), png).unwrap();
    };

    // 1. The list of public games, then the game's public page.
    c.goto(&format!("{base}/")).await.unwrap();
    let link = c.find(Locator::LinkText(&game)).await.unwrap();
    shot("web-list.png", c.screenshot().await.unwrap());
    link.click().await.unwrap();
    wait_css(&c, "img.map, pre").await;
    assert!(c
        .current_url()
        .await
        .unwrap()
        .path()
        .starts_with(&format!("/games/{game}")));
    shot("web-game.png", c.screenshot().await.unwrap());

    // 2. Log in as alice.
    c.goto(&format!("{base}/login?game={game}")).await.unwrap();
    let form = c.form(Locator::Css("form[action='/login']")).await.unwrap();
    form.set_by_name("player", "alice").await.unwrap();
    form.set_by_name("password", "demo-alice").await.unwrap();
    form.submit().await.unwrap();
    let t = Instant::now();
    while c.current_url().await.unwrap().path() != format!("/play/{game}") {
        if t.elapsed() >= Duration::from_secs(20) {
            let url = c.current_url().await.unwrap();
            let page = c.source().await.unwrap_or_default();
            panic!("the login did not lead to the player's page: at {url}\n{page}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // 3. Send orders; the confirmation is on the page.
    let area = wait_css(&c, "textarea[name='orders']").await;
    area.clear().await.unwrap();
    area.send_keys(&orders).await.unwrap();
    shot("web-orders.png", c.screenshot().await.unwrap());
    c.find(Locator::Css("button[value='orders']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // "Reçu." in a French game: the page speaks the game's language.
    let ok = wait_css(&c, "p.ok").await;
    assert!(["Received.", "Reçu.", "Angekommen."].contains(&ok.text().await.unwrap().as_str()));
    let answer = wait_css(&c, "pre").await.text().await.unwrap();
    let first_order = orders
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap()
        .trim();
    assert!(
        answer.contains(first_order),
        "the confirmation echoes the orders: {answer}"
    );
    shot("web-confirmation.png", c.screenshot().await.unwrap());

    // 3b. The TIMEZONE, ABSENCE and PRESS forms (the demo allows press
    // and absences), filled in; then the press sent, and its answer.
    c.goto(&format!("{base}/play/{game}")).await.unwrap();
    let section = wait_css(&c, "section#commands").await;
    for form in ["timezone", "absence", "press"] {
        wait_css(&c, &format!("input[name='service'][value='{form}']")).await;
    }
    // A date field's typing depends on the browser's locale: set it.
    c.execute(
        "document.querySelector(\"input[name='from']\").value = arguments[0];\
         document.querySelector(\"input[name='to']\").value = arguments[1];\
         document.querySelector('section#commands').scrollIntoView();",
        vec![
            serde_json::json!("2026-12-24"),
            serde_json::json!("2026-12-27"),
        ],
    )
    .await
    .unwrap();
    let press = c
        .find(Locator::Css("section#commands textarea[name='text']"))
        .await
        .unwrap();
    press
        .send_keys("Bruno, une trêve sur le front nord ?")
        .await
        .unwrap();
    shot("web-commands.png", section.screenshot().await.unwrap());
    c.find(Locator::Css(
        "section#commands form:last-of-type button[type='submit']",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    wait_css(&c, "p.ok").await;
    let answer = wait_css(&c, "pre").await.text().await.unwrap();
    assert!(!answer.trim().is_empty(), "the press's answer is shown");
    shot("web-press.png", c.screenshot().await.unwrap());

    // 4. The report of turn 1 and its map, loaded as an image.
    c.goto(&format!("{base}/play/{game}")).await.unwrap();
    wait_css(&c, &format!("a[href='/play/{game}/turns/1']"))
        .await
        .click()
        .await
        .unwrap();
    let img = wait_css(&c, "img.map").await;
    let t = Instant::now();
    loop {
        let w = c
            .execute(
                "return document.querySelector('img.map').naturalWidth",
                vec![],
            )
            .await
            .unwrap();
        if w.as_u64().unwrap_or(0) > 0 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the map never loaded"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    shot("web-report.png", c.screenshot().await.unwrap());
    shot("web-map.png", img.screenshot().await.unwrap());

    // 5. The game master's page.
    c.goto(&format!("{base}/login?game={game}")).await.unwrap();
    let form = c.form(Locator::Css("form[action='/login']")).await.unwrap();
    form.set_by_name("player", "gm").await.unwrap();
    form.set_by_name("password", arbitre::demo::DEMO_GM_PASSWORD)
        .await
        .unwrap();
    form.submit().await.unwrap();
    wait_css(&c, "input[name='line'][type='text']").await;
    shot("web-gm.png", c.screenshot().await.unwrap());

    c.close().await.unwrap();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    server.join().unwrap();
    println!("screenshots in {}", shots.display());
}
