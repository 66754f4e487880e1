//! The plain-text Befehlsblatt (spec §3.4) in nom, on the combinators of
//! `arbitre_core::grammar` (issue 21).
//!
//! A sheet is read line by line, as the Befehlsblatt is laid out:
//!
//! ```text
//! EDS BEFEHLE / GALAXIS: … / HERRSCHER: … / KENNWORT: …   template lines, ignored
//! MONAT: J1/M2                 the month ordered; another month voids the sheet (EDS-15)
//! [7 SPRUNG]  [7]  [SPRUNG]    a section: its number, its name, or both (§3.4.2)
//! 47,A,87,23 / 8,/,15,4        entries of the section, ` / ` between them (§3.4.3)
//! [ANZEIGER] [DIPLOMATIE nn] [HINWEIS]   free text up to the next section
//! # …                          a comment
//! ENDE                         the end of the sheet
//! ```
//!
//! An entry is the section's fields separated by commas, as the
//! Befehlsblatt's column heads give them ([`SECTION_SYNTAX`]); each kind has
//! its function below ([`entry`]). Section names and keywords compare in any
//! case with umlauts spelled out (`RÜCKZUG` = `RUECKZUG`).
//!
//! Nothing is checked against money or stock here ("Bei der Eingabe wird
//! nichts gesperrt", §3.1): syntax and entry limits only. A refused entry
//! says the column and what was expected there, in German, the game's
//! language: `Syntaxfehler (Spalte 4: erwartet E, U oder G, gefunden „X“) –
//! Befehl verworfen`. Parsing borrows the sheet; an accepted entry
//! allocates only a name it carries (sections 1, 2, 13).
//!
//! [`SECTION_SYNTAX`]: crate::orders::SECTION_SYNTAX

use crate::model::{FType, Facility, Good};
use crate::orders::{BuildOrder, Order, SECTION_NAMES};
use arbitre_core::grammar::{
    self, fields, fold_eq, number, strip_folded, Expected, Fields, Fold, Problem, Sentence,
};
use arbitre_core::nom::Err;
use arbitre_core::Lang;
use std::fmt::Write as _;

/// The largest number an order field may hold: a cap far above any legal
/// amount keeps every sum of fields inside u32.
pub const MAX_INT: u32 = 1_000_000_000;
/// The largest count in a ship design (ten of them are summed and squared).
pub const MAX_DESIGN: u32 = 99_999;
/// The most fields an entry has (a ship design, section 13).
const MAX_FIELDS: usize = 14;
/// The most fields of an entry outside section 13 (a jump's four).
const SHORT_FIELDS: usize = 4;

/// EDS's own reasons for refusing an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eds {
    /// `want` fields (or `want` − 1 in a ship design), `got` given.
    FieldCount {
        want: usize,
        or_one_less: bool,
        got: usize,
    },
    NameMissing,
    StatusRange,
    /// An amount, count or sum (`what`) of at least 1 (`unit`).
    AtLeastOne {
        what: &'static str,
        unit: &'static str,
    },
    RetreatRange,
    NoFighters,
    ClassLetter,
}

impl Sentence for Eds {
    fn write_sentence(&self, _: Lang, out: &mut String) {
        // The Befehlsblatt and every player of EDS speak German.
        let _ = match self {
            Eds::FieldCount {
                want,
                or_one_less,
                got,
            } => {
                if *or_one_less {
                    write!(
                        out,
                        "{want} Felder erwartet (oder {}), {got} angegeben",
                        want - 1
                    )
                } else {
                    write!(out, "{want} Felder erwartet, {got} angegeben")
                }
            }
            Eds::NameMissing => write!(out, "Name fehlt"),
            Eds::StatusRange => write!(out, "Status muss 1, 2 oder 3 sein"),
            Eds::AtLeastOne { what, unit } => write!(out, "{what} muss mindestens 1{unit} sein"),
            Eds::RetreatRange => write!(out, "Rückzugszahl muss 0 bis 4 sein"),
            Eds::NoFighters => write!(out, "keine Jäger angegeben"),
            Eds::ClassLetter => write!(out, "Klasse muss ein Buchstabe A bis Z sein"),
        };
    }
}

type Fail<'a> = grammar::Fail<'a, Eds>;
/// A refused entry.
pub type EntryError<'a> = grammar::GrammarError<'a, Eds>;

/// Which section the sheet is in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Section {
    None,
    Orders(u8),
    Anzeiger,
    Diplomatie(u8),
    Hinweis,
}

