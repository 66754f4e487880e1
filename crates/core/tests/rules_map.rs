//! Keeps the rules maps of `docs/rules/<ruleset>.md` true (issue 23 item 1).
//!
//! The maps are how the repository explains its checklist ids (NEB-17, EDS-56,
//! SCN-3, WWK-120 …) without the specifications outside it, so they must not
//! drift from the code:
//!
//! * every id carried by a function name (`neb_17_…`, `…_eds_56_…`) anywhere
//!   under `crates/` has a row in its ruleset's map;
//! * every row names at least one test, every test it names exists, and some
//!   function name under `crates/` (or the `checklist` of a rule case under
//!   `rulesets/<ruleset>/cases/`) carries the row's id; a rule case named on a
//!   row exists and lists the row's id;
//! * every item a row names (`` `crates/nebulight/src/combat.rs` `fn combat` ``)
//!   still exists in the named file;
//! * a map's ids run from 1 without gaps or repeats (the checklists are
//!   numbered that way).
//!
//! The format is described in `docs/rules/README.md`. This test reads only
//! files of the repository.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The four maps: file stem under docs/rules and the id prefix of its checklist.
const MAPS: [(&str, &str); 4] = [
    ("nebulight", "NEB"),
    ("eds", "EDS"),
    ("scrambled", "SCN"),
    ("wwk", "WWK"),
];

/// Kinds of Rust items a map row may name as the code of a rule.
const ITEM_KINDS: [&str; 7] = ["fn", "const", "static", "struct", "enum", "trait", "type"];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// All `.rs` files under `dir`, skipping build output.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Names of every item of `kind` declared in `source` (`fn foo`, `const BAR` …).
fn declared(source: &str, kind: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let needle = format!("{kind} ");
    let mut rest = source;
    while let Some(at) = rest.find(&needle) {
        let before_ok = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !is_ident_char(c));
        let after = &rest[at + needle.len()..];
        if before_ok {
            let name: String = after.chars().take_while(|c| is_ident_char(*c)).collect();
            if !name.is_empty() {
                names.insert(name);
            }
        }
        rest = after;
    }
    names
}

/// The checklist ids a function name carries: `neb_76_tv14_ambush_neb_41`
/// carries NEB-76 and NEB-41. An id is the prefix as one `_`-separated word
/// followed by a word of digits.
fn ids_in_name(name: &str) -> Vec<(String, u32)> {
    let words: Vec<&str> = name.split('_').collect();
    let mut ids = Vec::new();
    for pair in words.windows(2) {
        let prefix = pair[0].to_ascii_uppercase();
        if MAPS.iter().any(|(_, p)| *p == prefix) {
            // parse() alone would accept "+7"; an id is digits only.
            if pair[1].chars().all(|c| c.is_ascii_digit()) {
                if let Ok(n) = pair[1].parse::<u32>() {
                    ids.push((prefix, n));
                }
            }
        }
    }
    ids
}

/// One row of a map table.
struct Row {
    line: usize,
    number: u32,
    cells: Vec<String>,
}

/// Backticked spans of a cell, in order.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.trim().to_string())
        .collect()
}

/// Rows whose first cell is an id of `prefix` (`| NEB-17 | … |`).
fn rows(map: &str, prefix: &str) -> Vec<Row> {
    let mut out = Vec::new();
    for (i, line) in map.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        let Some(first) = cells.first() else { continue };
        let Some(num) = first
            .trim_matches('*')
            .strip_prefix(prefix)
            .and_then(|r| r.strip_prefix('-'))
        else {
            continue;
        };
        if let Ok(number) = num.parse::<u32>() {
            out.push(Row {
                line: i + 1,
                number,
                cells,
            });
        }
    }
    out
}

/// Everything the check needs to know about the code.
struct Code {
    /// Every function name declared under crates/.
    fns: BTreeSet<String>,
    /// Each rule case file (`rulesets/<ruleset>/cases/*.toml`, path from the
    /// repository root) and the checklist ids it declares.
    cases: BTreeMap<String, Vec<(String, u32)>>,
    /// For each (prefix, number), the function names (and case files) that carry it.
    carried: BTreeMap<(String, u32), Vec<String>>,
}

