//! Recorded parser verdicts (issue 21 item 3): the differential tests of the
//! order grammars compared the nom parsers with the hand-written ones while
//! both lived, and recorded the old verdicts in a compact golden file; this
//! module holds the file format and the comparison every ruleset's test uses
//! now that the old parsers are gone. Compiled only for tests.
//!
//! The file: `corpus <fingerprint>` (a hash of the states and input texts),
//! then one line per chunk of [`CHUNK`] inputs: a hash of their canonical
//! verdicts (orders, warnings, refused lines), and one letter per input (`A`
//! accepted, `W` accepted with a warning, `R` refused, `M` mixed, `-`
//! nothing), followed for a refused one by 3 hex digits of its reasons.
//! `BLESS=1` re-records the current parser's verdicts.

use crate::Parsed;
use std::collections::BTreeMap;
use std::fmt::{Debug, Write};
use std::path::Path;

/// Inputs per recorded line.
pub const CHUNK: usize = 64;

const FNV_START: u64 = 0xcbf29ce484222325;

fn fnv(h: &mut u64, s: &str) {
    for b in s.bytes() {
        *h ^= b as u64;
        *h = h.wrapping_mul(0x100000001b3);
    }
}

/// What the verdicts were recorded on: the states (as JSON) and every input
/// `(player, text)`. A change of the rules or of the bots changes it.
pub fn fingerprint<'a>(
    states: impl IntoIterator<Item = String>,
    inputs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> u64 {
    let mut h = FNV_START;
    for s in states {
        fnv(&mut h, &s);
    }
    for (player, text) in inputs {
        fnv(&mut h, player);
        fnv(&mut h, text);
    }
    h
}

/// The verdict of a block: orders, warnings, which lines are refused.
fn canon<O: Debug>(p: &Parsed<O>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "ready {}", p.ready);
    for o in &p.orders {
        let _ = writeln!(s, "O {} {:?} {:?}", o.line, o.text, o.order);
    }
    for d in &p.diagnostics {
        if d.warning {
            let _ = writeln!(s, "W {} {:?} {}", d.line, d.text, d.reason);
        } else {
            let _ = writeln!(s, "E {} {:?}", d.line, d.text);
        }
    }
    s
}

fn kind<O>(p: &Parsed<O>) -> char {
    let errors = p.error_count();
    match (p.orders.is_empty(), errors, p.diagnostics.len()) {
        (true, 0, _) => '-',
        (true, _, _) => 'R',
        (false, 0, 0) => 'A',
        (false, 0, _) => 'W',
        _ => 'M',
    }
}

/// 12 bits of the reasons, enough to notice a reworded reason.
fn reason_hash(rs: &[&str]) -> String {
    let mut h = FNV_START;
    for r in rs {
        fnv(&mut h, r);
        fnv(&mut h, "\n");
    }
    format!("{:03x}", h & 0xfff)
}

/// One recorded line's entries: a kind letter and, when refused, its
/// reasons' hash.
fn entries(line: &str) -> Vec<(char, Option<&str>)> {
    let mut out = Vec::new();
    let mut i = 0;
    let b = line.as_bytes();
    while i < b.len() {
        let k = b[i] as char;
        let hex = b[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit() && c.is_ascii_lowercase() || c.is_ascii_digit())
            .count()
            .min(3);
        out.push((k, (hex == 3).then(|| &line[i + 1..i + 4])));
        i += 1 + if hex == 3 { 3 } else { 0 };
    }
    out
}

/// How one ruleset's reasons are compared.
pub struct Reasons {
    /// A reason as recorded: the part the old parser also wrote (e.g.
    /// without a column the new grammar adds).
    pub strip: fn(&str) -> &str,
    /// A reworded reason is accepted when it says more: names the column and
    /// what was expected there.
    pub says_more: fn(&str) -> bool,
}

