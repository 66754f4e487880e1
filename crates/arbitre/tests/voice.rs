//! Issue 17 item 10, one voice per language: the German texts a player
//! reads say "Du" throughout (as docs/eds.md does), never "Sie"; the
//! French ones say "vous", never "tu"; French punctuation puts one plain
//! space before `:` `;` `!` `?` (what the goldens use), never none and
//! never a no-break space.
//!
//! Scanned: the daemon's catalogues (locales/de.ftl, locales/fr.ftl) and
//! the string literals of the ruleset crates in that language (EDS for
//! German; Nébulight, Scrambled Nations and WWK for French).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The words of `text`, with the byte offset of each.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
}

/// The text of every string literal of a Rust file (good enough for
/// scanning words: escapes are kept as written).
fn literals(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in src.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut rest = code;
        while let Some(start) = rest.find('"') {
            let after = &rest[start + 1..];
            let mut end = None;
            let mut escaped = false;
            for (i, c) in after.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = Some(i);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            match end {
                Some(e) => {
                    out.push(after[..e].to_string());
                    rest = &after[e + 1..];
                }
                None => {
                    out.push(after.to_string());
                    break;
                }
            }
        }
    }
    out
}

/// Every text of one language: (where, text).
fn texts(ftl: &str, crates: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let ftl_path = root().join("crates/arbitre/locales").join(ftl);
    for (i, line) in std::fs::read_to_string(&ftl_path)
        .unwrap()
        .lines()
        .enumerate()
    {
        if !line.starts_with('#') {
            out.push((format!("{ftl}:{}", i + 1), line.to_string()));
        }
    }
    for c in crates {
        let dir = root().join("crates").join(c).join("src");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .collect();
        files.sort();
        for f in files {
            let src = std::fs::read_to_string(&f).unwrap();
            // Unit tests may quote anything.
            let src = src.split("#[cfg(test)]").next().unwrap_or("");
            for lit in literals(src) {
                out.push((f.display().to_string(), lit));
            }
        }
    }
    out
}

#[test]
fn item10_german_texts_say_du_never_sie() {
    // The polite forms, capitalised; lower-case "sie"/"ihr" mean
    // "they"/"its" and stay. A sentence may start with "Sie" meaning
    // "it": such sentences are written another way so that no word
    // reads as the other form of address.
    let formal = [
        "Sie", "Ihr", "Ihre", "Ihren", "Ihrem", "Ihrer", "Ihres", "Ihnen",
    ];
    let all = texts("de.ftl", &["eds"]);
    assert!(all.len() > 200, "the scan found the texts: {}", all.len());
    let bad: Vec<String> = all
        .iter()
        .filter(|(_, t)| words(t).any(|w| formal.contains(&w)))
        .map(|(at, t)| format!("{at}: {t}"))
        .collect();
    assert!(
        bad.is_empty(),
        "German texts in the other voice:\n{}",
        bad.join("\n")
    );
    let du = all
        .iter()
        .filter(|(_, t)| words(t).any(|w| ["Du", "Dein", "Deine", "Dich", "Dir"].contains(&w)))
        .count();
    assert!(du > 10, "the catalogue speaks to the player as Du: {du}");
}

#[test]
fn item10_french_texts_say_vous_never_tu() {
    let familiar = ["tu", "toi", "ton", "tes", "ta", "Tu", "Ton", "Ta", "Tes"];
    let all = texts("fr.ftl", &["nebulight", "scrambled", "wwk"]);
    assert!(all.len() > 200, "the scan found the texts: {}", all.len());
    let bad: Vec<String> = all
        .iter()
        .filter(|(_, t)| words(t).any(|w| familiar.contains(&w)))
        .map(|(at, t)| format!("{at}: {t}"))
        .collect();
    assert!(
        bad.is_empty(),
        "French texts in the other voice:\n{}",
        bad.join("\n")
    );
}

#[test]
fn item10_french_catalogue_spaces_before_high_punctuation() {
    let ftl = std::fs::read_to_string(root().join("crates/arbitre/locales/fr.ftl")).unwrap();
    let mut bad = Vec::new();
    for (i, line) in ftl.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        // The message's text, after `id =` (or the whole continuation line).
        let text = match line.split_once(" = ") {
            Some((id, t)) if !id.starts_with(' ') => t,
            _ => line,
        };
        let chars: Vec<char> = text.chars().collect();
        for (j, c) in chars.iter().enumerate() {
            if !matches!(c, ':' | ';' | '!' | '?') {
                continue;
            }
            let before = if j == 0 { None } else { Some(chars[j - 1]) };
            let after = chars.get(j + 1).copied();
            // Punctuation used as a sign, not in a sentence: `x:y`, `://`,
            // an option `--x`, a placeholder.
            if after.is_some_and(|a| a != ' ') {
                continue;
            }
            // A place `file:line:column:` is written as editors and
            // compilers write it, in every language (issue 19 item 2).
            if *c == ':' && chars[..j].iter().collect::<String>().ends_with("$place }") {
                continue;
            }
            match before {
                Some(' ') => {}
                Some('\u{a0}') | Some('\u{202f}') => {
                    bad.push(format!("fr.ftl:{}: no-break space: {line}", i + 1))
                }
                _ => bad.push(format!("fr.ftl:{}: no space before '{c}': {line}", i + 1)),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
