//! Issue 2 item 5: deadlines, early resolution, NMR, reminders, pause,
//! resume, extension, the GM's `turn`, and outbox retries.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::DaemonError;
use arbitre_store::{games, GameStatus, OutboxStatus};
use chrono::Duration;
use common::*;

fn game(env: &Env) -> arbitre_store::GameRow {
    games::require_game(env.daemon.store.conn(), "g1").unwrap()
}

#[test]
fn deadline_resolves_with_nmr_and_sets_the_next_deadline() {
    let mut env = Env::new();
    assert_eq!(
        game(&env).deadline,
        Some((t0() + Duration::days(2)).timestamp())
    );
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("g1", "alice", "wonderland", "ADD 5"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        game(&env).turn,
        0,
        "bob has not sent orders: wait for the deadline"
    );
    env.clock
        .set(t0() + Duration::days(2) - Duration::seconds(1));
    env.daemon.cycle().unwrap();
    assert_eq!(game(&env).turn, 0);
    env.clock
        .set(t0() + Duration::days(2) + Duration::minutes(3));
    let r = env.daemon.cycle().unwrap();
    assert_eq!(r.resolved, vec![("g1".to_string(), 1)]);
    let g = game(&env);
    assert_eq!(g.turn, 1);
    // Next deadline keeps the rhythm from the old deadline, not from the late cycle.
    assert_eq!(g.deadline, Some((t0() + Duration::days(4)).timestamp()));
    let bob = env.last_to("bob@example.org", "report").unwrap();
    assert!(!bob.mail.body.contains("bob added"), "NMR: bob did nothing");
    assert!(
        bob.mail.body.contains("Deadline: 2026-12-05 12:00 (UTC)"),
        "{}",
        bob.mail.body
    );
    let gm = env.last_to("gm@arbitre.test", "gm").unwrap();
    assert!(
        gm.mail.body.contains("alice added 5"),
        "the GM sees everything"
    );
}

#[test]
fn early_resolution_can_be_switched_off() {
    let mut env = Env::with_game(&tally_toml("g1", "early = false"));
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("g1", "alice", "wonderland", "ADD 5"),
    ));
    env.drop_mail(&mail(
        "bob@example.org",
        "o",
        &orders("g1", "bob", "builder", "ADD 5"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(game(&env).turn, 0);
    env.clock.set(t0() + Duration::days(2));
    env.daemon.cycle().unwrap();
    assert_eq!(game(&env).turn, 1);
}

#[test]
fn reminders_go_once_to_players_without_orders() {
    let mut env = Env::with_game(&tally_toml("g1", "reminders = [\"24h\", \"2h\"]"));
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("g1", "alice", "wonderland", "ADD 5"),
    ));
    env.daemon.cycle().unwrap();
    let reminders = |env: &Env| {
        env.outbox()
            .into_iter()
            .filter(|r| r.mail.kind == "reminder")
            .collect::<Vec<_>>()
    };
    assert!(reminders(&env).is_empty(), "too early");
    env.clock
        .set(t0() + Duration::days(1) + Duration::minutes(1));
    env.daemon.cycle().unwrap();
    env.daemon.cycle().unwrap();
    let r = reminders(&env);
    assert_eq!(r.len(), 1, "once, and only to bob");
    assert_eq!(r[0].mail.recipient, "bob@example.org");
    assert!(
        r[0].mail
            .body
            .contains("no orders from Bob for turn 1 of game g1"),
        "{}",
        r[0].mail.body
    );
    env.clock.set(t0() + Duration::days(2) - Duration::hours(1));
    env.daemon.cycle().unwrap();
    assert_eq!(reminders(&env).len(), 2, "the 2h reminder");
}

#[test]
fn after_downtime_only_the_nearest_reminder_is_sent() {
    let mut env = Env::with_game(&tally_toml("g1", "reminders = [\"24h\", \"2h\"]"));
    env.clock.set(t0() + Duration::days(2) - Duration::hours(1));
    env.daemon.cycle().unwrap();
    let r: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "reminder")
        .collect();
    assert_eq!(r.len(), 2, "one per player");
    assert!(r.iter().all(|r| r.mail.message_id.contains(".2h@")));
}

