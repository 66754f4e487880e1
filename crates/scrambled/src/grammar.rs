//! The grammar of one order line (spec §6.2–§6.5, the rulebook's "Ordres"),
//! in `nom`, over the borrowed line (issue 21).
//!
//! Reading is split in two: this module says what shape a line has (which
//! order, which words stand for the quantity, the territories, the players),
//! and [`crate::parser`] checks those words against the state. A name is a
//! run of words, so `DEPLACER 10 Pays de la Loire -> Centre` needs no
//! quotes: the arrow (`->`, `→`, `TO`, `A`, `VERS`) ends the first name.
//! Quotes group words (`"Val d'Aoste"`, with `\` escaping the next
//! character) and `#` outside quotes starts a comment.
//!
//! No allocation per word: words and names are slices of the line; only a
//! word written with quotes (rare) is rebuilt into a `String`.
//!
//! The nom grammar is the reference. A well-formed `MOVE` or `PATH` line
//! without quote or comment (most lines) is read by a shortcut over its
//! words that gives the same shape; every other line goes to nom
//! (`grammar_differential_plain_moves_as_nom` compares the two).

use nom::branch::alt;
use nom::bytes::complete::is_not;
use nom::character::complete::{anychar, char};
use nom::combinator::{eof, not, opt, recognize, verify};
use nom::error::{ErrorKind, ParseError};
use nom::multi::{many0_count, many1_count};
use nom::sequence::{pair, preceded};
use nom::{IResult, Parser};
use std::borrow::Cow;

/// A grammar failure: where it happened and what was expected there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected<'a> {
    /// The input left where the expected item was missing.
    pub at: &'a str,
    /// What the notation asks for at that place, as a French phrase
    /// (`la flèche « -> » attendue`).
    pub what: &'static str,
}

impl<'a> ParseError<&'a str> for Expected<'a> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        Expected { at, what: "" }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, O> = IResult<&'a str, O, Expected<'a>>;

/// Names the item a parser reads, so that its failure says what was expected.
fn expect<'a, O>(
    what: &'static str,
    mut p: impl Parser<&'a str, Output = O, Error = Expected<'a>>,
) -> impl Parser<&'a str, Output = O, Error = Expected<'a>> {
    move |i: &'a str| {
        // The item begins where this parser started, whatever failed inside.
        p.parse(i).map_err(|e| e.map(|_| Expected { at: i, what }))
    }
}

/// The order keywords (English and French, any case, accents folded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    Quit,
    Ready,
    Give,
    Troops,
    Territory,
    Abandon,
    Move,
    Path,
    Avoid,
    Direct,
    Tribute,
    Capital,
    Ally,
    Enemy,
    Cancel,
    All,
    To,
}

/// The keyword a word stands for. The word is folded as [`crate::world::fold`]
/// folds names (lower case, accents off, `_ - '` as spaces), then upper-cased,
/// on the stack: a keyword is short, so a word that folds to more than the
/// buffer is none.
pub fn keyword(word: &str) -> Option<Kw> {
    // The common case (every line's first word): a short word of ASCII
    // letters, compared as one number, where a byte loop and byte strings
    // cost 130 instructions a word (a length switch and a `memcmp` per
    // candidate, issue 21). Clearing 0x20 in each byte upper-cases an
    // ASCII letter and makes a letter of no other byte, and keywords are
    // letters only: the word matches a keyword's packed letters exactly
    // when it is that keyword in any case (a NUL, or a space cleared to
    // NUL, within the word would pass for the padding: ruled out).
    let b = word.as_bytes();
    if b.len() <= 8 {
        let k = pack8(b) & !(LO * 0x20);
        if nul8(k) & first_bytes(b.len()) == 0 {
            if let Some(kw) = packed_keyword(u128::from(k)) {
                return Some(kw);
            }
        }
        // Any other short word of ASCII letters and digits folds to its
        // upper case, which is no keyword.
        if b.iter().all(u8::is_ascii_alphanumeric) {
            return None;
        }
    }
    folded_keyword(word)
}

/// [`keyword`] of a word that needs folding (accents, separators, arrows)
/// or is longer than 8 bytes (`TERRITOIRE`).
#[inline(never)]
fn folded_keyword(word: &str) -> Option<Kw> {
    let mut buf = [0u8; 16];
    match fold_upper(word, &mut buf)? {
        // `→` is U+2192, three bytes in UTF-8.
        b"->" | b"\xe2\x86\x92" => Some(Kw::To),
        // NUL pads a packed word: a word holding one is no keyword.
        f if f.contains(&0) => None,
        // Compared as bytes: the folded word is never checked for UTF-8 (a
        // tenth of the keyword's time went to `from_utf8`, issue 21).
        f => packed_keyword(pack(f)),
    }
}