/// The name inside `[…]`: `7`, `SPRUNG`, `7 SPRUNG` (number and name must
/// agree; a number out of 1–18 yields to a good name), `ANZEIGER`,
/// `DIPLOMATIE nn`, `HINWEIS`.
pub fn section_name(inner: &str) -> Option<Section> {
    let t = grammar::trim_end_ws(grammar::trim_start_ws(inner));
    // The template's own headers (`5 AUFTANKEN`): number and name that
    // agree. A header starting with a digit is none of the free-text
    // sections, and the section names are distinct, so this is what the
    // general reading below gives; it skipped four name comparisons and a
    // search of the eighteen names (issue 21 item 4).
    let n = match t.as_bytes() {
        [d @ b'0'..=b'9', b' ', ..] => Some((d - b'0', 2)),
        [d @ b'0'..=b'9', e @ b'0'..=b'9', b' ', ..] => Some(((d - b'0') * 10 + (e - b'0'), 3)),
        _ => None,
    };
    if let Some((n, skip)) = n {
        let known = SECTION_NAMES.get(usize::from(n).wrapping_sub(1));
        // The template writes the names in upper case: compared as bytes
        // first (`memcmp`), where the comparison in any case took fifteen
        // instructions a letter (issue 21).
        let name = &t[skip..];
        if known.is_some_and(|k| k.as_bytes() == name.as_bytes() || k.eq_ignore_ascii_case(name)) {
            return Some(Section::Orders(n));
        }
    }
    if fold_eq(t, "ANZEIGER", Fold::Umlauts) {
        return Some(Section::Anzeiger);
    }
    if fold_eq(t, "HINWEIS", Fold::Umlauts) {
        return Some(Section::Hinweis);
    }
    if let Some(rest) = strip_folded(t, "DIPLOMATIE", Fold::Umlauts) {
        // `str::parse` rules, as the template always had: `+5`, `05`.
        return rest.trim().parse::<u8>().ok().map(Section::Diplomatie);
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (num, name) = match t.split_once(' ') {
        Some((a, b)) if digits(a) => (Some(a), b),
        _ if digits(t) => (Some(t), ""),
        _ => (None, t),
    };
    let by_num = num
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| (1..=18).contains(n));
    // An ASCII name (nearly every header) is compared with each section's
    // name directly, lengths first: `fold_eq` per name was the largest
    // part of reading a header (issue 21 item 4).
    let by_name = if name.is_ascii() {
        SECTION_NAMES
            .iter()
            .position(|s| s.eq_ignore_ascii_case(name))
    } else {
        SECTION_NAMES
            .iter()
            .position(|s| fold_eq(name, s, Fold::Umlauts))
    }
    .map(|i| i + 1);
    match (by_num, by_name, name.is_empty()) {
        (Some(n), _, true) => Some(Section::Orders(n as u8)),
        (Some(n), Some(m), false) if n == m => Some(Section::Orders(n as u8)),
        (None, Some(m), _) => Some(Section::Orders(m as u8)),
        _ => None,
    }
}

/// The entries of a line: a `/` separates entries only when the nearest
/// non-blank characters on both sides are not commas (§3.4.3), so `8,/,15,4`
/// is one jump entry and `27 / 103` two. Each entry is trimmed and borrowed
/// from the line; empty ones are skipped. (On bytes: `/`, `,` and the blank
/// are ASCII and never inside a UTF-8 sequence.)
pub fn entries(line: &str) -> impl Iterator<Item = &str> {
    let b = line.as_bytes();
    let blank = |c: &&u8| c.is_ascii_whitespace();
    let mut start = 0;
    let mut k = 0;
    let mut done = false;
    std::iter::from_fn(move || loop {
        if done {
            return None;
        }
        let piece = loop {
            // Straight to the next `/` (most lines have none): the byte
            // walk was a twentieth of an EDS parse (issue 21 item 4).
            // (`str::find` of a `char` searches a word at a time; `k` is
            // 0 or just past a `/`, a character boundary.)
            match line.get(k..).and_then(|r| r.find('/')) {
                Some(j) => k += j,
                None => k = b.len(),
            }
            if k >= b.len() {
                done = true;
                break &line[start..];
            }
            let i = k;
            k += 1;
            if b[i] == b'/' {
                let left = b[..i].iter().rev().find(|c| !blank(c));
                let right = b[i + 1..].iter().find(|c| !blank(c));
                if left != Some(&b',') && right != Some(&b',') {
                    let p = &line[start..i];
                    start = i + 1;
                    break p;
                }
            }
        };
        let piece = grammar::trim_end_ws(grammar::trim_start_ws(piece));
        if !piece.is_empty() {
            return Some(piece);
        }
    })
}

