//! The nom combinators every order grammar is built from (issue 21 item 1).
//!
//! A ruleset writes its grammar as nom parsers over the borrowed, normalised
//! line ([`crate::text::normalize`]); this module gives the pieces the four
//! notations share, so that each grammar reads like its rulebook:
//!
//! * [`keyword`] and [`word_in`]: case-insensitive keywords, with the accent
//!   folding a ruleset chooses ([`Fold`]) and tables of FR/DE/EN synonyms;
//! * [`number`]: decimal numbers with a range check;
//! * [`id`]: ids written `M_15`, `M 15` or `M15`;
//! * [`quoted`], [`name`]: quoted (with `\` escapes) and bare names;
//! * [`bracketed`]: WWK's `[field]` notation;
//! * [`fields`]: the comma-separated fields of an EDS entry;
//! * [`end_of_line`]: nothing left but blanks.
//!
//! Every parser fails with a [`Fail`]: where (the rest of the line), what was
//! expected ([`Problem`]) and the order form being read (nom's `context`).
//! [`Fail::locate`] places it in its line as a [`GrammarError`] (line, column)
//! and [`GrammarError::render`] turns it into a sentence in the game's
//! language ([`Lang`]).
//!
//! Why this shape: order lines are short, so what a line costs is fixed
//! overhead (issue 9). No combinator here allocates: they return slices of
//! the line, numbers and `Copy` values, and a failure is a `Copy` value too,
//! so backtracking through `alt` costs nothing; only the one error a refused
//! line reports is rendered into a `String`.

use crate::lang::Lang;
use nom::error::{ContextError, ErrorKind, ParseError};
use nom::{Err, IResult, Parser};
use std::borrow::Cow;
use std::fmt::Write as _;

/// What a grammar's parsers return.
pub type PResult<'a, O, C = NoCustom> = IResult<&'a str, O, Fail<'a, C>>;

/// How a keyword is compared with what a player wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// ASCII letters in any case; a word with any other letter is never a
    /// keyword (Nébulight's notation is plain ASCII).
    Case,
    /// Case, and Latin accents dropped as French writers expect: `é`, `Ç`,
    /// `ä` → `E`, `C`, `A`; `œ`, `æ`, `ß` → `OE`, `AE`, `SS`.
    Accents,
    /// Case, and German umlauts spelled out: `Ä`, `Ö`, `Ü`, `ß` → `AE`, `OE`,
    /// `UE`, `SS` (EDS's section names); other accents stay (É ≠ E).
    Umlauts,
}

/// Up to two ASCII upper-case bytes a character folds to (`len` 0: the
/// character can never be part of an ASCII keyword).
#[derive(Clone, Copy)]
struct Folded {
    b: [u8; 3],
    len: u8,
}

impl Folded {
    const NONE: Folded = Folded { b: [0; 3], len: 0 };

    fn ascii(s: &[u8]) -> Folded {
        let mut b = [0u8; 3];
        b[..s.len()].copy_from_slice(s);
        Folded {
            b,
            len: s.len() as u8,
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.b[..usize::from(self.len)]
    }
}

fn accent_base(c: char) -> Option<&'static [u8]> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => b"A",
        'ç' | 'Ç' => b"C",
        'è' | 'é' | 'ê' | 'ë' | 'È' | 'É' | 'Ê' | 'Ë' => b"E",
        'ì' | 'í' | 'î' | 'ï' | 'Ì' | 'Í' | 'Î' | 'Ï' => b"I",
        'ñ' | 'Ñ' => b"N",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' => b"O",
        'ù' | 'ú' | 'û' | 'ü' | 'Ù' | 'Ú' | 'Û' | 'Ü' => b"U",
        'ý' | 'ÿ' | 'Ý' | 'Ÿ' => b"Y",
        'œ' | 'Œ' => b"OE",
        'æ' | 'Æ' => b"AE",
        'ß' | 'ẞ' => b"SS",
        _ => return None,
    })
}

/// Folds `c` the way `fold` compares, into ASCII upper case. A non-ASCII
/// character whose upper case is ASCII (`ı`, `ſ`, `ﬁ`) folds to it, as
/// `str::to_uppercase` would.
fn fold_char(c: char, fold: Fold) -> Folded {
    if c.is_ascii() {
        return Folded::ascii(&[c.to_ascii_uppercase() as u8]);
    }
    match fold {
        Fold::Case => Folded::NONE,
        Fold::Accents => match accent_base(c) {
            Some(b) => Folded::ascii(b),
            None => upper_ascii(c, |_| None),
        },
        Fold::Umlauts => upper_ascii(c, |u| match u {
            'Ä' => Some(b"AE"),
            'Ö' => Some(b"OE"),
            'Ü' => Some(b"UE"),
            _ => None,
        }),
    }
}

/// The upper case of `c` when it is ASCII (up to three characters, `ﬃ`),
/// with `extra` mapping the non-ASCII upper-case letters a fold spells out.
fn upper_ascii(c: char, extra: impl Fn(char) -> Option<&'static [u8; 2]>) -> Folded {
    let mut out = Folded::NONE;
    for u in c.to_uppercase() {
        let add: &[u8] = if u.is_ascii() {
            &[u as u8]
        } else if let Some(b) = extra(u) {
            b
        } else {
            return Folded::NONE;
        };
        let len = usize::from(out.len);
        if len + add.len() > out.b.len() {
            return Folded::NONE;
        }
        out.b[len..len + add.len()].copy_from_slice(add);
        out.len += add.len() as u8;
    }
    out
}