/// Bytes repeated in every byte of a word, and their high bits.
pub(crate) const LO: u64 = 0x0101_0101_0101_0101;
pub(crate) const HI: u64 = 0x8080_8080_8080_8080;

/// Up to 8 bytes as one number, the first byte lowest, NUL-padded.
fn pack8(b: &[u8]) -> u64 {
    b.iter().rev().fold(0, |k, &c| k << 8 | u64::from(c))
}

/// The high bit of each byte of the first `n` (at most 8) of a word.
fn first_bytes(n: usize) -> u64 {
    HI & u64::MAX.checked_shr(64 - 8 * n as u32).unwrap_or(0)
}

/// The high bit of each NUL byte of `x`.
pub(crate) fn nul8(x: u64) -> u64 {
    !(((x & !HI) + !HI) | x) & HI
}

/// `w` packed into a number, its first byte lowest, NUL-padded (at most
/// 16 bytes).
const fn pack(w: &[u8]) -> u128 {
    let mut k = 0u128;
    let mut i = 0;
    while i < w.len() {
        k |= (w[i] as u128) << (8 * i);
        i += 1;
    }
    k
}

macro_rules! packed {
    ($($name:ident = $w:literal;)*) => {
        $(const $name: u128 = pack($w);)*
    };
}

packed! {
    QUIT = b"QUIT"; QUITTER = b"QUITTER";
    READY = b"READY"; PRET = b"PRET"; PRETE = b"PRETE";
    GIVE = b"GIVE"; DONNER = b"DONNER";
    TROOPS = b"TROOPS"; TROUPES = b"TROUPES";
    TERRITORY = b"TERRITORY"; TERRITOIRE = b"TERRITOIRE";
    ABANDON = b"ABANDON"; ABANDONNER = b"ABANDONNER";
    MOVE = b"MOVE"; DEPLACER = b"DEPLACER";
    PATH = b"PATH"; CHEMIN = b"CHEMIN";
    AVOID = b"AVOID"; EVITER = b"EVITER";
    DIRECT = b"DIRECT";
    TRIBUTE = b"TRIBUTE"; TRIBUT = b"TRIBUT";
    CAPITAL = b"CAPITAL"; CAPITALE = b"CAPITALE";
    ALLY = b"ALLY"; ALLIE = b"ALLIE";
    ENEMY = b"ENEMY"; ENNEMI = b"ENNEMI";
    CANCEL = b"CANCEL"; ANNULER = b"ANNULER";
    ALL = b"ALL"; TOUT = b"TOUT"; TOUS = b"TOUS"; TOUTES = b"TOUTES";
    TO = b"TO"; A = b"A"; VERS = b"VERS";
}

/// [`keyword`] of an ASCII word of letters and digits, upper-cased and
/// packed by [`pack`]: the same table, spelt as numbers. Inlined: for a
/// word of at most 8 bytes the compares need only the low half (a call
/// comparing both halves was a fifth of a keyword's cost).
#[inline(always)]
fn packed_keyword(k: u128) -> Option<Kw> {
    Some(match k {
        QUIT | QUITTER => Kw::Quit,
        READY | PRET | PRETE => Kw::Ready,
        GIVE | DONNER => Kw::Give,
        TROOPS | TROUPES => Kw::Troops,
        TERRITORY | TERRITOIRE => Kw::Territory,
        ABANDON | ABANDONNER => Kw::Abandon,
        MOVE | DEPLACER => Kw::Move,
        PATH | CHEMIN => Kw::Path,
        AVOID | EVITER => Kw::Avoid,
        DIRECT => Kw::Direct,
        TRIBUTE | TRIBUT => Kw::Tribute,
        CAPITAL | CAPITALE => Kw::Capital,
        ALLY | ALLIE => Kw::Ally,
        ENEMY | ENNEMI => Kw::Enemy,
        CANCEL | ANNULER => Kw::Cancel,
        ALL | TOUT | TOUS | TOUTES => Kw::All,
        TO | A | VERS => Kw::To,
        _ => return None,
    })
}

