//! Issue 2, "done when" 1: two players through three turns, purely by
//! dropping .eml files into the Maildir and running `arbitre serve --once`
//! (the real command line, in-process, with the toy ruleset Tally), checking
//! the replies and reports in the file outbox.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::{run, Cli};
use clap::Parser;
use common::*;
use std::path::Path;

fn arbitre(config: &Path, args: &[&str]) -> String {
    let mut argv = vec!["arbitre", "--config", config.to_str().unwrap()];
    argv.extend_from_slice(args);
    let mut out = Vec::new();
    let code = run(Cli::try_parse_from(argv).unwrap(), registry(), &mut out).unwrap();
    assert_eq!(code, 0);
    String::from_utf8(out).unwrap()
}

/// Every mail in the file outbox: (recipient, subject, body).
fn sent(dir: &Path) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let raw = std::fs::read(&f).unwrap();
        let m = arbitre_mail::parse_mail(&raw, usize::MAX).unwrap();
        let to = String::from_utf8_lossy(&raw)
            .lines()
            .find_map(|l| l.strip_prefix("To: ").map(|s| s.trim().to_string()))
            .unwrap();
        out.push((to, m.subject.clone(), arbitre_mail::body_of(&raw).unwrap()));
    }
    out
}

#[test]
fn two_players_three_turns_by_maildir_and_serve_once() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("arbitre.toml");
    std::fs::write(
        &cfg,
        format!("referee = \"{REFEREE}\"\ninbox = \"inbox\"\ndatabase = \"db/arbitre.db\"\nwelcome = false\n[outbound]\nkind = \"file\"\ndir = \"outbox\"\n[argon2]\nm_cost = 8\nt_cost = 1\n"),
    )
    .unwrap();
    let game = dir.path().join("game.toml");
    std::fs::write(&game, tally_toml("duel", "")).unwrap();
    assert!(
        arbitre(&cfg, &["game", "create", game.to_str().unwrap()]).contains("game duel created")
    );
    arbitre(&cfg, &["serve", "--once"]);
    let outbox = dir.path().join("outbox");
    let turn0 = sent(&outbox);
    assert_eq!(turn0.len(), 3, "turn-0 report to each player and the GM");
    assert!(turn0
        .iter()
        .any(|(to, s, b)| to.contains("alice@example.org")
            && s == "[duel] turn 0"
            && b.contains("score alice = 0")));

    let inbox = arbitre_mail::Maildir::open(dir.path().join("inbox")).unwrap();
    let plays = [
        ("ADD 3\nADD 4", "ADD 10"),
        ("ADD 1", "ADD 2\nADD 2"),
        ("ADD 5", "ADD 5"),
    ];
    let mut expected = (0i64, 0i64);
    for (turn, (a, b)) in plays.iter().enumerate() {
        let turn = turn as u32 + 1;
        let before = sent(&outbox).len();
        inbox
            .deliver(&mail(
                "Alice <alice@example.org>",
                "my orders",
                &orders("duel", "alice", "wonderland", a),
            ))
            .unwrap();
        inbox
            .deliver(&mail(
                "bob@example.org",
                "orders",
                &orders("DUEL", "Bob", "builder", b),
            ))
            .unwrap();
        let out = arbitre(&cfg, &["serve", "--once"]);
        assert!(
            out.starts_with("2 mail(s) handled, 1 turn(s) resolved"),
            "{out}"
        );
        assert!(
            inbox.pending().unwrap().is_empty(),
            "both mails moved to cur/"
        );
        let new: Vec<_> = sent(&outbox)
            .into_iter()
            .filter(|(_, s, _)| !s.is_empty())
            .collect();
        assert_eq!(
            new.len(),
            before + 2 + 3,
            "two confirmations and three reports"
        );
        let confirm = new
            .iter()
            .find(|(to, s, _)| {
                to.contains("alice") && s == &format!("[duel] orders received for turn {turn}")
            })
            .unwrap();
        for line in a.lines() {
            assert!(
                confirm.2.contains(&format!("OK       {line}")),
                "{}",
                confirm.2
            );
        }
        expected.0 += a
            .lines()
            .map(|l| l[4..].parse::<i64>().unwrap())
            .sum::<i64>();
        expected.1 += b
            .lines()
            .map(|l| l[4..].parse::<i64>().unwrap())
            .sum::<i64>();
        let report = new
            .iter()
            .find(|(to, s, _)| to.contains("bob") && s == &format!("[duel] turn {turn}"))
            .unwrap();
        // Tally adds a luck bonus of 0..=2 per player per turn.
        let score = |body: &str, p: &str| -> i64 {
            body.lines()
                .find_map(|l| l.strip_prefix(&format!("score {p} = ")))
                .unwrap()
                .parse()
                .unwrap()
        };
        let (sa, sb) = (score(&report.2, "alice"), score(&report.2, "bob"));
        assert!(
            (expected.0..=expected.0 + 2 * turn as i64).contains(&sa),
            "{sa} vs {expected:?}"
        );
        assert!((expected.1..=expected.1 + 2 * turn as i64).contains(&sb));
        expected = (sa, sb);
        assert!(report.2.contains(&format!(
            "bob added {}",
            b.lines().next().unwrap()[4..].trim()
        )));
        assert!(
            !report.2.contains("alice added"),
            "fog: bob never sees alice's orders"
        );
    }
    let last = sent(&outbox);
    let end = last
        .iter()
        .filter(|(_, s, _)| s == "[duel] turn 3")
        .collect::<Vec<_>>();
    assert_eq!(end.len(), 3);
    assert!(end.iter().all(|(_, _, b)| b.contains("The game is over.")));
    let status = arbitre(&cfg, &["status", "duel"]);
    assert!(status.contains("duel (Tally), over"), "{status}");
    assert!(status.contains("outbox: 0 pending, 0 failed"), "{status}");
    let report = arbitre(&cfg, &["report", "duel", "alice", "--turn", "2"]);
    assert!(
        report.contains("Tally, turn 2") && report.contains("alice added 1"),
        "{report}"
    );
    // A mail after the end is refused, not stored.
    inbox
        .deliver(&mail(
            "alice@example.org",
            "more",
            &orders("duel", "alice", "wonderland", "ADD 1"),
        ))
        .unwrap();
    arbitre(&cfg, &["serve", "--once"]);
    let after = sent(&outbox);
    assert!(after
        .iter()
        .any(|(to, _, b)| to.contains("alice") && b.contains("Game duel is over")));
}

#[test]
fn every_command_has_help() {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    cmd.build();
    for sub in cmd.get_subcommands() {
        assert!(
            sub.get_about().is_some(),
            "{} has no help text",
            sub.get_name()
        );
        for s in sub.get_subcommands() {
            assert!(
                s.get_about().is_some(),
                "{} {} has no help text",
                sub.get_name(),
                s.get_name()
            );
        }
    }
    Cli::command().debug_assert();
}
