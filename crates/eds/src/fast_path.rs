//! The entries of the Befehlsblatt read in one pass over their bytes, for
//! the entries that are right (issue 21): nearly every entry a player or a
//! bot writes is one, and for them the grammar's way (every field found
//! and trimmed into slots first, then each read again by its combinator,
//! each refusal prepared for) was about 540 instructions an entry, a third
//! of an EDS parse.
//!
//! [`entry`] either gives the order and note the grammar
//! ([`crate::grammar::entry_by_grammar`]) gives the entry, or gives up: it
//! never refuses one, so every refusal and its column still come from the
//! grammar alone. It gives up at the first thing out of the ordinary (a
//! field that is not what its column wants, a number over the column's
//! limit, a value out of range, a field too many or too few, one of
//! Unicode's blanks beside a number or a letter), and the grammar then
//! reads the entry from its start.
//!
//! The fields are the grammar's: split at every comma, each trimmed of the
//! blanks `char::is_whitespace` takes; a number is ASCII digits only,
//! leading zeros allowed; a letter is one ASCII character in any case.
//! `tests/grammar_differential.rs` checks that on the corpus and its
//! mutants, under every section, the fast path's orders are the grammar's.

use crate::grammar::{MAX_DESIGN, MAX_INT, NOTE_RETREAT_DEFAULT};
use crate::model::{FType, Facility, Good};
use crate::orders::Order;
use arbitre_core::grammar::{trim_end_ws, trim_start_ws};

/// ' ' and \t \n \v \f \r: the ASCII characters `char::is_whitespace` takes
/// (and `trim_start_ws` / `trim_end_ws` skip); a name is trimmed by those
/// functions themselves, Unicode's blanks included.
#[inline]
fn blank(c: u8) -> bool {
    c == b' ' || (0x09..=0x0d).contains(&c)
}

struct Cur<'a> {
    text: &'a str,
    b: &'a [u8],
    k: usize,
}

impl<'a> Cur<'a> {
    #[inline]
    fn skip_blanks(&mut self) {
        while self.b.get(self.k).is_some_and(|&c| blank(c)) {
            self.k += 1;
        }
    }

    /// Past the end of a field: `Some(true)` at a comma (consumed, another
    /// field follows), `Some(false)` at the end of the entry, `None` at
    /// anything else (the field is not what its column wants).
    #[inline]
    fn field_end(&mut self) -> Option<bool> {
        self.skip_blanks();
        match self.b.get(self.k) {
            None => Some(false),
            Some(b',') => {
                self.k += 1;
                Some(true)
            }
            Some(_) => None,
        }
    }

    /// A number field up to `max` (≤ [`MAX_INT`]), and whether another
    /// field follows it. Inlined everywhere: as a call, the cursor went
    /// through memory and the call cost about as much as the digits.
    #[inline(always)]
    fn number(&mut self, max: u32) -> Option<(u32, bool)> {
        self.skip_blanks();
        let start = self.k;
        let mut n: u32 = 0;
        while let Some(&c) = self.b.get(self.k) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            // n ≤ MAX_INT before: 10 * n + 9 stays inside u64.
            let m = u64::from(n) * 10 + u64::from(d);
            if m > u64::from(max) {
                return None;
            }
            n = m as u32;
            self.k += 1;
        }
        if self.k == start {
            return None;
        }
        Some((n, self.field_end()?))
    }

    /// [`Cur::number`] where the column says whether a field follows
    /// (`more`) or the entry ends.
    #[inline]
    fn int(&mut self, max: u32, more: bool) -> Option<u32> {
        match self.number(max)? {
            (n, m) if m == more => Some(n),
            _ => None,
        }
    }

    /// A field of one ASCII character (upper-cased), followed by another
    /// field (`more`) or by the end of the entry.
    #[inline]
    fn letter(&mut self, more: bool) -> Option<u8> {
        self.skip_blanks();
        let c = *self.b.get(self.k)?;
        self.k += 1;
        if c.is_ascii() && self.field_end()? == more {
            Some(c.to_ascii_uppercase())
        } else {
            None
        }
    }

    /// A free field (a name), trimmed as the grammar trims it, up to the
    /// next comma (consumed) or the end; and whether another field follows.
    #[inline]
    fn name(&mut self) -> Option<(&'a str, bool)> {
        let start = self.k;
        let (end, more) = match self.b[start..].iter().position(|&c| c == b',') {
            Some(j) => (start + j, true),
            None => (self.b.len(), false),
        };
        self.k = if more { end + 1 } else { end };
        // `start` is 0 or past a comma and `end` at a comma or the end:
        // character boundaries, `,` being ASCII.
        let field = self.text.get(start..end)?;
        Some((trim_end_ws(trim_start_ws(field)), more))
    }
}

