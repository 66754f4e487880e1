//! WWK's commonest order lines read in one pass over their bytes, for the
//! lines that are right (issue 21): `NAT RESEARCH <field> <weight> ...`,
//! `<zone> BUILD <unit> <n>` and `<zone> <n>|ALL <unit> MOVE <zone> ...`,
//! in the rulebook's bracket notation (spec §3.2, WWK-8, WWK-9). They are
//! nearly every line a bot writes, and for them the grammar's steps (the
//! line upper-cased and cut into a slot array of words, then the words
//! matched form by form, each keyword compared as a string) were over two
//! fifths of a parse's instructions.
//!
//! [`read`] gives either what the grammar (the words of [`crate::grammar`]
//! and the matcher of [`crate::parser`]) gives the line, or gives up: it
//! never refuses a line, so every refusal and warning and its text still
//! comes from the grammar alone. It gives up at the first thing out of the
//! ordinary: a byte that is not an upper-case ASCII letter, a digit, a
//! space or a bracket (so a line the grammar would upper-case is the
//! grammar's), a number the grammar would refuse or that has more than
//! seven digits, an unknown zone or unit, a unit the nation's technology
//! cannot build, a form or keyword it does not read. The grammar stays the
//! definition: `tests/grammar_differential.rs` checks on the corpus and its
//! mutants that where this reads a line, the grammar reads the same order.
//!
//! The tokens are the grammar's: a bracket is a separator like the space,
//! a word is a maximal run of other bytes, and a zone or unit code goes
//! through the grammar's aliases (`grammar::alias`) before it is
//! looked up. Keywords are compared as written, which is the same: no
//! keyword read here is an alias or an alias's result.

use crate::catalog;
use crate::grammar::alias;
use crate::model::{Field, Map, Nation};
use crate::orders::{Mission, Order, Path, Selector};

/// What a line gives before the block's own checks (the issuing zone's
/// right to order, the budgets, the receipt), which are the same for both
/// readers.
#[derive(Debug, PartialEq, Eq)]
pub enum Read<'l> {
    /// A national order, and whether it costs a national action.
    National(Order, bool),
    /// A local order of the zone written `issuer`, at map position `at`;
    /// whether it costs one of the zone's orders, and whether it is an
    /// economic order that a restored economy may give for free.
    Local {
        issuer: &'l str,
        at: usize,
        order: Order,
        costs: bool,
        econ: bool,
    },
}

const OTHER: u8 = 0;
const SEP: u8 = 1;
const WORD: u8 = 2;

/// Each byte's class: a separator, a byte of a word this reader takes (an
/// upper-case ASCII letter or a digit), or anything else, where it gives up.
static CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    t[b' ' as usize] = SEP;
    t[b'[' as usize] = SEP;
    t[b']' as usize] = SEP;
    let mut c = b'A';
    while c <= b'Z' {
        t[c as usize] = WORD;
        c += 1;
    }
    let mut c = b'0';
    while c <= b'9' {
        t[c as usize] = WORD;
        c += 1;
    }
    t
};

struct Lex<'l> {
    line: &'l str,
    /// Where the last word read starts.
    start: usize,
    k: usize,
    /// A byte of no class this reader takes was met: the line is the
    /// grammar's, whatever was read before it.
    odd: bool,
    /// Two separators or more were met in a row: the line may hold two
    /// spaces in a row, which [`read_plain`] must look for.
    wide: bool,
}

impl<'l> Lex<'l> {
    /// The next word as written, as bytes (a keyword, a number: no `str`
    /// slice made, whose boundary checks were a call a word); None at the
    /// end of the line, and at a byte this reader does not take (then `odd`
    /// is set).
    #[inline(always)]
    fn word(&mut self) -> Option<&'l [u8]> {
        let b = self.line.as_bytes();
        let mut k = self.k;
        while let Some(&SEP) = b.get(k).map(|&c| &CLASS[c as usize]) {
            k += 1;
        }
        self.wide |= k > self.k + 1;
        let start = k;
        while let Some(&WORD) = b.get(k).map(|&c| &CLASS[c as usize]) {
            k += 1;
        }
        self.start = start;
        self.k = k;
        if k < b.len() && CLASS[b[k] as usize] != SEP {
            self.odd = true;
            return None;
        }
        if k == start {
            return None;
        }
        b.get(start..k)
    }

    /// The next word as text, the grammar's aliases applied (a zone's or a
    /// unit's code).
    #[inline(always)]
    fn code(&mut self) -> Option<&'l str> {
        self.word()?;
        self.text()
    }

    /// The last word read as text, aliases applied.
    #[inline(always)]
    fn text(&self) -> Option<&'l str> {
        // Both ends are next to an ASCII byte or an end: char boundaries.
        self.line.get(self.start..self.k).map(alias)
    }

    /// The line is read to its end, and had nothing out of the ordinary.
    #[inline(always)]
    fn done(&mut self) -> bool {
        self.word().is_none() && !self.odd
    }
}