/// Compares the verdicts of `parse` on `texts` (input `n` is `texts[n]`,
/// parsed by `parse(n)`) with those recorded in `path`, or re-records them
/// under `BLESS=1`. Returns a summary line; panics with the differences.
pub fn check_recorded<O: Debug>(
    path: &Path,
    fingerprint: u64,
    texts: &[&str],
    parse: impl Fn(usize) -> Parsed<O>,
    reasons: Reasons,
) -> String {
    let refused = |p: &Parsed<O>| -> Vec<String> {
        p.diagnostics
            .iter()
            .filter(|d| !d.warning)
            .map(|d| (reasons.strip)(&d.reason).to_string())
            .collect()
    };
    let hash_of = |rs: &[String]| reason_hash(&rs.iter().map(String::as_str).collect::<Vec<_>>());
    let mut recorded = format!("corpus {fingerprint:016x}\n");
    let golden = std::fs::read_to_string(path).unwrap_or_default();
    let mut lines = golden.lines();
    let head = lines.next().unwrap_or("");
    let bless = std::env::var_os("BLESS").is_some();
    assert!(
        bless || head == format!("corpus {fingerprint:016x}"),
        "the corpus changed since the verdicts were recorded ({head}, now {fingerprint:016x}): \
         the rules, a scenario or the bots changed, not necessarily the parser. The \
         old parser is gone (issue 21), so BLESS=1 re-records the current parser's \
         verdicts; say so in the commit"
    );
    let mut chunk: Vec<usize> = Vec::new();
    let mut entries_new: Vec<String> = Vec::new();
    let mut hash = FNV_START;
    let mut bad = Vec::new();
    let mut reworded = 0usize;
    let mut counts: BTreeMap<char, usize> = BTreeMap::new();
    for n in 0..texts.len() {
        let new = parse(n);
        let rs = refused(&new);
        let k = kind(&new);
        *counts.entry(k).or_default() += 1;
        entries_new.push(if rs.is_empty() {
            k.to_string()
        } else {
            format!("{k}{}", hash_of(&rs))
        });
        fnv(&mut hash, &canon(&new));
        chunk.push(n);
        if chunk.len() < CHUNK && n + 1 < texts.len() {
            continue;
        }
        let _ = writeln!(recorded, "{hash:016x} {}", entries_new.concat());
        if !bless {
            let want = lines.next().unwrap_or("");
            let (want_hash, want_entries) = want.split_once(' ').unwrap_or((want, ""));
            let want_entries = entries(want_entries);
            for (j, &m) in chunk.iter().enumerate() {
                let p = parse(m);
                let (k, h) = want_entries.get(j).copied().unwrap_or(('?', None));
                if kind(&p) != k {
                    bad.push(format!(
                        "input {m} {:?}: recorded {k}, now {} {:?}",
                        texts[m],
                        kind(&p),
                        p.diagnostics
                    ));
                } else if h.is_some_and(|h| h != hash_of(&refused(&p))) {
                    reworded += 1;
                    if let Some(d) = p
                        .diagnostics
                        .iter()
                        .find(|d| !d.warning && !(reasons.says_more)(&d.reason))
                    {
                        bad.push(format!(
                            "input {m} {:?}: reason changed, without the column: {}",
                            texts[m], d.reason
                        ));
                    }
                }
            }
            if want_hash != format!("{hash:016x}") {
                let shown: Vec<String> = chunk
                    .iter()
                    .map(|&m| format!("  {:?} -> {}", texts[m], canon(&parse(m))))
                    .collect();
                bad.push(format!(
                    "inputs {}..={}: orders or warnings differ from the recorded ones; now:\n{}",
                    chunk[0],
                    n,
                    shown.join("\n")
                ));
            }
        }
        chunk.clear();
        entries_new.clear();
        hash = FNV_START;
    }
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
    if bless {
        if let Err(e) = std::fs::write(path, &recorded) {
            panic!("cannot write {}: {e}", path.display());
        }
    }
    format!(
        "{} inputs: {} differ from the recorded verdicts, {reworded} refused with a reworded reason; verdicts {counts:?}",
        texts.len(),
        bad.len()
    )
}
