//! Archived games as regression tests (issue 2 item 7).
//!
//! A fixture folder holds `game.toml`, then `turn-000/expected/` (the mails
//! of `game create`) and `turn-001/`, `turn-002/`, … each with `inbox/*.eml`
//! (the mails received that turn, fed in file-name order) and `expected/`
//! (every mail the referee queued that turn, one body per file, named
//! `<player>-<kind>.txt`, `-2`, `-3`… when a player gets two of a kind).
//!
//! [`replay`] rebuilds the game in a temporary database with a fixed clock
//! and runs each turn through the real serve cycle: the turn's mails arrive
//! one hour after the previous step and one cycle runs (inbox, early
//! resolution, reminders, outbox); if the turn is still open, one cycle runs
//! a minute before the deadline (reminders) and one at the deadline, which
//! resolves it. The clock starts at
//! the schedule's `start` (default 2026-01-01T00:00:00Z): fixed timestamps
//! come from the fixture, never from the system clock.
//!
//! [`record`] writes a new fixture: the orders of each turn come from a
//! folder (`<dir>/turn-NNN/*.eml` as they are, `<dir>/turn-NNN/<player>.txt`
//! wrapped into an order mail) or from the ruleset's bots.
//!
//! [`FixtureError`] is English on purpose, not in the message catalogue
//! (issue 16 item 3 leaves it out): `replay` and `fixture record` are the
//! developers' tools (CI's regression replay, a new fixture), read by
//! whoever edits the code; no player or game master ever sees them, and a
//! mismatch's diff compares the mails' texts byte for byte, which a
//! translated frame would not help. A daemon error inside a replay
//! (`FixtureError::Daemon`) keeps its own catalogue text.

use crate::clock::FixedClock;
use crate::config::DaemonConfig;
use crate::daemon::Daemon;
use crate::error::DaemonError;
use crate::game_config::GameToml;
use crate::registry::Registry;
use crate::timespec::parse_instant;
use arbitre_core::PlayerId;
use arbitre_store::{games, outbox, turns, GameStatus, PasswordHasher};
use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The referee address fixtures are recorded with (part of every Message-ID).
pub const FIXTURE_REFEREE: &str = "arbitre@fixture.invalid";

/// Why a replay or a recording failed: English, a developer's error (see
/// the module's docs).
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    #[error(transparent)]
    Daemon(#[from] DaemonError),
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("{0}")]
    Invalid(String),
    #[error("fixture {fixture}, {turn}: the referee's mails differ from expected/\n{diff}")]
    Mismatch {
        fixture: String,
        turn: String,
        diff: String,
    },
}

type Result<T> = std::result::Result<T, FixtureError>;

fn io(p: &Path) -> impl FnOnce(std::io::Error) -> FixtureError + '_ {
    move |e| FixtureError::Io(p.display().to_string(), e)
}

/// One mail the referee queued: its fixture file name and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Produced {
    pub name: String,
    pub body: String,
}

/// A game running in a temporary folder on a fixed clock.
pub struct Run {
    pub daemon: Daemon,
    pub clock: Arc<FixedClock>,
    pub game: String,
    last_outbox: i64,
    _dir: tempfile::TempDir,
}

impl Run {
    /// Creates the game of `game_toml` and returns the turn-0 mails.
    pub fn start(
        game_toml: &Path,
        registry: impl Into<Arc<Registry>>,
    ) -> Result<(Run, Vec<Produced>)> {
        let text = std::fs::read_to_string(game_toml).map_err(io(game_toml))?;
        let g = GameToml::parse(&text).map_err(DaemonError::from)?;
        let start = g
            .schedule
            .start
            .as_deref()
            .and_then(parse_instant)
            .unwrap_or_else(|| parse_instant("2026-01-01T00:00:00Z").expect("valid instant"));
        let dir = tempfile::tempdir().map_err(io(Path::new("temporary folder")))?;
        let mut config = DaemonConfig::under(dir.path());
        config.referee = FIXTURE_REFEREE.into();
        config.hasher = PasswordHasher::fast();
        // A replay is read whole afterwards (its maps, its attachments):
        // no sent mail loses its raw text to retention.
        config.keep_sent_mail_turns = 0;
        let clock = Arc::new(FixedClock::new(start));
        let mut daemon = Daemon::open(config, registry, clock.clone())?;
        let base = game_toml.parent().unwrap_or(Path::new("."));
        let game = daemon.create_game(&text, base)?;
        let mut run = Run {
            daemon,
            clock,
            game,
            last_outbox: 0,
            _dir: dir,
        };
        let produced = run.take()?;
        Ok((run, produced))
    }

