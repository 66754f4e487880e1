//! Capacity by simulation (issue 9): how many games one daemon serves with
//! every deadline met. Run by `cargo bench --bench capacity` (small) and the
//! `capacity` example (any size).
//!
//! A daemon in a temporary directory (`ARBITRE_BENCH_DIR`, default /tmp)
//! holds GAMES games of the mixed population [`MIX`] (Scrambled Nations 10
//! players, EDS 10 rulers, WWK 8 nations, Nébulight 2: 7.5 seats a game),
//! every one with a 7-day deadline, all at the same instant (the worst case
//! for "every deadline met"). The clock is a fixed clock the simulation
//! moves. Each round:
//!
//! 1. an hour before the deadline, every seat but a seeded PCT % mails its
//!    bot's orders (written outside the timing: the bots are the players);
//! 2. the daemon's serve cycle runs once (inbox, due turns, reminders,
//!    outbox): games whose players all sent resolve early;
//! 3. the clock passes the deadline and the cycle runs again: every other
//!    game resolves at its deadline. Its wall time is how late the last of
//!    those games is — the "deadline met" figure;
//! 4. the round's limits are measured, outside the daemon's time
//!    ([`crate::limits`]): the rulesets alone on the same turns, and the
//!    transport alone on the same mails, in a folder of its own;
//! 5. the files the cycle left (handled mails in `inbox/cur/`, sent mails in
//!    the file transport's folder and the limit's) are removed, untimed, as
//!    a mail server takes them away (`--keep-files` keeps them, to see the
//!    directories' growth).
//!
//! The simulation checks that every game resolved exactly once a round, and
//! prints per round the daemon's time per game-turn, so that a growth with
//! the history (journal, orders, turns) shows, beside its limits and the
//! ratio of the two (issue 22 item 6: a ratio stays meaningful on a machine
//! whose absolute times do not). Passwords are hashed with the
//! cheapest Argon2id when the games are created (creating thousands of
//! games at the default cost takes half an hour); with the verification
//! cache (`arbitre_store::password::VerifiedCache`) the default cost is paid
//! once per seat and daemon start, which the summary adds from a measured
//! Argon2id verification. `--argon2` creates the games with the default cost
//! instead (use few games).

use crate::limits;
use crate::mail::{Lab, MIX};
use arbitre::CycleReport;
use arbitre_store::PasswordHasher;
use chrono::TimeDelta;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: usize,
    pub rounds: usize,
    /// Percentage of the seats that miss each turn (seeded).
    pub nmr_percent: u64,
    /// Keep handled and sent mail files (see the module docs).
    pub keep_files: bool,
    /// Create the games with the daemon's default Argon2id cost.
    pub argon2: bool,
    /// Add the indexes [`MISSING_INDEXES`] to the database first (an
    /// experiment: they are not in the schema).
    pub indexes: bool,
    /// `png_maps = false`: maps mailed as SVG only (issue 22 item 4: the
    /// PNG twins are most of a turn's resolution).
    pub no_png: bool,
    /// Send through this SMTP relay (host, port; plain, no login) instead
    /// of the file transport: the relay's pace (issue 22 item 3).
    pub smtp: Option<(String, u16)>,
    /// `keep_sent_mail_turns` (issue 22 item 4; None: the default, 3).
    pub keep_sent: Option<u32>,
}

/// Indexes the schema lacks for queries the daemon runs per mail or per
/// player and turn, each otherwise a full scan of a table that grows with
/// the history: the flood-limit counts (`journal::count_from_sender_since`,
/// `count_for_game_since`, per mail) and the wrong-password count of
/// `turn.rs` (per player and turn, over the outbox, whose rows hold every
/// report). `--indexes` measures what a migration adding them would bring.
pub const MISSING_INDEXES: &str = "
CREATE INDEX IF NOT EXISTS bench_outbox_by_game ON outbox(game_id, turn, player);
CREATE INDEX IF NOT EXISTS bench_journal_by_game ON mail_journal(game_id, received_at);
CREATE INDEX IF NOT EXISTS bench_journal_by_sender ON mail_journal(lower(trim(sender)), received_at);
";

impl Default for Options {
    fn default() -> Options {
        Options {
            games: 1000,
            rounds: 4,
            nmr_percent: 10,
            keep_files: false,
            argon2: false,
            no_png: false,
            smtp: None,
            indexes: false,
            keep_sent: None,
        }
    }
}

