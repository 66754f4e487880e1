//! The lines of an order block, normalised, read in one pass (issue 21).
//!
//! The parser read each line three times before its words: core's
//! [`lines`](arbitre_core::text::lines) for its end, core's
//! [`normalize`] to see that it is already normal, and a search for a
//! quote or a comment; on the bench's blocks (35 bytes a player) that was
//! a sixth of a parse. [`BlockLines`] finds the end and both answers in one
//! pass, eight bytes at a time. A line it cannot vouch for (a control
//! character, a byte past ASCII, two spaces, a space at either end) goes
//! through [`normalize`] as before, so every line reads as core's pair
//! reads it (`block_lines_are_core_lines`).

use crate::grammar::{nul8, HI, LO};
use arbitre_core::normalize;
use std::borrow::Cow;

/// The lines of `text` as `lines(text).enumerate()` numbers them (from 1),
/// each normalised, and whether it holds no quote and no `#`.
pub(crate) fn block_lines(text: &str) -> BlockLines<'_> {
    BlockLines { rest: text, no: 0 }
}

/// The iterator of [`block_lines`].
pub(crate) struct BlockLines<'a> {
    rest: &'a str,
    no: usize,
}

impl<'a> Iterator for BlockLines<'a> {
    type Item = (usize, Cow<'a, str>, bool);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        self.no += 1;
        let b = self.rest.as_bytes();
        // Per byte, the high bit: outside 0x20..=0x7f, a quote or `#`
        // (`odd`), a space, and a space after a space (`double`).
        let (mut odd, mut double, mut carry) = (0u64, 0u64, 0u64);
        let mut i = 0;
        let end = loop {
            let v = match b.get(i..i + 8).map(<[u8; 8]>::try_from) {
                Some(Ok(w)) => u64::from_le_bytes(w),
                _ => {
                    // The text's end, padded with line ends.
                    let mut w = [b'\n'; 8];
                    for (d, s) in w.iter_mut().zip(&b[i..]) {
                        *d = *s;
                    }
                    u64::from_le_bytes(w)
                }
            };
            let nl = nul8(v ^ (LO * u64::from(b'\n')));
            // The bytes before the first line end (all when none).
            let before = ((nl & nl.wrapping_neg()) >> 7).wrapping_sub(1);
            let outside = (v | !((v & !HI) + LO * 0x60)) & HI;
            // `"` is 0x22 and `#` 0x23: equal but for the lowest bit.
            let quote = nul8((v ^ (LO * 0x22)) & !LO);
            odd |= (outside | quote) & before;
            let space = nul8(v ^ (LO * u64::from(b' '))) & before;
            // The first byte of this word follows the last of the word before.
            double |= (space & (space << 8)) | (space & carry);
            carry = (space >> 56) & 0x80;
            if nl != 0 {
                break (i + (nl.trailing_zeros() / 8) as usize).min(b.len());
            }
            i += 8;
        };
        // `\n` is one byte of ASCII: both cuts are on boundaries.
        let line = &self.rest[..end];
        self.rest = self.rest.get(end + 1..).unwrap_or("");
        let lb = line.as_bytes();
        let ends_spaced = lb.first() == Some(&b' ') || lb.last() == Some(&b' ');
        if odd == 0 && double == 0 && !ends_spaced {
            return Some((self.no, Cow::Borrowed(line), true));
        }
        // A `\r` before the `\n` vanishes in `normalize` as `lines` drops it.
        let line = normalize(line);
        let plain = !line.bytes().any(|b| b == b'"' || b == b'#');
        Some((self.no, line, plain))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbitre_core::text::lines;

    #[test]
    fn block_lines_are_core_lines() {
        let pieces = [
            "", " ", "  ", "a", "MOVE", "12", "->", "\"", "#", "\r", "\t", "\n", "\r\n", "é",
            "\u{a0}", "\u{feff}", "\u{7f}", "\u{0}", "T1 -> T2", "x ", " y",
        ];
        let mut n = 0u64;
        let mut next = || {
            n = n
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (n >> 33) as usize
        };
        let mut cases: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
        for _ in 0..20_000 {
            let k = next() % 12;
            cases.push((0..k).map(|_| pieces[next() % pieces.len()]).collect());
        }
        for c in &cases {
            let core: Vec<(usize, String, bool)> = lines(c)
                .enumerate()
                .map(|(i, l)| {
                    let l = normalize(l);
                    let plain = !l.contains(['"', '#']);
                    (i + 1, l.into_owned(), plain)
                })
                .collect();
            let ours: Vec<(usize, String, bool)> = block_lines(c)
                .map(|(no, l, plain)| (no, l.into_owned(), plain))
                .collect();
            assert_eq!(ours, core, "{c:?}");
        }
    }
}
