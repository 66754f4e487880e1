//! Rule cases as data (issue 23 item 2): one TOML format for every ruleset,
//! one runner, and a compliance table in the manner of the Diplomacy DATC.
//!
//! A case file under `rulesets/<ruleset>/cases/` holds a starting position (the
//! game's `[rules]` table and inline files, exactly as a game master writes
//! them), the orders of each player for one or more turns, optional fixed
//! results for the phases that draw, and what must come out: report lines and
//! state values. Someone who knows the game and not Rust writes the position,
//! the orders and what the rulebook says, and runs the ruleset's `cases` test.
//! The format is described for authors in `docs/rules/cases.md`.
//!
//! The runner drives a [`Ruleset`] through the same entry points as the daemon
//! ([`Ruleset::setup`], [`crate::engine::parse_all`],
//! [`crate::engine::run_turn_with`], [`Ruleset::report`]), so a case checks the
//! rules as they are played, not a test-only path.

use crate::engine::{parse_all, run_turn_with};
use crate::ids::PlayerId;
use crate::report::Viewer;
use crate::rng::Rng;
use crate::ruleset::{PlayerSetup, Ruleset, SetupConfig};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// One case file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// One line: what the case shows ("TV-04: mining limited by the population").
    pub title: String,
    /// The checklist ids the case holds (`["NEB-76", "NEB-53"]`).
    #[serde(default)]
    pub checklist: Vec<String>,
    /// Where the rulebook says it ("III.1, example of M_24").
    #[serde(default)]
    pub rulebook: String,
    /// Free text: why the expected values are what they are (a rulebook slip, a decision).
    #[serde(default)]
    pub notes: String,
    /// The game's id, which some reports print in their header.
    #[serde(default = "default_game")]
    pub game: String,
    /// The game seed: only phases without fixed rolls draw from it.
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(rename = "player", default)]
    pub players: Vec<CasePlayer>,
    /// The game's `[rules]` table, as in a game's TOML.
    #[serde(default)]
    pub rules: toml::Table,
    /// Files the rules name (`position_file`, `map_file` …), given inline.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// Checks on the state and reports right after set-up (turn 0).
    #[serde(default)]
    pub initial: Checks,
    #[serde(rename = "turn", default)]
    pub turns: Vec<CaseTurn>,
}

fn default_seed() -> u64 {
    1
}

fn default_game() -> String {
    "case".into()
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CasePlayer {
    pub id: String,
    /// Display name; the id when left out.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub options: toml::Table,
}

/// One turn: orders in, fixed draws, then the checks.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseTurn {
    /// Each player's order text, in the game's notation; a player left out sends nothing.
    #[serde(default)]
    pub orders: BTreeMap<String, String>,
    /// For a phase key (`"1-initialisation"`), the results its draws return,
    /// in order (a die gives its face, a chance 1 or 0, `below(n)` a value in
    /// 0..n, a uniform draw a fraction: see [`Roll`]).
    #[serde(default)]
    pub rolls: BTreeMap<String, Vec<Roll>>,
    /// Checks after the turn, as in [`Checks`] (written in the turn's table
    /// rather than a sub-table, so that `[[turn.report]]` reads naturally).
    #[serde(default)]
    pub report: Vec<ReportCheck>,
    #[serde(default)]
    pub state: Vec<StateCheck>,
    /// Typed outcomes the turn must (or must not) have produced, for a
    /// ruleset that exposes them ([`Ruleset::outcome_values`]).
    #[serde(default)]
    pub outcome: Vec<OutcomeCheck>,
}

/// One typed outcome of a turn (a battle, a hit, a transfer), written as the
/// event serialises: `event = { Battle = { x = 20, y = 10, sides = [1, 2] } }`.
/// Only the keys given are compared, so a case names what the rulebook says
/// and leaves the rest (the rendered text) alone; arrays compare element by
/// element and must have the same length.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeCheck {
    pub event: toml::Value,
    /// Expect no event like it (a battle that must not happen).
    #[serde(default)]
    pub absent: bool,
}

