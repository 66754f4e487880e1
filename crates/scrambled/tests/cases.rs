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

use arbitre_core::cases::check_ruleset_cases;
use arbitre_scrambled::Scrambled;
use std::path::Path;

#[test]
fn scrambled_rule_cases_as_data() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let n = check_ruleset_cases(&Scrambled, "Scrambled Nations", "scrambled", &repo)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 20, "only {n} cases");
}