/// `fold(word).to_uppercase()` written into `buf`, as UTF-8 bytes; `None`
/// when it does not fit.
fn fold_upper<'b>(word: &str, buf: &'b mut [u8; 16]) -> Option<&'b [u8]> {
    // A word of ASCII letters and digits never comes here: [`keyword`]
    // reads it directly.
    let mut n = 0;
    let push = put;
    for c in word.chars().flat_map(char::to_lowercase) {
        match crate::world::folded(c) {
            Some(" ") => {
                // Separators become one space, never a leading one.
                if n > 0 && buf[n - 1] != b' ' {
                    push(buf, &mut n, " ")?;
                }
            }
            Some(rep) => push(buf, &mut n, rep)?,
            None => {
                let mut tmp = [0u8; 4];
                push(buf, &mut n, c.encode_utf8(&mut tmp))?;
            }
        }
    }
    // Separators never lead, and the line is normalised: a trailing space
    // (from a separator last) is the only white space to trim.
    let mut f = &buf[..n];
    while let Some(rest) = f.strip_suffix(b" ") {
        f = rest;
    }
    Some(f)
}

/// Appends `s` upper-cased to `buf[..n]`; `None` when it does not fit.
fn put(buf: &mut [u8; 16], n: &mut usize, s: &str) -> Option<()> {
    for u in s.chars().flat_map(char::to_uppercase) {
        let mut tmp = [0u8; 4];
        let e = u.encode_utf8(&mut tmp).as_bytes();
        buf.get_mut(*n..*n + e.len())?.copy_from_slice(e);
        *n += e.len();
    }
    Some(())
}

/// A quoted part of a word: `"…"`, `\` escaping the next character.
fn quoted(i: &str) -> Res<'_, &str> {
    recognize((
        char('"'),
        many0_count(alt((
            recognize(preceded(char('\\'), anychar)),
            is_not("\\\""),
        ))),
        char('"'),
    ))
    .parse(i)
}

/// One word: bare characters and quoted parts glued together.
fn word(i: &str) -> Res<'_, &str> {
    // Most words hold no quote (issue 21 item 4): a bare run that ends at a
    // space or the end is the whole word, which the combinator below would
    // also give, without its per-character token search.
    let run = i
        .bytes()
        .position(|b| matches!(b, b' ' | b'"' | b'#'))
        .unwrap_or(i.len());
    if run > 0 && !matches!(i.as_bytes().get(run), Some(b'"' | b'#')) {
        return Ok((&i[run..], &i[..run]));
    }
    expect(
        "un mot attendu",
        recognize(many1_count(alt((is_not(" \"#"), quoted)))),
    )
    .parse(i)
}

/// What a word says: the word itself, or its text rebuilt without the quotes.
pub fn text(word: &str) -> Cow<'_, str> {
    // A byte loop: words are short, and `contains('"')` is a `char` search
    // called out of line.
    if !word.bytes().any(|b| b == b'"') {
        return Cow::Borrowed(word);
    }
    let mut out = String::with_capacity(word.len());
    let mut cs = word.chars();
    let mut inside = false;
    while let Some(c) = cs.next() {
        match c {
            '"' => inside = !inside,
            '\\' if inside => out.extend(cs.next()),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// What a run of words says: their texts joined by one space (the line is
/// normalised, so without quotes this is the slice itself).
pub fn name(run: &str) -> Cow<'_, str> {
    if !run.bytes().any(|b| b == b'"') {
        return Cow::Borrowed(run);
    }
    let mut out = String::with_capacity(run.len());
    let mut rest = run;
    let mut first = true;
    while let Ok((r, w)) = word(rest) {
        if !first {
            out.push(' ');
        }
        first = false;
        out.push_str(&text(w));
        rest = r.strip_prefix(' ').unwrap_or(r);
    }
    Cow::Owned(out)
}

/// The line cut at its comment, or the column of a quote left open.
pub fn body(line: &str) -> Result<&str, usize> {
    // A line without quote or comment is its own body (the usual case).
    if !line.bytes().any(|b| b == b'"' || b == b'#') {
        return Ok(line);
    }
    let parsed: Res<'_, &str> = recognize(many0_count(alt((is_not("\"#"), quoted)))).parse(line);
    match parsed {
        Ok((rest, b)) if !rest.starts_with('"') => Ok(b),
        Ok((rest, _)) => Err(column(line, rest)),
        Err(_) => Ok(""),
    }
}

/// The 1-based column (in characters) where `rest` starts in `line`.
pub fn column(line: &str, rest: &str) -> usize {
    let at = line.len().saturating_sub(rest.len());
    line.get(..at).map_or(at, |s| s.chars().count()) + 1
}

/// The words of a body (each a slice, quotes still in).
pub fn words(body: &str) -> impl Iterator<Item = &str> {
    let mut rest = body;
    std::iter::from_fn(move || {
        rest = rest.trim_start_matches(' ');
        let (r, w) = word(rest).ok()?;
        rest = r;
        Some(w)
    })
}

fn is_arrow(w: &str) -> bool {
    is_arrow_text(&text(w))
}

/// [`is_arrow`] of a word without quotes.
fn is_arrow_text(t: &str) -> bool {
    // Byte patterns (`→` is U+2192, three bytes), where `==` on `str`
    // called `memcmp`.
    matches!(t.as_bytes(), b"->" | b"\xe2\x86\x92") || keyword(t) == Some(Kw::To)
}

/// A run of several words cut before its last word: (the words before, the last).
fn split_last(run: &str) -> Option<(&str, &str)> {
    let mut rest = run;
    let mut last = None;
    while let Ok((r, _)) = word(rest) {
        let start = run.len() - rest.len();
        if start > 0 {
            last = Some(start);
        }
        rest = r.strip_prefix(' ').unwrap_or(r);
        if r.is_empty() || rest.len() == r.len() {
            break;
        }
    }
    let at = last?;
    Some((run[..at].trim_end_matches(' '), &run[at..]))
}

/// The next word, after the one space that separates words.
fn next(i: &str) -> Res<'_, &str> {
    preceded(char(' '), word).parse(i)
}

