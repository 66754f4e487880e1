//! Issue 21 item 3: the nom grammar gives every line the verdict the
//! hand-written parser gave it (the parser of issue 9, removed once this
//! test had compared the two on every input: 0 differences).
//!
//! Inputs: the stored corpus `tests/data/grammar-corpus.txt` (every line of
//! the fixtures, the golden bot game's orders, the rule cases, and the bots'
//! orders of generated games of 100, 1,000 and 10,000 worlds: see
//! `crates/benches/examples/grammar_corpus.rs`), then [`MUTANTS`] lines
//! made from it by seeded mutations (characters deleted, inserted, swapped,
//! case flipped, accents, spaces and underscores, digits and huge numbers).
//!
//! A verdict is "accepted with these orders (and warnings)" or "refused".
//! `tests/data/grammar-verdicts.txt` holds the verdicts of the old parser,
//! recorded before it was removed: one character per input line, 64 lines
//! a row, each row followed by a hash of the accepted orders of its lines.
//! `ARBITRE_BLESS_VERDICTS=1` rewrites it from the parser of the day (only
//! ever after a deliberate change of the grammar, said in the commit).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{Parsed, Verdict};
use arbitre_nebulight::orders::Order;
use arbitre_nebulight::parser;
use std::fmt::Write as _;

const CORPUS: &str = include_str!("data/grammar-corpus.txt");
const VERDICTS: &str = "tests/data/grammar-verdicts.txt";
const MUTANTS: usize = 120_000;
const ROW: usize = 64;

/// splitmix64: the mutations must be the same on every machine and forever.
pub(crate) struct Mix(pub(crate) u64);

impl Mix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

const NOTATION: &[&str] = &[
    "M", "F", "VI", "VP", "VC", "MP", "N", "C", "D", "E", "T", "S", "I", "P", "MM", "MD", "DEP",
    "ATT", "DEF", "RAD", "*", "_", " ", "->", "(", ")",
];
const CHARS: &[char] = &[
    'M', 'F', 'V', 'I', 'P', 'C', 'D', 'T', 'S', 'E', 'N', '_', ' ', '*', '0', '1', '5', '9', '-',
    '(', '#', ';', 'é', 'É', 'ç', 'x', '\t', '\u{a0}', ',', '/', '[', '"',
];

/// One to three mutations of `line`.
fn mutate(line: &str, rng: &mut Mix) -> String {
    let mut c: Vec<char> = line.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(c.len() + 1);
        match rng.below(10) {
            0 if !c.is_empty() => {
                c.remove(at.min(c.len() - 1));
            }
            1 => c.insert(at, rng.pick(CHARS)),
            2 if c.len() > 1 => {
                let k = at.min(c.len() - 2);
                c.swap(k, k + 1);
            }
            3 if !c.is_empty() => {
                let k = at.min(c.len() - 1);
                c[k] = if c[k].is_ascii_uppercase() {
                    c[k].to_ascii_lowercase()
                } else {
                    c[k].to_ascii_uppercase()
                };
            }
            4 if !c.is_empty() => {
                // An accent on a letter.
                let k = at.min(c.len() - 1);
                c[k] = match c[k] {
                    'E' | 'e' => 'É',
                    'A' | 'a' => 'À',
                    'C' | 'c' => 'Ç',
                    'I' | 'i' => 'Ï',
                    other => other,
                };
            }
            5 => {
                // Separators: one more, or one less.
                if let Some(k) = c.iter().position(|&x| x == ' ' || x == '_') {
                    if rng.below(2) == 0 {
                        c.remove(k);
                    } else {
                        c.insert(k, rng.pick(&[' ', '_']));
                    }
                } else {
                    c.insert(at, ' ');
                }
            }
            6 => {
                // A digit changed, or a number made huge or zero.
                let digits: Vec<usize> = (0..c.len()).filter(|&k| c[k].is_ascii_digit()).collect();
                if digits.is_empty() {
                    c.insert(at, char::from(b'0' + rng.below(10) as u8));
                } else {
                    let k = rng.pick(&digits);
                    match rng.below(3) {
                        0 => c[k] = char::from(b'0' + rng.below(10) as u8),
                        1 => {
                            for d in "000000".chars() {
                                c.insert(k + 1, d);
                            }
                        }
                        _ => c[k] = '0',
                    }
                }
            }
            7 => {
                // A piece of the notation inserted.
                let w = rng.pick(NOTATION);
                for (j, ch) in w.chars().enumerate() {
                    c.insert(at + j, ch);
                }
            }
            8 if !c.is_empty() => {
                // Truncated.
                c.truncate(at);
            }
            _ => {
                // A word replaced by another piece of the notation.
                let w = rng.pick(NOTATION);
                let start = (0..at.min(c.len()))
                    .rev()
                    .find(|&k| !c[k].is_alphanumeric())
                    .map_or(0, |k| k + 1);
                let end = (at..c.len())
                    .find(|&k| !c[k].is_alphanumeric())
                    .unwrap_or(c.len());
                c.splice(start..end.max(start), w.chars());
            }
        }
    }
    c.into_iter().collect()
}

