//! Scrambled Nations' commonest order lines read in one pass over their
//! bytes, for the lines that are right (issue 21): `MOVE <n>|ALL <id> ->
//! <id>` and a lone `READY`, in the rulebook's notation (spec §6.4, the
//! rulebook's "Ordres": "Déplacer des troupes", "Prêt"). They are nearly
//! every line a bot writes (a bot's block is its moves, then `READY`), and
//! for them the grammar's steps (the line cut out and vouched normal, its
//! first word classified as a keyword, its words cut again by the order's
//! shape, the quantity read, each territory's id packed and looked up)
//! were over two fifths of a parse's instructions, on lines of fifteen
//! bytes.
//!
//! [`read`] gives either what the grammar ([`crate::grammar`] and the
//! checks of [`crate::parser`]) reads on the line, or gives up: it never
//! refuses a line, so every refusal and warning and its text still comes
//! from the grammar's path (a move the checks refuse, its territories
//! found here, is handed back to the grammar whole by the parser). It
//! gives up at the first thing out of the ordinary: a byte that is not an
//! upper-case ASCII letter or a digit where a word is read, any spelling
//! but `MOVE`, `ALL`, `->` and `READY` exactly (so lower case, French,
//! accents, quotes, comments, a `\r`, two spaces are the grammar's), a
//! quantity with a leading zero or past the rulebook's 10^12, a territory
//! written by its name rather than its id, or one the state's
//! [`Index`] does not hold. Only an indexed parse asks it (the turn's and
//! the bench's).
//!
//! It reads the block's text from where the next line starts, to the line
//! end: a line of those bytes, single spaces between words, is already
//! normal and holds no quote or comment, so it is the line that
//! `line_scan` would give, read as the grammar reads a plain line. The
//! grammar stays the definition: `tests/grammar_differential.rs`
//! (`fast_path_reads_what_the_grammar_reads`) checks on the corpus, its
//! mutants and whole blocks that where this reads a line, the grammar
//! gives the same orders, warnings and refusals.

use crate::orders::Qty;
use crate::parse_index::Index;

/// A line read, before the checks against the state (which are the
/// grammar's own, [`crate::parser`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// `READY`.
    Ready,
    /// `MOVE`, its territories as the index's rows.
    Move { qty: Qty, from: u32, to: u32 },
}

/// The largest quantity the grammar takes (`parser::qty`).
const LIMIT: u64 = 1_000_000_000_000;

/// The bytes of an id word this reader takes: upper-case ASCII letters and
/// digits (ids are at most 16 of them, `world.rs`), where the grammar
/// would upper-case or fold the others first.
static ID: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = b'A';
    while c <= b'Z' {
        t[c as usize] = true;
        c += 1;
    }
    let mut c = b'0';
    while c <= b'9' {
        t[c as usize] = true;
        c += 1;
    }
    t
};

/// The line that starts `rest` (a block's text from a line's start), and
/// its length in bytes without its `\n`; None where this reader gives up
/// (see the module doc).
#[inline]
pub fn read(ix: &Index, rest: &str) -> Option<(Line, usize)> {
    let b = rest.as_bytes();
    match b.get(..5)? {
        b"READY" => return ends(b, 5).then_some((Line::Ready, 5)),
        b"MOVE " => {}
        _ => return None,
    }
    let mut k = 5;
    let qty = if b.get(k..k + 4) == Some(b"ALL ") {
        k += 4;
        Qty::All
    } else {
        let start = k;
        let mut n = 0u64;
        while let Some(d) = b.get(k).map(|c| c.wrapping_sub(b'0')).filter(|&d| d <= 9) {
            // Past 13 digits (or one with a leading zero, below) the
            // grammar's reading of the number is left to it.
            if k - start == 13 {
                return None;
            }
            n = n * 10 + u64::from(d);
            k += 1;
        }
        if k == start || b.get(start) == Some(&b'0') || n > LIMIT || b.get(k) != Some(&b' ') {
            return None;
        }
        k += 1;
        Qty::N(n)
    };
    // The grammar takes the origin's first word whatever it is, then looks
    // for the arrow: one id word then ` -> ` is its reading too.
    let (from, k) = id(b, k)?;
    if b.get(k..k + 4) != Some(b" -> ") {
        return None;
    }
    let (to, k) = id(b, k + 4)?;
    if !ends(b, k) {
        return None;
    }
    let line = Line::Move {
        qty,
        from: ix.by_key(from)?,
        to: ix.by_key(to)?,
    };
    Some((line, k))
}

/// The id word at `k`, packed as the index keys ids (the bytes are upper
/// case already, none a NUL), and where it ends.
#[inline(always)]
fn id(b: &[u8], mut k: usize) -> Option<(u128, usize)> {
    let start = k;
    let mut key = 0u128;
    while let Some(&c) = b.get(k).filter(|&&c| ID[c as usize]) {
        if k - start == 16 {
            return None;
        }
        key |= u128::from(c) << (8 * (k - start));
        k += 1;
    }
    (k > start).then_some((key, k))
}

/// The line ends at `k`: a `\n`, or the end of the block (a `\r` before
/// the `\n` is the grammar's).
#[inline(always)]
fn ends(b: &[u8], k: usize) -> bool {
    matches!(b.get(k), None | Some(b'\n'))
}