    pub fn over(&self) -> Result<bool> {
        Ok(games::require_game(self.daemon.store.conn(), &self.game)
            .map_err(DaemonError::from)?
            .status
            == GameStatus::Over)
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.daemon.now()
    }

    /// Feeds one turn's mails through the serve cycle and resolves the turn.
    pub fn step(&mut self, mails: &[Vec<u8>]) -> Result<Vec<Produced>> {
        for m in mails {
            self.daemon.deliver(m)?;
        }
        let row =
            games::require_game(self.daemon.store.conn(), &self.game).map_err(DaemonError::from)?;
        if let Some(deadline) = row.deadline.and_then(|d| DateTime::from_timestamp(d, 0)) {
            // The mails arrive one hour after the previous step (never after
            // the deadline); the turn may resolve early right then.
            let arrival = (self.now() + Duration::hours(1))
                .min(deadline - Duration::minutes(1))
                .max(self.now());
            self.clock.set(arrival);
            self.daemon.cycle()?;
            // Still open: one cycle a minute before the deadline (reminders),
            // then the deadline itself.
            for at in [deadline - Duration::minutes(1), deadline] {
                let now = games::require_game(self.daemon.store.conn(), &self.game)
                    .map_err(DaemonError::from)?;
                if now.turn != row.turn || now.status != GameStatus::Running {
                    break;
                }
                self.clock.set(at.max(self.now()));
                self.daemon.cycle()?;
            }
        } else {
            // Paused or over: the mails are answered, nothing resolves.
            self.daemon.cycle()?;
        }
        self.take()
    }