/// One fixed draw. A whole number is what a die, a chance or a pick returns.
/// A decimal between 0 and 1 is what a uniform draw ([`Rng::unit_f64`]: EDS's
/// scatter factor z and fighter factor u) returns; TOML integers stop at
/// 2⁶³ − 1, so the raw 64-bit value behind such a draw cannot be written, and
/// 1.0 stands for the largest draw below 1 (the rulebook's "factor 1,0").
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Roll {
    Whole(u64),
    Fraction(f64),
}

impl Roll {
    /// The raw value the scripted stream returns for this draw, or why the
    /// fraction cannot be one.
    pub fn raw(self) -> Result<u64, String> {
        match self {
            Roll::Whole(v) => Ok(v),
            Roll::Fraction(z) if !(0.0..=1.0).contains(&z) => {
                Err(format!("fixed draw {z} is not between 0 and 1"))
            }
            Roll::Fraction(z) if z >= 1.0 => Ok(u64::MAX),
            // unit_f64 keeps the top 53 bits: put z's 53-bit mantissa there.
            Roll::Fraction(z) => Ok(((z * (1u64 << 53) as f64) as u64) << 11),
        }
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checks {
    #[serde(default)]
    pub report: Vec<ReportCheck>,
    #[serde(default)]
    pub state: Vec<StateCheck>,
}

/// What one reader's report must (and must not) say.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportCheck {
    /// A player id, `"gm"` (the game master) or `"spectator"`.
    pub viewer: String,
    /// Whole lines that must each appear in the body, as written.
    #[serde(default)]
    pub lines: Vec<String>,
    /// Text that must appear within one line, where any run of spaces counts
    /// as one space (for tables whose columns are padded).
    #[serde(default)]
    pub in_line: Vec<String>,
    /// Text that must appear somewhere (may span lines).
    #[serde(default)]
    pub contains: Vec<String>,
    /// Text that must not appear.
    #[serde(default)]
    pub absent: Vec<String>,
}

/// A value of the state, found by a JSON pointer into the state as stored
/// (`/worlds/24/population`, `/players/0/score_total`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateCheck {
    pub path: String,
    /// The value expected there.
    #[serde(default)]
    pub equals: Option<toml::Value>,
    /// Expect nothing there: no value or null (a neutral owner, an empty
    /// troop entry). TOML has no null, hence this flag.
    #[serde(default)]
    pub none: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    #[error("{file}: cannot read: {source}")]
    Read {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}: not a case: {message}")]
    Format { file: String, message: String },
}

/// Reads one case file.
pub fn parse_case(file: &str, text: &str) -> Result<Case, CaseError> {
    toml::from_str(text).map_err(|e| CaseError::Format {
        file: file.to_string(),
        message: e.to_string(),
    })
}

/// The result of one case: empty `failures` means it passed.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    /// The file name (`tv04-mining-limited.toml`).
    pub file: String,
    pub title: String,
    pub checklist: Vec<String>,
    pub rulebook: String,
    pub failures: Vec<String>,
}

impl CaseOutcome {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

fn viewer_of(name: &str) -> Viewer {
    match name {
        "gm" => Viewer::GameMaster,
        "spectator" => Viewer::Spectator,
        p => Viewer::Player(PlayerId::from(p)),
    }
}

/// The line of `body` most like `want`: the longest common prefix, so that a
/// failing line shows what the report printed instead.
fn nearest<'a>(lines: impl Iterator<Item = &'a str>, want: &str) -> Option<&'a str> {
    lines
        .map(|l| {
            let common = l
                .chars()
                .zip(want.chars())
                .take_while(|(a, b)| a == b)
                .count();
            (common, l)
        })
        .filter(|(common, _)| *common > 0)
        .max_by_key(|(common, _)| *common)
        .map(|(_, l)| l)
}

