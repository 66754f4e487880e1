//! WWK's bracket notation (spec §3.2, WWK-8, WWK-9) as a `nom` lexer over the
//! borrowed line (issue 21).
//!
//! The rulebook writes an order as bracketed fields, `[IST] [2] [INF] [MOVE]
//! [ODE]`; players write the brackets or not, and an unclosed `[` is
//! tolerated, so a bracket is read as what it is in practice: a separator,
//! like the space. Words are compared upper-cased, and the rulebook's
//! aliases are applied as each word is read (`CAP` → `CAPS`, `ESCORT` →
//! `ESCT`, `HMOVE` → `HMOV`, `SMOVE` → `SMOV`, `50KT` → `50K`, `1MT` →
//! `1M`). The order forms themselves are matched by [`crate::parser`] on
//! the words, as the rulebook lists them (`<zone> EXCH GIVE <q> <r> GET <q>
//! <r> WITH <zone>`).
//!
//! No allocation per word: the words are slices of the line (of one
//! upper-cased copy of it, kept from line to line, when the player wrote
//! lower case) or the aliases' static spellings, held in a fixed array.
//!
//! The word is `nom`'s `preceded(take_while(is_sep), take_till1(is_sep))`
//! written as a scan of the bytes (issue 21: the combinator decoded every
//! character and was a quarter of a WWK parse): the separators are ASCII,
//! so a byte scan cuts the line on character boundaries only.

use nom::error::{Error, ErrorKind};
use nom::IResult;

/// The field separators: spaces and the rulebook's brackets.
fn is_sep(b: u8) -> bool {
    SEP[b as usize]
}

/// [`is_sep`] as a table: one load a byte where three compares were (the
/// word scan is a fifth of a WWK parse's instructions, issue 21).
static SEP: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t
};

/// One word of the notation, after any separators, aliases applied.
/// Inlined into [`Words::read`]'s loop: a call a word, its `Result` built
/// and taken apart, cost more than the scan (issue 21 item 4).
#[inline(always)]
pub fn word(i: &str) -> IResult<&str, &str> {
    let b = i.as_bytes();
    let start = b.iter().position(|&c| !is_sep(c)).unwrap_or(b.len());
    let len = b[start..]
        .iter()
        .position(|&c| is_sep(c))
        .unwrap_or(b.len() - start);
    if len == 0 {
        return Err(nom::Err::Error(Error::new(
            &i[start..],
            ErrorKind::TakeTill1,
        )));
    }
    let end = start + len;
    Ok((&i[end..], alias(&i[start..end])))
}

/// The rulebook's alternative spellings, as the canonical word. Only a word
/// ending in `P`, `E` or `T` can be one: the rest are not compared.
#[inline(always)]
fn alias(w: &str) -> &str {
    match w.as_bytes().last() {
        Some(b'P') if w == "CAP" => "CAPS",
        Some(b'E') => match w {
            "HMOVE" => "HMOV",
            "SMOVE" => "SMOV",
            _ => w,
        },
        Some(b'T') => match w {
            "ESCORT" => "ESCT",
            // A yield written `50KT` or `1MT` is `50K`, `1M`.
            _ => match w.strip_suffix("KT").or_else(|| w.strip_suffix("MT")) {
                Some(p) if p.ends_with(|c: char| c.is_ascii_digit()) => &w[..w.len() - 1],
                _ => w,
            },
        },
        _ => w,
    }
}

/// The line upper-cased: the line itself when it has nothing to change,
/// else written into `scratch` (reused from line to line).
pub fn upper<'a>(line: &'a str, scratch: &'a mut String) -> &'a str {
    if !line.bytes().any(|b| b.is_ascii_lowercase() || b >= 0x80) {
        return line;
    }
    scratch.clear();
    // Upper case rarely changes the length: one growth at most per longer line.
    scratch.reserve(line.len());
    scratch.extend(line.chars().flat_map(char::to_uppercase));
    scratch
}

/// How many words a line keeps on the stack; longer lines spill to the heap.
const INLINE: usize = 24;

/// The words of one line.
pub struct Words<'a> {
    inline: [&'a str; INLINE],
    n: usize,
    spill: Vec<&'a str>,
}

impl<'a> Words<'a> {
    /// Reads every word of an (upper-cased) line. Inlined, so that the
    /// caller's `Words` is filled in place, not copied out (400 bytes).
    #[inline]
    pub fn read(line: &'a str) -> Words<'a> {
        let mut w = Words {
            inline: [""; INLINE],
            n: 0,
            spill: Vec::new(),
        };
        let mut rest = line;
        while let Ok((r, t)) = word(rest) {
            rest = r;
            if w.n < INLINE {
                w.inline[w.n] = t;
                w.n += 1;
            } else {
                if w.spill.is_empty() {
                    w.spill.reserve(4 * INLINE);
                    w.spill.extend_from_slice(&w.inline);
                }
                w.spill.push(t);
            }
        }
        w
    }

    pub fn as_slice(&self) -> &[&'a str] {
        if self.spill.is_empty() {
            &self.inline[..self.n]
        } else {
            &self.spill
        }
    }
}

/// The words of a line as owned strings (the report's bracket echo, tests).
pub fn tokens(line: &str) -> Vec<String> {
    let mut scratch = String::new();
    let up = upper(line, &mut scratch);
    Words::read(up)
        .as_slice()
        .iter()
        .map(|w| w.to_string())
        .collect()
}
