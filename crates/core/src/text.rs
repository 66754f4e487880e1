//! Lexical helpers shared by the order parsers.
//!
//! Real mail clients put tabs, non-breaking spaces, a BOM or CRLF between
//! tokens; every parser sees lines already normalised by [`normalize`].
//! The order parsers are driven line by line by [`parse_lines`]; each
//! ruleset writes its grammar for one line with nom, which core re-exports
//! (`arbitre_core::nom`), from the shared combinators of
//! [`crate::grammar`] (issue 21).
//!
//! Why borrowing (issue 9): order lines are short (≈ 15 bytes), so the fixed
//! cost per line dominates parsing. Nearly every line a player or a bot
//! writes is already normal (ASCII, single spaces, no tab, no CR), so
//! [`normalize`] first checks the line in one pass over its bytes and hands
//! back the line itself; only a line that needs a change is copied. The
//! owned-`String` API ([`normalize_line`], [`numbered_lines`]) stays for the
//! parsers that keep lines.

use crate::orders::Parsed;
use std::borrow::Cow;

/// Tabs, NBSP, narrow NBSP and other Unicode spaces become one ASCII space; a
/// BOM, a zero-width space and CR vanish; runs of spaces collapse; the ends
/// are trimmed. Borrows the line when it is already normal.
pub fn normalize(line: &str) -> Cow<'_, str> {
    if is_normal(line) {
        Cow::Borrowed(line)
    } else {
        Cow::Owned(normalize_owned(line))
    }
}
/// The plain letters of an accented lower-case Latin letter as French and
/// German names write them (`é` → `e`, `ß` → `ss`, `œ` → `oe`); `None` for
/// any other character. Callers lower-case first. Without a Unicode
/// normalisation crate this covers the letters those names use, in NFC
/// (what mail clients send). One table for every crate that folds a name:
/// Scrambled Nations' territory names and the daemon's seat ids.
#[inline]
pub fn unaccented(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => "a",
        'ç' => "c",
        'è' | 'é' | 'ê' | 'ë' => "e",
        'ì' | 'í' | 'î' | 'ï' => "i",
        'ñ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => "o",
        'ù' | 'ú' | 'û' | 'ü' => "u",
        'ý' | 'ÿ' => "y",
        'œ' => "oe",
        'æ' => "ae",
        'ß' => "ss",
        _ => return None,
    })
}

/// [`normalize`] as an owned `String` (for parsers that keep the lines).
pub fn normalize_line(line: &str) -> String {
    normalize(line).into_owned()
}

/// Characters [`normalize_owned`] drops outright.
fn vanishes(c: char) -> bool {
    matches!(c, '\u{feff}' | '\r' | '\u{200b}')
}

/// True when [`normalize_owned`] would give the line back unchanged: no
/// character that vanishes, no whitespace but single ASCII spaces between
/// other characters. ASCII bytes are checked directly; a non-ASCII character
/// is decoded (it is never a separator byte of UTF-8, so the walk stays on
/// character boundaries).
fn is_normal(line: &str) -> bool {
    let b = line.as_bytes();
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return false;
    }
    if let Some(single) = printable_single_spaced(b) {
        return single;
    }
    let mut prev_space = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c < 0x80 {
            if c == b' ' {
                if prev_space {
                    return false;
                }
                prev_space = true;
            } else if (0x09..=0x0d).contains(&c) {
                // \t \n \v \f \r: the ASCII whitespace other than the space.
                return false;
            } else {
                prev_space = false;
            }
            i += 1;
        } else {
            let Some(ch) = line[i..].chars().next() else {
                return false;
            };
            if ch.is_whitespace() || vanishes(ch) {
                return false;
            }
            prev_space = false;
            i += ch.len_utf8();
        }
    }
    true
}

