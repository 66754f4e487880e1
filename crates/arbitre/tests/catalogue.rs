//! The one message catalogue (issue 16 item 3): locales/{en,fr,de}.ftl.
//!
//! - every file parses without an error;
//! - every message exists in every language, with the same variables;
//! - every id the code names exists, and every id of the catalogue is named
//!   by the code (a stale message is as much a bug as a missing one);
//! - the texts come out without Fluent's Unicode isolation marks.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre::i18n::{tr, CATALOGUES};
use arbitre_core::Lang;
use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Vars = BTreeSet<String>;

fn inline_vars(e: &InlineExpression<&str>, out: &mut Vars) {
    match e {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        InlineExpression::Placeable { expression } => expr_vars(expression, out),
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_vars(a, out);
            }
            for a in &arguments.named {
                inline_vars(&a.value, out);
            }
        }
        _ => {}
    }
}

fn expr_vars(e: &Expression<&str>, out: &mut Vars) {
    match e {
        Expression::Inline(i) => inline_vars(i, out),
        Expression::Select { selector, variants } => {
            inline_vars(selector, out);
            for v in variants {
                pattern_vars(&v.value, out);
            }
        }
    }
}

fn pattern_vars(p: &Pattern<&str>, out: &mut Vars) {
    for el in &p.elements {
        if let PatternElement::Placeable { expression } = el {
            expr_vars(expression, out);
        }
    }
}

/// id → variables, for one catalogue; panics on any syntax error.
fn messages(lang: Lang, src: &str) -> BTreeMap<String, Vars> {
    let resource = fluent_syntax::parser::parse(src)
        .unwrap_or_else(|(_, errors)| panic!("{}.ftl: {errors:?}", lang.code()));
    let mut out = BTreeMap::new();
    for entry in &resource.body {
        match entry {
            Entry::Message(m) => {
                let mut vars = Vars::new();
                let value = m
                    .value
                    .as_ref()
                    .unwrap_or_else(|| panic!("{}.ftl: {} has no value", lang.code(), m.id.name));
                pattern_vars(value, &mut vars);
                let dup = out.insert(m.id.name.to_owned(), vars);
                assert!(dup.is_none(), "{}.ftl: {} twice", lang.code(), m.id.name);
            }
            Entry::Junk { content } => panic!("{}.ftl: junk {content:?}", lang.code()),
            _ => {}
        }
    }
    out
}

#[test]
fn catalogue_every_message_in_every_language() {
    let (_, en_src) = CATALOGUES[0];
    let en = messages(Lang::En, en_src);
    assert!(
        en.len() > 80,
        "the English catalogue has {} messages",
        en.len()
    );
    for (lang, src) in &CATALOGUES[1..] {
        let other = messages(*lang, src);
        let missing: Vec<_> = en.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<_> = other.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{}.ftl: missing {missing:?}, not in en.ftl {extra:?}",
            lang.code()
        );
        for (id, vars) in &en {
            assert_eq!(&other[id], vars, "{}.ftl: variables of {id}", lang.code());
        }
    }
}

/// Every `"id"` the sources name as a catalogue id: the first string of a
/// `tr(lang, "id", …)` call, or of a `("id", args)` lookup value.
fn ids_in_code(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            ids_in_code(&path, out);
            continue;
        }
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let whole = std::fs::read_to_string(&path).unwrap();
        // Unit tests may look up ids that must not exist.
        let src = whole.split("#[cfg(test)]").next().unwrap_or_default();
        let is_id = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        };
        for (at, _) in src.match_indices("tr(") {
            // `tr(` as a call: not `fn tr(`, not the end of another name.
            let before = src[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') || src[..at].ends_with("fn ")
            {
                continue;
            }
            let rest = &src[at + 3..];
            let Some(comma) = rest.find(',') else {
                continue;
            };
            let arg = rest[comma + 1..].trim_start();
            if let Some(id) = arg.strip_prefix('"').and_then(|a| a.split('"').next()) {
                assert!(is_id(id), "{}: tr({id:?}) is not an id", path.display());
                out.insert(id.to_owned());
            }
        }
        // `invalid("id", …)`: a refusal in the operator's language
        // (`Daemon::invalid` and the free functions' local twins).
        for (at, _) in src.match_indices("invalid(\"") {
            let rest = &src[at + "invalid(\"".len()..];
            if let Some(id) = rest.split('"').next() {
                assert!(
                    is_id(id),
                    "{}: invalid({id:?}) is not an id",
                    path.display()
                );
                out.insert(id.to_owned());
            }
        }
        // A lookup arm's value, on the arm's line or alone on its own line
        // (the tail of a block arm).
        let arms = src.match_indices("=> (\"").map(|(at, _)| &src[at + 5..]);
        // A closure's lookup: `.doing(|| ("ctx-reading", …))` (cli.rs).
        let closures = src.match_indices("|| (\"").map(|(at, _)| &src[at + 5..]);
        let arms = arms.chain(closures);
        let tails = src
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("(\""));
        for rest in arms.chain(tails) {
            if let Some(id) = rest.split('"').next().filter(|id| is_id(id)) {
                out.insert(id.to_owned());
            }
        }
    }
}

#[test]
fn catalogue_every_id_in_code_exists_and_every_message_is_used() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut used = BTreeSet::new();
    ids_in_code(&root, &mut used);
    let en = messages(Lang::En, CATALOGUES[0].1);
    let unknown: Vec<_> = used.iter().filter(|id| !en.contains_key(*id)).collect();
    assert!(
        unknown.is_empty(),
        "ids used in code but not in en.ftl: {unknown:?}"
    );
    let unused: Vec<_> = en.keys().filter(|id| !used.contains(*id)).collect();
    assert!(
        unused.is_empty(),
        "messages of en.ftl no code names: {unused:?}"
    );
}

#[test]
fn catalogue_texts_have_no_isolation_marks_and_keep_layout() {
    for (lang, src) in CATALOGUES {
        for (id, vars) in &messages(lang, src) {
            let vars: Vec<(&str, String)> = vars
                .iter()
                .map(|v| (v.as_str(), format!("<{v}>")))
                .collect();
            let text = tr(lang, id, &vars);
            assert!(
                !text.contains('\u{2068}') && !text.contains('\u{2069}'),
                "{}: {id} has isolation marks",
                lang.code()
            );
            assert!(
                !text.contains('{'),
                "{}: {id} left a placeable: {text}",
                lang.code()
            );
        }
    }
    // Layout Fluent would otherwise eat: the signature's trailing space, the
    // indented header line, right-aligned turn numbers.
    assert!(tr(Lang::En, "signature", &[]).starts_with("-- \n"));
    assert!(tr(Lang::De, "no-block", &[]).contains("\n\n    SPIEL <Spiel>"));
    assert_eq!(
        tr(Lang::Fr, "reason-bad-number", &[("value", "x".into())]),
        "« x » n'est pas un numéro de tour"
    );
}
