//! Issue 19 item 6 on the command line: `arbitre game export <game> [--turn N]`
//! prints a position that `game create` (with `position_file` pointing at
//! it) turns into the same game, whose own export is byte-identical; for
//! each of the four rulesets' example game files.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::{run, Cli};
use arbitre::Registry;
use clap::Parser;
use std::path::{Path, PathBuf};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name)
        .join("game.toml")
}

fn cli(cfg: &Path, args: &[&str]) -> Result<String, String> {
    let mut argv = vec!["arbitre", "--config", cfg.to_str().unwrap()];
    argv.extend_from_slice(args);
    let mut out = Vec::new();
    run(
        Cli::try_parse_from(argv).unwrap(),
        Registry::builtin(),
        &mut out,
    )
    .map_err(|e| format!("{e:#}"))?;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn game_export_then_create_gives_the_same_game_in_every_ruleset() {
    for ruleset in ["eds", "nebulight", "scrambled", "wwk"] {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("arbitre.toml");
        std::fs::write(
            &cfg,
            format!("referee = \"{}\"\ninbox = \"inbox\"\ndatabase = \"arbitre.db\"\n[outbound]\nkind = \"file\"\ndir = \"outbox\"\n[argon2]\nm_cost = 8\nt_cost = 1\n", common::REFEREE),
        )
        .unwrap();
        let mut game: toml::Table = std::fs::read_to_string(example(ruleset))
            .unwrap()
            .parse()
            .unwrap();
        let id = game["id"].as_str().unwrap().to_string();
        cli(
            &cfg,
            &["game", "create", example(ruleset).to_str().unwrap()],
        )
        .unwrap();
        for _ in 0..2 {
            cli(&cfg, &["turn", &id]).unwrap();
        }
        let last = cli(&cfg, &["game", "export", &id]).unwrap();
        assert_eq!(
            last,
            cli(&cfg, &["game", "export", &id, "--turn", "2"]).unwrap(),
            "{ruleset}: the default is the last resolved turn"
        );
        let first = cli(&cfg, &["game", "export", &id, "--turn", "0"]).unwrap();
        assert_ne!(first, last, "{ruleset}: turn 0 is not turn 2");
        let e = cli(&cfg, &["game", "export", &id, "--turn", "9"]).unwrap_err();
        assert!(e.contains("has no resolved turn 9"), "{ruleset}: {e}");

        // The same game again, from the exported position.
        let pos = dir.path().join("position.toml");
        std::fs::write(&pos, &last).unwrap();
        let copy_id = format!("{id}-copy");
        game.insert("id".into(), toml::Value::String(copy_id.clone()));
        let rules = game
            .entry("rules")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            .as_table_mut()
            .unwrap();
        rules.remove("map");
        rules.insert(
            "position_file".into(),
            toml::Value::String(pos.to_str().unwrap().to_string()),
        );
        let copy = dir.path().join("copy.toml");
        std::fs::write(&copy, toml::to_string(&game).unwrap()).unwrap();
        cli(&cfg, &["game", "create", copy.to_str().unwrap()])
            .unwrap_or_else(|e| panic!("{ruleset}: {e}\n{last}"));
        assert_eq!(
            cli(&cfg, &["game", "export", &copy_id]).unwrap(),
            last,
            "{ruleset}: export → create → export is not byte-identical"
        );
    }
}