/// Bytes repeated in every byte of a word, and their high bits.
const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// For a line of printable ASCII (0x20 to 0x7f), whether no two spaces
/// follow each other; `None` for any other line. The usual order line is
/// such a line, and this reads it eight bytes at a time: the byte walk of
/// [`is_normal`] cost about fifteen instructions a byte, a tenth of every
/// parse (issue 21).
fn printable_single_spaced(b: &[u8]) -> Option<bool> {
    let (mut outside, mut double) = (0u64, 0u64);
    // `carry`: the high bit of the byte before `v` when it is a space; the
    // same for the last byte of `v` is returned.
    let mut step = |v: u64, carry: u64| {
        // A byte is outside when its high bit is set, or when adding 0x60
        // to its low seven bits does not reach the high bit (below 0x20);
        // no carry crosses bytes (0x7f + 0x60 < 0x100).
        outside |= (v | !((v & !HI) + LO * 0x60)) & HI;
        // The high bit of each byte that is a space, exactly: `t` is zero
        // in those bytes only.
        let t = v ^ (LO * u64::from(b' '));
        let space = !(((t & !HI) + !HI) | t) & HI;
        // Little-endian: byte i + 1 sits above byte i, and the last byte
        // of the word before is carried into this word's first.
        double |= (space & (space << 8)) | (space & carry);
        (space >> 56) & 0x80
    };
    let mut chunks = b.chunks_exact(8);
    let mut carry = 0;
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        carry = step(u64::from_le_bytes(w), carry);
    }
    let rest = chunks.remainder();
    match b.len().checked_sub(8) {
        _ if rest.is_empty() => {}
        Some(last) => {
            // The tail as the line's last eight bytes, which overlap the words
            // read: every pair of bytes in them is a pair of the line, and the
            // pair across their start was read already, so nothing is carried.
            // Padding the tail in a copy was a call to `memcpy` a line.
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[last..]);
            step(u64::from_le_bytes(w), 0);
        }
        None => {
            // A line under eight bytes, padded with a letter (printable, no
            // space).
            let mut w = [b'a'; 8];
            w[..rest.len()].copy_from_slice(rest);
            step(u64::from_le_bytes(w), 0);
        }
    }
    (outside == 0).then_some(double == 0)
}

/// The copying normalisation, for lines [`is_normal`] refuses.
fn normalize_owned(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut space = false;
    for c in line.chars() {
        let c = match c {
            c if vanishes(c) => continue,
            c if c.is_whitespace() => ' ',
            c => c,
        };
        if c == ' ' {
            if !space && !out.is_empty() {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

/// The lines of `text` as [`str::lines`] gives them (split at `\n`, one
/// `\r` before it dropped, no empty last line after a final `\n`), found
/// with `memchr`'s vector search: `str::lines` searches a `char` pattern,
/// byte by byte with a comparison per hit, a sixth of parsing a block of
/// short order lines (issue 21).
pub fn lines(text: &str) -> Lines<'_> {
    Lines { rest: text }
}

/// The iterator of [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        match newline(self.rest.as_bytes()) {
            Some(i) => {
                // `\n` is one byte of ASCII: both cuts are on boundaries.
                let (line, rest) = self.rest.split_at(i);
                self.rest = &rest[1..];
                Some(line.strip_suffix('\r').unwrap_or(line))
            }
            // A last line without `\n` keeps a `\r` (no line ending).
            None => Some(std::mem::take(&mut self.rest)),
        }
    }
}

/// The first `\n` of `b`. An order line is short (10 to 30 bytes): its
/// end is found eight bytes at a time in a word, where `memchr`'s vector
/// search spent more setting up than searching (a tenth of reading a
/// line); past 32 bytes the rest is left to `memchr`. Public for the
/// rulesets that cut their lines in their own loop (WWK's parser).
#[inline]
pub fn newline(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        if let Ok(word) = <[u8; 8]>::try_from(chunk) {
            let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'\n'));
            // The lowest byte flagged is the first zero byte of `x`
            // (a borrow only flags bytes above a zero one).
            let found = x.wrapping_sub(ONES) & !x & HIGH;
            if found != 0 {
                return Some(i + (found.trailing_zeros() / 8) as usize);
            }
        }
        i += 8;
        if i >= 32 {
            return memchr::memchr(b'\n', &b[i..]).map(|k| k + i);
        }
    }
    b[i..].iter().position(|&c| c == b'\n').map(|k| k + i)
}

