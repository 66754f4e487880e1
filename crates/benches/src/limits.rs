//! The limits of the capacity simulation (issue 22 items 4 and 6), measured
//! in the same run as the daemon: what a round's game-turns cost in the two
//! parts of the work no referee of these games can skip.
//!
//! * **The rulesets alone**: each game's previous state decoded, its turn
//!   resolved with the same orders and seed, its reports written and its
//!   new state encoded, through the same [`arbitre_core::Engine`] calls as
//!   the daemon's, with no store, mail or clock around them.
//! * **The transport alone**: the very mails the round sent, written again
//!   by the same file transport into a folder of its own, synced in
//!   batches of [`arbitre::sender::MARK_BATCH`] as the sender does.
//!
//! Their sum is a floor on the daemon's time per game-turn on this machine
//! and disk; the daemon's time divided by it is a ratio that stays
//! meaningful where absolute times do not (a slower disk makes both the
//! daemon and its transport limit slower). What lies between the two is
//! the daemon's own: reading mails, the store, formatting and queueing.

use arbitre::registry::Registry;
use arbitre_core::{PlayerId, Viewer};
use arbitre_store::{games, orders, outbox, turns, Connection};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// The rulesets alone on the turns `games` have just resolved (each game's
/// last turn), from the states and orders the daemon stored. Every state
/// they make must be the one the daemon stored: the limit does the same
/// work, not a cheaper one.
pub fn rulesets<'a>(
    c: &Connection,
    registry: &Registry,
    games: impl IntoIterator<Item = &'a str>,
    next_deadline: DateTime<Utc>,
) -> Duration {
    let facts =
        |_: &Viewer| arbitre::services::zone::report_facts(Some(next_deadline), chrono_tz::UTC);
    let mut spent = Duration::ZERO;
    for id in games {
        let game = games::game(c, id).expect("game").expect("game row");
        let turn = game.turn;
        let before = turns::get(c, id, turn - 1)
            .expect("turn read")
            .expect("the turn before");
        let after = turns::get(c, id, turn)
            .expect("turn read")
            .expect("the turn resolved");
        let given: BTreeMap<PlayerId, String> = orders::latest(c, id, turn)
            .expect("orders")
            .into_iter()
            .map(|(p, o)| (PlayerId::new(p), o.text))
            .collect();
        let engine = registry.get(&game.ruleset).expect("ruleset");
        let t = Instant::now();
        let resolved = engine
            .load(&before.state)
            .and_then(|loaded| loaded.resolve_with(game.seed, &given, &facts))
            .expect("the turn resolves again");
        spent += t.elapsed();
        assert_eq!(
            resolved.snapshot.state, after.state,
            "{id} turn {turn}: the rulesets alone must make the daemon's state"
        );
    }
    spent
}

/// What [`transport`] measured.
pub struct Written {
    pub spent: Duration,
    pub mails: usize,
    /// The mails' raw texts, in bytes: what the transport put on the disk.
    pub bytes: u64,
}

/// The transport alone on the mails of outbox ids `first..=last` that were
/// sent, written by a file transport into `dir` (each row read back from
/// the store outside the timing) and synced every
/// [`arbitre::sender::MARK_BATCH`] mails and at the end.
pub fn transport(c: &Connection, first: i64, last: i64, dir: &Path, from: &str) -> Written {
    let mut mailer = arbitre_mail::Mailer::new(arbitre_mail::Transport::File {
        dir: dir.to_path_buf(),
    });
    let mut spent = Duration::ZERO;
    let (mut mails, mut staged, mut bytes) = (0, 0, 0u64);
    for id in first..=last {
        let Some(m) = outbox::get(c, id).expect("outbox row") else {
            continue;
        };
        if m.status != arbitre_store::OutboxStatus::Sent || m.mail.raw.is_empty() {
            continue;
        }
        let t = Instant::now();
        mailer
            .send(from, &m.mail.recipient, &m.mail.raw)
            .expect("written");
        staged += 1;
        if staged == arbitre::sender::MARK_BATCH {
            mailer.sync().expect("synced");
            staged = 0;
        }
        spent += t.elapsed();
        mails += 1;
        bytes += m.mail.raw.len() as u64;
    }
    let t = Instant::now();
    mailer.sync().expect("synced");
    spent += t.elapsed();
    Written {
        spent,
        mails,
        bytes,
    }
}
