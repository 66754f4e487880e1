//! The order grammar of rulebook Annexe I (spec 3.1 lexical rules, 3.2
//! forms) in nom, on the combinators of `arbitre_core::grammar` (issue 21).
//!
//! Spec 3.1: `_`, spaces and tabs separate tokens and may be left out, a
//! word and a number glued together are two tokens, case does not matter:
//! `M_15`, `M 15`, `m15` are one world. Every token parser below therefore
//! skips separators first ([`tok`]); words are maximal runs of ASCII letters
//! (so `VIM` is never `VI`), numbers maximal runs of digits up to 1,000,000.
//! Any other character has no place in an order.
//!
//! The forms, as Annexe I writes them, one function each:
//!
//! ```text
//! VI|VP M_m S M_n          probe from a world's ships      group_order
//! VI M_m C x I             VI turned into industries
//! VI|VP M_m * F_f | N      fire of a world's ships
//! M_m C x VC F_f|VI|VP|DEP|ATT|DEF|P|I   build            world_order
//! M_a E x N M_b            emigration
//! M_m T x VI|VP VP|VI|F_f  transfer
//! F_f * F_g|M|P|I          fire                            fleet_order
//! F_f S M_m                probe
//! F_f C|D (x) MP|N         load, unload
//! F_f T x VC VI|VP|F_g     transfer
//! F_f MM m n …  /  F_f M_m M_n …   move
//! ```
//!
//! A refused line says the column and what was expected there, with the
//! form being read (`colonne 9 : attendu MP ou N, trouvé « X » (chargement :
//! F_f C (x) MP|N)`), in French, the game's language. Parsing allocates
//! nothing but a move's path.

use crate::model::{FleetId, Tech, WorldId};
use crate::orders::{Build, Cargo, Container, Dest, Group, Order, Path, Shooter, Target};
use arbitre_core::grammar::{
    self, end_of_line, fold_eq, keyword, letters, number, skip0, word_in, Expected, Fold,
    GrammarError, Problem, Sentence,
};
use arbitre_core::nom::branch::alt;
use arbitre_core::nom::combinator::{cut, opt};
use arbitre_core::nom::error::context;
use arbitre_core::nom::{Err, Parser};
use arbitre_core::Lang;
use std::fmt::Write as _;

/// Nébulight's own reasons for refusing a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Neb {
    /// `F_11 -> 126`: Nebutil's shorthand.
    NebutilShorthand,
    /// `F_176 D (5) MP`: the rulebook's parentheses mark what is optional.
    Parentheses,
    /// `Md_127`: the start-of-turn notation of reports.
    StartNotation(u32),
    /// A technology of the full Nébula rules (its name).
    NoSuchTech(&'static str),
    /// `VI M_m * N`.
    ViFireOnlyAtFleets,
    /// `VI|VP M_m * M|P|I`.
    GroupTarget { group: Group, target: &'static str },
    /// `F_f * M 12`.
    NumberAfterM,
}

impl Sentence for Neb {
    fn write_sentence(&self, _: Lang, out: &mut String) {
        // The rulebook and every player of Nébulight speak French.
        let _ = match self {
            Neb::NebutilShorthand => {
                write!(
                    out,
                    "raccourci de Nebutil, pas un ordre (écrivez F_f M_m ...)"
                )
            }
            Neb::Parentheses => write!(out, "les parenthèses ne s'écrivent pas dans un ordre"),
            Neb::StartNotation(m) => write!(
                out,
                "la notation Md_ est réservée aux comptes rendus : utilisez M_{m}"
            ),
            Neb::NoSuchTech(t) => write!(out, "la technologie {t} n'existe pas dans Nébulight"),
            Neb::ViFireOnlyAtFleets => write!(out, "les VI ne peuvent tirer que sur une flotte"),
            Neb::GroupTarget { group, target } => write!(
                out,
                "les {} ne peuvent pas tirer sur {target} (cibles : {})",
                group_name(*group),
                match group {
                    Group::Vi => "F_f",
                    Group::Vp => "F_f ou N",
                }
            ),
            Neb::NumberAfterM => write!(
                out,
                "F_f * M vise les vaisseaux du monde où est la flotte : pas de numéro"
            ),
        };
    }
}

/// A refused line.
pub type OrderError<'a> = GrammarError<'a, Neb>;
type Fail<'a> = grammar::Fail<'a, Neb>;
type P<'a, O> = grammar::PResult<'a, O, Neb>;

/// The largest number of an order (spec 3.1).
pub const MAX_NUMBER: u32 = 1_000_000;

/// `p` after the separators spec 3.1 allows (none needed).
fn tok<'a, O>(
    mut p: impl Parser<&'a str, Output = O, Error = Fail<'a>>,
) -> impl FnMut(&'a str) -> P<'a, O> {
    move |i: &'a str| {
        let (i, ()) = skip0(" _\t")(i)?;
        p.parse(i)
    }
}