#[test]
fn pause_resume_and_extend_move_the_deadline_and_tell_the_players() {
    let mut env = Env::new();
    env.daemon.pause("g1").unwrap();
    assert_eq!(
        (game(&env).status, game(&env).deadline),
        (GameStatus::Paused, None)
    );
    env.clock.set(t0() + Duration::days(5));
    env.daemon.cycle().unwrap();
    assert_eq!(game(&env).turn, 0, "paused: no resolution");
    // Orders are still accepted while paused.
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("g1", "alice", "wonderland", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert!(env.last_to("alice@example.org", "confirm").is_some());
    assert!(matches!(
        env.daemon.pause("g1"),
        Err(DaemonError::Invalid(_))
    ));
    env.daemon.resume("g1").unwrap();
    assert_eq!(
        game(&env).deadline,
        Some((t0() + Duration::days(7)).timestamp())
    );
    env.daemon.extend("g1", Duration::hours(36)).unwrap();
    assert_eq!(
        game(&env).deadline,
        Some((t0() + Duration::days(7) + Duration::hours(36)).timestamp())
    );
    let notices: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "notice" && r.mail.recipient == "bob@example.org")
        .collect();
    assert_eq!(notices.len(), 3);
    assert!(notices[0].mail.body.contains("paused game g1"));
    assert!(
        notices[1]
            .mail
            .body
            .contains("Deadline: 2026-12-08 12:00 (UTC)"),
        "{}",
        notices[1].mail.body
    );
    assert!(
        notices[2]
            .mail
            .body
            .contains("Deadline: 2026-12-10 00:00 (UTC)"),
        "{}",
        notices[2].mail.body
    );
}

#[test]
fn gm_turn_resolves_now_and_a_finished_game_refuses_more() {
    let mut env = Env::new();
    for t in 1..=3 {
        assert_eq!(env.daemon.resolve("g1").unwrap(), t);
    }
    assert_eq!(game(&env).status, GameStatus::Over);
    assert_eq!(game(&env).deadline, None);
    assert!(matches!(
        env.daemon.resolve("g1"),
        Err(DaemonError::GameOver(_))
    ));
    let last = env.last_to("alice@example.org", "report").unwrap();
    assert!(
        last.mail.body.contains("The game is over."),
        "{}",
        last.mail.body
    );
    let status = env.daemon.status(Some("g1")).unwrap();
    assert!(
        status.contains("over") && status.contains("wins"),
        "{status}"
    );
}

#[test]
fn weekly_deadline_in_a_named_zone() {
    let toml = tally_toml("g1", "").replace(
        "interval = \"2d\"",
        "weekday = \"fri\"\ntime = \"20:00\"\ntimezone = \"Europe/Paris\"",
    );
    let env = Env::with_game(&toml);
    // 2026-12-01 is a Tuesday; Friday 4 December 20:00 CET = 19:00 UTC.
    let want = chrono::DateTime::parse_from_rfc3339("2026-12-04T19:00:00Z")
        .unwrap()
        .timestamp();
    assert_eq!(game(&env).deadline, Some(want));
    let r = env.last_to("alice@example.org", "report").unwrap();
    assert!(
        r.mail
            .body
            .contains("Deadline: 2026-12-04 20:00 (Europe/Paris)"),
        "{}",
        r.mail.body
    );
}

/// Issue 14 item 6: a temporary failure is retried with backoff for the
/// retry window from its first failure (here one minute), then failed —
/// and the game master is told of each failed mail but their own.
#[test]
fn failed_sends_are_retried_with_backoff_then_given_up() {
    let mut env = Env::new();
    // A sendmail that exists but refuses every mail: the mails' failure.
    env.daemon.config.transport = arbitre_mail::Transport::Sendmail {
        command: "/bin/false".into(),
    };
    env.daemon.config.send_retry_window = Duration::minutes(1);
    let r = env.daemon.cycle().unwrap();
    assert_eq!((r.sent, r.send_failures), (0, 3));
    let rows = env.outbox();
    assert!(rows.iter().all(|r| r.status == OutboxStatus::Pending
        && r.attempts == 1
        && r.last_error.is_some()
        && r.first_failed_at == Some(t0().timestamp())));
    let status = env.daemon.status(None).unwrap();
    assert!(
        status.contains("RETRYING #1 "),
        "shown from the first failure: {status}"
    );
    assert_eq!(
        env.daemon.cycle().unwrap().send_failures,
        0,
        "not before the backoff"
    );
    env.clock.set(t0() + Duration::minutes(1));
    assert_eq!(env.daemon.cycle().unwrap().send_failures, 3);
    let rows = env.outbox();
    assert_eq!(
        rows.iter()
            .filter(|r| r.status == OutboxStatus::Failed)
            .count(),
        3
    );
    let told: Vec<_> = rows
        .iter()
        .filter(|r| r.mail.kind == "notice" && r.mail.recipient == "gm@arbitre.test")
        .collect();
    assert_eq!(told.len(), 2, "the GM is told of the players' failed mails");
    assert!(
        told[0].mail.body.contains("arbitre outbox retry 1"),
        "{}",
        told[0].mail.body
    );
    assert!(env
        .daemon
        .status(None)
        .unwrap()
        .contains("outbox: 2 pending, 3 failed"));
}