    /// The mails queued since the last call, named for the fixture.
    fn take(&mut self) -> Result<Vec<Produced>> {
        let rows =
            outbox::since(self.daemon.store.conn(), self.last_outbox).map_err(DaemonError::from)?;
        if let Some(last) = rows.last() {
            self.last_outbox = last.id;
        }
        let mut count: BTreeMap<String, usize> = BTreeMap::new();
        let mut out = Vec::new();
        // The welcome mails (issue 17 item 1) are not part of the archived
        // games: they are the same for every turn 0 and are tested on their
        // own (tests/welcome_by_mail.rs).
        for r in rows.into_iter().filter(|r| r.mail.kind != "welcome") {
            let who = r.mail.player.clone().unwrap_or_else(|| {
                if r.mail.kind == "gm" {
                    "gm".into()
                } else {
                    r.mail
                        .recipient
                        .chars()
                        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                        .collect()
                }
            });
            // The GM's report is `gm-report.txt`, like a player's.
            let kind = if r.mail.kind == "gm" {
                "report"
            } else {
                r.mail.kind.as_str()
            };
            let key = format!("{who}-{kind}");
            let n = count.entry(key.clone()).or_default();
            *n += 1;
            let name = if *n == 1 {
                format!("{key}.txt")
            } else {
                format!("{key}-{n}.txt")
            };
            out.push(Produced {
                name,
                body: r.mail.body,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// The latest state and the active players, for bots.
    pub fn bot_orders(&self) -> Result<Vec<(PlayerId, String)>> {
        let c = self.daemon.store.conn();
        let row = games::require_game(c, &self.game).map_err(DaemonError::from)?;
        let engine = self
            .daemon
            .registry
            .get(&row.ruleset)
            .map_err(DaemonError::from)?;
        let state = turns::latest(c, &self.game).map_err(DaemonError::from)?;
        let err = |e: arbitre_core::EngineError| FixtureError::Invalid(format!("bot: {e}"));
        let mut out = Vec::new();
        for p in engine
            .players(&state.state)
            .map_err(err)?
            .into_iter()
            .filter(|p| p.active)
        {
            let orders = engine
                .bot_orders(&state.state, row.seed, &p.id)
                .map_err(err)?;
            out.push((p.id, orders));
        }
        Ok(out)
    }
}

fn turn_dirs(dir: &Path) -> Result<Vec<(u32, PathBuf)>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(io(dir))? {
        let e = e.map_err(io(dir))?;
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(n) = name
            .strip_prefix("turn-")
            .and_then(|n| n.parse::<u32>().ok())
        {
            if e.path().is_dir() {
                out.push((n, e.path()));
            }
        }
    }
    out.sort();
    Ok(out)
}

fn files_with_ext(dir: &Path, ext: &str) -> Result<Vec<PathBuf>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    Ok(out)
}

fn read_expected(dir: &Path) -> Result<Vec<Produced>> {
    files_with_ext(dir, "txt")?
        .into_iter()
        .map(|p| {
            let body = std::fs::read_to_string(&p).map_err(io(&p))?;
            Ok(Produced {
                name: p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string(),
                body,
            })
        })
        .collect()
}

fn write_expected(dir: &Path, produced: &[Produced]) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    for old in files_with_ext(dir, "txt")? {
        std::fs::remove_file(&old).map_err(io(&old))?;
    }
    for p in produced {
        let path = dir.join(&p.name);
        std::fs::write(&path, &p.body).map_err(io(&path))?;
    }
    Ok(())
}

/// A readable unified diff of two mail sets, or None if equal.
pub fn diff(expected: &[Produced], actual: &[Produced]) -> Option<String> {
    let mut out = String::new();
    let names: std::collections::BTreeSet<&str> = expected
        .iter()
        .chain(actual)
        .map(|p| p.name.as_str())
        .collect();
    for name in names {
        let e = expected.iter().find(|p| p.name == name);
        let a = actual.iter().find(|p| p.name == name);
        match (e, a) {
            (Some(e), Some(a)) if e.body == a.body => {}
            (Some(e), Some(a)) => {
                let d = similar::TextDiff::from_lines(&e.body, &a.body);
                out.push_str(
                    &d.unified_diff()
                        .context_radius(3)
                        .header(&format!("expected/{name}"), &format!("actual/{name}"))
                        .to_string(),
                );
            }
            (Some(_), None) => out.push_str(&format!("--- expected/{name}\n+++ (not sent)\n")),
            (None, Some(a)) => {
                out.push_str(&format!("--- (not expected)\n+++ actual/{name}\n"));
                for l in a.body.lines() {
                    out.push_str(&format!("+{l}\n"));
                }
            }
            (None, None) => {}
        }
    }
    (!out.is_empty()).then_some(out)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplaySummary {
    pub turns: usize,
    pub mails: usize,
    pub blessed: bool,
}

/// Replays the fixture in `dir`; with `bless`, rewrites every `expected/`.
pub fn replay(
    dir: &Path,
    registry: impl Into<Arc<Registry>>,
    bless: bool,
) -> Result<ReplaySummary> {
    let name = dir.display().to_string();
    let (mut run, first) = Run::start(&dir.join("game.toml"), registry)?;
    let mut mails = first.len();
    let check = |turn: &str, tdir: &Path, produced: &[Produced]| -> Result<()> {
        let exp_dir = tdir.join("expected");
        if bless {
            return write_expected(&exp_dir, produced);
        }
        match diff(&read_expected(&exp_dir)?, produced) {
            None => Ok(()),
            Some(diff) => Err(FixtureError::Mismatch {
                fixture: name.clone(),
                turn: turn.to_string(),
                diff,
            }),
        }
    };
    check("turn-000", &dir.join("turn-000"), &first)?;
    let mut turns = 0;
    for (n, tdir) in turn_dirs(dir)?.into_iter().filter(|(n, _)| *n > 0) {
        let mut inbox = Vec::new();
        for p in files_with_ext(&tdir.join("inbox"), "eml")? {
            inbox.push(std::fs::read(&p).map_err(io(&p))?);
        }
        let produced = run.step(&inbox)?;
        mails += produced.len();
        check(&format!("turn-{n:03}"), &tdir, &produced)?;
        turns += 1;
    }
    Ok(ReplaySummary {
        turns,
        mails,
        blessed: bless,
    })
}

/// Where recorded orders come from.
pub enum OrdersSource {
    Bots,
    Dir(PathBuf),
}

/// A plain order mail, as a player's client would send it.
pub fn order_mail(
    from_name: &str,
    from: &str,
    to: &str,
    date: DateTime<Utc>,
    msg_id: &str,
    header: &str,
    orders: &str,
) -> Vec<u8> {
    let mut body = format!("{header}\n{}", orders.trim_end());
    body.push_str("\nEND\n");
    format!(
        "From: {from_name} <{from}>\r\nTo: {to}\r\nSubject: orders\r\nDate: {}\r\nMessage-ID: <{msg_id}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        date.to_rfc2822(),
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Records a new fixture into `out` (which must not hold a game.toml yet).
pub fn record(
    game_toml: &Path,
    source: OrdersSource,
    out: &Path,
    max_turns: u32,
    registry: impl Into<Arc<Registry>>,
) -> Result<ReplaySummary> {
    if out.join("game.toml").exists() {
        return Err(FixtureError::Invalid(format!(
            "{} already holds a fixture",
            out.display()
        )));
    }
    let text = std::fs::read_to_string(game_toml).map_err(io(game_toml))?;
    let g = GameToml::parse(&text).map_err(DaemonError::from)?;
    g.require_passwords().map_err(DaemonError::from)?;
    // Start first: a game that does not set up leaves no half-written fixture.
    let (mut run, first) = Run::start(game_toml, registry)?;
    std::fs::create_dir_all(out).map_err(io(out))?;
    std::fs::write(out.join("game.toml"), &text).map_err(io(out))?;
    // Files named by *_file options must travel with the fixture.
    let base = game_toml.parent().unwrap_or(Path::new("."));
    for t in std::iter::once(&g.rules).chain(g.players.iter().map(|p| &p.rules)) {
        for (k, v) in t {
            if let (true, Some(rel)) = (k.ends_with("_file"), v.as_str()) {
                let (src, dst) = (base.join(rel), out.join(rel));
                if let Some(parent) = dst.parent() {
                    std::fs::create_dir_all(parent).map_err(io(parent))?;
                }
                std::fs::copy(&src, &dst).map_err(io(&src))?;
            }
        }
    }
    write_expected(&out.join("turn-000").join("expected"), &first)?;
    let mut mails = first.len();
    let mut turns = 0;
    for n in 1..=max_turns {
        if run.over()? {
            break;
        }
        let tdir = out.join(format!("turn-{n:03}"));
        let inbox_dir = tdir.join("inbox");
        std::fs::create_dir_all(&inbox_dir).map_err(io(&inbox_dir))?;
        let mut inbox: Vec<(String, Vec<u8>)> = Vec::new();
        let date = run.now();
        let wrap = |pid: &str, orders: &str| -> Result<(String, Vec<u8>)> {
            let p =
                g.players.iter().find(|p| p.id == pid).ok_or_else(|| {
                    FixtureError::Invalid(format!("no player '{pid}' in game.toml"))
                })?;
            let header = format!(
                "GAME {} PLAYER {} PASSWORD {}",
                g.id,
                p.id,
                p.password.as_deref().unwrap_or("")
            );
            let name = p.name.clone().unwrap_or_else(|| p.id.clone());
            let mid = format!("t{n}.{}@players.invalid", p.id);
            Ok((
                format!("{}.eml", p.id),
                order_mail(
                    &name,
                    &p.email,
                    FIXTURE_REFEREE,
                    date,
                    &mid,
                    &header,
                    orders,
                ),
            ))
        };
        match &source {
            OrdersSource::Bots => {
                for (pid, orders) in run.bot_orders()? {
                    inbox.push(wrap(pid.as_str(), &orders)?);
                }
            }
            OrdersSource::Dir(d) => {
                let src = d.join(format!("turn-{n:03}"));
                if !src.is_dir() {
                    let _ = std::fs::remove_dir_all(&tdir);
                    break;
                }
                for p in files_with_ext(&src, "eml")? {
                    let name = p
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .to_string();
                    inbox.push((name, std::fs::read(&p).map_err(io(&p))?));
                }
                for p in files_with_ext(&src, "txt")? {
                    let pid = p
                        .file_stem()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .to_string();
                    let orders = std::fs::read_to_string(&p).map_err(io(&p))?;
                    inbox.push(wrap(&pid, &orders)?);
                }
            }
        }
        inbox.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, bytes) in &inbox {
            let path = inbox_dir.join(name);
            std::fs::write(&path, bytes).map_err(io(&path))?;
        }
        let produced = run.step(&inbox.into_iter().map(|(_, b)| b).collect::<Vec<_>>())?;
        write_expected(&tdir.join("expected"), &produced)?;
        mails += produced.len();
        turns += 1;
    }
    Ok(ReplaySummary {
        turns,
        mails,
        blessed: true,
    })
}

/// Every fixture folder (one holding a game.toml) under `root`, sorted.
pub fn find_fixtures(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        if d.join("game.toml").is_file() {
            out.push(d);
            continue;
        }
        if let Ok(rd) = std::fs::read_dir(&d) {
            for e in rd.flatten() {
                if e.path().is_dir() {
                    stack.push(e.path());
                }
            }
        }
    }
    out.sort();
    out
}