/// A seeded coin: does this seat miss this round? (FNV-1a, stable.)
fn misses(game: &str, player: &str, round: usize, percent: u64) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in game
        .bytes()
        .chain([0])
        .chain(player.bytes())
        .chain([0])
        .chain(round.to_le_bytes())
    {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h % 100 < percent
}

#[derive(Default)]
struct Phases {
    inbox: Duration,
    resolve: Duration,
    reminders: Duration,
    send: Duration,
}

impl Phases {
    fn total(&self) -> Duration {
        self.inbox + self.resolve + self.reminders + self.send
    }
}

/// One serve cycle (the same steps as `Daemon::cycle`), each timed; the
/// due instants (crate `arbitre::due`) count with the reminders.
fn cycle(lab: &mut Lab, p: &mut Phases) -> CycleReport {
    let d = &mut lab.daemon;
    let t0 = Instant::now();
    let mails = d.process_inbox().expect("inbox");
    let t1 = Instant::now();
    let resolved = d.resolve_due().expect("resolve");
    let t2 = Instant::now();
    let reminders = d.send_reminders().expect("reminders");
    d.schedule_due().expect("due instants");
    let t3 = Instant::now();
    let (sent, send_failures) = d.send_outbox().expect("send");
    let t4 = Instant::now();
    p.inbox += t1 - t0;
    p.resolve += t2 - t1;
    p.reminders += t3 - t2;
    p.send += t4 - t3;
    CycleReport {
        mails,
        resolved,
        reminders,
        sent,
        send_failures,
        inbox_error: None,
    }
}