fn check_report(body: &str, check: &ReportCheck, at: &str, failures: &mut Vec<String>) {
    let lines: Vec<&str> = body.lines().map(str::trim_end).collect();
    for want in &check.lines {
        if !lines.contains(&want.trim_end()) {
            let mut msg = format!(
                "{at}, report of {}: line missing\n  expected: {want}",
                check.viewer
            );
            match nearest(body.lines(), want) {
                Some(near) => {
                    let _ = write!(msg, "\n  nearest:  {near}");
                }
                None => msg.push_str("\n  (no line starts like it)"),
            }
            failures.push(msg);
        }
    }
    let squeeze = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let squeezed: Vec<String> = body.lines().map(squeeze).collect();
    for want in &check.in_line {
        let w = squeeze(want);
        if !squeezed.iter().any(|l| l.contains(&w)) {
            let mut msg = format!(
                "{at}, report of {}: no line contains\n  expected: {want}",
                check.viewer
            );
            if let Some(near) = nearest(squeezed.iter().map(String::as_str), &w) {
                let _ = write!(msg, "\n  nearest:  {near}");
            }
            failures.push(msg);
        }
    }
    for want in &check.contains {
        if !body.contains(want.as_str()) {
            failures.push(format!(
                "{at}, report of {}: text missing\n  expected: {want}\n  report:\n{body}",
                check.viewer
            ));
        }
    }
    for unwanted in &check.absent {
        if body.contains(unwanted.as_str()) {
            failures.push(format!(
                "{at}, report of {}: text present that must not be\n  found: {unwanted}",
                check.viewer
            ));
        }
    }
}

fn check_state(state: &Value, check: &StateCheck, at: &str, failures: &mut Vec<String>) {
    let got = state.pointer(&check.path).filter(|v| !v.is_null());
    let want = match (&check.equals, check.none) {
        (None, true) => {
            // The container must exist, so that a mistyped path cannot pass.
            let parent = check.path.rsplit_once('/').map_or("", |(p, _)| p);
            if !parent.is_empty() && state.pointer(parent).is_none() {
                failures.push(format!(
                    "{at}, state {}: {parent} does not exist in the state",
                    check.path
                ));
            } else if let Some(got) = got {
                failures.push(format!(
                    "{at}, state {}:\n  expected: nothing\n  got:      {got}",
                    check.path
                ));
            }
            return;
        }
        (Some(v), false) => match serde_json::to_value(v) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!(
                    "{at}, state {}: bad expected value: {e}",
                    check.path
                ));
                return;
            }
        },
        _ => {
            failures.push(format!(
                "{at}, state {}: give either `equals` or `none = true`",
                check.path
            ));
            return;
        }
    };
    match got {
        None => failures.push(format!(
            "{at}, state {}: no such value in the state (expected {want})",
            check.path
        )),
        Some(got) if same(got, &want) => {}
        Some(got) => failures.push(format!(
            "{at}, state {}:\n  expected: {want}\n  got:      {got}",
            check.path
        )),
    }
}

/// Equality where TOML's integers and JSON's numbers meet (2 == 2.0 is not
/// wanted; 2 from TOML equals 2 from a u32 field).
fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => a.as_f64() == b.as_f64(),
        },
        _ => got == want,
    }
}

/// Whether `got` holds everything `want` says: objects by the keys of
/// `want`, arrays element by element, numbers by [`same`].
fn holds(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w
            .iter()
            .all(|(k, wv)| g.get(k).is_some_and(|gv| holds(gv, wv))),
        (Value::Array(g), Value::Array(w)) => {
            g.len() == w.len() && g.iter().zip(w).all(|(gv, wv)| holds(gv, wv))
        }
        _ => same(got, want),
    }
}

fn check_outcomes(
    events: Option<Value>,
    checks: &[OutcomeCheck],
    at: &str,
    failures: &mut Vec<String>,
) {
    if checks.is_empty() {
        return;
    }
    let Some(events) = events else {
        failures.push(format!(
            "{at}: this ruleset's events are report text only; check the report instead of [[turn.outcome]]"
        ));
        return;
    };
    let list = match &events {
        Value::Array(v) => v.as_slice(),
        other => std::slice::from_ref(other),
    };
    for check in checks {
        let want = match serde_json::to_value(&check.event) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{at}, outcome: bad expected value: {e}"));
                continue;
            }
        };
        let found = list.iter().any(|e| holds(e, &want));
        if found == check.absent {
            let mut msg = if check.absent {
                format!("{at}, outcome present that must not be\n  found: {want}")
            } else {
                format!("{at}, outcome missing\n  expected: {want}")
            };
            if !check.absent {
                // The events of the same kind, so that the difference shows.
                let kind = want.as_object().and_then(|o| o.keys().next().cloned());
                for e in list {
                    if kind.as_ref().is_some_and(|k| e.get(k).is_some()) {
                        let _ = write!(msg, "\n  got:      {e}");
                    }
                }
            }
            failures.push(msg);
        }
    }
}