fn scan_code(root: &Path) -> Code {
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    let mut fns = BTreeSet::new();
    let mut carried: BTreeMap<(String, u32), Vec<String>> = BTreeMap::new();
    for file in files {
        // This file writes example rows in strings; they are not code.
        if file.ends_with("core/tests/rules_map.rs") {
            continue;
        }
        let source = fs::read_to_string(&file).unwrap_or_default();
        for name in declared(&source, "fn") {
            for id in ids_in_name(&name) {
                carried.entry(id).or_default().push(name.clone());
            }
            fns.insert(name);
        }
    }
    let cases = scan_cases(root);
    for (file, ids) in &cases {
        for id in ids {
            carried.entry(id.clone()).or_default().push(file.clone());
        }
    }
    Code {
        fns,
        carried,
        cases,
    }
}

/// `NEB-53` → ("NEB", 53).
fn parse_id(id: &str) -> Option<(String, u32)> {
    let (prefix, n) = id.split_once('-')?;
    if !MAPS.iter().any(|(_, p)| *p == prefix) || !n.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((prefix.to_string(), n.parse().ok()?))
}

/// The rule case files and the `checklist` ids each declares. A file that
/// does not parse declares nothing here; the ruleset's `cases` test reports it.
fn scan_cases(root: &Path) -> BTreeMap<String, Vec<(String, u32)>> {
    let mut out = BTreeMap::new();
    let Ok(rulesets) = fs::read_dir(root.join("rulesets")) else {
        return out;
    };
    for ruleset in rulesets.flatten() {
        let Ok(files) = fs::read_dir(ruleset.path().join("cases")) else {
            continue;
        };
        for file in files.flatten() {
            let path = file.path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let rel = format!(
                "rulesets/{}/cases/{}",
                ruleset.file_name().to_string_lossy(),
                file.file_name().to_string_lossy()
            );
            let text = fs::read_to_string(&path).unwrap_or_default();
            let ids = text
                .parse::<toml::Table>()
                .ok()
                .and_then(|t| t.get("checklist").and_then(|c| c.as_array()).cloned())
                .unwrap_or_default()
                .iter()
                .filter_map(|v| v.as_str().and_then(parse_id))
                .collect();
            out.insert(rel, ids);
        }
    }
    out
}

