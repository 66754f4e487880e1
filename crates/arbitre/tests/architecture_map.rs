//! The code map cannot go stale (issue 16, item 8): docs/architecture.md's
//! "Turn phases" tables must name every phase of every ruleset, and each row
//! must point at a function that exists and that the phase list really calls
//! for that key. A newcomer finds a phase's code from its rulebook name in
//! one step only while this holds.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::Ruleset;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One row of a phase table.
#[derive(Debug)]
struct Row {
    key: String,
    file: String,
    function: String,
}

/// The rows of each `### <ruleset>: …` table under "## Turn phases".
fn tables(doc: &str) -> BTreeMap<String, Vec<Row>> {
    let mut out: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    let mut in_section = false;
    let mut current: Option<String> = None;
    for line in doc.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            in_section = h.starts_with("Turn phases");
            current = None;
            continue;
        }
        if !in_section {
            continue;
        }
        if let Some(h) = line.strip_prefix("### ") {
            current = h.split(':').next().map(|s| s.trim().to_string());
            continue;
        }
        let (Some(rs), true) = (&current, line.starts_with("| `")) else {
            continue;
        };
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // "", key, phase, file, function, ""
        assert_eq!(cells.len(), 6, "malformed row: {line}");
        let strip = |c: &str| c.trim_matches('`').to_string();
        out.entry(rs.clone()).or_default().push(Row {
            key: strip(cells[1]),
            file: strip(cells[3]),
            function: strip(cells[4]),
        });
    }
    out
}

fn keys<R: Ruleset>(r: &R) -> Vec<String> {
    r.phases().iter().map(|p| p.key.to_string()).collect()
}

/// All the source of a ruleset crate, to find where its phase list binds a
/// key to a function (`key: "12-combat", run: combat::combat` or
/// `p!("3.10", crate::combat::combat)`).
fn crate_source(ruleset: &str) -> String {
    let dir = repo().join("crates").join(ruleset).join("src");
    let mut s = String::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            s.push_str(&std::fs::read_to_string(&p).unwrap());
            s.push('\n');
        }
    }
    s
}

/// The text of the phase list's entry for `key`: from the key to the next entry.
fn binding<'a>(src: &'a str, key: &str) -> Option<&'a str> {
    let patterns = [format!("key: \"{key}\","), format!("p!(\"{key}\",")];
    let hits: Vec<usize> = patterns
        .iter()
        .flat_map(|p| src.match_indices(p.as_str()).map(|(i, _)| i))
        .collect();
    let [start] = hits[..] else { return None };
    let rest = &src[start + 3..];
    let end = ["key: \"", "p!(\"", "]"]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()
        .unwrap_or(rest.len());
    Some(&src[start..start + 3 + end])
}

fn check(ruleset: &str, actual: Vec<String>, rows: &[Row]) -> Vec<String> {
    let mut errors = Vec::new();
    let documented: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
    if documented != actual.iter().map(String::as_str).collect::<Vec<_>>() {
        errors.push(format!(
            "{ruleset}: the table lists phases {documented:?} but phases() runs {actual:?}"
        ));
    }
    let src = crate_source(ruleset);
    for r in rows {
        let path = repo().join(&r.file);
        match std::fs::read_to_string(&path) {
            Err(_) => errors.push(format!("{ruleset} {}: no file {}", r.key, r.file)),
            Ok(text) => {
                let defined = text.contains(&format!("fn {}(", r.function))
                    || text.contains(&format!("fn {}<", r.function));
                if !defined {
                    errors.push(format!(
                        "{ruleset} {}: no fn {} in {}",
                        r.key, r.function, r.file
                    ));
                }
            }
        }
        let module = Path::new(&r.file)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        match binding(&src, &r.key) {
            None => errors.push(format!(
                "{ruleset} {}: no unique phase entry for this key in crates/{ruleset}/src",
                r.key
            )),
            Some(b) => {
                let qualified = format!("{module}::{}", r.function);
                // A function of the file that holds the phase list is named bare.
                let bare = format!("run: {},", r.function);
                if !b.contains(&qualified) && !b.contains(&bare) {
                    errors.push(format!(
                        "{ruleset} {}: the phase list does not call {qualified} ({})",
                        r.key,
                        b.trim()
                    ));
                }
            }
        }
    }
    errors
}

#[test]
fn architecture_phase_tables_match_the_code() {
    let doc = std::fs::read_to_string(repo().join("docs/architecture.md")).unwrap();
    let t = tables(&doc);
    let get = |id: &str| {
        t.get(id)
            .unwrap_or_else(|| panic!("docs/architecture.md has no phase table for {id}"))
    };
    let mut errors = Vec::new();
    errors.extend(check(
        "nebulight",
        keys(&arbitre_nebulight::Nebulight),
        get("nebulight"),
    ));
    errors.extend(check("eds", keys(&arbitre_eds::Eds), get("eds")));
    errors.extend(check(
        "scrambled",
        keys(&arbitre_scrambled::Scrambled),
        get("scrambled"),
    ));
    errors.extend(check("wwk", keys(&arbitre_wwk::Wwk), get("wwk")));
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The checker itself must catch a stale row, or the test above proves nothing.
#[test]
fn architecture_map_check_catches_a_stale_row() {
    let doc = std::fs::read_to_string(repo().join("docs/architecture.md")).unwrap();
    let mut t = tables(&doc);
    let rows = t.get_mut("eds").unwrap();
    rows[6].function = "phase7_jumps_renamed".into();
    let errors = check("eds", keys(&arbitre_eds::Eds), rows);
    assert!(
        errors.iter().any(|e| e.contains("phase7_jumps_renamed")),
        "{errors:?}"
    );
    rows.pop();
    let errors = check("eds", keys(&arbitre_eds::Eds), rows);
    assert!(
        errors.iter().any(|e| e.contains("phases() runs")),
        "{errors:?}"
    );
}

/// The section of `doc` about one crate: from its `### \`crates/<name>\``
/// heading to the next heading of the same or a higher level.
fn crate_section<'a>(doc: &'a str, name: &str) -> &'a str {
    let heading = format!("### `crates/{name}`");
    let start = doc
        .find(&heading)
        .unwrap_or_else(|| panic!("docs/architecture.md has no section {heading}"));
    let rest = &doc[start + heading.len()..];
    let end = [rest.find("\n### "), rest.find("\n## ")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
    &rest[..end]
}

fn module_files(dir: &Path, base: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            module_files(&p, base, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push(rel);
        }
    }
}

/// Issue 16 item 8: every module file of the daemon, the store, the mail
/// crate and core has its line (`` `path.rs` ``, relative to the crate's
/// src/) in its crate's section of the code map.
#[test]
fn architecture_names_every_module_file() {
    let doc = std::fs::read_to_string(repo().join("docs/architecture.md")).unwrap();
    let mut missing = Vec::new();
    for name in ["core", "store", "mail", "arbitre"] {
        let section = crate_section(&doc, name);
        let src = repo().join("crates").join(name).join("src");
        let mut files = Vec::new();
        module_files(&src, &src, &mut files);
        assert!(files.len() > 5, "{name}: found only {files:?}");
        for f in files {
            if !section.contains(&format!("`{f}`")) {
                missing.push(format!("crates/{name}/src/{f}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md's code map does not name: {missing:?}"
    );
}