fn kw<'a>(k: &'static str) -> impl FnMut(&'a str) -> P<'a, ()> {
    tok(keyword(k, Fold::Case))
}

fn num(i: &str) -> P<'_, u32> {
    tok(number(0, MAX_NUMBER))(i)
}

/// `M_m`: a world.
fn world(i: &str) -> P<'_, WorldId> {
    let (i, m) = tok(grammar::id("M", "M_m", Fold::Case, MAX_NUMBER))(i)?;
    Ok((i, WorldId(m)))
}

/// `F_f`: a fleet.
fn fleet(i: &str) -> P<'_, FleetId> {
    let (i, f) = tok(grammar::id("F", "F_f", Fold::Case, MAX_NUMBER))(i)?;
    Ok((i, FleetId(f)))
}

fn star(i: &str) -> P<'_, ()> {
    let (i, ()) = skip0(" _\t")(i)?;
    match i.strip_prefix('*') {
        Some(rest) => Ok((rest, ())),
        None => Fail::error(i, Problem::Expected(Expected::Char('*'))),
    }
}

/// `i` after the separators of spec 3.1, skipped byte by byte
/// (`trim_start_matches` with a set of characters decodes each one).
#[inline]
fn skip_seps(i: &str) -> &str {
    let n = i
        .bytes()
        .take_while(|&b| matches!(b, b' ' | b'_' | b'\t'))
        .count();
    &i[n..]
}

/// The next word, for a ruleset reason that names it.
fn next_word(i: &str) -> &str {
    letters::<Neb>(Fold::Case)(skip_seps(i)).map_or("", |(_, w)| w)
}

/// Always fails here with `e`: the last alternative of a choice.
fn expected<'a, O>(e: Expected) -> impl FnMut(&'a str) -> P<'a, O> {
    move |i: &'a str| {
        let (i, ()) = skip0(" _\t")(i)?;
        Fail::error(i, Problem::Expected(e))
    }
}

/// Fails for good here with a reason of Nébulight's own.
fn refuse<'a, O>(i: &'a str, why: Neb) -> P<'a, O> {
    Fail::failure(skip_seps(i), Problem::Custom(why))
}

const GROUPS: &[(&str, Group)] = &[("VI", Group::Vi), ("VP", Group::Vp)];
const CARGOS: &[(&str, Cargo)] = &[("MP", Cargo::Mp), ("N", Cargo::N)];
const BUILDS: &[(&str, Build)] = &[
    ("VI", Build::Vi),
    ("VP", Build::Vp),
    ("DEP", Build::Research(Tech::Dep)),
    ("ATT", Build::Research(Tech::Att)),
    ("DEF", Build::Research(Tech::Def)),
    ("P", Build::Limit),
    ("I", Build::Industry),
];
/// Technologies of the full Nébula rules, refused by name.
const OTHER_TECHS: &[&str] = &["RAD", "ALI", "CAR"];

fn group_name(g: Group) -> &'static str {
    match g {
        Group::Vi => "VI",
        Group::Vp => "VP",
    }
}

/// The word (or `*`) the next token starts with: it picks the form, as in
/// Annexe I every form is told by its subject and its verb. Choosing the
/// branch up front spares trying each form in turn (parse speed, issue 21).
fn verb(i: &str) -> &str {
    let i = skip_seps(i);
    if i.starts_with('*') {
        return "*";
    }
    let n = i.bytes().take_while(u8::is_ascii_alphabetic).count();
    &i[..n]
}

fn is(w: &str, k: &str) -> bool {
    w.eq_ignore_ascii_case(k)
}

const SUBJECTS: Expected = Expected::OneOf(&["M_m", "F_f", "VI", "VP"]);

/// One order line, whole: a right line as [`crate::fast_path`] reads it,
/// any other as the grammar does ([`order_by_grammar`]), which alone
/// refuses.
pub fn order(i: &str) -> P<'_, Order> {
    match crate::fast_path::order(i) {
        Some(o) => Ok((&i[i.len()..], o)),
        None => order_by_grammar(i),
    }
}