/// A keyword, as the next word.
fn kw<'a>(k: Kw) -> impl Parser<&'a str, Output = &'a str, Error = Expected<'a>> {
    verify(next, move |w: &str| keyword(&text(w)) == Some(k))
}

/// `->` or one of its synonyms, as the next word.
fn arrow(i: &str) -> Res<'_, &str> {
    expect(
        "la flèche « -> » attendue",
        verify(next, |w: &str| is_arrow(w)),
    )
    .parse(i)
}

/// A name before an arrow: its first word whatever it is, then words up to
/// the arrow.
fn name_to_arrow(i: &str) -> Res<'_, &str> {
    preceded(
        char(' '),
        recognize(pair(word, many0_count(preceded(not(arrow), next)))),
    )
    .parse(i)
}

/// A name running to the end of the line.
fn name_to_end(i: &str) -> Res<'_, &str> {
    preceded(char(' '), recognize(pair(word, many0_count(next)))).parse(i)
}

/// The end of the order (a comment may have left one space).
fn end(i: &str) -> Res<'_, ()> {
    expect("la fin de la ligne attendue", (opt(char(' ')), eof))
        .map(|_| ())
        .parse(i)
}

/// A quantity word (`12`, `ALL`, `TOUT`…): checked by the parser.
fn qty(i: &str) -> Res<'_, &str> {
    expect("une quantité attendue", next).parse(i)
}