/// A field that is a whole number up to [`MAX_INT`] (leading zeros
/// allowed, no sign, no separator: EDS-18).
fn int(f: &str) -> Result<u32, Fail<'_>> {
    whole(f, number(0, MAX_INT))
}

/// Runs `p` on the whole field `f`.
fn whole<'a, O>(
    f: &'a str,
    mut p: impl FnMut(&'a str) -> grammar::PResult<'a, O, Eds>,
) -> Result<O, Fail<'a>> {
    match p(f) {
        Ok(("", o)) => Ok(o),
        // A field ends at its comma: what follows the number is not one.
        Ok((rest, _)) => Err(Fail::expected(rest.trim_start(), Expected::Char(','))),
        Err(Err::Error(e) | Err::Failure(e)) => Err(e),
        Err(Err::Incomplete(_)) => Err(Fail::expected(f, Expected::Number)),
    }
}

/// A field that is one of the letters of `table`, in any case.
fn letter<'a, T: Copy>(
    f: &'a str,
    table: &'static [(&'static str, T)],
    names: &'static [&'static str],
) -> Result<T, Fail<'a>> {
    table
        .iter()
        .find(|(k, _)| f.eq_ignore_ascii_case(k))
        .map(|(_, v)| *v)
        .ok_or(Fail::expected(f, Expected::OneOf(names)))
}

fn custom(at: &str, why: Eds) -> Fail<'_> {
    Fail::new(at, Problem::Custom(why))
}

/// An amount of at least 1.
fn at_least_one<'a>(f: &'a str, what: &'static str, unit: &'static str) -> Result<u32, Fail<'a>> {
    match int(f)? {
        0 => Err(custom(f, Eds::AtLeastOne { what, unit })),
        v => Ok(v),
    }
}

/// A Rückzugszahl, 0 to 4.
fn retreat(f: &str) -> Result<u32, Fail<'_>> {
    match int(f)? {
        r @ 0..=4 => Ok(r),
        _ => Err(custom(f, Eds::RetreatRange)),
    }
}

const GOODS: &[(&str, Good)] = &[("E", Good::E), ("U", Good::U), ("G", Good::G)];
const FTYPES: &[(&str, FType)] = &[("L", FType::L), ("T", FType::T)];
const FACILITIES: &[(&str, Option<Facility>)] = &[
    ("W", Some(Facility::W)),
    ("E", Some(Facility::E)),
    ("U", Some(Facility::U)),
    ("G", Some(Facility::G)),
    ("F", Some(Facility::F)),
    ("-", None),
];

/// The note an accepted entry may carry (a warning).
pub const NOTE_RETREAT_DEFAULT: &str = "Rückzugszahl fehlt – 2 angenommen";