fn run_checks<R: Ruleset>(
    r: &R,
    state: &R::State,
    events: &[R::Event],
    (reports, states): (&[ReportCheck], &[StateCheck]),
    at: &str,
    failures: &mut Vec<String>,
) {
    for check in reports {
        let body = r.report(state, events, &viewer_of(&check.viewer)).body;
        check_report(&body, check, at, failures);
    }
    if !states.is_empty() {
        match serde_json::to_value(state) {
            Ok(json) => {
                for check in states {
                    check_state(&json, check, at, failures);
                }
            }
            Err(e) => failures.push(format!("{at}: the state does not serialise: {e}")),
        }
    }
}

/// Runs one case; returns what failed (empty when it passed).
pub fn run_case<R: Ruleset>(r: &R, case: &Case) -> Vec<String> {
    let mut failures = Vec::new();
    let config = SetupConfig {
        game_id: case.game.clone(),
        seed: case.seed,
        players: case
            .players
            .iter()
            .map(|p| PlayerSetup {
                id: PlayerId::from(p.id.as_str()),
                name: p.name.clone().unwrap_or_else(|| p.id.clone()),
                options: p.options.clone(),
            })
            .collect(),
        options: case.rules.clone(),
        files: case.files.clone(),
    };
    let mut state = match r.setup(&config, &mut Rng::for_setup(case.seed)) {
        Ok(s) => s,
        Err(e) => {
            failures.push(format!("set-up refused: {e}"));
            return failures;
        }
    };
    let initial = (
        case.initial.report.as_slice(),
        case.initial.state.as_slice(),
    );
    run_checks(r, &state, &[], initial, "turn 0", &mut failures);

    let keys: Vec<&str> = r.phases().iter().map(|p| p.key).collect();
    for (i, turn) in case.turns.iter().enumerate() {
        let at = format!("turn {}", i + 1);
        for key in turn.rolls.keys() {
            if !keys.contains(&key.as_str()) {
                failures.push(format!(
                    "{at}: rolls for '{key}', which is not a phase; the phases are {}",
                    keys.join(", ")
                ));
            }
        }
        let mut rolls: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
        let mut bad_roll = false;
        for (key, fixed) in &turn.rolls {
            let mut raw = Vec::with_capacity(fixed.len());
            for roll in fixed {
                match roll.raw() {
                    Ok(v) => raw.push(v),
                    Err(e) => {
                        failures.push(format!("{at}: rolls for '{key}': {e}"));
                        bad_roll = true;
                    }
                }
            }
            rolls.insert(key.as_str(), raw);
        }
        if bad_roll {
            // The draws would be shifted: playing on would only add noise.
            return failures;
        }
        let orders: BTreeMap<PlayerId, String> = turn
            .orders
            .iter()
            .map(|(p, text)| (PlayerId::from(p.as_str()), text.clone()))
            .collect();
        let number = r.turn(&state) + 1;
        let parsed = parse_all(r, &state, &orders);
        let seed = case.seed;
        let events = run_turn_with(r, &mut state, &parsed, |key| match rolls.get(key) {
            Some(fixed) => Rng::scripted_rolls(fixed.iter().copied()),
            None => Rng::for_phase(seed, number, key),
        });
        let checks = (turn.report.as_slice(), turn.state.as_slice());
        run_checks(r, &state, &events, checks, &at, &mut failures);
        check_outcomes(r.outcome_values(&events), &turn.outcome, &at, &mut failures);
    }
    failures
}

/// Runs one case file. A ruleset that panics (fixed rolls running out, a
/// position the ruleset does not expect) fails the case instead of the run.
pub fn run_file<R: Ruleset>(r: &R, path: &Path) -> CaseOutcome {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut outcome = CaseOutcome {
        file: file.clone(),
        title: String::new(),
        checklist: Vec::new(),
        rulebook: String::new(),
        failures: Vec::new(),
    };
    let case = std::fs::read_to_string(path)
        .map_err(|source| CaseError::Read {
            file: file.clone(),
            source,
        })
        .and_then(|text| parse_case(&file, &text));
    let case = match case {
        Ok(c) => c,
        Err(e) => {
            outcome.failures.push(e.to_string());
            return outcome;
        }
    };
    outcome.title = case.title.clone();
    outcome.checklist = case.checklist.clone();
    outcome.rulebook = case.rulebook.clone();
    match catch_unwind(AssertUnwindSafe(|| run_case(r, &case))) {
        Ok(failures) => outcome.failures = failures,
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            outcome
                .failures
                .push(format!("the ruleset panicked: {why}"));
        }
    }
    outcome
}