/// The shape of one order line: which order, and the words of its parts
/// (slices of the line; see [`text`] and [`name`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape<'a> {
    Quit,
    Ready,
    GiveTroops {
        qty: &'a str,
        terr: &'a str,
        to: &'a str,
    },
    GiveTerritory {
        terr: &'a str,
        to: &'a str,
    },
    Abandon(&'a str),
    Move {
        qty: &'a str,
        from: &'a str,
        to: &'a str,
    },
    /// `avoid`: `None` when the order does not say (AVOID is the default).
    Path {
        qty: &'a str,
        from: &'a str,
        to: &'a str,
        avoid: Option<bool>,
    },
    Tribute {
        qty: &'a str,
        to: &'a str,
    },
    Capital(&'a str),
    Ally(&'a str),
    Enemy(&'a str),
    Cancel(&'a str),
}

/// Why a line is no order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The first word is no order keyword.
    Unknown,
    /// A known order written wrong: its notation, the column, what was expected.
    Syntax {
        usage: &'static str,
        col: usize,
        what: &'static str,
    },
}

const USAGE_GIVE: &str = "GIVE TROOPS … ou GIVE TERRITORY …";
const USAGE_TROOPS: &str = "GIVE TROOPS <nombre|ALL> <territoire> TO <joueur>";
const USAGE_TERRITORY: &str = "GIVE TERRITORY <territoire> TO <joueur>";
const USAGE_MOVE: &str = "MOVE <nombre|ALL> <de> -> <vers>";
const USAGE_PATH: &str = "PATH <nombre|ALL> <de> -> <vers> [AVOID|DIRECT]";
const USAGE_TRIBUTE: &str = "TRIBUTE <montant|ALL> TO <joueur>";

/// Reads one order from a body (the line without its comment), whose first
/// word is `first`.
pub fn order<'a>(body: &'a str, first: &'a str) -> Result<Shape<'a>, Refusal> {
    let Some(k) = keyword(&text(first)) else {
        return Err(Refusal::Unknown);
    };
    order_kw(k, body, first, false)
}

/// [`order`] once the first word's keyword `k` is known; `plain` says the
/// caller has seen that `body` is a normalised line (one space between
/// words, none at either end) with no quote and no comment.
pub fn order_kw<'a>(
    k: Kw,
    body: &'a str,
    first: &'a str,
    plain: bool,
) -> Result<Shape<'a>, Refusal> {
    // The bots' and most players' lines are `MOVE n A -> B` or `PATH n A -> B`,
    // where the combinators below cost a quarter of a parse (issue 21).
    if let Some(shape) = moving_plain(k, body, first, plain) {
        return Ok(shape);
    }
    // A lone `READY` (every bot's last line) or `QUIT`: what `end` reads.
    if body.len() == first.len() {
        match k {
            Kw::Ready => return Ok(Shape::Ready),
            Kw::Quit => return Ok(Shape::Quit),
            _ => {}
        }
    }
    by_nom(k, body, first)
}

/// The words of a well-formed `MOVE` or `PATH` line without quote, comment
/// or empty word, read as [`order_nom`] reads them: the quantity, the words
/// up to the first arrow after the origin's first word, the rest. `None`
/// for any other line, left to [`order_nom`]; the two agree on every line
/// this reads (`grammar_differential_plain_moves_as_nom`).
fn moving_plain<'a>(k: Kw, body: &'a str, first: &'a str, plain: bool) -> Option<Shape<'a>> {
    if !matches!(k, Kw::Move | Kw::Path) {
        return None;
    }
    let rest = body.get(first.len()..)?.strip_prefix(' ')?;
    if !plain && rest.bytes().any(|b| matches!(b, b'"' | b'#')) {
        return None;
    }
    let (qty, rest) = cut(rest)?;
    let (origin, mut tail) = cut(rest)?;
    let mut from_len = origin.len();
    let to = loop {
        // An arrow last (no destination) or no arrow at all: a syntax error.
        let (w, t) = cut(tail)?;
        if is_arrow_text(w) {
            break t;
        }
        from_len += 1 + w.len();
        tail = t;
    };
    let b = to.as_bytes();
    // A normalised line has no empty word.
    let empty_word = !plain
        && (b.first() == Some(&b' ')
            || b.last() == Some(&b' ')
            || b.windows(2).any(|w| w == b"  "));
    if b.is_empty() || empty_word {
        return None;
    }
    let from = &rest[..from_len];
    Some(match k {
        Kw::Move => Shape::Move { qty, from, to },
        _ => path(qty, from, to),
    })
}

/// A non-empty word and what follows the space after it. Bytes, not
/// `split_once(' ')`: its `char` search was a tenth of a parse (issue 21).
fn cut(s: &str) -> Option<(&str, &str)> {
    let i = s.bytes().position(|b| b == b' ')?;
    // A space is one byte of ASCII: both cuts are on boundaries.
    (i > 0).then(|| (&s[..i], &s[i + 1..]))
}

/// A `PATH` order's shape: a last word AVOID or DIRECT after the
/// destination is the mode.
fn path<'a>(qty: &'a str, from: &'a str, to: &'a str) -> Shape<'a> {
    let mode = split_last(to).and_then(|(head, last)| match keyword(&text(last)) {
        Some(Kw::Avoid) => Some((head, true)),
        Some(Kw::Direct) => Some((head, false)),
        _ => None,
    });
    match mode {
        Some((to, avoid)) => Shape::Path {
            qty,
            from,
            to,
            avoid: Some(avoid),
        },
        None => Shape::Path {
            qty,
            from,
            to,
            avoid: None,
        },
    }
}

/// [`order`] by the combinators alone: the grammar of reference, which
/// reads every line the shortcut of [`order`] leaves (and which the
/// differential test compares it with).
pub fn order_nom<'a>(body: &'a str, first: &'a str) -> Result<Shape<'a>, Refusal> {
    match keyword(&text(first)) {
        Some(k) => by_nom(k, body, first),
        None => Err(Refusal::Unknown),
    }
}

