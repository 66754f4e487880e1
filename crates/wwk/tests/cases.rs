//! The rule cases of `rulesets/wwk/cases/` (issue 23 item 3): every TOML file
//! there is run by core's one case runner, and the compliance table
//! `docs/rules/wwk-cases.md` must say what the run says.
//!
//! Adding a case needs no Rust: write the file (a position in TOML, the orders,
//! the fixed dice of the steps that roll, what the rulebook says), run
//! `cargo test --release -p arbitre-wwk --test cases`, read the differences,
//! then refresh the table with `ARBITRE_BLESS_CASES=1`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::cases::check_ruleset_cases;
use arbitre_wwk::Wwk;
use std::path::Path;

#[test]
fn wwk_80_rulebook_cases_as_data() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let n = check_ruleset_cases(&Wwk, "WWK", "wwk", &repo).unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 20, "only {n} cases");
}
