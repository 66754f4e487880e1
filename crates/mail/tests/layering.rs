//! Issue 16 item 6: the pure tree of the mail crate (`src/message/`) does
//! no I/O. Every source file under it is read and must not name the I/O
//! tree or an API that reaches a file, a socket, a process or the clock;
//! DNS lives in `transport::dns` and reaches the DKIM logic as data.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::path::{Path, PathBuf};

/// What a pure module must never mention.
const FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::net",
    "TcpStream",
    "UdpSocket",
    "lettre::transport",
    "SmtpTransport",
    "SendmailTransport",
    "std::process",
    "SystemTime::now",
    "Instant::now",
    "crate::transport",
    "hickory_resolver",
    "MessageAuthenticator",
    "tokio",
    "imap::",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// (file, line number, forbidden word) for every hit under `dir`.
fn hits(dir: &Path) -> Vec<(String, usize, &'static str)> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files.sort();
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            for word in FORBIDDEN {
                if line.contains(word) {
                    found.push((f.display().to_string(), n + 1, *word));
                }
            }
        }
    }
    found
}

#[test]
fn message_tree_is_pure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/message");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    // The tree holds what issue 16 names: parsing, decoding, HTML, the
    // order block, DKIM's verdict logic and the formatting of answers.
    for module in ["parse", "decode", "html", "envelope", "dkim", "format"] {
        assert!(
            files
                .iter()
                .any(|f| f.file_stem().is_some_and(|s| s == module)),
            "src/message/{module}.rs is missing"
        );
    }
    let found = hits(&root);
    assert!(
        found.is_empty(),
        "I/O named in the pure tree:\n{}",
        found
            .iter()
            .map(|(f, n, w)| format!("{f}:{n}: {w}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_check_sees_io_where_there_is_some() {
    // The same check on the I/O tree finds what it must: a check that
    // cannot fail would hold nothing.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/transport");
    let words: Vec<&str> = hits(&root).into_iter().map(|(_, _, w)| w).collect();
    for w in ["std::fs", "lettre::transport", "hickory_resolver"] {
        assert!(
            words.contains(&w),
            "{w} not found in src/transport: {words:?}"
        );
    }
}