/// [`order_nom`] once the first word's keyword is known.
fn by_nom<'a>(k: Kw, body: &'a str, first: &'a str) -> Result<Shape<'a>, Refusal> {
    let after = &body[first.len()..];
    let fail = |usage: &'static str, e: nom::Err<Expected<'a>>| {
        let (at, what) = match e {
            nom::Err::Error(x) | nom::Err::Failure(x) => (x.at, x.what),
            nom::Err::Incomplete(_) => ("", ""),
        };
        Refusal::Syntax {
            usage,
            col: column(body, at.strip_prefix(' ').unwrap_or(at)),
            what,
        }
    };
    let r: Result<(&str, Shape<'a>), (&'static str, nom::Err<Expected<'a>>)> = match k {
        Kw::Quit => end
            .map(|_| Shape::Quit)
            .parse(after)
            .map_err(|e| ("QUIT", e)),
        Kw::Ready => end
            .map(|_| Shape::Ready)
            .parse(after)
            .map_err(|e| ("READY", e)),
        Kw::Give => {
            let mut troops = (
                kw(Kw::Troops),
                qty,
                expect("un territoire attendu", name_to_arrow),
                arrow,
                expect("un joueur attendu", name_to_end),
                end,
            )
                .map(|(_, qty, terr, _, to, _)| Shape::GiveTroops { qty, terr, to });
            let mut territory = (
                kw(Kw::Territory),
                expect("un territoire attendu", name_to_arrow),
                arrow,
                expect("un joueur attendu", name_to_end),
                end,
            )
                .map(|(_, terr, _, to, _)| Shape::GiveTerritory { terr, to });
            match next(after).map(|(_, w)| keyword(&text(w))) {
                Ok(Some(Kw::Troops)) => troops.parse(after).map_err(|e| (USAGE_TROOPS, e)),
                Ok(Some(Kw::Territory)) => territory.parse(after).map_err(|e| (USAGE_TERRITORY, e)),
                _ => {
                    return Err(Refusal::Syntax {
                        usage: USAGE_GIVE,
                        col: column(body, after.strip_prefix(' ').unwrap_or(after)),
                        what: "TROOPS ou TERRITORY attendu",
                    })
                }
            }
        }
        Kw::Move => (
            qty,
            expect("un territoire de départ attendu", name_to_arrow),
            arrow,
            expect("un territoire d'arrivée attendu", name_to_end),
            end,
        )
            .map(|(qty, from, _, to, _)| Shape::Move { qty, from, to })
            .parse(after)
            .map_err(|e| (USAGE_MOVE, e)),
        Kw::Path => (
            qty,
            expect("un territoire de départ attendu", name_to_arrow),
            arrow,
            expect("un territoire d'arrivée attendu", name_to_end),
            end,
        )
            .map(|(qty, from, _, to, _)| path(qty, from, to))
            .parse(after)
            .map_err(|e| (USAGE_PATH, e)),
        Kw::Tribute => (qty, arrow, expect("un joueur attendu", name_to_end), end)
            .map(|(qty, _, to, _)| Shape::Tribute { qty, to })
            .parse(after)
            .map_err(|e| (USAGE_TRIBUTE, e)),
        Kw::Abandon => (expect("un territoire attendu", name_to_end), end)
            .map(|(t, _)| Shape::Abandon(t))
            .parse(after)
            .map_err(|e| ("ABANDON <territoire>", e)),
        Kw::Capital => (expect("un territoire attendu", name_to_end), end)
            .map(|(t, _)| Shape::Capital(t))
            .parse(after)
            .map_err(|e| ("CAPITAL <territoire>", e)),
        Kw::Ally | Kw::Enemy => (expect("un joueur ou ALL attendu", name_to_end), end)
            .map(|(t, _)| {
                if k == Kw::Ally {
                    Shape::Ally(t)
                } else {
                    Shape::Enemy(t)
                }
            })
            .parse(after)
            .map_err(|e| ("ALLY <joueur|ALL> ou ENEMY <joueur|ALL>", e)),
        Kw::Cancel => (expect("P<n>[.<étape>] ou CAPITAL attendu", next), end)
            .map(|(w, _)| Shape::Cancel(w))
            .parse(after)
            .map_err(|e| ("CANCEL P<n>[.<étape>] ou CANCEL CAPITAL", e)),
        _ => return Err(Refusal::Unknown),
    };
    match r {
        Ok((_, shape)) => Ok(shape),
        Err((usage, e)) => Err(fail(usage, e)),
    }
}