/// Problems with one map; empty when the map is true.
fn check_map(root: &Path, stem: &str, prefix: &str, map: &str, code: &Code) -> Vec<String> {
    let mut problems = Vec::new();
    let rows = rows(map, prefix);
    let where_ = |line: usize| format!("docs/rules/{stem}.md:{line}");

    let numbers: Vec<u32> = rows.iter().map(|r| r.number).collect();
    let expected: Vec<u32> = (1..=numbers.len() as u32).collect();
    let mut sorted = numbers.clone();
    sorted.sort_unstable();
    if sorted != expected {
        problems.push(format!(
            "docs/rules/{stem}.md: the {prefix} ids are not 1..{} without gaps or repeats",
            numbers.len()
        ));
    }

    let mut files: BTreeMap<String, Option<String>> = BTreeMap::new();
    for row in &rows {
        let id = format!("{prefix}-{}", row.number);
        if row.cells.len() != 5 {
            problems.push(format!(
                "{}: {id} has {} cells, a row has 5 (id, rule, rulebook, code, tests)",
                where_(row.line),
                row.cells.len()
            ));
            continue;
        }
        if row.cells[1].is_empty() || row.cells[2].is_empty() {
            problems.push(format!(
                "{}: {id} has no rule text or no rulebook section",
                where_(row.line)
            ));
        }

        // Code: a path sets the file, the items after it must be declared there.
        let mut current: Option<String> = None;
        let mut items = 0;
        for span in ticked(&row.cells[3]) {
            if span.ends_with(".rs") {
                current = Some(span);
                continue;
            }
            let mut parts = span.split_whitespace();
            let (Some(kind), Some(name), None) = (parts.next(), parts.next(), parts.next()) else {
                problems.push(format!(
                    "{}: {id}: `{span}` is neither a .rs path nor `<kind> <name>`",
                    where_(row.line)
                ));
                continue;
            };
            if !ITEM_KINDS.contains(&kind) {
                problems.push(format!(
                    "{}: {id}: `{span}`: kind must be one of {ITEM_KINDS:?}",
                    where_(row.line)
                ));
                continue;
            }
            let Some(file) = &current else {
                problems.push(format!(
                    "{}: {id}: `{span}` comes before any file path",
                    where_(row.line)
                ));
                continue;
            };
            let source = files
                .entry(file.clone())
                .or_insert_with(|| fs::read_to_string(root.join(file)).ok());
            match source {
                None => problems.push(format!(
                    "{}: {id}: file {file} does not exist",
                    where_(row.line)
                )),
                Some(text) => {
                    if !declared(text, kind).contains(name) {
                        problems.push(format!(
                            "{}: {id}: `{kind} {name}` is not in {file}",
                            where_(row.line)
                        ));
                    }
                }
            }
            items += 1;
        }
        if items == 0 {
            problems.push(format!("{}: {id} names no code", where_(row.line)));
        }

        // Tests: each must exist; the id must be carried by some function name.
        let tests = ticked(&row.cells[4]);
        if tests.is_empty() {
            problems.push(format!("{}: {id} names no test", where_(row.line)));
        }
        for test in &tests {
            if test.ends_with(".toml") {
                match code.cases.get(test) {
                    None => problems.push(format!(
                        "{}: {id}: case file {test} does not exist",
                        where_(row.line)
                    )),
                    Some(ids) if !ids.contains(&(prefix.to_string(), row.number)) => {
                        problems.push(format!(
                            "{}: {id}: case file {test} does not list {id} in its checklist",
                            where_(row.line)
                        ))
                    }
                    Some(_) => {}
                }
            } else if !code.fns.contains(test) {
                problems.push(format!(
                    "{}: {id}: test `{test}` does not exist under crates/",
                    where_(row.line)
                ));
            }
        }
        if !code.carried.contains_key(&(prefix.to_string(), row.number)) {
            problems.push(format!(
                "{}: {id} is in the map but no test name or rule case carries `{}_{}`",
                where_(row.line),
                prefix.to_ascii_lowercase(),
                row.number
            ));
        }
    }

    let mapped: BTreeSet<u32> = numbers.into_iter().collect();
    for ((p, n), names) in &code.carried {
        if p == prefix && !mapped.contains(n) {
            problems.push(format!(
                "{p}-{n} is carried by {} but has no row in docs/rules/{stem}.md",
                names.join(", ")
            ));
        }
    }
    problems
}