/// True when `text`, folded, is `keyword` (ASCII upper case). Character by
/// character, without allocating.
///
/// Inline, with the non-ASCII walk apart: keywords are compared on every
/// order line, nearly always with an ASCII word, and the call and the
/// `is_ascii` scan before the comparison were 8–13 % of a Nébulight or EDS
/// parse (issue 21 item 4). A byte-wise match ignoring ASCII case can only
/// succeed on an ASCII text (the keyword is ASCII), so it decides alone
/// when it matches.
#[inline]
pub fn fold_eq(text: &str, keyword: &str, fold: Fold) -> bool {
    if text.eq_ignore_ascii_case(keyword) {
        return true;
    }
    // Every fold maps an ASCII character to its upper case alone: an ASCII
    // text that did not match is not the keyword.
    !text.is_ascii() && fold_eq_unicode(text, keyword, fold)
}

/// [`fold_eq`] for a text with a non-ASCII character.
#[inline(never)]
fn fold_eq_unicode(text: &str, keyword: &str, fold: Fold) -> bool {
    let mut want = keyword.as_bytes();
    for c in text.chars() {
        let f = fold_char(c, fold);
        if f.len == 0 {
            return false;
        }
        match want.strip_prefix(f.bytes()) {
            Some(rest) => want = rest,
            None => return false,
        }
    }
    want.is_empty()
}

/// The rest of `text` after `keyword` (ASCII upper case), compared folded;
/// `None` when `text` does not start with it (or a character straddles its
/// end). `MONAT: J1/M2` → `Some(" J1/M2")` for `MONAT:`.
pub fn strip_folded<'a>(text: &'a str, keyword: &str, fold: Fold) -> Option<&'a str> {
    // An ASCII start as long as the keyword is compared byte for byte (each
    // ASCII character folds to one byte): only a non-ASCII character there
    // needs the walk below (EDS classifies every line with this).
    let m = text.len().min(keyword.len());
    let head = &text.as_bytes()[..m];
    if head.is_ascii() {
        return (m == keyword.len() && head.eq_ignore_ascii_case(keyword.as_bytes()))
            .then(|| &text[m..]);
    }
    let mut want = keyword.as_bytes();
    for (k, c) in text.char_indices() {
        if want.is_empty() {
            return Some(&text[k..]);
        }
        let f = fold_char(c, fold);
        if f.len == 0 {
            return None;
        }
        want = want.strip_prefix(f.bytes())?;
    }
    want.is_empty().then_some(&text[text.len()..])
}

/// What a parser expected where it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A piece of the rulebook's notation, shown as written there (`M_m`,
    /// `VC F_f`, `MONAT:`): the same in every language.
    Notation(&'static str),
    /// One of these pieces of notation.
    OneOf(&'static [&'static str]),
    /// A number.
    Number,
    /// A name (quoted or not).
    Name,
    /// This character.
    Char(char),
    /// Nothing more on the line.
    EndOfLine,
}

impl Expected {
    fn write(&self, lang: Lang, out: &mut String) {
        match self {
            Expected::Notation(s) => out.push_str(s),
            Expected::OneOf(list) => {
                let or = match lang {
                    Lang::Fr => " ou ",
                    Lang::De => " oder ",
                    Lang::En => " or ",
                };
                for (i, s) in list.iter().enumerate() {
                    if i > 0 {
                        out.push_str(if i + 1 == list.len() { or } else { ", " });
                    }
                    out.push_str(s);
                }
            }
            Expected::Number => out.push_str(match lang {
                Lang::Fr => "un nombre",
                Lang::De => "eine Zahl",
                Lang::En => "a number",
            }),
            Expected::Name => out.push_str(match lang {
                Lang::Fr => "un nom",
                Lang::De => "einen Namen",
                Lang::En => "a name",
            }),
            Expected::Char(c) => quote(lang, &c.to_string(), out),
            Expected::EndOfLine => out.push_str(match lang {
                Lang::Fr => "la fin de l'ordre",
                Lang::De => "das Ende des Befehls",
                Lang::En => "the end of the order",
            }),
        }
    }
}

/// Puts `s` in the language's quotation marks.
fn quote(lang: Lang, s: &str, out: &mut String) {
    let (open, close) = match lang {
        Lang::Fr => ("« ", " »"),
        Lang::De => ("„", "“"),
        Lang::En => ("“", "”"),
    };
    out.push_str(open);
    out.push_str(s);
    out.push_str(close);
}

/// A ruleset's own reason for refusing a line (a tech that does not exist in
/// the game, a notation reserved to reports…), said in the game's language.
pub trait Sentence {
    fn write_sentence(&self, lang: Lang, out: &mut String);
}

/// The custom reason of a grammar that has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoCustom {}

impl Sentence for NoCustom {
    fn write_sentence(&self, _: Lang, _: &mut String) {
        match *self {}
    }
}

/// Why a parser failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem<C> {
    Expected(Expected),
    /// A number over `max` starts here.
    TooLarge {
        max: u64,
    },
    /// A number under `min` starts here.
    TooSmall {
        min: u64,
    },
    /// This character has no place in the notation.
    Forbidden(char),
    /// The ruleset's own reason.
    Custom(C),
    /// A nom combinator failed without saying more (a grammar should wrap it
    /// so that this never reaches a player).
    Syntax(ErrorKind),
}

