//! The rule cases of `rulesets/eds/cases/` (issue 23 items 2–3): every TOML
//! file there is run by core's one case runner, and the compliance table
//! `docs/rules/eds-cases.md` must say what the run says.
//!
//! Adding a case needs no Rust: write the file (format: `docs/rules/cases.md`,
//! the position in the `eds-position-1` format of `docs/eds.md`), run
//! `cargo test --release -p arbitre-eds --test cases`, read the differences,
//! then refresh the table with `ARBITRE_BLESS_CASES=1`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::cases::{compliance_table, failures_text, run_dir};
use arbitre_eds::Eds;
use std::path::Path;

#[test]
fn eds_110_rulebook_examples_as_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let outcomes = run_dir(&Eds, &root.join("rulesets/eds/cases")).expect("cases folder");
    assert!(outcomes.len() >= 20, "only {} cases", outcomes.len());
    let table = compliance_table("Evolution der Sterne", &outcomes);
    let table_file = root.join("docs/rules/eds-cases.md");
    if std::env::var("ARBITRE_BLESS_CASES").is_ok_and(|v| v == "1") {
        std::fs::write(&table_file, &table).expect("write the compliance table");
    }
    let failures = failures_text(&outcomes);
    assert!(failures.is_empty(), "{failures}");
    let committed = std::fs::read_to_string(&table_file).unwrap_or_default();
    assert!(
        committed == table,
        "docs/rules/eds-cases.md is not the table of the cases; \
         rerun with ARBITRE_BLESS_CASES=1 to rewrite it. Expected:\n{table}"
    );
}
