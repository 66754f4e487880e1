//! Issue 14 item 1, the part about size: one order mail of 10 MiB (the
//! default `max_mail_size`) through the real inbound path — read from the
//! Maildir, decoded, checked, confirmed, stored, the answer queued and sent
//! by the file transport — measured with a counting global allocator (sizes,
//! never time), and a game master's command that must not meet "database is
//! locked" while such a mail is being checked.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;

use arbitre::{Daemon, FixedClock, Registry};
use arbitre_core::Adapter;
use common::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Live heap bytes and their peak since the last reset (the same counter as
/// crates/benches/src/alloc.rs, which this crate cannot depend on).
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(n: usize) {
    let now = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            grow(l.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(l);
        if !p.is_null() {
            grow(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        LIVE.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = System.realloc(p, l, new);
        if !q.is_null() {
            if new >= l.size() {
                grow(new - l.size());
            } else {
                LIVE.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The counter is the process's: one test at a time, or a test's peak
/// would count another's allocations.
static SERIAL: Mutex<()> = Mutex::new(());

/// A mail of about `size` bytes whose order block has `lines` lines of
/// equal length (Tally's `ADD k` padded with a trailing comment-free
/// argument the ruleset refuses, so every line is echoed as an error).
fn big_mail(size: usize, lines: usize) -> Vec<u8> {
    // Each line also gains a CR on the way into the mail.
    let per = (size - 1_000) / lines - 1;
    let mut block = String::with_capacity(size);
    for i in 0..lines {
        let head = format!("ADD {} ", i % 9 + 1);
        block.push_str(&head);
        for _ in head.len()..per - 1 {
            block.push('x');
        }
        block.push('\n');
    }
    mail(
        "alice@example.org",
        "big",
        &orders("g1", "alice", "wonderland", &block),
    )
}

/// Peak heap above what was live before, for one cycle handling `raw`.
fn peak_of_one_mail(env: &mut Env, raw: Vec<u8>) -> (usize, usize) {
    let size = raw.len();
    // The welcome mails of the game's creation leave first.
    env.daemon.cycle().unwrap();
    env.drop_mail(&raw);
    drop(raw);
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let t = std::time::Instant::now();
    let report = env.daemon.cycle().unwrap();
    eprintln!("cycle took {:?}", t.elapsed());
    let peak = PEAK.load(Relaxed).saturating_sub(base);
    assert_eq!(report.mails, 1);
    assert_eq!(report.sent, 1, "the confirmation left");
    (size, peak)
}

#[test]
fn big_order_mail_memory_under_5x() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let limit = arbitre_mail::DEFAULT_MAX_SIZE;
    // The default limits: at most 20,000 lines, so the biggest block that
    // is read and checked has 20,000 lines of ~520 bytes.
    let mut env = Env::new();
    env.daemon.config.limits = arbitre::config::Limits::default();
    env.daemon.config.limits.max_order_lines = 20_000;
    let (size, peak) = peak_of_one_mail(&mut env, big_mail(limit - 4_096, 20_000));
    assert!(size > limit - 8_192 && size <= limit, "{size}");
    assert_eq!(env.count("SELECT count(*) FROM orders"), 1, "stored");
    let ratio = peak as f64 / size as f64;
    eprintln!("20,000 lines: mail {size} bytes, peak {peak} bytes = {ratio:.2}x");
    assert!(
        ratio < 5.0,
        "peak {peak} bytes is {ratio:.2}x the mail's {size}"
    );
}

/// A field of /proc/self/status, in bytes (`VmHWM`, `VmRSS`).
fn status_bytes(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} in /proc/self/status"));
    let kib: usize = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap();
    kib * 1024
}

/// Set in the child process that measures the resident peak.
const RSS_CHILD: &str = "ARBITRE_TEST_RSS_CHILD";

#[test]
fn big_order_mail_peak_rss_bounded() {
    // The resident peak of a process depends on what ran in it before: the
    // C allocator keeps part of what earlier tests freed (glibc raises its
    // mmap threshold after a large free), which gave 4.1x to 4.6x after
    // this binary's other tests against 3.3x alone. So the figure is taken
    // in a process of its own, started for this one measurement: the same
    // figure on every run, whatever order the tests run in.
    if std::env::var_os(RSS_CHILD).is_some() {
        return measure_peak_rss();
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "big_order_mail_peak_rss_bounded",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(RSS_CHILD, "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stderr}");
    assert!(
        out.status.success(),
        "the measuring child failed: {}\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.contains("peak RSS: mail"),
        "the child measured nothing: {stderr}"
    );
}

fn measure_peak_rss() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // The heap counter above sees only Rust's allocations; the process's
    // resident set also holds SQLite's own copies of the body (its page
    // cache, statement buffers, the WAL's pages), mail-parser's, and what
    // the C allocator keeps of freed memory. Peak RSS (VmHWM, reset through
    // clear_refs) above the resident set before the cycle is the figure of
    // issue 14 item 1, whose goal is 5x the mail. On the development
    // machine: 3.3x in a fresh process (4.1x to 4.6x when it ran after the
    // binary's other tests); 8.8x before the verdicts were stored compactly
    // and the order text and the answer were dropped once SQLite had its
    // copies bound (docs/reliability.md).
    let limit = arbitre_mail::DEFAULT_MAX_SIZE;
    let mut env = Env::new();
    env.daemon.config.limits = arbitre::config::Limits::default();
    env.daemon.config.limits.max_order_lines = 20_000;
    env.daemon.cycle().unwrap();
    let raw = big_mail(limit - 4_096, 20_000);
    let size = raw.len();
    env.drop_mail(&raw);
    drop(raw);
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let base = status_bytes("VmRSS:");
    let report = env.daemon.cycle().unwrap();
    let peak = status_bytes("VmHWM:").saturating_sub(base);
    assert_eq!(report.mails, 1);
    assert_eq!(report.sent, 1, "the confirmation left");
    assert_eq!(env.count("SELECT count(*) FROM orders"), 1, "stored");
    let ratio = peak as f64 / size as f64;
    eprintln!("peak RSS: mail {size} bytes, {peak} bytes above the start = {ratio:.2}x");
    assert!(
        ratio < 5.0,
        "peak RSS {peak} bytes is {ratio:.2}x the mail's {size}"
    );
}

#[test]
fn big_order_mail_memory_measured_without_line_limit() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Not a bound: the figure for docs/reliability.md with `max_order_lines`
    // off, where each of ~1.3 million short lines carries its own verdict.
    let mut env = Env::new();
    env.daemon.config.limits.max_order_lines = 0;
    let limit = arbitre_mail::DEFAULT_MAX_SIZE;
    let (size, peak) = peak_of_one_mail(&mut env, big_mail(limit - 4_096, (limit - 4_096) / 8));
    eprintln!(
        "short lines, no line limit: mail {size} bytes, peak {peak} bytes = {:.2}x",
        peak as f64 / size as f64
    );
}

/// Tally, whose first check waits until the test says go: the instant a
/// mail's block is being checked, held open for as long as the test needs.
struct Gate {
    inner: Box<dyn arbitre_core::Engine>,
    checking: Mutex<mpsc::Sender<()>>,
    go: Mutex<mpsc::Receiver<()>>,
    first: AtomicBool,
}

impl arbitre_core::Engine for Gate {
    fn info(&self) -> arbitre_core::RulesetInfo {
        self.inner.info()
    }
    fn setup(
        &self,
        config: &arbitre_core::SetupConfig,
    ) -> Result<arbitre_core::Snapshot, arbitre_core::EngineError> {
        self.inner.setup(config)
    }
    fn players(
        &self,
        state: &str,
    ) -> Result<Vec<arbitre_core::PlayerInfo>, arbitre_core::EngineError> {
        self.inner.players(state)
    }
    fn check(
        &self,
        state: &str,
        player: &arbitre_core::PlayerId,
        text: &str,
    ) -> Result<arbitre_core::Checked, arbitre_core::EngineError> {
        if !self.first.swap(true, Relaxed) {
            self.checking.lock().unwrap().send(()).unwrap();
            // Bounded: a test that fails still ends.
            let _ = self
                .go
                .lock()
                .unwrap()
                .recv_timeout(Duration::from_secs(10));
        }
        self.inner.check(state, player, text)
    }
    fn resolve(
        &self,
        state: &str,
        seed: u64,
        orders: &std::collections::BTreeMap<arbitre_core::PlayerId, String>,
    ) -> Result<arbitre_core::Resolved, arbitre_core::EngineError> {
        self.inner.resolve(state, seed, orders)
    }
    fn report(
        &self,
        state: &str,
        viewer: &arbitre_core::Viewer,
    ) -> Result<arbitre_core::Report, arbitre_core::EngineError> {
        self.inner.report(state, viewer)
    }
    fn outcome(
        &self,
        state: &str,
    ) -> Result<Option<arbitre_core::Outcome>, arbitre_core::EngineError> {
        self.inner.outcome(state)
    }
    fn bot_orders(
        &self,
        state: &str,
        seed: u64,
        player: &arbitre_core::PlayerId,
    ) -> Result<String, arbitre_core::EngineError> {
        self.inner.bot_orders(state, seed, player)
    }
    fn join(
        &self,
        state: &str,
        seed: u64,
        player: &arbitre_core::PlayerSetup,
    ) -> Result<arbitre_core::Snapshot, arbitre_core::EngineError> {
        self.inner.join(state, seed, player)
    }
    fn run_case(&self, path: &std::path::Path) -> arbitre_core::cases::CaseOutcome {
        self.inner.run_case(path)
    }
}

#[test]
fn gm_command_not_locked_out_by_big_order_mail() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // `arbitre extend` from a second process (here a second daemon value on
    // the same database, as the CLI opens it) while a 10 MiB order mail is
    // being checked. The check, the slow part, runs outside the mail's
    // write transaction, so the command's write goes through well within a
    // busy timeout under one second; inside the transaction it would wait
    // for the whole check and fail with "database is locked".
    let (checking_tx, checking) = mpsc::channel();
    let (go, go_rx) = mpsc::channel();
    let gate = Gate {
        inner: Adapter::boxed(arbitre_core::testkit::Tally),
        checking: Mutex::new(checking_tx),
        go: Mutex::new(go_rx),
        first: AtomicBool::new(false),
    };
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let gated = Registry::builtin().with(Box::new(gate));
    let mut daemon = Daemon::open(config(dir.path()), gated, clock).unwrap();
    daemon
        .create_game(&tally_toml("g1", ""), dir.path())
        .unwrap();
    daemon.config.limits = arbitre::config::Limits::default();
    daemon
        .deliver(&big_mail(arbitre_mail::DEFAULT_MAX_SIZE - 4_096, 20_000))
        .unwrap();

    let path = dir.path().to_path_buf();
    let gm = std::thread::spawn(move || {
        let mut gm =
            Daemon::open(config(&path), registry(), Arc::new(FixedClock::new(t0()))).unwrap();
        gm.store
            .conn()
            .busy_timeout(Duration::from_millis(500))
            .unwrap();
        checking
            .recv_timeout(Duration::from_secs(60))
            .expect("the mail's block was checked");
        let done = gm.extend("g1", chrono::Duration::hours(1));
        go.send(()).unwrap();
        done.map_err(|e| e.to_string())
    });
    let report = daemon.cycle().unwrap();
    let extended = gm.join().unwrap();
    assert_eq!(extended, Ok(()), "the GM's command during the check");
    assert_eq!(report.mails, 1);
    assert_eq!(
        daemon
            .store
            .conn()
            .query_row("SELECT count(*) FROM orders", [], |r| r.get::<_, i64>(0))
            .unwrap(),
        1,
        "the orders are stored all the same"
    );
}