/// A failure while parsing a line: the rest of the line where it happened,
/// why, and the order form being read. `Copy`: backtracking never allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fail<'a, C = NoCustom> {
    pub at: &'a str,
    pub problem: Problem<C>,
    /// The innermost `nom::error::context` around the failure: the order
    /// form, in the game's language ("chargement : F_f C (x) MP|N").
    pub context: Option<&'static str>,
}

impl<'a, C> Fail<'a, C> {
    pub fn new(at: &'a str, problem: Problem<C>) -> Self {
        Fail {
            at,
            problem,
            context: None,
        }
    }

    pub fn expected(at: &'a str, e: Expected) -> Self {
        Fail::new(at, Problem::Expected(e))
    }

    /// A recoverable nom error (another `alt` branch may still match).
    pub fn error<O>(at: &'a str, problem: Problem<C>) -> PResult<'a, O, C> {
        Err(Err::Error(Fail::new(at, problem)))
    }

    /// An unrecoverable one (the line is known to be wrong here).
    pub fn failure<O>(at: &'a str, problem: Problem<C>) -> PResult<'a, O, C> {
        Err(Err::Failure(Fail::new(at, problem)))
    }

    /// Places the failure in `line` (the whole line the parser started on;
    /// `at` is a suffix of it) as line `line_no`, column counted in characters.
    /// `at` may also be any slice of `line` (a field of an entry): its
    /// place is then found from its address.
    pub fn locate(self, line_no: usize, line: &'a str) -> GrammarError<'a, C> {
        let (start, at) = (line.as_ptr() as usize, self.at.as_ptr() as usize);
        let offset = if at >= start && at + self.at.len() <= start + line.len() {
            at - start
        } else {
            line.len().saturating_sub(self.at.len())
        };
        let column = line.get(..offset).map_or(1, |s| s.chars().count() + 1);
        GrammarError {
            line: line_no,
            column,
            at: self.at,
            problem: self.problem,
            context: self.context,
        }
    }
}

impl<'a, C> ParseError<&'a str> for Fail<'a, C> {
    fn from_error_kind(input: &'a str, kind: ErrorKind) -> Self {
        Fail::new(input, Problem::Syntax(kind))
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }

    fn from_char(input: &'a str, c: char) -> Self {
        Fail::expected(input, Expected::Char(c))
    }

    /// Of two failed alternatives, the one that read further says more; at
    /// the same place, the later one unless it only knows nom's error kind.
    fn or(self, other: Self) -> Self {
        if self.at.len() < other.at.len()
            || (self.at.len() == other.at.len()
                && matches!(other.problem, Problem::Syntax(_))
                && !matches!(self.problem, Problem::Syntax(_)))
        {
            self
        } else {
            other
        }
    }
}

impl<'a, C> ContextError<&'a str> for Fail<'a, C> {
    fn add_context(_: &'a str, ctx: &'static str, mut other: Self) -> Self {
        other.context.get_or_insert(ctx);
        other
    }
}

/// A refused line: where, and why. [`GrammarError::render`] says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrammarError<'a, C = NoCustom> {
    /// 1-based, within the order block.
    pub line: usize,
    /// 1-based, in characters of the normalised line.
    pub column: usize,
    /// The rest of the line from the column on.
    pub at: &'a str,
    pub problem: Problem<C>,
    pub context: Option<&'static str>,
}

impl<C: Sentence> GrammarError<'_, C> {
    /// The reason as a sentence in `lang`, column first:
    /// `colonne 9 : attendu MP ou N, trouvé « X » (chargement : F_f C (x) MP|N)`.
    /// The line is not repeated: the confirmation mail echoes it beside the reason.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = String::with_capacity(64);
        let _ = match lang {
            Lang::Fr => write!(out, "colonne {} : ", self.column),
            Lang::De => write!(out, "Spalte {}: ", self.column),
            Lang::En => write!(out, "column {}: ", self.column),
        };
        self.write_problem(lang, &mut out);
        if let Some(ctx) = self.context {
            out.push_str(" (");
            out.push_str(ctx);
            out.push(')');
        }
        out
    }

    /// [`GrammarError::render`] with the line number in front, for texts
    /// that do not echo the line.
    pub fn render_with_line(&self, lang: Lang) -> String {
        let prefix = match lang {
            Lang::Fr => format!("ligne {}, ", self.line),
            Lang::De => format!("Zeile {}, ", self.line),
            Lang::En => format!("line {}, ", self.line),
        };
        prefix + &self.render(lang)
    }

    fn write_problem(&self, lang: Lang, out: &mut String) {
        match &self.problem {
            Problem::Expected(e) => {
                out.push_str(match lang {
                    Lang::Fr => "attendu ",
                    Lang::De => "erwartet ",
                    Lang::En => "expected ",
                });
                e.write(lang, out);
                out.push_str(match lang {
                    Lang::Fr => ", trouvé ",
                    Lang::De => ", gefunden ",
                    Lang::En => ", found ",
                });
                self.write_found(lang, out);
            }
            Problem::TooLarge { max } => {
                out.push_str(match lang {
                    Lang::Fr => "nombre trop grand : ",
                    Lang::De => "Zahl zu groß: ",
                    Lang::En => "number too large: ",
                });
                out.push_str(digits(self.at));
                let _ = match lang {
                    Lang::Fr => write!(out, " (au plus {max})"),
                    Lang::De => write!(out, " (höchstens {max})"),
                    Lang::En => write!(out, " (at most {max})"),
                };
            }
            Problem::TooSmall { min } => {
                out.push_str(match lang {
                    Lang::Fr => "nombre trop petit : ",
                    Lang::De => "Zahl zu klein: ",
                    Lang::En => "number too small: ",
                });
                out.push_str(digits(self.at));
                let _ = match lang {
                    Lang::Fr => write!(out, " (au moins {min})"),
                    Lang::De => write!(out, " (mindestens {min})"),
                    Lang::En => write!(out, " (at least {min})"),
                };
            }
            Problem::Forbidden(c) => {
                out.push_str(match lang {
                    Lang::Fr => "caractère interdit ",
                    Lang::De => "unzulässiges Zeichen ",
                    Lang::En => "forbidden character ",
                });
                quote(lang, &c.to_string(), out);
            }
            Problem::Custom(c) => c.write_sentence(lang, out),
            Problem::Syntax(_) => out.push_str(match lang {
                Lang::Fr => "ordre mal formé",
                Lang::De => "Befehl fehlerhaft",
                Lang::En => "malformed order",
            }),
        }
    }

    /// What stands at the column: a word or number, else one character, else
    /// the end of the line.
    fn write_found(&self, lang: Lang, out: &mut String) {
        let found = found_token(self.at);
        if found.is_empty() {
            out.push_str(match lang {
                Lang::Fr => "la fin de la ligne",
                Lang::De => "das Zeilenende",
                Lang::En => "the end of the line",
            });
        } else {
            quote(lang, found, out);
        }
    }
}