/// One order line, whole, read by the grammar alone.
pub fn order_by_grammar(i: &str) -> P<'_, Order> {
    let v = verb(i);
    let r = if is(v, "M") {
        world_order(i)
    } else if is(v, "F") {
        fleet_order(i)
    } else if is(v, "VI") || is(v, "VP") {
        group_order(i)
    } else if is(v, "MD") {
        start_notation(i)
    } else {
        expected(SUBJECTS)(i)
    };
    // A subject without its number (`M X`) is no order at all.
    let (i, o) = match r {
        Err(Err::Error(_)) => expected(SUBJECTS)(i)?,
        r => r?,
    };
    let (i, ()) = skip0(" _\t")(i)?;
    let (i, ()) = end_of_line(i)?;
    Ok((i, o))
}

/// `Md_m …`: refused with its reason.
fn start_notation(i: &str) -> P<'_, Order> {
    let (rest, ()) = kw("MD")(i)?;
    let (_, m) = num(rest)?;
    refuse(i, Neb::StartNotation(m))
}

/// `VI|VP M_m …`
fn group_order(i: &str) -> P<'_, Order> {
    let (i, g) = tok(word_in(GROUPS, Fold::Case, Expected::OneOf(&["VI", "VP"])))(i)?;
    let (i, w) = cut(context(
        match g {
            Group::Vi => "VI doit être suivi d'un monde (M_m)",
            Group::Vp => "VP doit être suivi d'un monde (M_m)",
        },
        world,
    ))
    .parse(i)?;
    let from = Container::Group(w, g);
    let probe = context("sonde : VI|VP M_m S M_n", move |i| {
        let (i, ()) = kw("S")(i)?;
        let (i, target) = cut(world).parse(i)?;
        Ok((i, Order::Probe { from, target }))
    });
    let convert = context("conversion : VI M_m C x I", move |i| {
        if g != Group::Vi {
            return expected(Expected::Char('C'))(i);
        }
        let (i, ()) = kw("C")(i)?;
        let (i, qty) = cut(num).parse(i)?;
        let (i, ()) = cut(kw("I")).parse(i)?;
        Ok((i, Order::Convert { world: w, qty }))
    });
    let fire = context("tir : VI M_m * F_f, VP M_m * F_f|N", move |i| {
        let (i, ()) = star(i)?;
        let (i, target) = cut(|i| group_target(g, i)).parse(i)?;
        Ok((
            i,
            Order::Fire {
                shooter: Shooter::Group(w, g),
                target,
            },
        ))
    });
    let unknown = match g {
        Group::Vi => Expected::OneOf(&["S", "C", "*"]),
        Group::Vp => Expected::OneOf(&["S", "*"]),
    };
    let v = verb(i);
    if v == "*" {
        cut(fire).parse(i)
    } else if is(v, "S") {
        cut(probe).parse(i)
    } else if is(v, "C") && g == Group::Vi {
        cut(convert).parse(i)
    } else {
        cut(expected(unknown)).parse(i)
    }
}

/// What a world's ships fire at: a fleet, or (VP only) the populations.
fn group_target(g: Group, i: &str) -> P<'_, Target> {
    if let Ok((i, f)) = fleet(i) {
        return Ok((i, Target::Fleet(f)));
    }
    let w = next_word(i);
    if fold_eq(w, "N", Fold::Case) {
        if g == Group::Vi {
            return refuse(i, Neb::ViFireOnlyAtFleets);
        }
        let (i, ()) = kw("N")(i)?;
        return Ok((i, Target::N));
    }
    if let Some(t) = ["M", "P", "I"]
        .into_iter()
        .find(|t| fold_eq(w, t, Fold::Case))
    {
        return refuse(
            i,
            Neb::GroupTarget {
                group: g,
                target: t,
            },
        );
    }
    match g {
        Group::Vi => expected(Expected::Notation("F_f"))(i),
        Group::Vp => expected(Expected::OneOf(&["F_f", "N"]))(i),
    }
}