/// How many `\n` bytes `text` holds (a parser reserves an order a line),
/// counted by `memchr`'s vector count: the iterator filter used before
/// took four bytes a step, about five instructions a byte of every parse
/// (issue 21).
pub fn newline_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count()
}

/// The numbered, normalised, non-empty lines of an order block (1-based),
/// borrowed from `text` wherever a line is already normal.
pub fn normalized_lines(text: &str) -> impl Iterator<Item = (usize, Cow<'_, str>)> + '_ {
    lines(text)
        .enumerate()
        .map(|(i, l)| (i + 1, normalize(l)))
        .filter(|(_, l)| !l.is_empty())
}

/// The numbered, normalised, non-empty lines of an order block (1-based), as
/// owned `String`s; [`normalized_lines`] borrows instead.
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, String)> + '_ {
    normalized_lines(text).map(|(no, l)| (no, l.into_owned()))
}

/// A grammar for one line of orders. `&mut self` lets a parser keep context
/// between lines (the current section of an EDS Befehlsblatt, say).
pub trait LineParser {
    type Order;

    /// A comment line, never an order. Default: starts with `#`.
    fn is_comment(&self, line: &str) -> bool {
        line.starts_with('#')
    }

    /// Parse one normalised line into zero or more orders and diagnostics,
    /// pushing them into `out` with the given line number.
    fn parse_line(&mut self, line_no: usize, line: &str, out: &mut Parsed<Self::Order>);
}