#[test]
fn unknown_ruleset_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let clock = std::sync::Arc::new(arbitre::FixedClock::new(t0()));
    let mut d = arbitre::Daemon::open(config(dir.path()), registry(), clock).unwrap();
    let e = d
        .create_game(
            &tally_toml("g1", "").replace("\"tally\"", "\"chess\""),
            dir.path(),
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("unknown ruleset 'chess'; known rulesets: "),
        "{e}"
    );
    assert!(e.to_string().contains("tally"));
    let e = d
        .create_game(
            &tally_toml("g2", "").replace("password = \"builder\"\n", ""),
            dir.path(),
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "player 'bob' has no password (give password or password_hash)"
    );
}

/// Issue 22 item 2: the cycle reads only the games whose stored due
/// instant has come, so every change of a deadline (extend, pause and
/// resume, set deadline) must move that instant. After each change and
/// cycle, the stored instant equals the one computed afresh; a deadline
/// moved *earlier* resolves at its new instant (with a stale instant the
/// game would wait for the old, later one).
#[test]
fn due_instant_follows_extend_pause_resume_and_set_deadline() {
    let mut env = Env::new();
    let stored = |env: &Env| {
        games::due_at(env.daemon.store.conn(), "g1")
            .unwrap()
            .unwrap()
    };
    let fresh = |env: &Env| {
        arbitre::due::attention_at(
            env.daemon.store.conn(),
            &env.daemon.registry,
            game(env),
            env.daemon.now(),
        )
        .unwrap()
    };
    let check = |env: &mut Env, what: &str, expect: Option<chrono::DateTime<chrono::Utc>>| {
        env.daemon.cycle().unwrap();
        match expect {
            Some(t) => {
                assert_eq!(stored(env), fresh(env), "{what}: stored = computed");
                assert_eq!(stored(env), t.timestamp(), "{what}")
            }
            None => assert!(
                !games::due_games(env.daemon.store.conn(), i64::MAX - 1)
                    .unwrap()
                    .iter()
                    .any(|g| g.id == "g1"),
                "{what}: a paused game is never due"
            ),
        }
    };
    check(&mut env, "created", Some(t0() + Duration::days(2)));
    env.daemon.extend("g1", Duration::hours(36)).unwrap();
    assert_eq!(stored(&env), 0, "extend resets the instant");
    check(
        &mut env,
        "extended",
        Some(t0() + Duration::days(2) + Duration::hours(36)),
    );
    env.daemon.pause("g1").unwrap();
    check(&mut env, "paused", None);
    env.daemon.resume("g1").unwrap();
    check(&mut env, "resumed", Some(t0() + Duration::days(2)));
    let earlier = t0() + Duration::hours(3);
    env.daemon
        .set_deadline("g1", &arbitre::timespec::When::Instant(earlier))
        .unwrap();
    check(&mut env, "deadline set earlier", Some(earlier));
    env.clock.set(earlier + Duration::seconds(1));
    let r = env.daemon.cycle().unwrap();
    assert_eq!(
        r.resolved,
        vec![("g1".to_string(), 1)],
        "resolved at the new, earlier deadline"
    );
    // The next turn's instant is known after the cycle that resolved it and
    // the one after (the resolution itself resets it).
    env.daemon.cycle().unwrap();
    assert_eq!(stored(&env), fresh(&env));
    assert_eq!(Some(stored(&env)), game(&env).deadline);
}

/// Issue 22 item 2: an idle cycle reads no game at all, whatever their
/// number: the games due are one range of an index, empty when nothing is
/// due (a size check, not a timing).
#[test]
fn idle_cycle_reads_no_game() {
    let mut env = Env::new();
    for i in 2..40 {
        let dir = env.dir.path().to_path_buf();
        env.daemon
            .create_game(&tally_toml(&format!("g{i}"), ""), &dir)
            .unwrap();
    }
    env.daemon.cycle().unwrap();
    let now = env.daemon.now().timestamp();
    let due = |env: &Env, at: i64| games::due_games(env.daemon.store.conn(), at).unwrap();
    assert!(due(&env, now).is_empty(), "all scheduled");
    assert_eq!(games::games(env.daemon.store.conn()).unwrap().len(), 39);
    env.clock.set(t0() + Duration::hours(1));
    let r = env.daemon.cycle().unwrap();
    assert_eq!((r.resolved.len(), r.reminders), (0, 0));
    assert!(due(&env, now + 3600).is_empty());
    assert_eq!(due(&env, (t0() + Duration::days(2)).timestamp()).len(), 39);
}