/// `M_m C|E|T …`
fn world_order(i: &str) -> P<'_, Order> {
    let (i, w) = world(i)?;
    let build = context(
        "construction : M_m C x VC F_f|VI|VP|DEP|ATT|DEF|P|I",
        move |i| {
            let (i, ()) = kw("C")(i)?;
            let (i, qty) = cut(num).parse(i)?;
            let (i, what) = cut(build_what).parse(i)?;
            Ok((
                i,
                Order::Build {
                    world: w,
                    qty,
                    what,
                },
            ))
        },
    );
    let emigrate = context("émigration : M_a E x N M_b", move |i| {
        let (i, ()) = kw("E")(i)?;
        let (i, (qty, (), to)) = cut((num, kw("N"), world)).parse(i)?;
        Ok((i, Order::Emigrate { from: w, qty, to }))
    });
    let transfer = context("transfert : M_m T x VI|VP VP|VI|F_f", move |i| {
        let (i, ()) = kw("T")(i)?;
        let (i, qty) = cut(num).parse(i)?;
        let (i, src) = cut(tok(word_in(
            GROUPS,
            Fold::Case,
            Expected::OneOf(&["VI", "VP"]),
        )))
        .parse(i)?;
        let (i, to) = cut(|i| {
            if let Ok((i, f)) = fleet(i) {
                return Ok((i, Dest::Fleet(f)));
            }
            let other = match src {
                Group::Vi => Group::Vp,
                Group::Vp => Group::Vi,
            };
            let want = match other {
                Group::Vi => Expected::OneOf(&["VI", "F_f"]),
                Group::Vp => Expected::OneOf(&["VP", "F_f"]),
            };
            match kw(group_name(other))(i) {
                Ok((i, ())) => Ok((i, Dest::Group(other))),
                Err(_) => expected(want)(i),
            }
        })
        .parse(i)?;
        Ok((
            i,
            Order::Transfer {
                from: Container::Group(w, src),
                qty,
                to,
            },
        ))
    });
    let v = verb(i);
    if is(v, "C") {
        cut(build).parse(i)
    } else if is(v, "E") {
        cut(emigrate).parse(i)
    } else if is(v, "T") {
        cut(transfer).parse(i)
    } else {
        cut(expected(Expected::OneOf(&["C", "E", "T"]))).parse(i)
    }
}

/// What `M_m C x` builds.
fn build_what(i: &str) -> P<'_, Build> {
    if is(verb(i), "VC") {
        let (i, ()) = kw("VC")(i)?;
        let (i, f) = cut(fleet).parse(i)?;
        return Ok((i, Build::Vc(f)));
    }
    if let Ok(r) = tok(word_in(BUILDS, Fold::Case, Expected::Name))(i) {
        return Ok(r);
    }
    let w = next_word(i);
    if let Some(t) = OTHER_TECHS.iter().find(|t| fold_eq(w, t, Fold::Case)) {
        return refuse(i, Neb::NoSuchTech(t));
    }
    expected(Expected::OneOf(&[
        "VC F_f", "VI", "VP", "DEP", "ATT", "DEF", "P", "I",
    ]))(i)
}

