//! A daemon in a temporary directory with many games, and the bots' order
//! mails for them: the material of the ingest and capacity benches.
//!
//! The mails are the real thing: RFC 5322 text written by
//! `arbitre::fixture::order_mail` (what `arbitre demo` drops in its Maildir),
//! with the envelope line `GAME … PLAYER … PASSWORD …` and the bot's orders.

use arbitre::clock::FixedClock;
use arbitre::fixture::order_mail;
use arbitre::{Daemon, DaemonConfig, Registry};
use arbitre_store::{games, turns, PasswordHasher};
use chrono::{TimeZone, Utc};
use std::sync::Arc;

/// A kind of game of the mixed population: ruleset, `[rules]` lines, players.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    pub ruleset: &'static str,
    pub rules: &'static str,
    pub players: usize,
    /// WWK: the nation each seat plays (`[players.rules] nation`), in seat
    /// order; WWK refuses a seat that names none (issue 18 item 3).
    pub nations: &'static [&'static str],
}

/// The mix of the capacity simulation: about ten players a game, every
/// ruleset at the largest player count its built-in maps take (Nébulight is
/// a duel, the WWK world has eight nations).
pub const MIX: [Kind; 4] = [
    Kind {
        ruleset: "scrambled",
        rules: "world = \"hexagone\"",
        players: 10,
        nations: &[],
    },
    Kind {
        ruleset: "eds",
        rules: "",
        players: 10,
        nations: &[],
    },
    Kind {
        ruleset: "wwk",
        rules: "map = \"monde\"",
        players: 8,
        nations: &["FRA", "GBR", "GER", "RUS", "ITA", "ESP", "TUR", "EGY"],
    },
    Kind {
        ruleset: "nebulight",
        rules: "map = \"duel\"",
        players: 2,
        nations: &[],
    },
];

pub struct GameRef {
    pub id: String,
    pub kind: Kind,
}

pub struct Lab {
    pub dir: tempfile::TempDir,
    pub daemon: Daemon,
    pub clock: Arc<FixedClock>,
    pub games: Vec<GameRef>,
    serial: u64,
    /// (display name, from, envelope header, orders) per seat, for [`Lab::mails`].
    seats: Vec<(String, String, String, String)>,
}

fn game_toml(id: &str, k: Kind) -> String {
    let mut t = format!(
        "id = \"{id}\"\nruleset = \"{}\"\nseed = 7\ngm_email = \"gm@bench.invalid\"\n[schedule]\ninterval = \"7d\"\n[rules]\n{}\n",
        k.ruleset, k.rules
    );
    for p in 1..=k.players {
        t.push_str(&format!(
            "[[players]]\nid = \"p{p}\"\nname = \"Joueur{p}\"\nemail = \"p{p}.{id}@bench.invalid\"\npassword = \"pw-{p}\"\n"
        ));
        if let Some(n) = k.nations.get(p - 1) {
            t.push_str(&format!("[players.rules]\nnation = \"{n}\"\n"));
        }
    }
    t
}

impl Lab {
    /// A daemon under a fresh temporary directory (on the work disk, so SQLite
    /// commits pay a real fsync) with `n` games of the kinds in `kinds`,
    /// taken in turn. `hasher` is the password hashing cost (the daemon's
    /// default Argon2id, or `PasswordHasher::fast()`).
    pub fn new(kinds: &[Kind], n: usize, hasher: PasswordHasher) -> Lab {
        Lab::with_config(kinds, n, hasher, |_| {})
    }

    /// [`Lab::new`], with `adjust` applied to the daemon's configuration
    /// before it opens (the maps' PNG twins, the transport).
    pub fn with_config(
        kinds: &[Kind],
        n: usize,
        hasher: PasswordHasher,
        adjust: impl FnOnce(&mut DaemonConfig),
    ) -> Lab {
        let base = std::env::var("ARBITRE_BENCH_DIR").unwrap_or_else(|_| "/tmp".into());
        let dir = tempfile::tempdir_in(base).expect("temporary directory");
        let mut config = DaemonConfig::under(dir.path());
        config.referee = "arbitre@bench.invalid".into();
        config.hasher = hasher;
        // The flood limits (issue 8) are counted for every mail, as in
        // production, but set so high that they never refuse one: the
        // benches send many mails a seat at a frozen clock.
        config.limits = arbitre::config::Limits {
            per_sender_per_hour: u32::MAX,
            per_game_per_hour: u32::MAX,
            refusals_per_address_per_hour: u32::MAX,
            wrong_passwords_per_seat_per_hour: u32::MAX,
            ..Default::default()
        };
        adjust(&mut config);
        let clock = Arc::new(FixedClock::new(
            Utc.with_ymd_and_hms(2026, 1, 5, 12, 0, 0).unwrap(),
        ));
        let mut daemon =
            Daemon::open(config, Registry::builtin(), clock.clone()).expect("daemon opens");
        let mut games = Vec::new();
        for i in 0..n {
            let kind = kinds[i % kinds.len()];
            let id = format!("{}-{i}", kind.ruleset);
            daemon
                .create_game(&game_toml(&id, kind), dir.path())
                .expect("game created");
            games.push(GameRef { id, kind });
        }
        daemon.send_outbox().expect("outbox");
        Lab {
            dir,
            daemon,
            clock,
            games,
            serial: 0,
            seats: Vec::new(),
        }
    }

