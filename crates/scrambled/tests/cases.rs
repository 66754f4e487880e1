//! The rule cases of `rulesets/scrambled/cases/` (issue 23 item 2): every
//! TOML file there is run by core's one case runner, and the compliance table
//! `docs/rules/scrambled-cases.md` must say what the run says. The four
//! data cases this file ran before in a format of its own
//! (`tests/cases/*.toml`: bureaucracy table, capture threshold, desertion,
//! Alice's report at resolution 7) are now files of that folder.
//!
//! Adding a case needs no Rust: write the file, run
//! `cargo test --release -p arbitre-scrambled --test cases`, read the
//! differences, then refresh the table with `ARBITRE_BLESS_CASES=1`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::cases::{compliance_table, failures_text, run_dir};
use arbitre_scrambled::Scrambled;
use std::path::Path;

#[test]
fn scrambled_rule_cases_as_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let outcomes =
        run_dir(&Scrambled, &root.join("rulesets/scrambled/cases")).expect("cases folder");
    assert!(outcomes.len() >= 20, "only {} cases", outcomes.len());
    let table = compliance_table("Scrambled Nations", &outcomes);
    let table_file = root.join("docs/rules/scrambled-cases.md");
    if std::env::var("ARBITRE_BLESS_CASES").is_ok_and(|v| v == "1") {
        std::fs::write(&table_file, &table).expect("write the compliance table");
    }
    let failures = failures_text(&outcomes);
    assert!(failures.is_empty(), "{failures}");
    let committed = std::fs::read_to_string(&table_file).unwrap_or_default();
    assert!(
        committed == table,
        "docs/rules/scrambled-cases.md is not the table of the cases; \
         rerun with ARBITRE_BLESS_CASES=1 to rewrite it. Expected:\n{table}"
    );
}
