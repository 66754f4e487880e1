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

/// One bit a byte of the 8 bytes of `x` (little-endian: bit `k` is byte
/// `k`), set where the byte is a separator ([`SEP`]).
#[inline(always)]
fn sep_bits(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The high bit of each byte that is zero, exactly: `(y & LOW7) + LOW7`
    // never carries out of a byte, so no byte's answer leaks into the next.
    let zero = |y: u64| !(((y & LOW7) + LOW7) | y | LOW7);
    let high = zero(x ^ 0x2020_2020_2020_2020)
        | zero(x ^ 0x5b5b_5b5b_5b5b_5b5b)
        | zero(x ^ 0x5d5d_5d5d_5d5d_5d5d);
    // Gathers the eight high bits into the top byte: byte k's bit lands on
    // bit 56 + k and every other product falls outside the top byte.
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

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
pub(crate) fn alias(w: &str) -> &str {
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

/// True when `b` holds an ASCII lower-case letter or a non-ASCII byte,
/// tested 8 bytes at a time (a byte at a time, the test was a twelfth of a
/// WWK parse, issue 21 item 4).
fn changes_case(b: &[u8]) -> bool {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let flagged = |x: u64| {
        // Per byte, on its low seven bits (no carry leaves a byte: 0x7f +
        // 0x1f < 0x100): at least `a`, and above `z`.
        let from_a = ((x & LOW7) + ONES * 0x1f) & HIGH;
        let past_z = ((x & LOW7) + ONES * 0x05) & HIGH;
        (from_a & !past_z) | (x & HIGH)
    };
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        if let Ok(w) = <[u8; 8]>::try_from(c) {
            if flagged(u64::from_le_bytes(w)) != 0 {
                return true;
            }
        }
    }
    chunks
        .remainder()
        .iter()
        .any(|&c| c.is_ascii_lowercase() || c >= 0x80)
}

/// The line upper-cased: the line itself when it has nothing to change,
/// else written into `scratch` (reused from line to line).
pub fn upper<'a>(line: &'a str, scratch: &'a mut String) -> &'a str {
    if !changes_case(line.as_bytes()) {
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
    /// Reads every word of an (upper-cased) line. Always inlined, so that
    /// the caller's `Words` is filled in place, not copied out (400 bytes,
    /// a `memcpy` a line).
    #[inline(always)]
    pub fn read(line: &'a str) -> Words<'a> {
        let mut w = Words {
            inline: [""; INLINE],
            n: 0,
            spill: Vec::new(),
        };
        w.fill(line);
        w
    }

    fn fill(&mut self, line: &'a str) {
        if line.len() <= 64 {
            self.read_short(line);
            return;
        }
        let mut rest = line;
        while let Ok((r, t)) = word(rest) {
            rest = r;
            self.push(t);
        }
    }

    /// [`Words::read`] for a line of at most 64 bytes (nearly every order
    /// line): the separators are found 8 bytes at a time as one bit a byte,
    /// and each word is a run of clear bits. The byte-at-a-time scan was a
    /// fifth of a WWK parse (issue 21 item 4).
    #[inline]
    fn read_short(&mut self, line: &'a str) {
        let b = line.as_bytes();
        let mut word_bits = 0u64;
        for (k, chunk) in b.chunks(8).enumerate() {
            let x = match <[u8; 8]>::try_from(chunk) {
                Ok(full) => u64::from_le_bytes(full),
                // The tail is padded with spaces, separators like any
                // other (byte by byte: a `memcpy` call cost more).
                Err(_) => {
                    let bytes = chunk
                        .iter()
                        .rev()
                        .fold(0u64, |v, &c| (v << 8) | u64::from(c));
                    // `chunk.len()` is 1 to 7 here.
                    bytes | (0x2020_2020_2020_2020u64 << (8 * chunk.len()))
                }
            };
            word_bits |= (!sep_bits(x) & 0xff) << (8 * k);
        }
        while word_bits != 0 {
            let start = word_bits.trailing_zeros() as usize;
            let len = (!(word_bits >> start)).trailing_zeros() as usize;
            // Clears the lowest run of set bits (wrapping when it reaches
            // the top bit, which leaves none).
            word_bits &= word_bits.wrapping_add(word_bits & word_bits.wrapping_neg());
            // Both ends are next to an ASCII separator or at an end of the
            // line: character boundaries.
            self.push(alias(&line[start..start + len]));
        }
    }

    #[inline(always)]
    fn push(&mut self, t: &'a str) {
        if self.n < INLINE {
            self.inline[self.n] = t;
            self.n += 1;
        } else {
            if self.spill.is_empty() {
                self.spill.reserve(4 * INLINE);
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(t);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The words as the byte-at-a-time scan reads them.
    fn scanned(line: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = line;
        while let Ok((r, t)) = word(rest) {
            rest = r;
            out.push(t);
        }
        out
    }

    #[test]
    fn changes_case_flags_exactly_lower_case_and_non_ascii_bytes() {
        for v in 0..=255u8 {
            for len in 1..=17 {
                for k in 0..len {
                    let mut b = vec![b'A'; len];
                    b[k] = v;
                    let want = v.is_ascii_lowercase() || v >= 0x80;
                    assert_eq!(changes_case(&b), want, "byte {v:#x} at {k} of {len}");
                }
            }
        }
        assert!(!changes_case(b""));
        assert!(!changes_case(b"Z6 2 INF MOVE Z5 [ODE] @`{"));
    }

    #[test]
    fn sep_bits_marks_exactly_the_separators_at_every_position() {
        for v in 0..=255u8 {
            for k in 0..8 {
                let mut buf = [b'A'; 8];
                buf[k] = v;
                let want = if is_sep(v) { 1u64 << k } else { 0 };
                assert_eq!(
                    sep_bits(u64::from_le_bytes(buf)),
                    want,
                    "byte {v:#x} at {k}"
                );
            }
        }
        assert_eq!(sep_bits(u64::from_le_bytes(*b" [] [ ] ")), 0xff);
        assert_eq!(sep_bits(u64::from_le_bytes(*b"\x00\x01!\\\\^_`")), 0);
    }

    #[test]
    fn short_lines_split_as_the_scan_splits_them() {
        let alphabet = [
            " ", " ", "[", "]", "A", "Z", "5", "0", "É", "ß", "\u{a0}", "CAP", "ESCORT", "50KT",
            "HMOVE", "\\", "Ä",
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            let mut line = String::new();
            loop {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let piece = alphabet[(x % alphabet.len() as u64) as usize];
                if line.len() + piece.len() > 64 || (x >> 40).is_multiple_of(23) {
                    break;
                }
                line.push_str(piece);
            }
            let mut w = Words {
                inline: [""; INLINE],
                n: 0,
                spill: Vec::new(),
            };
            w.read_short(&line);
            assert_eq!(w.as_slice(), scanned(&line).as_slice(), "{line:?}");
            assert_eq!(Words::read(&line).as_slice(), scanned(&line).as_slice());
        }
        let long =
            "Z1 [2] INF MOVE Z2 Z3 Z4 Z5 Z6 Z7 Z8 Z9 Z10 Z11 Z12 Z13 Z14 Z15 Z16 Z17 Z18 Z19";
        assert!(long.len() > 64);
        assert_eq!(Words::read(long).as_slice(), scanned(long).as_slice());
        assert_eq!(scanned(long).len(), 22);
    }
}
