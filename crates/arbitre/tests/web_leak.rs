//! Issue 24 item 2, the leak test: every public page of every fixture game
//! (all four rulesets), compared with what the players and the spectator
//! get. The fixture is replayed with `public = true`; then, for every turn,
//! the public turn page (and the game page for the last turn) must hold
//! the spectator's report whole, and no line of any player's report that
//! the spectator's does not have; the public files are the spectator's
//! attachments, and a player's own attachment is not served.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::web;

use arbitre::fixture::{find_fixtures, Run};
use arbitre::web::Web;
use arbitre::Registry;
use arbitre_core::{PlayerId, Viewer};
use arbitre_store::{games, turns};
use axum::http::StatusCode;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use web::*;

/// The fixture's game.toml made public, in a folder with its other files.
fn public_copy(fixture: &Path, into: &Path) -> std::path::PathBuf {
    for e in std::fs::read_dir(fixture).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, into.join(p.file_name().unwrap())).unwrap();
        }
    }
    let toml = std::fs::read_to_string(fixture.join("game.toml")).unwrap();
    assert!(!toml.contains("public ="), "{}", fixture.display());
    let path = into.join("game.toml");
    std::fs::write(&path, format!("public = true\n{toml}")).unwrap();
    path
}

fn inbox_of(turn_dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir(turn_dir.join("inbox"))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|e| e == "eml"));
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// The lines a page shows (maud writes no newline outside `<pre>`).
fn page_lines(html: &str) -> BTreeSet<String> {
    unescape(html)
        .lines()
        .map(|l| l.trim().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_public_pages_leak_nothing_all_rulesets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let fixtures = find_fixtures(&root);
    let mut rulesets = BTreeSet::new();
    let mut checked_lines = 0usize;
    for fx in &fixtures {
        let tmp = tempfile::tempdir().unwrap();
        let toml = public_copy(fx, tmp.path());
        let (mut run, _) = Run::start(&toml, Registry::builtin()).unwrap();
        let mut turn_dirs: Vec<_> = std::fs::read_dir(fx)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("turn-") && n != "turn-000")
            })
            .collect();
        turn_dirs.sort();
        for t in &turn_dirs {
            run.step(&inbox_of(t)).unwrap();
        }
        let game = run.game.clone();
        let w = Web::open(
            run.daemon.config.clone(),
            Arc::clone(&run.daemon.registry),
            run.clock.clone(),
        )
        .unwrap();
        let c = run.daemon.store.conn();
        let row = games::require_game(c, &game).unwrap();
        rulesets.insert(row.ruleset.clone());
        let engine = run.daemon.registry.get(&row.ruleset).unwrap();
        let players = games::players(c, &game).unwrap();
        for turn in 0..=row.turn {
            let state = turns::get(c, &game, turn).unwrap().unwrap().state;
            let spectator = engine.report(&state, &Viewer::Spectator).unwrap();
            let public: BTreeSet<String> = spectator
                .body
                .lines()
                .map(|l| l.trim().to_string())
                .collect();
            let mut pages = vec![get(&w, &format!("/games/{game}/turns/{turn}"), None).await];
            if turn == row.turn {
                pages.push(get(&w, &format!("/games/{game}"), None).await);
            }
            for page in &pages {
                assert_eq!(
                    page.status,
                    StatusCode::OK,
                    "{game} turn {turn}: {}",
                    page.body
                );
                assert!(
                    page.text().contains(spectator.body.as_str()),
                    "{game} turn {turn}: the public page holds the spectator's report"
                );
            }
            for a in &spectator.attachments {
                let f = get(
                    &w,
                    &format!("/games/{game}/turns/{turn}/files/{}", a.name),
                    None,
                )
                .await;
                assert_eq!(f.status, StatusCode::OK, "{game} turn {turn} {}", a.name);
            }
            for p in &players {
                let own = engine
                    .report(&state, &Viewer::Player(PlayerId::new(p.id.clone())))
                    .unwrap();
                let private: Vec<&str> = own
                    .body
                    .lines()
                    .map(str::trim)
                    .filter(|l| l.chars().filter(|c| c.is_alphanumeric()).count() >= 6)
                    .filter(|l| !public.contains(*l))
                    .collect();
                for page in &pages {
                    let shown = page_lines(&page.body);
                    for l in &private {
                        checked_lines += 1;
                        assert!(
                            !shown.contains(*l),
                            "{game} turn {turn}: a line only {}'s report has is on a public page: {l:?}",
                            p.id
                        );
                    }
                    // No address and no password hash, ever.
                    assert!(!page.body.contains(&p.email), "{game}: {}'s address", p.id);
                    assert!(!page.body.contains("$argon2"), "{game}: a password hash");
                }
                for a in &own.attachments {
                    if spectator.attachments.iter().any(|s| s.name == a.name) {
                        continue;
                    }
                    let f = get(
                        &w,
                        &format!("/games/{game}/turns/{turn}/files/{}", a.name),
                        None,
                    )
                    .await;
                    assert_eq!(
                        f.status,
                        StatusCode::NOT_FOUND,
                        "{game}: {}'s {}",
                        p.id,
                        a.name
                    );
                }
            }
        }
    }
    assert_eq!(
        rulesets.into_iter().collect::<Vec<_>>(),
        ["eds", "nebulight", "scrambled", "wwk"],
        "a fixture game of every ruleset"
    );
    assert!(
        checked_lines > 1000,
        "private lines checked: {checked_lines}"
    );
    println!(
        "{} fixture games, {checked_lines} private lines checked",
        fixtures.len()
    );
}