/// One entry of section `kind` (1–18), as the Befehlsblatt's column heads
/// say: the order, and a note when a default was assumed. A right entry is
/// read by [`crate::fast_path`]; anything else, and every refusal, by
/// [`entry_by_grammar`].
#[inline]
pub fn entry(kind: u8, text: &str) -> Result<(Order, Option<&'static str>), Fail<'_>> {
    match crate::fast_path::entry(kind, text) {
        Some(read) => Ok(read),
        None => entry_by_grammar(kind, text),
    }
}

/// [`entry`] by the grammar alone: the definition the fast path follows.
pub fn entry_by_grammar(kind: u8, text: &str) -> Result<(Order, Option<&'static str>), Fail<'_>> {
    if kind == 13 {
        return ship_design(text, &split::<MAX_FIELDS>(text)?);
    }
    // Every other kind has at most four fields: slots for fourteen were
    // 450 bytes set and moved for each `2,5` (issue 21 item 4). The count
    // stays exact, so a fifth field is still refused by its count.
    let f = split::<SHORT_FIELDS>(text)?;
    let count = f.count;
    let s = f.get();
    let want = |n: usize| {
        if count == n {
            Ok(())
        } else {
            Err(custom(
                text,
                Eds::FieldCount {
                    want: n,
                    or_one_less: false,
                    got: count,
                },
            ))
        }
    };
    let order = match kind {
        // Stern,Name / Schiff,Name
        1 | 2 => {
            want(2)?;
            let n = int(s[0])?;
            if s[1].is_empty() {
                return Err(custom(f.starts[1], Eds::NameMissing));
            }
            let name = s[1].to_string();
            if kind == 1 {
                Order::StarName { star: n, name }
            } else {
                Order::ShipName { ship: n, name }
            }
        }
        // Herrscher,Status
        3 => {
            want(2)?;
            let value = int(s[1])?;
            if !(1..=3).contains(&value) {
                return Err(custom(s[1], Eds::StatusRange));
            }
            Order::Status {
                ruler: int(s[0])?,
                value,
            }
        }
        // Schiff / Schiff / Stern
        4 | 14 | 16 => {
            want(1)?;
            let n = int(s[0])?;
            match kind {
                4 => Order::Repair { ship: n },
                14 => Order::Scrap { ship: n },
                _ => Order::Colonise { star: n },
            }
        }
        // Schiff,Uranmenge
        5 => {
            want(2)?;
            let amount = at_least_one(s[1], "Menge", "")?;
            Order::Refuel {
                ship: int(s[0])?,
                amount,
            }
        }
        // Schiff,Rückzugszahl
        6 => {
            want(2)?;
            let r = retreat(s[1])?;
            Order::Retreat {
                ship: int(s[0])?,
                r,
            }
        }
        // Schiff,A,X,Y oder Schiff,/,X,Y
        7 => {
            want(4)?;
            let fleet = letter(s[1], &[("A", true), ("/", false)], &["A", "/"])?;
            Order::Jump {
                ship: int(s[0])?,
                fleet,
                x: int(s[2])? as i32,
                y: int(s[3])? as i32,
            }
        }
        // Schiff,E/U/G,Menge
        8 | 9 => {
            want(3)?;
            let good = letter(s[1], GOODS, &["E", "U", "G"])?;
            let amount = at_least_one(s[2], "Menge", "")?;
            let ship = int(s[0])?;
            if kind == 8 {
                Order::Unload { ship, good, amount }
            } else {
                Order::Load { ship, good, amount }
            }
        }
        // Schiff,Laserjäger,Thermojäger
        10 | 11 => {
            want(3)?;
            let (ship, l, t) = (int(s[0])?, int(s[1])?, int(s[2])?);
            if l + t == 0 {
                return Err(custom(f.starts[1], Eds::NoFighters));
            }
            if kind == 10 {
                Order::FightersOut { ship, l, t }
            } else {
                Order::FightersIn { ship, l, t }
            }
        }
        // Werftstern,L/T,Anzahl
        12 => {
            want(3)?;
            let kind = letter(s[1], FTYPES, &["L", "T"])?;
            let count = at_least_one(s[2], "Anzahl", "")?;
            Order::BuildFighters {
                star: int(s[0])?,
                kind,
                count,
            }
        }
        // Stern,W/E/U/G/F/-
        15 => {
            want(2)?;
            let facility = letter(s[1], FACILITIES, &["W", "E", "U", "G", "F", "-"])?;
            Order::Industry {
                star: int(s[0])?,
                facility,
            }
        }
        // Herrscher,WE
        17 => {
            want(2)?;
            let amount = at_least_one(s[1], "Betrag", " WE")?;
            Order::Transfer {
                ruler: int(s[0])?,
                amount: i64::from(amount),
            }
        }
        // Stern,Herrscher
        18 => {
            want(2)?;
            Order::Handover {
                star: int(s[0])?,
                ruler: int(s[1])?,
            }
        }
        _ => return Err(Fail::expected(text, Expected::Number)),
    };
    Ok((order, None))
}

/// The comma-separated fields of an entry, at most `N` kept.
#[inline]
fn split<const N: usize>(text: &str) -> Result<Fields<'_, N>, Fail<'_>> {
    // `fields` takes any text whole; an error is impossible but kept total.
    fields::<N, Eds>(text)
        .map(|(_, f)| f)
        .map_err(|_: Err<Fail<'_>>| Fail::expected(text, Expected::Number))
}

/// Section 13: a design of 13 or 14 fields (the Rückzugszahl may be left out).
fn ship_design<'a>(
    text: &'a str,
    f: &Fields<'a, MAX_FIELDS>,
) -> Result<(Order, Option<&'static str>), Fail<'a>> {
    if f.count != 14 && f.count != 13 {
        return Err(custom(
            text,
            Eds::FieldCount {
                want: 14,
                or_one_less: true,
                got: f.count,
            },
        ));
    }
    let s = f.get();
    let class = s[2];
    let mut cs = class.chars();
    let typ = match (cs.next(), cs.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => {
            u32::from(c.to_ascii_uppercase() as u8 - b'A') + 1
        }
        _ => return Err(custom(f.starts[2], Eds::ClassLetter)),
    };
    let mut n = [0u32; 10];
    for (i, v) in n.iter_mut().enumerate() {
        *v = int(s[3 + i])?;
        if *v > MAX_DESIGN {
            return Err(Fail::new(
                s[3 + i],
                Problem::TooLarge {
                    max: u64::from(MAX_DESIGN),
                },
            ));
        }
    }
    let (r, note) = if f.count == 14 {
        (retreat(s[13])?, None)
    } else {
        (2, Some(NOTE_RETREAT_DEFAULT))
    };
    let star = int(s[0])?;
    Ok((design_order(star, s[1], typ, n, r), note))
}

/// A section 13 order from its fields read: the ten counts in the
/// Befehlsblatt's order (TK, JG, four guns, four shields). The grammar
/// and the fast path build it alike.
pub(crate) fn design_order(
    star: crate::model::StarNr,
    name: &str,
    typ: u32,
    n: [u32; 10],
    r: u32,
) -> Order {
    Order::BuildShip(BuildOrder {
        star,
        name: name.to_string(),
        typ,
        tk: n[0],
        jg: n[1],
        guns: [n[2], n[3], n[4], n[5]],
        shields: [n[6], n[7], n[8], n[9]],
        r,
    })
}

/// [`entry`] with its error said as the confirmation says it.
pub fn entry_reason(line_no: usize, line: &str, e: Fail<'_>) -> String {
    format!(
        "Syntaxfehler ({}) – Befehl verworfen",
        e.locate(line_no, line).render(Lang::De)
    )
}

/// A line of the sheet, as it reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Line<'a> {
    /// `ENDE` or `END`.
    End,
    /// `[…]`, with what its name says.
    Header(Option<Section>),
    /// `# …`
    Comment,
    /// `EDS BEFEHLE`, `GALAXIS:`, `HERRSCHER:`, `KENNWORT:` (the template's head).
    Template,
    /// `MONAT:` and the month written after it.
    Month(&'a str),
    /// Anything else: entries of the current section (or free text).
    Entries,
}

/// What a line is. Only a line that does not start with a digit, `[` or `#`
/// can be a keyword line; entries start with a number.
#[inline]
pub fn classify(line: &str) -> Line<'_> {
    // Most lines are entries, and start with a digit: told where the line
    // is read, without a call (issue 21).
    if line.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return Line::Entries;
    }
    classify_other(line)
}

/// [`classify`] for a line that does not start with a digit.
fn classify_other(line: &str) -> Line<'_> {
    // `MONAT:` opens every sheet after the template's head. A line that
    // starts with it in ASCII is no other keyword line (they start with
    // E, G, H or K, a header with `[`, a comment with `#`), and
    // `strip_folded` gives it the same rest: it is told first, before
    // the six keywords compared in turn (issue 21).
    if line
        .as_bytes()
        .get(..6)
        .is_some_and(|h| h.eq_ignore_ascii_case(b"MONAT:"))
    {
        return Line::Month(&line[6..]);
    }
    let first = line.as_bytes().first().copied().unwrap_or(b'0');
    let keywordish = !matches!(first, b'0'..=b'9' | b'[' | b'#');
    if keywordish && (fold_eq(line, "ENDE", Fold::Umlauts) || fold_eq(line, "END", Fold::Umlauts)) {
        return Line::End;
    }
    if line.len() >= 2 && line.starts_with('[') && line.ends_with(']') {
        return Line::Header(section_name(&line[1..line.len() - 1]));
    }
    if line.starts_with('#') {
        return Line::Comment;
    }
    if keywordish {
        if fold_eq(line, "EDS BEFEHLE", Fold::Umlauts)
            || ["GALAXIS:", "HERRSCHER:", "KENNWORT:"]
                .iter()
                .any(|k| strip_folded(line, k, Fold::Umlauts).is_some())
        {
            return Line::Template;
        }
        if let Some(m) = strip_folded(line, "MONAT:", Fold::Umlauts) {
            return Line::Month(m);
        }
    }
    Line::Entries
}