/// Runs every `*.toml` of `dir`, in file-name order.
pub fn run_dir<R: Ruleset>(r: &R, dir: &Path) -> Result<Vec<CaseOutcome>, CaseError> {
    let read = std::fs::read_dir(dir).map_err(|source| CaseError::Read {
        file: dir.display().to_string(),
        source,
    })?;
    let mut files: Vec<_> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    Ok(files.iter().map(|p| run_file(r, p)).collect())
}

/// What each ruleset's `tests/cases.rs` checks: every case of
/// `rulesets/<id>/cases/` under `repo` passes, and the committed compliance
/// table `docs/rules/<id>-cases.md` is the table of this run (rewritten
/// first when `ARBITRE_BLESS_CASES=1`). Returns the number of cases, or
/// the failures and table difference as one message.
pub fn check_ruleset_cases<R: Ruleset>(
    r: &R,
    title: &str,
    id: &str,
    repo: &Path,
) -> Result<usize, String> {
    let outcomes =
        run_dir(r, &repo.join("rulesets").join(id).join("cases")).map_err(|e| e.to_string())?;
    let table = compliance_table(title, &outcomes);
    let table_file = repo.join("docs/rules").join(format!("{id}-cases.md"));
    if std::env::var("ARBITRE_BLESS_CASES").is_ok_and(|v| v == "1") {
        std::fs::write(&table_file, &table)
            .map_err(|e| format!("writing {}: {e}", table_file.display()))?;
    }
    let failures = failures_text(&outcomes);
    if !failures.is_empty() {
        return Err(failures);
    }
    let committed = std::fs::read_to_string(&table_file).unwrap_or_default();
    if committed != table {
        return Err(format!(
            "docs/rules/{id}-cases.md is not the table of the cases; \
             rerun with ARBITRE_BLESS_CASES=1 to rewrite it. Expected:\n{table}"
        ));
    }
    Ok(outcomes.len())
}

/// The compliance table of a ruleset's cases, as Markdown: one row per case,
/// with its checklist ids, rulebook place and PASS/FAIL.
pub fn compliance_table(ruleset: &str, outcomes: &[CaseOutcome]) -> String {
    let passed = outcomes.iter().filter(|o| o.passed()).count();
    let mut out = format!(
        "# {ruleset}: rule cases\n\n\
         Generated by the ruleset's `cases` test from the files of this \
         ruleset's `cases/` folder (format: [cases.md](cases.md)). \
         {passed} of {} cases pass.\n\n\
         | Case | What it shows | Rules | Rulebook | Result |\n|---|---|---|---|---|\n",
        outcomes.len()
    );
    for o in outcomes {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} |",
            o.file,
            o.title.replace('|', "/"),
            o.checklist.join(", "),
            o.rulebook.replace('|', "/"),
            if o.passed() { "PASS" } else { "FAIL" }
        );
    }
    out
}