/// Drive a [`LineParser`] over a whole block: never stops at the first error.
pub fn parse_lines<P: LineParser>(parser: &mut P, text: &str) -> Parsed<P::Order> {
    let mut out = Parsed::new();
    // One order a line is the common case: reserving for every line up front
    // (a vectorised count of the newlines) spares the vector's regrowth,
    // whose large reallocations were a measurable share of parsing a long
    // block (issue 9).
    out.orders.reserve(newline_count(text) + 1);
    for (no, line) in normalized_lines(text) {
        if parser.is_comment(&line) {
            continue;
        }
        parser.parse_line(no, &line, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unaccented_gives_the_plain_letters_of_lower_case_letters_only() {
        let plain: String = "Éloïse Größe Œuvre çà"
            .chars()
            .flat_map(char::to_lowercase)
            .map(|c| unaccented(c).map_or(c.to_string(), str::to_string))
            .collect();
        assert_eq!(plain, "eloise grosse oeuvre ca");
        // Upper case is the caller's to lower; other scripts stay.
        assert_eq!(unaccented('É'), None);
        assert_eq!(unaccented('e'), None);
        assert_eq!(unaccented('ж'), None);
    }

    /// `n` seeded strings of fewer than `max` characters of `alphabet`
    /// (xorshift64).
    fn seeded_texts(
        seed: u64,
        n: usize,
        max: u64,
        alphabet: &[char],
    ) -> impl Iterator<Item = String> + '_ {
        let mut x = seed;
        (0..n).map(move |_| {
            let mut t = String::new();
            for _ in 0..(x % max) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                t.push(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            x = x.wrapping_add(1);
            t
        })
    }

    #[test]
    fn lines_are_str_lines() {
        let cases = [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\r",
            "\r\n",
            "a\n\r\n\n",
            "é\nü\r\n→",
            "a\rb\n",
            "\r\r\n",
        ];
        for c in cases {
            assert_eq!(
                lines(c).collect::<Vec<_>>(),
                c.lines().collect::<Vec<_>>(),
                "{c:?}"
            );
        }
        // Long lines: the word-at-a-time search and memchr's after it.
        for t in seeded_texts(
            0x51ed_270b_1a2f_4c3d,
            5_000,
            90,
            &['a', 'a', 'a', 'a', '\n', 'é'],
        ) {
            assert_eq!(
                lines(&t).collect::<Vec<_>>(),
                t.lines().collect::<Vec<_>>(),
                "{t:?}"
            );
        }
        // Seeded random blocks over the bytes that matter.
        for t in seeded_texts(
            0x9e37_79b9_7f4a_7c15,
            20_000,
            17,
            &['a', '\n', '\r', ' ', 'é'],
        ) {
            assert_eq!(
                lines(&t).collect::<Vec<_>>(),
                t.lines().collect::<Vec<_>>(),
                "{t:?}"
            );
        }
    }

    #[test]
    fn newlines_are_counted() {
        for t in seeded_texts(0x3c6e_f372_fe94_f82b, 5_000, 90, &['a', '\n', '\n', 'é']) {
            assert_eq!(newline_count(&t), t.matches('\n').count(), "{t:?}");
        }
        // Long runs, where the vector count takes over.
        for len in [2039, 2040, 2041, 4100, 9000] {
            let all = "\n".repeat(len);
            assert_eq!(newline_count(&all), len);
        }
    }

    #[test]
    fn normalizes_what_mail_clients_send() {
        assert_eq!(normalize_line("\u{feff}F_11\u{a0}\tM_12  \r"), "F_11 M_12");
        assert_eq!(normalize_line("   "), "");
    }

    /// The printable-ASCII shortcut of `is_normal` agrees with its walk.
    #[test]
    fn is_normal_agrees_with_the_copy() {
        let alphabet = [
            'a', ' ', ' ', 'Z', '\t', '\r', '\u{a0}', 'é', '~', '\u{7f}', '\u{1}',
        ];
        for t in seeded_texts(0x2545_f491_4f6c_dd1d, 100_000, 23, &alphabet) {
            assert_eq!(is_normal(&t), normalize_owned(&t) == t, "{t:?}");
        }
    }

    #[test]
    fn normal_lines_are_borrowed_not_copied() {
        assert!(matches!(normalize("F_11 M_12"), Cow::Borrowed("F_11 M_12")));
        assert!(matches!(normalize("M_1 C 2 VI é"), Cow::Borrowed(_)));
        assert!(matches!(normalize(""), Cow::Borrowed("")));
        for changed in [
            "F_11  M_12",
            " F_11",
            "F_11 ",
            "F_11\tM",
            "F\r",
            "\u{feff}F",
            "F\u{a0}M",
            "F\u{200b}",
        ] {
            assert!(matches!(normalize(changed), Cow::Owned(_)), "{changed:?}");
        }
    }

    /// The borrowing check agrees with the copying normalisation on every
    /// line: same result, and a borrow exactly when the copy would equal
    /// the input (seeded pseudo-random lines over the characters that
    /// matter: ASCII and Unicode spaces, vanishing characters, accents).
    #[test]
    fn normalize_agrees_with_the_copying_normalisation() {
        let alphabet: Vec<char> =
            "aZ_1 *\t\r\n\u{b}\u{c}\u{1c}\u{85}\u{a0}\u{202f}\u{3000}\u{2028}\u{feff}\u{200b}éß€😀"
                .chars()
                .collect();
        let mut seed: u64 = 9;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for _ in 0..20_000 {
            let len = next() % 12;
            let s: String = (0..len)
                .map(|_| alphabet[next() % alphabet.len()])
                .collect();
            let copied = normalize_owned(&s);
            let got = normalize(&s);
            assert_eq!(got, copied, "{s:?}");
            assert_eq!(matches!(got, Cow::Borrowed(_)), copied == s, "{s:?}");
        }
    }

    struct Words;
    impl LineParser for Words {
        type Order = String;
        fn parse_line(&mut self, no: usize, line: &str, out: &mut Parsed<String>) {
            if line.starts_with("BAD") {
                out.error(no, line, "bad");
            } else {
                out.push(no, line, line.to_string());
            }
        }
    }

    #[test]
    fn parse_lines_keeps_going_after_errors() {
        let p = parse_lines(&mut Words, "A\n\nBAD 1\n# comment\nB\nBAD 2");
        assert_eq!(
            p.orders.iter().map(|o| o.line).collect::<Vec<_>>(),
            vec![1, 5]
        );
        assert_eq!(
            p.diagnostics.iter().map(|d| d.line).collect::<Vec<_>>(),
            vec![3, 6]
        );
    }
}