/// A word of one to seven digits, as its value (a longer one is left to
/// the grammar, which reads leading zeros and large numbers).
#[inline(always)]
fn digits(b: &[u8]) -> Option<u32> {
    if b.is_empty() || b.len() > 7 {
        return None;
    }
    let mut n = 0u32;
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = n * 10 + u32::from(d);
    }
    Some(n)
}

/// A quantity as the grammar takes it ([`crate::parser`]'s `num`: above 0,
/// under a million).
#[inline(always)]
fn quantity(w: &[u8]) -> Option<usize> {
    digits(w)
        .filter(|&v| v > 0 && v < 1_000_000)
        .map(|v| v as usize)
}

/// A research field, as the grammar spells them.
#[inline(always)]
fn field(w: &[u8]) -> Option<Field> {
    Some(match w {
        b"I" => Field::I,
        b"V" => Field::V,
        b"A" => Field::A,
        b"NV" => Field::Nv,
        b"N" => Field::N,
        b"L" => Field::L,
        _ => return None,
    })
}

/// A unit group's code, as the grammar's static spelling (no alias turns
/// a word into one, nor changes one).
#[inline(always)]
fn group(w: &[u8]) -> Option<&'static str> {
    Some(match w {
        b"I" => "I",
        b"V" => "V",
        b"A" => "A",
        b"NV" => "NV",
        _ => return None,
    })
}

/// The order the grammar reads on `line`, or None where this reader gives
/// up (see the module doc). `nat` is the ordering nation's entry (a unit
/// its technology cannot build is left to the grammar, which refuses it).
pub fn read<'l>(map: &Map, nat: Option<&Nation>, line: &'l str) -> Option<Read<'l>> {
    read_with::<false>(map, nat, line)
}

/// [`read`] for a line as the mail gives it, before
/// [`arbitre_core::text::normalize`]: None also where the normalisation
/// would change the line. A line this reader takes holds no whitespace but
/// spaces and no character the normalisation drops, so it is unchanged
/// exactly when it neither starts nor ends with a space nor holds two in a
/// row; the block's lines are nearly all such, and reading them without the
/// normalisation's pass spares a fifteenth of a parse (issue 21).
pub fn read_plain<'l>(map: &Map, nat: Option<&Nation>, line: &'l str) -> Option<Read<'l>> {
    read_with::<true>(map, nat, line)
}

impl Lex<'_> {
    /// Where `PLAIN`, the line is as the normalisation leaves it: two
    /// spaces in a row lie in a run of separators of two or more, and the
    /// ends were checked first.
    #[inline(always)]
    fn plain<const PLAIN: bool>(&self) -> bool {
        !PLAIN || !self.wide || !self.line.as_bytes().windows(2).any(|w| w == b"  ")
    }
}