/// The token at the start of `at`: a run of letters and digits (at most 24
/// characters), else its first character, else "".
pub fn found_token(at: &str) -> &str {
    let mut end = 0;
    for (n, (i, c)) in at.char_indices().enumerate() {
        if !c.is_alphanumeric() || n == 24 {
            break;
        }
        end = i + c.len_utf8();
    }
    if end == 0 {
        end = at.chars().next().map_or(0, char::len_utf8);
    }
    &at[..end]
}

fn digits(at: &str) -> &str {
    let n = at.bytes().take_while(u8::is_ascii_digit).count();
    &at[..n]
}

// ---------------------------------------------------------------------------
// Combinators

/// Zero or more of the ASCII characters in `set` (separators such as `" _"`).
pub fn skip0<'a, C>(set: &'static str) -> impl FnMut(&'a str) -> PResult<'a, (), C> {
    move |i: &'a str| {
        let n = i.bytes().take_while(|b| set.as_bytes().contains(b)).count();
        Ok((&i[n..], ()))
    }
}

/// Spaces and tabs, possibly none.
pub fn blanks<'a, C>(i: &'a str) -> PResult<'a, (), C> {
    skip0(" \t")(i)
}

/// The maximal run of letters at the start of the input (ASCII letters only
/// under [`Fold::Case`]), possibly empty.
pub fn letters<'a, C>(fold: Fold) -> impl FnMut(&'a str) -> PResult<'a, &'a str, C> {
    move |i: &'a str| {
        let n = letters_len(i, fold);
        Ok((&i[n..], &i[..n]))
    }
}

/// The length in bytes of the run [`letters`] reads. ASCII letters are
/// counted byte by byte; only from a non-ASCII byte on (never under
/// [`Fold::Case`]) are characters decoded.
#[inline]
fn letters_len(i: &str, fold: Fold) -> usize {
    let b = i.as_bytes();
    let mut n = 0;
    while n < b.len() && b[n].is_ascii_alphabetic() {
        n += 1;
    }
    if fold == Fold::Case || n == b.len() || b[n].is_ascii() {
        return n;
    }
    n + i[n..]
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(i.len() - n, |(k, _)| k)
}

/// The keyword `kw` (ASCII upper case) as a whole word: `VC` matches `vc`
/// and `Vc` but not the start of `VCX`.
pub fn keyword<'a, C>(kw: &'static str, fold: Fold) -> impl FnMut(&'a str) -> PResult<'a, (), C> {
    move |i: &'a str| {
        let n = letters_len(i, fold);
        let w = &i[..n];
        // Lengths first: nearly every word a keyword is tried on differs
        // in length, and an ASCII word must have the keyword's.
        if n != 0
            && ((n == kw.len() && w.eq_ignore_ascii_case(kw))
                || (!w.is_ascii() && fold_eq_unicode(w, kw, fold)))
        {
            Ok((&i[n..], ()))
        } else {
            Fail::error(i, Problem::Expected(Expected::Notation(kw)))
        }
    }
}

/// A word looked up in a table of keywords and their synonyms (any
/// language), giving the table's value; `expected` says what the table
/// holds when the word is none of them.
pub fn word_in<'a, T: Copy, C>(
    table: &'static [(&'static str, T)],
    fold: Fold,
    expected: Expected,
) -> impl FnMut(&'a str) -> PResult<'a, T, C> {
    move |i: &'a str| {
        let n = letters_len(i, fold);
        let (w, rest) = (&i[..n], &i[n..]);
        if n != 0 {
            // The word is read and checked for ASCII once, then compared
            // with each key (lengths first); `fold_eq` per key scanned the
            // word again for every keyword of the table (issue 21 item 4).
            let found = if w.is_ascii() {
                table.iter().find(|(k, _)| k.eq_ignore_ascii_case(w))
            } else {
                table.iter().find(|(k, _)| fold_eq_unicode(w, k, fold))
            };
            if let Some((_, v)) = found {
                return Ok((rest, *v));
            }
        }
        Fail::error(i, Problem::Expected(expected))
    }
}