#[test]
fn rules_maps_match_the_code_and_the_tests() {
    let root = repo_root();
    let code = scan_code(&root);
    let mut problems = Vec::new();
    for (stem, prefix) in MAPS {
        let path = root.join("docs/rules").join(format!("{stem}.md"));
        match fs::read_to_string(&path) {
            Ok(map) => problems.extend(check_map(&root, stem, prefix, &map, &code)),
            Err(e) => problems.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(
        problems.is_empty(),
        "the rules maps are out of date (format: docs/rules/README.md):\n{}",
        problems.join("\n")
    );
}

/// The checker itself: a map that drifted in each of the ways the issue names
/// is caught, so the test above cannot pass by reading nothing.
#[test]
fn rules_map_checker_catches_each_kind_of_drift() {
    let root = repo_root();
    let code = Code {
        cases: [(
            "rulesets/nebulight/cases/tv01.toml".to_string(),
            vec![("NEB".to_string(), 1)],
        )]
        .into_iter()
        .collect(),
        fns: ["neb_1_loads", "neb_2_game", "helper"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        carried: [
            (("NEB".to_string(), 1), vec!["neb_1_loads".to_string()]),
            (("NEB".to_string(), 2), vec!["neb_2_game".to_string()]),
        ]
        .into_iter()
        .collect(),
    };
    let good = "| Id | Rule | Rulebook | Code | Tests |\n|---|---|---|---|---|\n\
        | NEB-1 | a | I | `crates/nebulight/src/map.rs` `fn load` | `neb_1_loads` |\n\
        | NEB-2 | b | II | `crates/nebulight/src/setup.rs` `fn setup` | `neb_2_game` |\n";
    assert_eq!(
        check_map(&root, "t", "NEB", good, &code),
        Vec::<String>::new()
    );

    // An id carried by a test name but missing from the map.
    let missing_row = good.replace(
        "| NEB-2 | b | II | `crates/nebulight/src/setup.rs` `fn setup` | `neb_2_game` |\n",
        "",
    );
    let p = check_map(&root, "t", "NEB", &missing_row, &code);
    assert!(
        p.iter()
            .any(|m| m.contains("NEB-2 is carried by neb_2_game")),
        "{p:?}"
    );

    // An id in the map that no test name carries.
    let extra =
        format!("{good}| NEB-3 | c | III | `crates/nebulight/src/map.rs` `fn load` | `helper` |\n");
    let p = check_map(&root, "t", "NEB", &extra, &code);
    assert!(
        p.iter()
            .any(|m| m.contains("no test name or rule case carries `neb_3`")),
        "{p:?}"
    );

    // A function that no longer exists in the named file.
    let gone_fn = good.replace("`fn load`", "`fn load_map_that_was_renamed`");
    let p = check_map(&root, "t", "NEB", &gone_fn, &code);
    assert!(
        p.iter()
            .any(|m| m.contains("is not in crates/nebulight/src/map.rs")),
        "{p:?}"
    );

    // A named test that no longer exists.
    let gone_test = good.replace("`neb_1_loads`", "`neb_1_loads`, `neb_1_renamed`");
    let p = check_map(&root, "t", "NEB", &gone_test, &code);
    assert!(
        p.iter()
            .any(|m| m.contains("`neb_1_renamed` does not exist")),
        "{p:?}"
    );

    // A rule case named on a row must exist and list the row's id.
    let with_case = good.replace(
        "`neb_1_loads` |",
        "`neb_1_loads`, `rulesets/nebulight/cases/tv01.toml` |",
    );
    assert_eq!(
        check_map(&root, "t", "NEB", &with_case, &code),
        Vec::<String>::new()
    );
    let wrong_case = good.replace(
        "`neb_2_game` |",
        "`neb_2_game`, `rulesets/nebulight/cases/tv01.toml`, `rulesets/nebulight/cases/gone.toml` |",
    );
    let p = check_map(&root, "t", "NEB", &wrong_case, &code);
    assert!(
        p.iter()
            .any(|m| m.contains("tv01.toml does not list NEB-2")),
        "{p:?}"
    );
    assert!(
        p.iter().any(|m| m.contains("gone.toml does not exist")),
        "{p:?}"
    );

    // An id carried only by a rule case needs no test function.
    let case_only = Code {
        fns: BTreeSet::new(),
        carried: [(
            ("NEB".to_string(), 1),
            vec!["rulesets/nebulight/cases/tv01.toml".to_string()],
        )]
        .into_iter()
        .collect(),
        cases: code.cases.clone(),
    };
    let one = "| NEB-1 | a | I | `crates/nebulight/src/map.rs` `fn load` | `rulesets/nebulight/cases/tv01.toml` |\n";
    assert_eq!(
        check_map(&root, "t", "NEB", one, &case_only),
        Vec::<String>::new()
    );
}

#[test]
fn ids_are_read_from_underscore_words() {
    assert_eq!(
        ids_in_name("neb_76_tv14_ambush_neb_41_neb_42"),
        vec![
            ("NEB".to_string(), 76),
            ("NEB".to_string(), 41),
            ("NEB".to_string(), 42)
        ]
    );
    assert_eq!(ids_in_name("wwk_7x_not_an_id"), Vec::new());
    assert_eq!(ids_in_name("scn_3"), vec![("SCN".to_string(), 3)]);
    assert_eq!(ids_in_name("breeds_5_is_not_eds"), Vec::new());
}
