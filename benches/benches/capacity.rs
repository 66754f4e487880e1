//! Capacity (issue 9): how many concurrent games one daemon on this machine
//! serves with every deadline met, by simulation.
//!
//! A daemon in a temporary directory holds `ARBITRE_BENCH_GAMES` games
//! (default 40; 400 with `ARBITRE_BENCH_FULL=1`) of the mixed population
//! [`MIX`] (Scrambled Nations 10 players, EDS 10 rulers, WWK 8 nations,
//! Nébulight 2). Each round every active player mails the bot's orders
//! (written outside the timing: the bots are the players), then the daemon's
//! own serve cycle runs: the inbox (every mail: parse, check, store, confirm),
//! the due turns (all players ready: resolve, store, one report per player
//! in the outbox), and the outbox sent to the file transport. Each of the
//! three is timed; a game-turn's daemon cost is their sum divided by the
//! games resolved, and the capacity is the number of games whose turns fit in
//! one deadline interval on one core (2 cores: twice, with two daemons on two
//! databases, since the daemon is single-threaded).
//!
//! Not a criterion micro-benchmark (a round takes seconds), but a bench
//! target all the same, so that `cargo bench` runs it. Passwords: the
//! daemon's default Argon2id unless `ARBITRE_BENCH_HASH=fast`.

use arbitre_benches::full;
use arbitre_benches::mail::{Lab, MIX};
use arbitre_store::PasswordHasher;
use std::time::{Duration, Instant};

fn env_usize(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let games = env_usize("ARBITRE_BENCH_GAMES", if full() { 400 } else { 40 });
    let rounds = env_usize("ARBITRE_BENCH_ROUNDS", if full() { 5 } else { 3 });
    let fast = std::env::var("ARBITRE_BENCH_HASH").is_ok_and(|v| v == "fast");
    let hasher = if fast {
        PasswordHasher::fast()
    } else {
        PasswordHasher::default()
    };
    let t = Instant::now();
    let mut lab = Lab::new(&MIX, games, hasher);
    println!(
        "capacity: {games} games created in {:.1} s ({} hashing)",
        t.elapsed().as_secs_f64(),
        if fast { "fast" } else { "Argon2id default" }
    );
    let (mut inbox, mut resolve, mut send) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut mails_total, mut turns_total, mut sent_total) = (0usize, 0usize, 0usize);
    for round in 1..=rounds {
        let mails = lab.order_mails();
        lab.deliver(&mails);
        let t0 = Instant::now();
        let n = lab.daemon.process_inbox().expect("inbox");
        let t1 = Instant::now();
        let resolved = lab.daemon.resolve_due().expect("resolve");
        let t2 = Instant::now();
        let (sent, failed) = lab.daemon.send_outbox().expect("send");
        let t3 = Instant::now();
        inbox += t1 - t0;
        resolve += t2 - t1;
        send += t3 - t2;
        mails_total += n;
        turns_total += resolved.len();
        sent_total += sent;
        println!(
            "round {round}: {n} mails in {:.2} s, {} turns resolved in {:.2} s, {sent} mails sent ({failed} failed) in {:.2} s",
            (t1 - t0).as_secs_f64(),
            resolved.len(),
            (t2 - t1).as_secs_f64(),
            (t3 - t2).as_secs_f64()
        );
    }
    let total = inbox + resolve + send;
    let per_turn = total.as_secs_f64() / turns_total.max(1) as f64;
    println!(
        "capacity: {turns_total} game-turns, {mails_total} order mails, {sent_total} mails sent; inbox {:.1} s, resolve {:.1} s, send {:.1} s",
        inbox.as_secs_f64(),
        resolve.as_secs_f64(),
        send.as_secs_f64()
    );
    println!(
        "capacity: {:.1} ms of daemon time per game-turn ({:.1} ms inbox, {:.1} ms resolve, {:.1} ms send); {:.0} order mails/s in the inbox",
        per_turn * 1e3,
        inbox.as_secs_f64() * 1e3 / turns_total.max(1) as f64,
        resolve.as_secs_f64() * 1e3 / turns_total.max(1) as f64,
        send.as_secs_f64() * 1e3 / turns_total.max(1) as f64,
        mails_total as f64 / inbox.as_secs_f64()
    );
    for (label, secs) in [("1 h", 3600.0), ("24 h", 86_400.0), ("7 d", 604_800.0)] {
        println!(
            "capacity: deadline every {label}: {:.0} games on one core",
            secs / per_turn
        );
    }
}
