//! All of the daemon crate's integration tests, as modules of one test
//! binary: 50 binaries each linking the daemon, axum and tokio cost CI
//! more than ten minutes of building; one binary links once.
//!
//! `Cargo.toml` sets `autotests = false`, so a new file under tests/ must
//! be named here (or as its own `[[test]]`, like `big_order_mail`, whose
//! counting allocator and resident-set peak need a process of their own);
//! `every_test_file_is_compiled` fails when one is not.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;
#[path = "common/web.rs"]
mod web;

mod architecture_map;
mod backup;
mod catalogue;
mod cli;
mod crash_harness;
mod delivery;
mod durations;
mod engine_boundary;
mod error_text;
mod exactly_once;
mod faults;
mod fixtures;
mod game_export;
mod game_file_mistakes;
mod gm_cli;
mod ingest_batch;
mod json_report_v2;
mod mail_loop;
mod mail_path;
mod malformed;
mod maps;
mod nmr_observers;
mod password_change;
mod reliability_abuse;
mod reliability_flood;
mod reliability_fuzz;
mod reliability_hostile;
mod reliability_password;
mod reliability_wrong_password;
mod request_pipeline;
mod ruleset_receipt;
mod rulesets_by_mail;
mod scheduling;
mod servers_e2e;
mod services_auth;
mod services_gm;
mod services_mail;
mod services_player;
mod services_truth;
mod services_units;
mod setup_text;
mod several_blocks;
mod signup_by_mail;
mod store_boundary;
mod systemd_units;
mod voice;
mod web_browser;
mod web_http;
mod web_lang;
mod web_leak;
mod welcome_by_mail;
mod wwk_by_mail;

/// A test file that no binary compiles would pass silently forever.
#[test]
fn every_test_file_is_compiled() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let all = std::fs::read_to_string(dir.join("all.rs")).unwrap();
    let manifest = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"),
    )
    .unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
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
