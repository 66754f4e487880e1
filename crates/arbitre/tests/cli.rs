//! The one-shot commands: `check` (offline, like echeck) and `demo`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::{run, Cli};
use arbitre::Registry;
use arbitre_core::testkit::Tally;
use arbitre_core::{Adapter, Lang};
use clap::Parser;

fn arbitre(registry: Registry, args: &[&str]) -> (u8, String) {
    let mut argv = vec!["arbitre"];
    argv.extend_from_slice(args);
    let mut out = Vec::new();
    let code = run(Cli::try_parse_from(argv).unwrap(), registry, &mut out).unwrap();
    (code, String::from_utf8(out).unwrap())
}

#[test]
fn offline_check_echoes_every_line_and_fails_on_errors() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("orders.txt");
    std::fs::write(&f, "ADD 3\nJUMP\nADD 11\n").unwrap();
    let (code, out) = arbitre(common::registry(), &["check", "tally", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "   1  OK  ADD 3\n   2  ERROR  JUMP  -> unknown order\n   3  ERROR  ADD 11  -> ADD takes a number from 1 to 10\n1 order(s) accepted, 2 error(s), 0 warning(s).\n"
    );
    // A whole order mail body: the envelope is honoured, its lines counted from the block.
    std::fs::write(&f, "Hi!\nGAME x PLAYER p1 PASSWORD y\nADD 3\nEND\nbye\n").unwrap();
    let (code, out) = arbitre(common::registry(), &["check", "tally", f.to_str().unwrap()]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "   1  OK  ADD 3\n1 order(s) accepted, 0 error(s), 0 warning(s).\n"
        )
    );
    let e = run(
        Cli::try_parse_from(["arbitre", "check", "chess", f.to_str().unwrap()]).unwrap(),
        common::registry(),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("unknown ruleset 'chess'"), "{e}");
}

#[test]
fn demo_plays_turns_through_the_real_loop() {
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    let registry = Registry::empty().with(Adapter::boxed(Tally));
    arbitre::demo::run(dir.path(), registry, 3, Lang::En, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("created game demo-tally-1 (tally) with 2 players"),
        "{out}"
    );
    assert!(out.contains("turn 3: 2 order mail(s) answered"), "{out}");
    assert!(out.contains("demo-tally-1 (Tally), over"), "{out}");
    let files: Vec<String> = std::fs::read_dir(dir.path().join("outbox"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    for want in [
        "report.demo-tally-1.t3.alice@demo.invalid.eml",
        "gm.demo-tally-1.t3@demo.invalid.eml",
    ] {
        assert!(
            files.iter().any(|f| f == want),
            "{want} missing from {files:?}"
        );
    }
    assert_eq!(
        files.iter().filter(|f| f.starts_with("confirm.")).count(),
        6
    );
    // A second demo makes a second game next to the first.
    let mut out2 = Vec::new();
    arbitre::demo::run(
        dir.path(),
        Registry::empty().with(Adapter::boxed(Tally)),
        1,
        Lang::En,
        &mut out2,
    )
    .unwrap();
    assert!(String::from_utf8(out2)
        .unwrap()
        .contains("created game demo-tally-2"));
}

#[test]
fn replay_of_a_folder_replays_every_fixture_in_it() {
    let root = tempfile::tempdir().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tally-duel");
    for name in ["a", "b"] {
        copy_dir(&src, &root.path().join("tally").join(name));
    }
    let (code, out) = arbitre(
        common::registry(),
        &["replay", root.path().to_str().unwrap()],
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.lines()
            .all(|l| l.ends_with("3 turn(s), 21 mail(s) replayed, identical")),
        "{out}"
    );
    let empty = tempfile::tempdir().unwrap();
    let e = run(
        Cli::try_parse_from(["arbitre", "replay", empty.path().to_str().unwrap()]).unwrap(),
        common::registry(),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("no fixture"), "{e}");
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// `arbitre case run` (issue 23): a rule case file runs against the ruleset
/// its folder names, and a wrong expectation is shown with the report's line.
#[test]
fn case_run_passes_a_true_case_and_shows_the_difference_of_a_wrong_one() {
    let case = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/nebulight/cases/tv04-mining-limited-by-population.toml"
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("nebulight/cases");
    std::fs::create_dir_all(&cases).unwrap();
    let good = cases.join("good.toml");
    let bad = cases.join("bad.toml");
    std::fs::write(&good, &case).unwrap();
    std::fs::write(&bad, case.replace("MP=7(+8)", "MP=8(+8)")).unwrap();

    let (code, out) = arbitre(
        Registry::builtin(),
        &["case", "run", good.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("PASS "), "{out}");
    assert!(out.ends_with("1 case(s), 0 failed\n"), "{out}");

    let (code, out) = arbitre(
        Registry::builtin(),
        &["case", "run", good.to_str().unwrap(), bad.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("expected: M_24 (12,25,685) \"Maxtor:5\" P=2(2) MP=8(+8)"),
        "{out}"
    );
    assert!(
        out.contains("nearest:  M_24 (12,25,685) \"Maxtor:5\" P=2(2) MP=7(+8)"),
        "{out}"
    );
    assert!(out.ends_with("2 case(s), 1 failed\n"), "{out}");

    // Outside <ruleset>/cases/ the ruleset must be named.
    let loose = dir.path().join("loose.toml");
    std::fs::write(&loose, &case).unwrap();
    let e = run(
        Cli::try_parse_from(["arbitre", "case", "run", loose.to_str().unwrap()]).unwrap(),
        Registry::builtin(),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("--ruleset"), "{e}");
    let (code, _) = arbitre(
        Registry::builtin(),
        &[
            "case",
            "run",
            "--ruleset",
            "nebulight",
            loose.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0);
}

/// Issue 16 item 3: the command line speaks one language, English unless
/// `--lang` (or, in the binary, the locale) chooses another.
#[test]
fn cli_speaks_the_language_of_lang_flag() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tally-duel");
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("duel");
    copy_dir(&src, &dir);
    let dir = dir.to_str().unwrap();
    let (_, en) = arbitre(common::registry(), &["replay", dir]);
    assert!(
        en.ends_with(": 3 turn(s), 21 mail(s) replayed, identical\n"),
        "{en}"
    );
    let (_, fr) = arbitre(common::registry(), &["--lang", "fr", "replay", dir]);
    assert!(
        fr.ends_with(" : 3 tour(s), 21 courrier(s) rejoués, identiques\n"),
        "{fr}"
    );
    let (_, de) = arbitre(common::registry(), &["replay", dir, "--lang", "de"]);
    assert!(
        de.ends_with(": 3 Zug/Züge, 21 Nachricht(en) wiederholt, identisch\n"),
        "{de}"
    );
    let e = run(
        Cli::try_parse_from(["arbitre", "--lang", "de", "map", "g", "p"]).unwrap(),
        common::registry(),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("gib an, wohin"), "{e}");
    // A language arbitre does not speak is refused, not silently English.
    assert!(Cli::try_parse_from(["arbitre", "--lang", "xx", "status"]).is_err());
}