/// A decimal number in `min..=max` (leading zeros allowed). No digit is an
/// error another branch may recover from; digits out of range are a failure
/// (the number is there, and wrong), reported at its first digit.
pub fn number<'a, C>(min: u32, max: u32) -> impl FnMut(&'a str) -> PResult<'a, u32, C> {
    move |i: &'a str| {
        let b = i.as_bytes();
        let mut n: u64 = 0;
        let mut k = 0;
        while k < b.len() && b[k].is_ascii_digit() {
            // Saturating: a run of digits over u64 stays over any `max`.
            n = n.saturating_mul(10).saturating_add(u64::from(b[k] - b'0'));
            k += 1;
        }
        if k == 0 {
            return Fail::error(i, Problem::Expected(Expected::Number));
        }
        if n > u64::from(max) {
            return Fail::failure(
                i,
                Problem::TooLarge {
                    max: u64::from(max),
                },
            );
        }
        if n < u64::from(min) {
            return Fail::failure(
                i,
                Problem::TooSmall {
                    min: u64::from(min),
                },
            );
        }
        Ok((&i[k..], n as u32))
    }
}

/// An id: the letter(s) `prefix`, then optionally `_` or spaces, then a
/// number up to `max`: `M_15`, `M 15` and `M15` are the same id.
/// `shape` is how the rulebook writes it (`M_m`), for the error.
pub fn id<'a, C>(
    prefix: &'static str,
    shape: &'static str,
    fold: Fold,
    max: u32,
) -> impl FnMut(&'a str) -> PResult<'a, u32, C> {
    move |i: &'a str| {
        let expected = || Fail::error(i, Problem::Expected(Expected::Notation(shape)));
        let Ok((rest, ())) = keyword::<C>(prefix, fold)(i) else {
            return expected();
        };
        let (rest, ()) = skip0(" _\t")(rest)?;
        match number(0, max)(rest) {
            Err(Err::Error(_)) => expected(),
            r => r,
        }
    }
}

/// A name between double quotes, `\` escaping the next character; the
/// slice between the quotes, escapes included ([`unescape`] removes them).
pub fn quoted<'a, C>(i: &'a str) -> PResult<'a, &'a str, C> {
    let Some(body) = i.strip_prefix('"') else {
        return Fail::error(i, Problem::Expected(Expected::Char('"')));
    };
    let b = body.as_bytes();
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            b'"' => return Ok((&body[k + 1..], &body[..k])),
            _ => k += 1,
        }
    }
    // Unclosed: the closing quote is what is missing, at the end of the line.
    Fail::failure(&i[i.len()..], Problem::Expected(Expected::Char('"')))
}

/// The text of a [`quoted`] name without its escapes; borrowed when it has none.
pub fn unescape(raw: &str) -> Cow<'_, str> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(e) = chars.next() {
                out.push(e);
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A name as a player writes it: [`quoted`], or bare up to the first
/// character `stop` accepts (not included), trailing blanks trimmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name<'a> {
    pub raw: &'a str,
    pub quoted: bool,
}

impl<'a> Name<'a> {
    /// The name's text (escapes removed from a quoted name).
    pub fn text(&self) -> Cow<'a, str> {
        if self.quoted {
            unescape(self.raw)
        } else {
            Cow::Borrowed(self.raw)
        }
    }
}

/// See [`Name`]. A bare name is never empty.
pub fn name<'a, C>(stop: fn(char) -> bool) -> impl FnMut(&'a str) -> PResult<'a, Name<'a>, C> {
    move |i: &'a str| {
        if i.starts_with('"') {
            let (rest, raw) = quoted(i)?;
            return Ok((rest, Name { raw, quoted: true }));
        }
        let end = i
            .char_indices()
            .find(|(_, c)| stop(*c))
            .map_or(i.len(), |(k, _)| k);
        let raw = i[..end].trim_end();
        if raw.is_empty() {
            return Fail::error(i, Problem::Expected(Expected::Name));
        }
        Ok((&i[end..], Name { raw, quoted: false }))
    }
}

/// `[` inner `]`, blanks allowed inside the brackets (WWK's fields).
pub fn bracketed<'a, O, C, P>(mut inner: P) -> impl FnMut(&'a str) -> PResult<'a, O, C>
where
    P: Parser<&'a str, Output = O, Error = Fail<'a, C>>,
{
    move |i: &'a str| {
        let Some(rest) = i.strip_prefix('[') else {
            return Fail::error(i, Problem::Expected(Expected::Char('[')));
        };
        let (rest, ()) = blanks(rest)?;
        let (rest, o) = inner.parse(rest)?;
        let (rest, ()) = blanks(rest)?;
        match rest.strip_prefix(']') {
            Some(rest) => Ok((rest, o)),
            None => Fail::failure(rest, Problem::Expected(Expected::Char(']'))),
        }
    }
}

