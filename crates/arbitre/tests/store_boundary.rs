//! Issue 16 item 2: SQL is written in arbitre-store only. The daemon crate
//! does not depend on rusqlite (its tests may, to inspect a database), and
//! no file of its sources holds SQL text or calls a connection's query
//! methods: rows are read and written through the store's typed functions.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Words that only SQL or a raw connection would put in the daemon's code.
const FORBIDDEN: &[&str] = &[
    "rusqlite",
    ".execute(",
    ".execute_batch(",
    ".query_row(",
    ".query_map(",
    ".prepare(",
    ".prepare_cached(",
    "SELECT ",
    "INSERT INTO",
    "DELETE FROM",
    "UPDATE ",
    "SAVEPOINT",
];

#[test]
fn issue16_2_no_sql_outside_the_store() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    assert!(files.len() > 20, "the daemon's sources were found");
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for w in FORBIDDEN {
                if code.contains(w) {
                    found.push(format!("{}:{}: {w}: {}", f.display(), n + 1, code));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "SQL outside arbitre-store:\n{}",
        found.join("\n")
    );
}

#[test]
fn issue16_2_the_daemon_does_not_depend_on_rusqlite() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let deps = manifest
        .split("\n[")
        .find(|s| s.starts_with("dependencies]"))
        .expect("a [dependencies] table");
    assert!(
        !deps.contains("rusqlite"),
        "crates/arbitre depends on rusqlite:\n{deps}"
    );
}