/// One entry of section `kind` when it is right, as
/// [`crate::grammar::entry_by_grammar`] reads it; `None` leaves it to the
/// grammar.
#[inline]
pub fn entry(kind: u8, text: &str) -> Option<(Order, Option<&'static str>)> {
    let mut c = Cur {
        text,
        b: text.as_bytes(),
        k: 0,
    };
    let order = match kind {
        1 | 2 => {
            let n = c.int(MAX_INT, true)?;
            let (name, more) = c.name()?;
            if more || name.is_empty() {
                return None;
            }
            let name = name.to_string();
            if kind == 1 {
                Order::StarName { star: n, name }
            } else {
                Order::ShipName { ship: n, name }
            }
        }
        3 => {
            let ruler = c.int(MAX_INT, true)?;
            let value = c.int(3, false)?;
            if value == 0 {
                return None;
            }
            Order::Status { ruler, value }
        }
        4 | 14 | 16 => {
            let n = c.int(MAX_INT, false)?;
            match kind {
                4 => Order::Repair { ship: n },
                14 => Order::Scrap { ship: n },
                _ => Order::Colonise { star: n },
            }
        }
        5 => {
            let ship = c.int(MAX_INT, true)?;
            let amount = c.int(MAX_INT, false)?;
            if amount == 0 {
                return None;
            }
            Order::Refuel { ship, amount }
        }
        6 => {
            let ship = c.int(MAX_INT, true)?;
            let r = c.int(4, false)?;
            Order::Retreat { ship, r }
        }
        7 => {
            let ship = c.int(MAX_INT, true)?;
            let fleet = match c.letter(true)? {
                b'A' => true,
                b'/' => false,
                _ => return None,
            };
            let x = c.int(MAX_INT, true)? as i32;
            let y = c.int(MAX_INT, false)? as i32;
            Order::Jump { ship, fleet, x, y }
        }
        8 | 9 => {
            let ship = c.int(MAX_INT, true)?;
            let good = match c.letter(true)? {
                b'E' => Good::E,
                b'U' => Good::U,
                b'G' => Good::G,
                _ => return None,
            };
            let amount = c.int(MAX_INT, false)?;
            if amount == 0 {
                return None;
            }
            if kind == 8 {
                Order::Unload { ship, good, amount }
            } else {
                Order::Load { ship, good, amount }
            }
        }
        10 | 11 => {
            let ship = c.int(MAX_INT, true)?;
            let l = c.int(MAX_INT, true)?;
            let t = c.int(MAX_INT, false)?;
            if l + t == 0 {
                return None;
            }
            if kind == 10 {
                Order::FightersOut { ship, l, t }
            } else {
                Order::FightersIn { ship, l, t }
            }
        }
        12 => {
            let star = c.int(MAX_INT, true)?;
            let kind = match c.letter(true)? {
                b'L' => FType::L,
                b'T' => FType::T,
                _ => return None,
            };
            let count = c.int(MAX_INT, false)?;
            if count == 0 {
                return None;
            }
            Order::BuildFighters { star, kind, count }
        }
        13 => return ship_design(&mut c),
        15 => {
            let star = c.int(MAX_INT, true)?;
            let f = c.letter(false)?;
            let facility = match f {
                b'W' => Some(Facility::W),
                b'E' => Some(Facility::E),
                b'U' => Some(Facility::U),
                b'G' => Some(Facility::G),
                b'F' => Some(Facility::F),
                b'-' => None,
                _ => return None,
            };
            Order::Industry { star, facility }
        }
        17 => {
            let ruler = c.int(MAX_INT, true)?;
            let amount = c.int(MAX_INT, false)?;
            if amount == 0 {
                return None;
            }
            Order::Transfer {
                ruler,
                amount: i64::from(amount),
            }
        }
        18 => {
            let star = c.int(MAX_INT, true)?;
            let ruler = c.int(MAX_INT, false)?;
            Order::Handover { star, ruler }
        }
        _ => return None,
    };
    Some((order, None))
}

/// Section 13: star, name, class letter, ten counts, and the Rückzugszahl
/// or nothing (2 assumed, with the note).
fn ship_design(c: &mut Cur<'_>) -> Option<(Order, Option<&'static str>)> {
    let star = c.int(MAX_INT, true)?;
    let (name, more) = c.name()?;
    if !more {
        return None;
    }
    let class = c.letter(true)?;
    if !class.is_ascii_alphabetic() {
        return None;
    }
    let typ = u32::from(class - b'A') + 1;
    let mut n = [0u32; 10];
    for v in &mut n[..9] {
        *v = c.int(MAX_DESIGN, true)?;
    }
    // The tenth count ends the entry (13 fields, the Rückzugszahl left
    // out) or the Rückzugszahl follows it.
    let (tenth, more) = c.number(MAX_DESIGN)?;
    n[9] = tenth;
    let (r, note) = if more {
        (c.int(4, false)?, None)
    } else {
        (2, Some(NOTE_RETREAT_DEFAULT))
    };
    Some((crate::grammar::design_order(star, name, typ, n, r), note))
}