fn inputs() -> Vec<String> {
    let base: Vec<&str> = CORPUS.lines().collect();
    let mut rng = Mix(21);
    let mut out: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    for _ in 0..MUTANTS {
        let l = base[rng.below(base.len())];
        out.push(mutate(l, &mut rng));
    }
    out
}

/// What a line's parse comes to, reason texts aside.
#[derive(Clone, Debug, PartialEq, Eq)]
enum V {
    /// Empty or a comment.
    Skipped,
    /// The orders and the warnings.
    Accepted(String),
    Refused,
}

impl V {
    fn code(&self) -> char {
        match self {
            V::Skipped => '-',
            V::Accepted(_) => 'a',
            V::Refused => 'r',
        }
    }
}

fn verdict(p: &Parsed<Order>) -> V {
    let errors = p.diagnostics.iter().filter(|d| !d.warning).count();
    let kept: Vec<&Order> = p
        .orders
        .iter()
        .map(|o| &o.order)
        .filter(|o| !matches!(o, Order::Rejected { .. }))
        .collect();
    if errors > 0 {
        assert!(kept.is_empty(), "a refused line with an order: {p:?}");
        return V::Refused;
    }
    if kept.is_empty() {
        return V::Skipped;
    }
    let mut s = format!("{kept:?}");
    for d in &p.diagnostics {
        let _ = write!(s, " warn:{}", d.reason);
    }
    V::Accepted(s)
}

fn fnv(h: &mut u64, s: &str) {
    for b in s.bytes().chain([0xff]) {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

/// The verdicts file: one row per [`ROW`] lines.
fn verdict_rows(vs: &[V]) -> String {
    let mut out = String::new();
    for chunk in vs.chunks(ROW) {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for v in chunk {
            out.push(v.code());
            if let V::Accepted(s) = v {
                fnv(&mut h, s);
            }
        }
        let _ = writeln!(out, " {h:016x}");
    }
    out
}

/// The column a new reason names, when it starts as the grammar writes it.
fn column(reason: &str) -> Option<usize> {
    reason
        .strip_prefix("colonne ")?
        .split(' ')
        .next()?
        .parse()
        .ok()
}

#[test]
fn grammar_differential_nom_keeps_the_old_parsers_verdicts() {
    let lines = inputs();
    let mut verdicts = Vec::with_capacity(lines.len());
    let mut shown = 0usize;
    for l in &lines {
        let p = parser::parse(l);
        if let Some(v) = p.verdicts().into_iter().next() {
            if let Verdict::Error(reason) = &v.verdict {
                let len = v.text.chars().count();
                assert!(
                    column(reason).is_some_and(|c| (1..=len + 1).contains(&c)),
                    "{l:?}: the reason names no column of the line: {reason}"
                );
                if verdicts.len() % 4_000 == 1 && shown < 30 {
                    shown += 1;
                    println!("{:?}\n  {reason}", v.text);
                }
            }
        }
        verdicts.push(verdict(&p));
    }
    let count = |c: char| verdicts.iter().filter(|v| v.code() == c).count();
    println!(
        "grammar differential (nebulight): {} lines ({} corpus + {MUTANTS} mutants): {} accepted, {} refused, {} skipped",
        lines.len(),
        lines.len() - MUTANTS,
        count('a'),
        count('r'),
        count('-'),
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(VERDICTS);
    let rows = verdict_rows(&verdicts);
    if std::env::var_os("ARBITRE_BLESS_VERDICTS").is_some() {
        std::fs::write(&path, &rows).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap();
    let mut differ = Vec::new();
    for (k, (g, n)) in golden.lines().zip(rows.lines()).enumerate() {
        if g != n {
            // Show the lines of the row whose verdict is not the recorded one.
            let (gc, nc) = (g.split(' ').next().unwrap(), n.split(' ').next().unwrap());
            for (j, (a, b)) in gc.chars().zip(nc.chars()).enumerate() {
                let i = k * ROW + j;
                if a != b || gc == nc {
                    differ.push(format!(
                        "{:?}: recorded {a}, now {b} {:?}",
                        lines[i], verdicts[i]
                    ));
                }
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} lines whose verdict changed (or rows whose orders changed), first ones:\n{}",
        differ.len(),
        differ[..differ.len().min(20)].join("\n")
    );
    assert_eq!(golden.lines().count(), rows.lines().count());
}

/// The one-pass reading of right lines (`fast_path`) accepts exactly the
/// lines the grammar alone accepts, with the same orders, so that the
/// grammar's verdicts above hold for both.
#[test]
fn fast_path_accepts_what_the_grammar_accepts() {
    use arbitre_core::grammar::run_line;
    use arbitre_nebulight::{fast_path, grammar};
    let (mut accepted, mut refused) = (0usize, 0usize);
    for input in inputs() {
        for line in arbitre_core::text::lines(&input) {
            let line = arbitre_core::text::normalize(line);
            let by_grammar = run_line(grammar::order_by_grammar, 1, &line).ok();
            assert_eq!(fast_path::order(&line), by_grammar, "{line:?}");
            if by_grammar.is_some() {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
    }
    println!("fast path: {accepted} lines accepted, {refused} left to the grammar");
    assert!(accepted > 10_000 && refused > 10_000);
}