/// [`read`], or [`read_plain`] where `PLAIN`: one body, each result
/// written once where the caller wants it.
#[inline(always)]
fn read_with<'l, const PLAIN: bool>(
    map: &Map,
    nat: Option<&Nation>,
    line: &'l str,
) -> Option<Read<'l>> {
    if PLAIN {
        let b = line.as_bytes();
        if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
            return None;
        }
    }
    let mut lx = Lex {
        line,
        start: 0,
        k: 0,
        odd: false,
        wide: false,
    };
    if lx.word()? == b"NAT" {
        let o = research(&mut lx)?;
        if !lx.plain::<PLAIN>() {
            return None;
        }
        return Some(Read::National(o, false));
    }
    let issuer = lx.text()?;
    let (at, zone) = map.lookup(issuer)?;
    let second = lx.word()?;
    if second == b"BUILD" {
        let s = catalog::spec(lx.code()?)?;
        let q = quantity(lx.word()?)?;
        // The grammar takes more words here (a host, an army, a
        // resource): those lines are its.
        if !lx.done() || !lx.plain::<PLAIN>() {
            return None;
        }
        let n = nat?;
        if s.tech.iter().any(|(f, l)| n.tech.get(*f) < *l) {
            return None;
        }
        let order = Order::Build {
            zone,
            code: s.code,
            q,
            host: None,
            army: None,
            res: None,
        };
        // A build is not counted against the zone's orders, as the grammar
        // counts it.
        return Some(Read::Local {
            issuer,
            at,
            order,
            costs: false,
            econ: false,
        });
    }
    let count = if second == b"ALL" {
        None
    } else {
        Some(quantity(second)?)
    };
    let unit = lx.word()?;
    let sel = match group(unit) {
        Some(g) => Selector::Group(count, g),
        // `ARMY` is no unit of the catalog: `ALL ARMY` is the grammar's.
        None => Selector::Units(count, catalog::spec(lx.text()?)?.code),
    };
    if lx.word()? != b"MOVE" {
        return None;
    }
    // Up to three steps, the issuing zone written first not one of them
    // (told by its position: one code a position where the map has a
    // zone, and the codes compared were a call to `memcmp`).
    let (p, mut first) = map.lookup(lx.code()?)?;
    if p == at {
        first = map.zone_id(lx.code()?)?;
    }
    let path = match lx.word() {
        None => Path::One([first]),
        Some(_) => {
            let mut path = Vec::with_capacity(3);
            path.push(first);
            loop {
                path.push(map.zone_id(lx.text()?)?);
                if lx.word().is_none() {
                    break;
                }
                if path.len() == 3 {
                    return None;
                }
            }
            Path::Many(path)
        }
    };
    if lx.odd || !lx.plain::<PLAIN>() {
        return None;
    }
    let order = Order::Mil {
        zone,
        sel,
        mission: Mission::Move(path),
    };
    Some(Read::Local {
        issuer,
        at,
        order,
        costs: true,
        econ: false,
    })
}

/// `RESEARCH` and its pairs of field and weight, after `NAT`.
///
/// The pairs are scanned byte by byte rather than word by word: a field is
/// one or two letters and a weight a few digits, so the weight is read as
/// it is scanned, and no word slice is cut (the line is over a third of a bot's
/// block, issue 21). The tokens are still the grammar's: separators
/// between any two words, a field exactly `I`, `V`, `A`, `NV`, `N` or `L`,
/// a weight of digits only, of at most seven, worth at most 1000.
#[inline(always)]
fn research(lx: &mut Lex<'_>) -> Option<Order> {
    if lx.word()? != b"RESEARCH" {
        return None;
    }
    let b = lx.line.as_bytes();
    let is_sep = |k: usize| b.get(k).is_some_and(|&c| CLASS[c as usize] == SEP);
    let mut k = lx.k;
    let mut w = [0i64; 6];
    let mut read_one = false;
    loop {
        let from = k;
        while is_sep(k) {
            k += 1;
        }
        lx.wide |= k > from + 1;
        if k >= b.len() {
            return read_one.then_some(Order::Research(w));
        }
        let (f, len) = match (b.get(k), b.get(k + 1)) {
            (Some(b'N'), Some(b'V')) => (Field::Nv, 2),
            (Some(&c), _) => (field(&[c])?, 1),
            _ => return None,
        };
        k += len;
        // The field's word ends here: at least one separator follows, then
        // the weight.
        if !is_sep(k) {
            return None;
        }
        let from = k;
        while is_sep(k) {
            k += 1;
        }
        lx.wide |= k > from + 1;
        let start = k;
        let mut v = 0u32;
        while let Some(d) = b.get(k).map(|c| c.wrapping_sub(b'0')).filter(|&d| d <= 9) {
            if k - start == 7 {
                return None;
            }
            v = v * 10 + u32::from(d);
            k += 1;
        }
        if k == start || v > 1000 || (k < b.len() && !is_sep(k)) {
            return None;
        }
        // A field named twice keeps its last weight, as in the grammar.
        w[f.idx()] = i64::from(v);
        read_one = true;
    }
}