/// Every failure of `outcomes`, one block per failing case, for a test's panic message.
pub fn failures_text(outcomes: &[CaseOutcome]) -> String {
    let mut out = String::new();
    for o in outcomes.iter().filter(|o| !o.passed()) {
        let _ = writeln!(out, "FAIL {} ({})", o.file, o.title);
        for f in &o.failures {
            let _ = writeln!(out, "  {}", f.replace('\n', "\n  "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::Tally;

    const GOOD: &str = r#"
title = "two ADD orders and a fixed luck roll"
checklist = ["TAL-1"]
seed = 7

[[player]]
id = "a"
name = "Alice"

[[player]]
id = "b"

[[initial.state]]
path = "/scores/a"
equals = 0

[[turn]]
orders = { a = "ADD 3\nADD 4" }
rolls = { "2-luck" = [2, 0] }

[[turn.report]]
viewer = "a"
lines = ["a added 3", "a luck +2", "score a = 9"]
absent = ["b luck"]

[[turn.state]]
path = "/scores/b"
equals = 0

[[turn]]
rolls = { "2-luck" = [1, 1] }

[[turn.state]]
path = "/scores/a"
equals = 10

[[turn.state]]
path = "/turn"
equals = 2
"#;

    fn run(text: &str) -> Vec<String> {
        let case = parse_case("t.toml", text).expect("case parses");
        run_case(&Tally, &case)
    }

    #[test]
    fn a_true_case_passes() {
        assert_eq!(run(GOOD), Vec::<String>::new());
    }

    #[test]
    fn a_wrong_line_fails_and_shows_the_nearest_line() {
        let f = run(&GOOD.replace("score a = 9", "score a = 8"));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].contains("expected: score a = 8"), "{}", f[0]);
        assert!(f[0].contains("nearest:  score a = 9"), "{}", f[0]);
    }

    #[test]
    fn a_wrong_state_value_fails_with_both_values() {
        let f = run(&GOOD.replace("equals = 10", "equals = 11"));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].contains("turn 2, state /scores/a"), "{}", f[0]);
        assert!(
            f[0].contains("expected: 11") && f[0].contains("got:      10"),
            "{}",
            f[0]
        );
    }

    #[test]
    fn fixed_rolls_replace_the_seeded_draws() {
        // With luck 0 instead of 2 on turn 1, the final score is 8, not 10.
        let f = run(&GOOD.replace("[2, 0]", "[0, 0]"));
        assert!(f.iter().any(|m| m.contains("score a = 9")), "{f:?}");
        assert!(
            f.iter()
                .any(|m| m.contains("expected: 10") && m.contains("got:      8")),
            "{f:?}"
        );
    }

    #[test]
    fn fraction_rolls_are_the_uniform_draws_they_name() {
        let draw = |roll: Roll| {
            let raw = roll.raw().expect("a fraction in 0..=1");
            Rng::scripted_rolls([raw]).unit_f64()
        };
        assert_eq!(draw(Roll::Fraction(0.5)), 0.5);
        assert_eq!(draw(Roll::Fraction(0.125)), 0.125);
        assert_eq!(draw(Roll::Fraction(0.0)), 0.0);
        let top = draw(Roll::Fraction(1.0));
        assert!(top < 1.0 && top > 1.0 - 1e-15, "{top}");
        assert_eq!(Roll::Whole(3).raw(), Ok(3));
        assert!(Roll::Fraction(1.5).raw().is_err());
        // In a case file a decimal reads as a fraction, a whole number as a roll;
        // a fraction out of range fails the case.
        let case = parse_case("t.toml", &GOOD.replace("[1, 1]", "[1, 0.25]")).expect("parses");
        assert_eq!(
            case.turns[1].rolls["2-luck"],
            vec![Roll::Whole(1), Roll::Fraction(0.25)]
        );
        let f = run(&GOOD.replace("[1, 1]", "[1, 2.5]"));
        assert!(
            f.iter()
                .any(|m| m.contains("fixed draw 2.5 is not between 0 and 1")),
            "{f:?}"
        );
    }

    #[test]
    fn rolls_for_an_unknown_phase_and_unknown_keys_are_reported() {
        let f = run(&GOOD.replace("\"2-luck\" = [1, 1]", "\"3-luck\" = [1, 1]"));
        assert!(
            f.iter()
                .any(|m| m.contains("rolls for '3-luck', which is not a phase")),
            "{f:?}"
        );
        let bad = GOOD.replace("seed = 7", "seed = 7\nsede = 8");
        assert!(parse_case("t.toml", &bad).is_err());
    }

    #[test]
    fn in_line_ignores_padding_but_not_words() {
        let ok = GOOD.replace(
            "absent = [\"b luck\"]",
            "absent = [\"b luck\"]\nin_line = [\"score   a =  9\", \"added\"]",
        );
        assert_eq!(run(&ok), Vec::<String>::new());
        let f = run(&GOOD.replace(
            "absent = [\"b luck\"]",
            "absent = [\"b luck\"]\nin_line = [\"score a = 90\"]",
        ));
        assert!(
            f.iter()
                .any(|m| m.contains("no line contains") && m.contains("nearest:  score a = 9")),
            "{f:?}"
        );
    }

    #[test]
    fn none_expects_no_value_and_equals_or_none_is_required() {
        let ok = GOOD.replace(
            "path = \"/scores/b\"\nequals = 0",
            "path = \"/scores/c\"\nnone = true",
        );
        assert_eq!(run(&ok), Vec::<String>::new());
        let f = run(&GOOD.replace(
            "path = \"/scores/b\"\nequals = 0",
            "path = \"/scores/b\"\nnone = true",
        ));
        assert!(
            f.iter()
                .any(|m| m.contains("expected: nothing") && m.contains("got:      0")),
            "{f:?}"
        );
        let typo = GOOD.replace(
            "path = \"/scores/b\"\nequals = 0",
            "path = \"/score/c\"\nnone = true",
        );
        assert!(run(&typo)
            .iter()
            .any(|m| m.contains("/score does not exist")));
        let f = run(&GOOD.replace("path = \"/scores/b\"\nequals = 0", "path = \"/scores/b\""));
        assert!(
            f.iter()
                .any(|m| m.contains("either `equals` or `none = true`")),
            "{f:?}"
        );
    }

    #[test]
    fn outcomes_are_compared_by_the_keys_the_case_gives() {
        let with = |checks: &str| {
            GOOD.replace(
                "[[turn.state]]\npath = \"/scores/b\"",
                &format!("{checks}\n\n[[turn.state]]\npath = \"/scores/b\""),
            )
        };
        // A subset of the Luck event: the player is not compared.
        let ok = with("[[turn.outcome]]\nevent = { Luck = { bonus = 2 } }\n\n[[turn.outcome]]\nevent = { Luck = { bonus = 5 } }\nabsent = true");
        assert_eq!(run(&ok), Vec::<String>::new());
        let f = run(&with("[[turn.outcome]]\nevent = { Luck = { bonus = 3 } }"));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].contains("outcome missing")
                && f[0].contains(r#"got:      {"Luck":{"bonus":2,"player":"a"}}"#),
            "{}",
            f[0]
        );
        let f = run(&with(
            "[[turn.outcome]]\nevent = { Added = { amount = 4 } }\nabsent = true",
        ));
        assert!(
            f.iter()
                .any(|m| m.contains("outcome present that must not be")),
            "{f:?}"
        );
    }

    #[test]
    fn absent_text_and_refused_setup_fail() {
        let f = run(&GOOD.replace("absent = [\"b luck\"]", "absent = [\"a luck\"]"));
        assert!(f.iter().any(|m| m.contains("found: a luck")), "{f:?}");
        let no_players = "title = \"nobody\"\n";
        let f = run(no_players);
        assert!(f.iter().any(|m| m.starts_with("set-up refused")), "{f:?}");
    }

    #[test]
    fn running_out_of_fixed_rolls_fails_the_case_not_the_run() {
        let dir = std::env::temp_dir().join(format!("arbitre-cases-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("a-good.toml"), GOOD).expect("write");
        std::fs::write(dir.join("b-short.toml"), GOOD.replace("[1, 1]", "[1]")).expect("write");
        std::fs::write(dir.join("c-broken.toml"), "title = ").expect("write");
        let out = run_dir(&Tally, &dir).expect("dir");
        let _ = std::fs::remove_dir_all(&dir);
        let verdicts: Vec<(String, bool)> =
            out.iter().map(|o| (o.file.clone(), o.passed())).collect();
        assert_eq!(
            verdicts,
            vec![
                ("a-good.toml".into(), true),
                ("b-short.toml".into(), false),
                ("c-broken.toml".into(), false)
            ]
        );
        assert!(
            out[1].failures[0].contains("panicked"),
            "{:?}",
            out[1].failures
        );
        let table = compliance_table("Tally", &out);
        assert!(table.contains("1 of 3 cases pass"), "{table}");
        assert!(
            table.contains(
                "| `a-good.toml` | two ADD orders and a fixed luck roll | TAL-1 |  | PASS |"
            ),
            "{table}"
        );
        assert!(failures_text(&out).contains("FAIL b-short.toml"));
    }
}