/// The comma-separated fields of an entry (EDS: `12,E,40`), each trimmed,
/// in a fixed array: no allocation. `count` is the real number of fields,
/// which may exceed `N` (then only the first `N` are kept), so that "too
/// many fields" can be told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields<'a, const N: usize> {
    pub slots: [&'a str; N],
    /// Where each kept field starts in the input (for columns).
    pub starts: [&'a str; N],
    pub count: usize,
}

impl<'a, const N: usize> Fields<'a, N> {
    /// The kept fields.
    pub fn get(&self) -> &[&'a str] {
        &self.slots[..self.count.min(N)]
    }
}

/// Splits the whole input into [`Fields`] at every comma; consumes it all.
///
/// Inline, so that the caller's `Fields` is filled in place rather than
/// copied out of the `Result` (two arrays of `N` slices), and the fields
/// are found and trimmed on bytes ([`trim_start_ws`]): this function,
/// `str::find` and `str::trim` were a fifth of an EDS parse (issue 21
/// item 4).
#[inline]
pub fn fields<'a, const N: usize, C>(i: &'a str) -> PResult<'a, Fields<'a, N>, C> {
    let mut f = Fields {
        slots: [""; N],
        starts: [""; N],
        count: 0,
    };
    let mut rest = i;
    loop {
        // `,` is ASCII: never inside a UTF-8 sequence.
        let (part, next) = match rest.bytes().position(|b| b == b',') {
            Some(k) => (&rest[..k], Some(&rest[k + 1..])),
            None => (rest, None),
        };
        if f.count < N {
            let start = trim_start_ws(part);
            f.slots[f.count] = trim_end_ws(start);
            f.starts[f.count] = &rest[part.len() - start.len()..];
        }
        f.count += 1;
        match next {
            Some(n) => rest = n,
            None => break,
        }
    }
    Ok((&i[i.len()..], f))
}

/// `str::trim_start`, the ASCII blanks skipped byte by byte: `trim_start`
/// decodes every character. Past the ASCII blanks, a non-ASCII byte may
/// start a Unicode space, so the rest is left to `trim_start` (same result).
#[inline]
pub fn trim_start_ws(s: &str) -> &str {
    let b = s.as_bytes();
    let mut k = 0;
    // ' ' and \t \n \v \f \r: the ASCII characters `char::is_whitespace` takes.
    while k < b.len() && (b[k] == b' ' || (0x09..=0x0d).contains(&b[k])) {
        k += 1;
    }
    if k < b.len() && !b[k].is_ascii() {
        return s[k..].trim_start();
    }
    &s[k..]
}

/// `str::trim_end`, as [`trim_start_ws`] does `trim_start`.
#[inline]
pub fn trim_end_ws(s: &str) -> &str {
    let b = s.as_bytes();
    let mut k = b.len();
    while k > 0 && (b[k - 1] == b' ' || (0x09..=0x0d).contains(&b[k - 1])) {
        k -= 1;
    }
    if k > 0 && !b[k - 1].is_ascii() {
        return s[..k].trim_end();
    }
    &s[..k]
}

/// Nothing but blanks up to the end of the line.
pub fn end_of_line<'a, C>(i: &'a str) -> PResult<'a, (), C> {
    let (rest, ()) = blanks(i)?;
    if rest.is_empty() {
        Ok((rest, ()))
    } else {
        Fail::error(rest, Problem::Expected(Expected::EndOfLine))
    }
}

