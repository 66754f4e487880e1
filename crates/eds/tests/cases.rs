//! The rule cases of `rulesets/eds/cases/` (issue 23 items 2–3): every TOML
//! file there is run by core's one case runner, and the compliance table
//! `docs/rules/eds-cases.md` must say what the run says.
//!
//! Adding a case needs no Rust: write the file (format: `docs/rules/cases.md`,
//! the position in the `eds-position-1` format of `docs/eds.md`), run
//! `cargo test --release -p arbitre-eds --test cases`, read the differences,
//! then refresh the table with `ARBITRE_BLESS_CASES=1`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::cases::check_ruleset_cases;
use arbitre_eds::Eds;
use std::path::Path;

#[test]
fn eds_110_rulebook_examples_as_data() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let n = check_ruleset_cases(&Eds, "Evolution der Sterne", "eds", &repo)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 20, "only {n} cases");
}