/// True when the month written (`J1/M2`, any case, blanks anywhere) is `want`.
pub fn same_month(written: &str, want: &str) -> bool {
    if written.is_ascii() {
        // The common case, without decoding characters: ASCII upper-cases
        // to one ASCII byte, as `to_uppercase` does.
        let mut w = want.bytes();
        return written
            .bytes()
            .filter(|&c| c != b' ')
            .all(|c| w.next() == Some(c.to_ascii_uppercase()))
            && w.next().is_none();
    }
    let mut w = want.as_bytes();
    for c in written.chars().filter(|&c| c != ' ') {
        let mut buf = [0u8; 4];
        let mut up = c.to_uppercase();
        let (Some(u), None) = (up.next(), up.next()) else {
            return false;
        };
        let enc = u.encode_utf8(&mut buf).as_bytes();
        match w.strip_prefix(enc) {
            Some(rest) => w = rest,
            None => return false,
        }
    }
    w.is_empty()
}

/// The month as the refusal quotes it.
pub fn month_text(written: &str) -> String {
    fold_text(written).replace(' ', "")
}

/// Upper case with Ä/Ö/Ü/ß spelled out, blanks collapsed (for quoting).
fn fold_text(s: &str) -> String {
    s.to_uppercase()
        .replace('Ä', "AE")
        .replace('Ö', "OE")
        .replace('Ü', "UE")
        .replace('ß', "SS")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn section_name_reads_number_name_or_both() {
        assert_eq!(section_name("7"), Some(Section::Orders(7)));
        assert_eq!(section_name("07 sprung"), Some(Section::Orders(7)));
        assert_eq!(section_name(" Rückzug "), Some(Section::Orders(6)));
        assert_eq!(section_name("6 RUECKZUG"), Some(Section::Orders(6)));
        assert_eq!(section_name("7 RUECKZUG"), None);
        assert_eq!(section_name("99 STATUS"), Some(Section::Orders(3)));
        assert_eq!(section_name("19"), None);
        assert_eq!(section_name("Diplomatie 05"), Some(Section::Diplomatie(5)));
        assert_eq!(section_name("DIPLOMATIE"), None);
        assert_eq!(section_name("anzeiger"), Some(Section::Anzeiger));
        assert_eq!(section_name("RÉPARATUR"), None);
        assert_eq!(section_name(""), None);
    }

    #[test]
    fn entries_split_at_slashes_not_beside_commas() {
        let v: Vec<&str> = entries("47,A,87,23 / 8,/,15,4 /  / 9").collect();
        assert_eq!(v, ["47,A,87,23", "8,/,15,4", "9"]);
        assert_eq!(entries("ÄÖ / 3").collect::<Vec<_>>(), ["ÄÖ", "3"]);
    }

    #[test]
    fn classify_reads_the_sheet_lines() {
        assert_eq!(classify("ende"), Line::End);
        assert_eq!(classify("[3]"), Line::Header(Some(Section::Orders(3))));
        assert_eq!(classify("# x"), Line::Comment);
        assert_eq!(classify("Galaxis: X"), Line::Template);
        assert_eq!(classify("Monat: J1/M2"), Line::Month(" J1/M2"));
        assert_eq!(classify("12,3"), Line::Entries);
        assert!(same_month(" j1 / m2", "J1/M2"));
        assert!(!same_month("J1/M3", "J1/M2"));
    }

    #[test]
    fn entry_errors_name_the_column_and_what_was_expected() {
        let line = "27 / 216,X,10";
        let e = entry(8, &line[5..]).unwrap_err();
        assert_eq!(
            entry_reason(4, line, e),
            "Syntaxfehler (Spalte 10: erwartet E, U oder G, gefunden „X“) – Befehl verworfen"
        );
        let e = entry(13, "1,A,B,1,1,1,1,1,1,1,1,1,100000").unwrap_err();
        assert_eq!(
            e.locate(1, "1,A,B,1,1,1,1,1,1,1,1,1,100000")
                .render(Lang::De),
            "Spalte 25: Zahl zu groß: 100000 (höchstens 99999)"
        );
        let (o, note) = entry(13, "1,A,B,1,1,1,1,1,1,1,1,1,1").unwrap();
        assert!(matches!(o, Order::BuildShip(b) if b.r == 2 && b.typ == 2));
        assert_eq!(note, Some(NOTE_RETREAT_DEFAULT));
        assert!(entry(7, "8,/,15,4").is_ok());
        assert!(entry(3, "2,4").is_err());
    }
}
