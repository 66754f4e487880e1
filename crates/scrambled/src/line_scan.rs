//! The lines of an order block, normalised, read in one pass (issue 21).
//!
//! The parser read each line three times before its words: core's
//! [`lines`](arbitre_core::text::lines) for its end, core's
//! [`normalize`] to see that it is already normal, and a search for a
//! quote or a comment; on the bench's blocks (35 bytes a player) that was
//! a sixth of a parse. [`BlockLines`] finds the end and both answers in one
//! pass, eight bytes at a time. A line it cannot vouch for (a control
//! character, a byte past ASCII, `!`, two spaces, a space at either end)
//! goes through [`normalize`] as before, so every line reads as core's
//! pair reads it (`block_lines_are_core_lines`).

use crate::grammar::{nul8, HI, LO};
use arbitre_core::normalize;
use std::borrow::Cow;

/// The lines of `text` as `lines(text).enumerate()` numbers them (from 1),
/// each normalised, and whether it holds no quote and no `#`.
pub(crate) fn block_lines(text: &str) -> BlockLines<'_> {
    BlockLines { text, at: 0, no: 0 }
}

/// The iterator of [`block_lines`].
pub(crate) struct BlockLines<'a> {
    text: &'a str,
    /// Where the next line starts.
    at: usize,
    no: usize,
}

/// `\n` in every byte.
const NEWLINES: u64 = LO * 0x0a;

/// The eight bytes of `b` from `i`, as one number (the first lowest), with
/// `\n` past the end of `b`. The last bytes are read with the eight
/// before them, shifted: a byte copy into a padded buffer was a `memcpy`
/// call on every block's last line.
fn chunk(b: &[u8], i: usize) -> u64 {
    if let Some(Ok(w)) = b.get(i..i + 8).map(<[u8; 8]>::try_from) {
        return u64::from_le_bytes(w);
    }
    let left = b.len().saturating_sub(i);
    if left == 0 {
        return NEWLINES;
    }
    // `left` is 1 to 7 here: both shifts are within the word.
    match b.get(b.len().saturating_sub(8)..).map(<[u8; 8]>::try_from) {
        Some(Ok(w)) => (u64::from_le_bytes(w) >> (8 * (8 - left))) | (NEWLINES << (8 * left)),
        _ => {
            // A text shorter than eight bytes.
            let mut w = [b'\n'; 8];
            for (d, s) in w.iter_mut().zip(&b[i..]) {
                *d = *s;
            }
            u64::from_le_bytes(w)
        }
    }
}

impl<'a> BlockLines<'a> {
    /// The text from where the next line starts (empty past the end).
    pub(crate) fn rest(&self) -> &'a str {
        self.text.get(self.at..).unwrap_or("")
    }

    /// Steps over the next line, `len` bytes before its `\n` (or the end),
    /// read by `crate::fast_path`; its number.
    pub(crate) fn advance(&mut self, len: usize) -> usize {
        self.at += len + 1;
        self.no += 1;
        self.no
    }
}

impl<'a> Iterator for BlockLines<'a> {
    type Item = (usize, Cow<'a, str>, bool);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.text.as_bytes();
        let start = self.at;
        if start >= b.len() {
            return None;
        }
        self.no += 1;
        // The first byte below 0x24 (a control character, `!`, `"`, `#`)
        // or past ASCII, other than a space, ends the walk: a line end,
        // or a line that `normalize` must read. Spaces are kept to find
        // two in a row, the last of a word carried into the next.
        let (mut double, mut carry) = (0u64, 0u64);
        let mut i = start;
        let (stop, at_end) = loop {
            let v = chunk(b, i);
            let special = (!((v & !HI) + LO * 0x5c) | v) & HI;
            let space = nul8(v ^ (LO * u64::from(b' ')));
            let other = special & !space;
            let pairs = space & ((space << 8) | carry);
            if other != 0 {
                let k = (other.trailing_zeros() / 8) as usize;
                double |= pairs & ((1u64 << (8 * k)) - 1);
                let p = i + k;
                break (p, b.get(p).is_none_or(|&c| c == b'\n'));
            }
            double |= pairs;
            carry = space >> 56;
            i += 8;
        };
        let end = if at_end {
            stop.min(b.len())
        } else {
            b[stop..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |k| stop + k)
        };
        // `\n` is one byte of ASCII: both cuts are on boundaries.
        let line = &self.text[start..end];
        self.at = end + 1;
        let lb = line.as_bytes();
        let ends_spaced = lb.first() == Some(&b' ') || lb.last() == Some(&b' ');
        if at_end && double == 0 && !ends_spaced {
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
            "",
            " ",
            "  ",
            "a",
            "MOVE",
            "12",
            "->",
            "\"",
            "#",
            "!",
            "$",
            "\r",
            "\t",
            "\n",
            "\r\n",
            "é",
            "\u{a0}",
            "\u{feff}",
            "\u{7f}",
            "\u{0}",
            "T1 -> T2",
            "x ",
            " y",
            "PATH 3 Pays de la Loire -> Centre AVOID",
        ];
        let mut n = 0u64;
        let mut next = || {
            n = n
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (n >> 33) as usize
        };
        let mut cases: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
        for _ in 0..40_000 {
            let k = next() % 16;
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