/// Runs a whole-line parser on `line`: the line's value, or its error placed
/// at its line and column.
pub fn run_line<'a, O, C, P>(
    mut p: P,
    line_no: usize,
    line: &'a str,
) -> Result<O, GrammarError<'a, C>>
where
    P: Parser<&'a str, Output = O, Error = Fail<'a, C>>,
{
    match p.parse(line) {
        Ok((_, o)) => Ok(o),
        Err(Err::Error(e) | Err::Failure(e)) => Err(e.locate(line_no, line)),
        // Complete-input combinators never ask for more; treat it as the end.
        Err(Err::Incomplete(_)) => {
            Err(Fail::expected(&line[line.len()..], Expected::EndOfLine).locate(line_no, line))
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use nom::error::context;
    use nom::sequence::preceded;

    type R<'a, O> = PResult<'a, O>;

    fn err<O: std::fmt::Debug>(r: R<'_, O>) -> Fail<'_> {
        match r {
            Err(Err::Error(e) | Err::Failure(e)) => e,
            other => panic!("expected an error, got {other:?}"),
        }
    }

    #[test]
    fn fold_eq_folds_case_accents_and_umlauts() {
        assert!(fold_eq("vc", "VC", Fold::Case));
        assert!(!fold_eq("vcx", "VC", Fold::Case));
        assert!(!fold_eq("dÉf", "DEF", Fold::Case));
        assert!(fold_eq("dÉplacer", "DEPLACER", Fold::Accents));
        assert!(fold_eq("Prête", "PRETE", Fold::Accents));
        assert!(fold_eq("cœur", "COEUR", Fold::Accents));
        assert!(!fold_eq("dÉplacer", "DEPLACER", Fold::Umlauts));
        assert!(fold_eq("Rückzug", "RUECKZUG", Fold::Umlauts));
        assert!(fold_eq("Sternübergabe", "STERNUEBERGABE", Fold::Umlauts));
        assert!(fold_eq("straße", "STRASSE", Fold::Umlauts));
        // As `to_uppercase` does: the long s is an S.
        assert!(fold_eq("ſtatus", "STATUS", Fold::Umlauts));
        assert!(!fold_eq("", "A", Fold::Case));
        assert!(!fold_eq("AB", "A", Fold::Accents));
    }

    #[test]
    fn strip_folded_gives_the_rest_after_a_folded_prefix() {
        assert_eq!(
            strip_folded("Monat: J1/M2", "MONAT:", Fold::Umlauts),
            Some(" J1/M2")
        );
        assert_eq!(
            strip_folded("diplomatie05", "DIPLOMATIE", Fold::Umlauts),
            Some("05")
        );
        assert_eq!(strip_folded("END", "END", Fold::Case), Some(""));
        assert_eq!(strip_folded("EN", "END", Fold::Case), None);
        assert_eq!(
            strip_folded("Rückzug 3", "RUECKZUG", Fold::Umlauts),
            Some(" 3")
        );
        assert_eq!(strip_folded("RÜCKZUG", "RU", Fold::Umlauts), None);
    }

    #[test]
    fn columns_of_a_slice_inside_the_line() {
        let line = "27 / 103,x";
        let field = &line[9..];
        let e = Fail::<NoCustom>::expected(field, Expected::Number).locate(3, line);
        assert_eq!((e.line, e.column), (3, 10));
    }

    #[test]
    fn keyword_is_a_whole_word_in_any_case() {
        assert_eq!(
            keyword::<NoCustom>("VC", Fold::Case)("vc F_1"),
            Ok((" F_1", ()))
        );
        assert_eq!(keyword::<NoCustom>("M", Fold::Case)("M15"), Ok(("15", ())));
        let e = err(keyword("VC", Fold::Case)("VCX"));
        assert_eq!(e.problem, Problem::Expected(Expected::Notation("VC")));
        assert_eq!(e.at, "VCX");
        assert!(keyword::<NoCustom>("DEF", Fold::Case)("DÉF").is_err());
        assert!(keyword::<NoCustom>("DEPLACER", Fold::Accents)("Déplacer x").is_ok());
    }

    #[test]
    fn word_in_reads_synonyms_in_every_language() {
        #[derive(Clone, Copy, Debug, PartialEq)]
        enum K {
            Move,
            Ready,
        }
        const T: &[(&str, K)] = &[
            ("MOVE", K::Move),
            ("DEPLACER", K::Move),
            ("BEWEGEN", K::Move),
            ("READY", K::Ready),
            ("PRET", K::Ready),
        ];
        let mut p = word_in::<K, NoCustom>(T, Fold::Accents, Expected::OneOf(&["MOVE", "READY"]));
        assert_eq!(p("déplacer 3"), Ok((" 3", K::Move)));
        assert_eq!(p("Bewegen"), Ok(("", K::Move)));
        assert_eq!(p("PRÊT"), Ok(("", K::Ready)));
        let e = err(p("hop"));
        assert_eq!(
            e.problem,
            Problem::Expected(Expected::OneOf(&["MOVE", "READY"]))
        );
    }

    #[test]
    fn number_checks_its_range() {
        assert_eq!(number::<NoCustom>(0, 100)("042 x"), Ok((" x", 42)));
        let e = err(number(0, 100)("101"));
        assert_eq!(e.problem, Problem::TooLarge { max: 100 });
        let e = err(number(1, 100)("0"));
        assert_eq!(e.problem, Problem::TooSmall { min: 1 });
        let e = err(number(0, u32::MAX)("99999999999999999999999"));
        assert!(matches!(e.problem, Problem::TooLarge { .. }));
        assert!(matches!(number::<NoCustom>(0, 9)("x"), Err(Err::Error(_))));
        assert!(matches!(
            number::<NoCustom>(0, 9)("10"),
            Err(Err::Failure(_))
        ));
    }

    #[test]
    fn ids_take_underscore_space_or_nothing() {
        let mut m = id::<NoCustom>("M", "M_m", Fold::Case, 1_000_000);
        assert_eq!(m("M_15"), Ok(("", 15)));
        assert_eq!(m("M 15"), Ok(("", 15)));
        assert_eq!(m("m15 C"), Ok((" C", 15)));
        assert_eq!(
            err(m("MM 15")).problem,
            Problem::Expected(Expected::Notation("M_m"))
        );
        assert_eq!(
            err(m("M_")).problem,
            Problem::Expected(Expected::Notation("M_m"))
        );
        assert!(matches!(m("M_2000000"), Err(Err::Failure(_))));
    }

    #[test]
    fn quoted_and_bare_names() {
        assert_eq!(
            quoted::<NoCustom>(r#""Nova \"X\"" y"#),
            Ok((" y", r#"Nova \"X\""#))
        );
        assert_eq!(unescape(r#"Nova \"X\""#), r#"Nova "X""#);
        assert!(matches!(unescape("plain"), Cow::Borrowed("plain")));
        let e = err(quoted(r#""open"#));
        assert_eq!(e.problem, Problem::Expected(Expected::Char('"')));
        assert_eq!(e.at, "");
        let mut n = name::<NoCustom>(|c| c == ',');
        let (rest, got) = n("Neue Welt ,3").unwrap();
        assert_eq!((rest, got.text()), (",3", Cow::Borrowed("Neue Welt")));
        let (_, got) = n(r#""a,b""#).unwrap();
        assert_eq!(got.text(), "a,b");
        assert_eq!(err(n(",3")).problem, Problem::Expected(Expected::Name));
    }

    #[test]
    fn bracketed_fields() {
        let mut b = bracketed(number::<NoCustom>(0, 99));
        assert_eq!(b("[ 12 ] rest"), Ok((" rest", 12)));
        let e = err(b("[12 x"));
        assert_eq!(e.problem, Problem::Expected(Expected::Char(']')));
        assert_eq!(e.at, "x");
        assert_eq!(
            err(b("12]")).problem,
            Problem::Expected(Expected::Char('['))
        );
    }

    #[test]
    fn comma_separated_fields() {
        let (rest, f) = fields::<4, NoCustom>(" 12 , E,40").unwrap();
        assert_eq!(rest, "");
        assert_eq!(f.get(), &["12", "E", "40"]);
        assert_eq!(f.count, 3);
        assert_eq!(f.starts[1], "E,40");
        let (_, f) = fields::<2, NoCustom>("a,b,c,d").unwrap();
        assert_eq!((f.count, f.get()), (4, &["a", "b"][..]));
        let (_, f) = fields::<2, NoCustom>("").unwrap();
        assert_eq!((f.count, f.get()), (1, &[""][..]));
    }

    #[test]
    fn byte_trims_agree_with_the_str_trims() {
        for s in [
            "",
            " ",
            "  a b  ",
            "\t\r\n a\u{b}\u{c}",
            "\u{a0}x\u{3000}",
            " \u{2028} é ",
            "é",
            "\u{1c}a\u{1f}",
            " \u{85}",
        ] {
            assert_eq!(trim_start_ws(s), s.trim_start(), "{s:?}");
            assert_eq!(trim_end_ws(s), s.trim_end(), "{s:?}");
            assert_eq!(trim_end_ws(trim_start_ws(s)), s.trim(), "{s:?}");
        }
    }

    #[test]
    fn end_of_line_allows_only_blanks() {
        assert_eq!(end_of_line::<NoCustom>("  "), Ok(("", ())));
        let e = err(end_of_line(" VI"));
        assert_eq!(
            (e.at, e.problem),
            ("VI", Problem::Expected(Expected::EndOfLine))
        );
    }

    #[test]
    fn errors_carry_line_column_expected_and_context() {
        let line = "F_1 C 3 XY";
        let mut p = context(
            "chargement : F_f C (x) MP|N",
            preceded(
                skip0("F_1 C3"),
                word_in::<u8, NoCustom>(
                    &[("MP", 1), ("N", 2)],
                    Fold::Case,
                    Expected::OneOf(&["MP", "N"]),
                ),
            ),
        );
        let e = run_line(|i| p.parse(i), 4, line).unwrap_err();
        assert_eq!((e.line, e.column), (4, 9));
        assert_eq!(
            e.render(Lang::Fr),
            "colonne 9 : attendu MP ou N, trouvé « XY » (chargement : F_f C (x) MP|N)"
        );
        assert_eq!(
            e.render(Lang::De),
            "Spalte 9: erwartet MP oder N, gefunden „XY“ (chargement : F_f C (x) MP|N)"
        );
        assert_eq!(
            e.render_with_line(Lang::En),
            "line 4, column 9: expected MP or N, found “XY” (chargement : F_f C (x) MP|N)"
        );
        // Columns count characters, not bytes.
        let e = Fail::<NoCustom>::expected(&"é x"[3..], Expected::EndOfLine).locate(1, "é x");
        assert_eq!(e.column, 3);
        let e =
            Fail::<NoCustom>::new("123456", Problem::TooLarge { max: 99 }).locate(2, "M 123456");
        assert_eq!(
            e.render(Lang::Fr),
            "colonne 3 : nombre trop grand : 123456 (au plus 99)"
        );
        let e = Fail::<NoCustom>::expected("", Expected::Number).locate(2, "M");
        assert_eq!(
            e.render(Lang::De),
            "Spalte 2: erwartet eine Zahl, gefunden das Zeilenende"
        );
    }

    #[test]
    fn custom_reasons_are_the_rulesets_sentences() {
        #[derive(Clone, Copy, Debug, PartialEq)]
        struct NoSuchTech<'a>(&'a str);
        impl Sentence for NoSuchTech<'_> {
            fn write_sentence(&self, lang: Lang, out: &mut String) {
                let _ = match lang {
                    Lang::Fr => write!(out, "la technologie {} n'existe pas", self.0),
                    _ => write!(out, "no such technology: {}", self.0),
                };
            }
        }
        let e = Fail::new("RAD", Problem::Custom(NoSuchTech("RAD"))).locate(1, "M_5 C 2 RAD");
        assert_eq!(
            e.render(Lang::Fr),
            "colonne 9 : la technologie RAD n'existe pas"
        );
    }

    #[test]
    fn alternatives_keep_the_failure_that_read_furthest() {
        let a: Fail<'_> = Fail::expected("abc", Expected::Number);
        let b: Fail<'_> = Fail::expected("c", Expected::Name);
        assert_eq!(a.or(b).problem, Problem::Expected(Expected::Name));
        assert_eq!(b.or(a).problem, Problem::Expected(Expected::Name));
        let s: Fail<'_> = Fail::new("c", Problem::Syntax(ErrorKind::Alt));
        assert_eq!(b.or(s).problem, Problem::Expected(Expected::Name));
    }

    #[test]
    fn found_token_takes_a_word_or_a_character() {
        assert_eq!(found_token("VIX rest"), "VIX");
        assert_eq!(found_token("*F"), "*");
        assert_eq!(found_token("éa b"), "éa");
        assert_eq!(found_token(""), "");
        assert_eq!(found_token(&"a".repeat(40)).len(), 24);
    }
}