/// `F_f *|S|C|D|T|MM|M_m …`
fn fleet_order(i: &str) -> P<'_, Order> {
    let (i, fleet_id) = fleet(i)?;
    let fire = context("tir : F_f * F_g|M|P|I", move |i| {
        let (i, ()) = star(i)?;
        let (i, target) = cut(fleet_target).parse(i)?;
        Ok((
            i,
            Order::Fire {
                shooter: Shooter::Fleet(fleet_id),
                target,
            },
        ))
    });
    let probe = context("sonde : F_f S M_m", move |i| {
        let (i, ()) = kw("S")(i)?;
        let (i, target) = cut(world).parse(i)?;
        Ok((
            i,
            Order::Probe {
                from: Container::Fleet(fleet_id),
                target,
            },
        ))
    });
    let load = context("chargement : F_f C (x) MP|N", move |i| {
        let (i, ()) = kw("C")(i)?;
        let (i, (qty, cargo)) = cut(cargo).parse(i)?;
        Ok((
            i,
            Order::Load {
                fleet: fleet_id,
                qty,
                cargo,
            },
        ))
    });
    let unload = context("déchargement : F_f D (x) MP|N", move |i| {
        let (i, ()) = kw("D")(i)?;
        let (i, (qty, cargo)) = cut(cargo).parse(i)?;
        Ok((
            i,
            Order::Unload {
                fleet: fleet_id,
                qty,
                cargo,
            },
        ))
    });
    let transfer = context("transfert de flotte : F_f T x VC VI|VP|F_g", move |i| {
        let (i, ()) = kw("T")(i)?;
        let (i, (qty, ())) = cut((num, kw("VC"))).parse(i)?;
        let (i, to) = cut(alt((
            |i| fleet(i).map(|(i, g)| (i, Dest::Fleet(g))),
            |i| {
                tok(word_in(GROUPS, Fold::Case, Expected::Name))(i)
                    .map(|(i, g)| (i, Dest::Group(g)))
            },
            expected(Expected::OneOf(&["VI", "VP", "F_g"])),
        )))
        .parse(i)?;
        Ok((
            i,
            Order::Transfer {
                from: Container::Fleet(fleet_id),
                qty,
                to,
            },
        ))
    });
    let move_numbers = context("déplacement : F_f MM m n ...", move |i| {
        let (i, ()) = kw("MM")(i)?;
        let (i, path) = cut(path_of(|i| num(i).map(|(i, m)| (i, WorldId(m))))).parse(i)?;
        Ok((
            i,
            Order::Move {
                fleet: fleet_id,
                path,
            },
        ))
    });
    let move_worlds = context("déplacement : F_f M_m M_n ...", move |i| {
        let (i, path) = path_of(|i| {
            if let Ok((rest, ())) = kw("MD")(i) {
                if let Ok((_, m)) = num(rest) {
                    return refuse(i, Neb::StartNotation(m));
                }
            }
            world(i)
        })(i)?;
        Ok((
            i,
            Order::Move {
                fleet: fleet_id,
                path,
            },
        ))
    });
    let v = verb(i);
    if v == "*" {
        cut(fire).parse(i)
    } else if is(v, "M") {
        cut(alt((
            move_worlds,
            expected(Expected::OneOf(&["*", "S", "C", "D", "T", "MM", "M_m"])),
        )))
        .parse(i)
    } else if is(v, "C") {
        cut(load).parse(i)
    } else if is(v, "D") {
        cut(unload).parse(i)
    } else if is(v, "S") {
        cut(probe).parse(i)
    } else if is(v, "T") {
        cut(transfer).parse(i)
    } else if is(v, "MM") {
        cut(move_numbers).parse(i)
    } else {
        cut(expected(Expected::OneOf(&[
            "*", "S", "C", "D", "T", "MM", "M_m",
        ])))
        .parse(i)
    }
}

/// `(x) MP|N` of a load or unload.
fn cargo(i: &str) -> P<'_, (Option<u32>, Cargo)> {
    let (i, qty) = opt(num).parse(i)?;
    let (i, c) = tok(word_in(CARGOS, Fold::Case, Expected::OneOf(&["MP", "N"])))(i)?;
    Ok((i, (qty, c)))
}

/// What a fleet fires at: `F_g`, `M`, `P` or `I`.
fn fleet_target(i: &str) -> P<'_, Target> {
    if let Ok((i, g)) = fleet(i) {
        return Ok((i, Target::Fleet(g)));
    }
    if let Ok((rest, ())) = kw("M")(i) {
        if num(rest).is_ok() {
            return refuse(rest, Neb::NumberAfterM);
        }
        return Ok((rest, Target::M));
    }
    tok(word_in(
        &[("P", Target::P), ("I", Target::I)],
        Fold::Case,
        Expected::OneOf(&["F_g", "M", "P", "I"]),
    ))(i)
}

/// One or more worlds read by `step`, up to the end of the line: the one
/// allocation of an accepted move.
fn path_of<'a>(
    mut step: impl FnMut(&'a str) -> P<'a, WorldId>,
) -> impl FnMut(&'a str) -> P<'a, Path> {
    move |i: &'a str| {
        let (mut i, first) = step(i)?;
        let mut path = Path::new();
        path.push(first);
        loop {
            match step(i) {
                Ok((rest, w)) => {
                    path.push(w);
                    i = rest;
                }
                Err(Err::Error(_)) => return Ok((i, path)),
                Err(e) => return Err(e),
            }
        }
    }
}

/// A character no token uses takes precedence over what the grammar
/// expected there: Nebutil's `->` and the rulebook's parentheses have their
/// own reasons wherever they are on the line, as they did before nom.
pub fn explain<'a>(line: &'a str, e: OrderError<'a>) -> OrderError<'a> {
    let locate = |k: usize, why: Neb| {
        grammar::Fail::new(&line[k..], Problem::Custom(why)).locate(e.line, line)
    };
    if let Some(k) = line.find("->") {
        return locate(k, Neb::NebutilShorthand);
    }
    if let Some(k) = line.find(['(', ')']) {
        return locate(k, Neb::Parentheses);
    }
    match e.at.chars().next() {
        Some(c) if !is_token_char(c) => {
            grammar::Fail::new(e.at, Problem::Forbidden(c)).locate(e.line, line)
        }
        _ => e,
    }
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '\t' | '*')
}
