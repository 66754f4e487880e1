//! All of this crate's integration tests, as modules of one test binary:
//! one link instead of 9 (CI builds every test binary from scratch).
//!
//! `Cargo.toml` sets `autotests = false`, so a new file under tests/ must
//! be named here (or as its own `[[test]]`); `every_test_file_is_compiled`
//! fails when one is not.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod bot_game;
mod cases;
mod common;
mod game_file;
mod grammar_differential;
mod outcomes;
mod parse_index;
mod positions;
mod prop;
mod receipt;
mod rules;
mod worked_examples;

/// A test file that no binary compiles would pass silently forever.
#[test]
fn every_test_file_is_compiled() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let all = std::fs::read_to_string(root.join("tests/all.rs")).unwrap();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().and_then(|e| e.to_str()) != Some("rs") || stem == "all" {
            continue;
        }
        let as_module = all.lines().any(|l| l.trim() == format!("mod {stem};"));
        let as_binary = manifest.contains(&format!("path = \"tests/{stem}.rs\""));
        if !as_module && !as_binary {
            missing.push(stem.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "test files compiled by no binary: {missing:?}"
    );
}