    /// One order mail from every active player of every game, with the bots'
    /// orders for the game's next turn. Message ids are fresh on every call,
    /// so a mail is never taken for one already handled.
    pub fn order_mails(&mut self) -> Vec<Vec<u8>> {
        self.order_mails_where(|_, _| true)
    }

    /// [`Lab::order_mails`], only from the seats `(game, player)` for which
    /// `sends` is true (the others miss the turn: it resolves at its deadline).
    pub fn order_mails_where(&mut self, sends: impl Fn(&str, &str) -> bool) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let now = self.daemon.now();
        for g in &self.games {
            let c = self.daemon.store.conn();
            let row = games::require_game(c, &g.id).expect("game row");
            if row.status != arbitre_store::GameStatus::Running {
                continue;
            }
            let state = turns::latest(c, &g.id).expect("state");
            let engine = self.daemon.registry.get(g.kind.ruleset).expect("ruleset");
            for p in engine
                .players(&state.state)
                .expect("players")
                .into_iter()
                .filter(|p| p.active && sends(&g.id, p.id.as_str()))
            {
                let orders = engine
                    .bot_orders(&state.state, row.seed, &p.id)
                    .expect("bot");
                let n: usize = p.id.as_str()[1..].parse().unwrap_or(1);
                let header = format!("GAME {} PLAYER {} PASSWORD pw-{n}", g.id, p.id);
                self.serial += 1;
                let msg_id = format!("{}.{}.{}@bench.invalid", g.id, p.id, self.serial);
                let from = format!("{}.{}@bench.invalid", p.id, g.id);
                out.push(order_mail(
                    &p.name,
                    &from,
                    &self.daemon.config.referee,
                    now,
                    &msg_id,
                    &header,
                    &orders,
                ));
            }
        }
        out
    }

    /// Remembers every seat's current bot orders, so that [`Lab::mails`] can
    /// write any number of fresh mails without running the bots again.
    pub fn snapshot_seats(&mut self) {
        self.seats.clear();
        for g in &self.games {
            let c = self.daemon.store.conn();
            let row = games::require_game(c, &g.id).expect("game row");
            let state = turns::latest(c, &g.id).expect("state");
            let engine = self.daemon.registry.get(g.kind.ruleset).expect("ruleset");
            for p in engine
                .players(&state.state)
                .expect("players")
                .into_iter()
                .filter(|p| p.active)
            {
                let orders = engine
                    .bot_orders(&state.state, row.seed, &p.id)
                    .expect("bot");
                let n: usize = p.id.as_str()[1..].parse().unwrap_or(1);
                let header = format!("GAME {} PLAYER {} PASSWORD pw-{n}", g.id, p.id);
                let from = format!("{}.{}@bench.invalid", p.id, g.id);
                self.seats.push((p.name.clone(), from, header, orders));
            }
        }
    }

    /// Seats remembered by [`Lab::snapshot_seats`].
    pub fn seats(&self) -> usize {
        self.seats.len()
    }

    /// `k` order mails, seat after seat, each with a fresh Message-ID (the
    /// daemon keeps the last orders of a seat, as a player who sends twice).
    pub fn mails(&mut self, k: usize) -> Vec<Vec<u8>> {
        let now = self.daemon.now();
        (0..k)
            .map(|i| {
                let (name, from, header, orders) = &self.seats[i % self.seats.len()];
                self.serial += 1;
                let msg_id = format!("m{}@bench.invalid", self.serial);
                order_mail(
                    name,
                    from,
                    &self.daemon.config.referee,
                    now,
                    &msg_id,
                    header,
                    orders,
                )
            })
            .collect()
    }

    /// Takes away the handled mails (`inbox/cur/`) and the sent ones (the
    /// file transport's `outbox/`), as a mail server would: a deployment
    /// sends by SMTP and its MDA owns the Maildir, so these directories do
    /// not grow with the daemon's history there.
    ///
    /// Each file is emptied and moved to `<dir>.taken/`, not removed: on
    /// an ext4 without a journal (the development machine's root), the
    /// inode allocator skips every inode freed in the last 60–360 s and
    /// reads its inode table block to know it (`recently_deleted`), so
    /// after 220,000 removals each file the next round created scanned
    /// them all: 55 % of the sending phase's samples at 10,000 games, and
    /// round 2 sent at half the pace of round 1. A mail server's removals
    /// happen elsewhere, on their own time; what the daemon meets is a
    /// directory of new files.
    pub fn rotate_files(&self) {
        for sub in ["inbox/cur", "outbox", "limit"] {
            let from = self.dir.path().join(sub);
            let to = self.dir.path().join(format!("{sub}.taken"));
            let _ = std::fs::create_dir_all(&to);
            if let Ok(rd) = std::fs::read_dir(&from) {
                for e in rd.flatten() {
                    let path = e.path();
                    let emptied = std::fs::OpenOptions::new()
                        .write(true)
                        .open(&path)
                        .and_then(|f| f.set_len(0));
                    let moved =
                        emptied.and_then(|()| std::fs::rename(&path, to.join(e.file_name())));
                    if moved.is_err() {
                        let _ = std::fs::remove_file(&path);
                    }
                }
            }
        }
    }

    pub fn deliver(&self, mails: &[Vec<u8>]) {
        for m in mails {
            self.daemon.deliver(m).expect("delivered");
        }
    }
}