/// Everything written so far, on the disk (`sync`, from coreutils).
fn flush_to_disk() {
    let _ = std::process::Command::new("sync").status();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The process's resident memory now (`VmRSS` of /proc/self/status), to
/// show whether it stays flat from round to round (issue 22 item 4).
fn resident_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// The database's size on disk now, its write-ahead log included, to show
/// whether sent mails' retention (issue 22 item 4) keeps it flat.
fn database_mb(db: &std::path::Path) -> Option<f64> {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    let main = std::fs::metadata(db).ok()?.len();
    let log = std::fs::metadata(wal).map_or(0, |m| m.len());
    Some((main + log) as f64 / 1e6)
}

/// What the database holds, in MB of payload: the states of every turn,
/// the sent mails' texts, their raw copies still kept, the orders' texts
/// (issue 22 item 4: which part of the growth is history and which is
/// copies retention may drop).
fn database_parts(c: &arbitre_store::Connection) -> Option<String> {
    let mb = |sql: &str| -> Option<f64> {
        c.query_row(sql, [], |r| r.get::<_, Option<i64>>(0))
            .ok()
            .map(|n| n.unwrap_or(0) as f64 / 1e6)
    };
    Some(format!(
        "turn states {:.0} MB, mail texts {:.0} MB, raw mails kept {:.0} MB, order texts {:.0} MB",
        mb("SELECT sum(length(state)) FROM turns")?,
        mb("SELECT sum(length(body)) FROM outbox")?,
        mb("SELECT sum(length(raw)) FROM outbox_raw")?,
        mb("SELECT sum(length(text)) FROM orders")?,
    ))
}

/// Runs the simulation and prints its table and summary on stdout.
pub fn run(a: Options) {
    let hasher = if a.argon2 {
        PasswordHasher::default()
    } else {
        PasswordHasher::fast()
    };
    let t = Instant::now();
    let smtp = a.smtp.clone();
    let mut lab = Lab::with_config(&MIX, a.games, hasher, |c| {
        c.png_maps = !a.no_png;
        if let Some(k) = a.keep_sent {
            c.keep_sent_mail_turns = k;
        }
        if let Some((host, port)) = smtp {
            c.transport = arbitre_mail::Transport::Smtp(arbitre_mail::SmtpConfig {
                host,
                port,
                security: arbitre_mail::Security::None,
                user: None,
                password: None,
                timeout_secs: 30,
                hello_name: None,
                ca_file: None,
            });
        }
    });
    if let Some(k) = a.keep_sent {
        println!("capacity: keep_sent_mail_turns = {k}");
    }
    if a.no_png {
        println!("capacity: png_maps = false (maps mailed as SVG only)");
    }
    if let Some((host, port)) = &a.smtp {
        println!("capacity: sending by SMTP to {host}:{port}");
    }
    if a.indexes {
        lab.daemon
            .store
            .conn()
            .execute_batch(MISSING_INDEXES)
            .expect("indexes");
        println!("capacity: with the indexes of MISSING_INDEXES");
    }
    let seats: usize = lab.games.iter().map(|g| g.kind.players).sum();
    println!(
        "capacity: {} games ({seats} seats) created in {:.1} s; {} rounds, {} % of the seats miss each turn",
        a.games,
        t.elapsed().as_secs_f64(),
        a.rounds,
        a.nmr_percent
    );
    // Every game's deadline is 7 days after its creation, at the same instant.
    let interval = TimeDelta::days(7);
    let mut deadline = lab.daemon.now() + interval;
    let mut all = Phases::default();
    let (mut turns, mut mails, mut sent) = (0usize, 0usize, 0usize);
    let mut worst_late = Duration::ZERO;
    let mut worst_resolved = Duration::ZERO;
    let registry = arbitre::registry::Registry::builtin();
    let (mut limit, mut transport, mut mail_bytes) = (Duration::ZERO, Duration::ZERO, 0u64);
    println!("round | order mails | turns 1st cycle | turns at deadline | mails sent | inbox ms | resolve ms | send ms | per game-turn ms | last resolved s | deadline cycle s | resident MB | database MB | rulesets alone ms | transport alone ms | limit per game-turn ms | daemon ÷ limit");
    for round in 1..=a.rounds {
        let first_mail =
            arbitre_store::outbox::last_id(lab.daemon.store.conn()).expect("outbox") + 1;
        lab.clock.set(deadline - TimeDelta::hours(1));
        let nmr = a.nmr_percent;
        let batch = lab.order_mails_where(|g, p| !misses(g, p, round, nmr));
        lab.deliver(&batch);
        let mut p = Phases::default();
        let early = cycle(&mut lab, &mut p);
        lab.clock.set(deadline + TimeDelta::minutes(1));
        let before = p.total();
        let resolving = p.inbox + p.resolve;
        let late = cycle(&mut lab, &mut p);
        let late_cycle = p.total() - before;
        // The deadline cycle handles the inbox, resolves every due game
        // (each committed, its reports queued), then sends: the last game
        // is resolved when its resolution phase ends, its reports have
        // all left when the cycle does.
        let late_resolved = p.inbox + p.resolve - resolving;
        worst_late = worst_late.max(late_cycle);
        worst_resolved = worst_resolved.max(late_resolved);
        // Every running game resolves exactly once a round.
        let mut per_game: BTreeMap<&str, usize> = BTreeMap::new();
        for (g, _) in early.resolved.iter().chain(&late.resolved) {
            *per_game.entry(g.as_str()).or_default() += 1;
        }
        let n = early.resolved.len() + late.resolved.len();
        assert!(
            per_game.values().all(|&k| k == 1),
            "a game resolved twice in round {round}"
        );
        assert_eq!(
            per_game.len(),
            a.games,
            "every game resolved in round {round}"
        );
        assert_eq!(early.mails, batch.len(), "every order mail handled");
        assert_eq!(
            early.send_failures + late.send_failures,
            0,
            "no send failure"
        );
        let round_sent = early.sent + late.sent;
        // The limits of this round (crate::limits), outside the daemon's
        // time.
        let c = lab.daemon.store.conn();
        let alone = limits::rulesets(c, &registry, per_game.keys().copied(), deadline + interval);
        let last_mail = arbitre_store::outbox::last_id(c).expect("outbox");
        // The files are flushed before and after it, untimed: on a disk,
        // the writeback of the daemon's mails, just written, would throttle
        // the limit's writes, and the limit's would throttle the daemon's
        // next round (both were seen, at twice their own time).
        flush_to_disk();
        let written = limits::transport(
            c,
            first_mail,
            last_mail,
            &lab.dir.path().join("limit"),
            &lab.daemon.config.referee,
        );
        assert_eq!(
            written.mails, round_sent,
            "the transport limit writes the round's mails"
        );
        flush_to_disk();
        mail_bytes += written.bytes;
        let round_limit = alone + written.spent;
        transport += written.spent;
        limit += round_limit;
        println!(
            "{round} | {} | {} | {} | {round_sent} | {:.0} | {:.0} | {:.0} | {:.1} | {:.2} | {:.2} | {} | {} | {:.0} | {:.0} | {:.1} | {:.2}",
            batch.len(),
            early.resolved.len(),
            late.resolved.len(),
            ms(p.inbox),
            ms(p.resolve),
            ms(p.send + p.reminders),
            ms(p.total()) / n.max(1) as f64,
            late_resolved.as_secs_f64(),
            late_cycle.as_secs_f64(),
            resident_mb().map_or("?".to_string(), |m| format!("{m:.0}")),
            database_mb(&lab.daemon.config.database).map_or("?".to_string(), |m| format!("{m:.0}")),
            ms(alone),
            ms(written.spent),
            ms(round_limit) / n.max(1) as f64,
            p.total().as_secs_f64() / round_limit.as_secs_f64()
        );
        turns += n;
        mails += batch.len();
        sent += round_sent;
        all.inbox += p.inbox;
        all.resolve += p.resolve;
        all.reminders += p.reminders;
        all.send += p.send;
        deadline += interval;
        if !a.keep_files {
            lab.rotate_files();
            flush_to_disk();
        }
    }
    if let Some(parts) = database_parts(lab.daemon.store.conn()) {
        println!("capacity: the database holds {parts}");
    }
    // An idle cycle: what polling costs when nothing is due, at this many
    // games. The cycle before it (untimed) computes the due instants the
    // last resolutions reset (crate `arbitre::due`), as a real daemon's
    // next poll would.
    cycle(&mut lab, &mut Phases::default());
    let mut idle = Phases::default();
    cycle(&mut lab, &mut idle);
    // One Argon2id verification at the daemon's default cost.
    let phc = PasswordHasher::default()
        .hash("pw-1", "bench/p1")
        .expect("hash");
    let t = Instant::now();
    assert!(PasswordHasher::verify("pw-1", &phc));
    let argon2 = t.elapsed();

    let per_turn = all.total().as_secs_f64() / turns.max(1) as f64;
    println!(
        "capacity: {turns} game-turns, {mails} order mails, {sent} mails sent in {:.1} s of daemon time: inbox {:.1} s ({:.0} mails/s), resolve {:.1} s, reminders {:.1} s, send {:.1} s",
        all.total().as_secs_f64(),
        all.inbox.as_secs_f64(),
        mails as f64 / all.inbox.as_secs_f64(),
        all.resolve.as_secs_f64(),
        all.reminders.as_secs_f64(),
        all.send.as_secs_f64()
    );
    println!(
        "capacity: {:.1} ms of daemon time per game-turn; idle cycle at {} games: {:.0} ms; Argon2id default: {:.0} ms a verification, once per seat and daemon start ({:.1} s for the {seats} seats)",
        per_turn * 1e3,
        a.games,
        ms(idle.total()),
        ms(argon2),
        argon2.as_secs_f64() * seats as f64
    );
    println!(
        "capacity: every deadline at the same instant: the last of {} games resolved {:.1} s after its deadline, its reports all sent {:.1} s after it (worst round)",
        a.games,
        worst_resolved.as_secs_f64(),
        worst_late.as_secs_f64()
    );
    println!(
        "capacity: limits measured in the same run (crate::limits): the rulesets and the transport alone take {:.1} ms a game-turn; the daemon takes {:.2} times that",
        limit.as_secs_f64() * 1e3 / turns.max(1) as f64,
        all.total().as_secs_f64() / limit.as_secs_f64()
    );
    println!(
        "capacity: the transport alone wrote {:.0} MB of mails at {:.0} MB/s ({:.1} ms a game-turn)",
        mail_bytes as f64 / 1e6,
        mail_bytes as f64 / 1e6 / transport.as_secs_f64(),
        transport.as_secs_f64() * 1e3 / turns.max(1) as f64
    );
    for (label, secs) in [("1 h", 3600.0), ("24 h", 86_400.0), ("7 d", 604_800.0)] {
        println!(
            "capacity: deadlines every {label}, spread over the interval: {:.0} games on one core ({:.0} game-turns an hour of daemon work)",
            secs / per_turn,
            3600.0 / per_turn
        );
    }
}
