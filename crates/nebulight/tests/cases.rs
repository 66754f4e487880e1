//! The rule cases of `rulesets/nebulight/cases/` (issue 23 item 2): every
//! TOML file there is run by core's one case runner, and the compliance table
//! `docs/rules/nebulight-cases.md` must say what the run says.
//!
//! Adding a case needs no Rust: write the file, run
//! `cargo test --release -p arbitre-nebulight --test cases`, read the
//! differences, then refresh the table with `ARBITRE_BLESS_CASES=1`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::cases::check_ruleset_cases;
use arbitre_nebulight::Nebulight;
use std::path::Path;

#[test]
fn neb_76_rulebook_cases_as_data() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let n = check_ruleset_cases(&Nebulight, "Nébulight", "nebulight", &repo)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 20, "only {n} cases");
}
