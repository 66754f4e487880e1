//! Order parser: the lexical rules of spec 3.1 and the grammar of 3.2
//! (rulebook Annexe I).
//!
//! The lexer treats `_`, spaces and tabs as separators and splits a word from a
//! number glued to it, so `M_15`, `M 15` and `M15` are the same tokens. A
//! hand-written token matcher is used rather than nom combinators because every
//! order starts with one of four subjects (`M`, `F`, `VI`, `VP`) and a table of
//! token shapes gives clearer French error messages per form than a combinator
//! chain's "expected …" errors.

use crate::model::{FleetId, Tech, WorldId};
use crate::orders::{Build, Cargo, Container, Dest, Group, Order, Shooter, Target};
use arbitre_core::{LineParser, Parsed};

/// Why a line is not an order, in French (the game's language).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    #[error("raccourci de Nebutil, pas un ordre (écrivez F_f M_m ...)")]
    NebutilShorthand,
    #[error("les parenthèses ne s'écrivent pas dans un ordre")]
    Parentheses,
    #[error("nombre trop grand : {0}")]
    TooLarge(String),
    #[error("caractère interdit « {0} »")]
    ForbiddenChar(char),
    #[error("éléments en trop en fin d'ordre")]
    Trailing,
    #[error("la notation Md_ est réservée aux comptes rendus : utilisez M_{0}")]
    StartNotation(u32),
    #[error("{0} doit être suivi d'un monde (M_m)")]
    GroupWithoutWorld(&'static str),
    #[error("ordre {0} inconnu (S, C ou *)")]
    UnknownGroupOrder(&'static str),
    #[error("quantité manquante après {0}")]
    MissingQuantity(&'static str),
    #[error("la technologie {0} n'existe pas dans Nébulight")]
    NoSuchTech(String),
    #[error("les VI ne peuvent tirer que sur une flotte")]
    ViFireOnlyAtFleets,
    #[error("les {group} ne peuvent pas tirer sur {target} (cibles : {allowed})")]
    GroupTarget {
        group: &'static str,
        target: String,
        allowed: &'static str,
    },
    #[error("F_f * M vise les vaisseaux du monde où est la flotte : pas de numéro")]
    NumberAfterM,
    /// The line starts like an order but does not follow its form (given).
    #[error("{0}")]
    Form(&'static str),
}

/// A token. Words are kept upper-cased inline: the longest keyword of the
/// grammar has three letters (`DEP`, `ATT`, `VC`...), so a word of up to
/// [`WORD_MAX`] letters is stored as it is and a longer one, which can only
/// be "not a keyword", as the empty word. No token allocates (issue 9: the
/// fixed cost per line is what limits parsing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Word { up: [u8; WORD_MAX], len: u8 },
    Num(u32),
    Star,
}

const WORD_MAX: usize = 4;

impl Tok {
    fn word(letters: &[u8]) -> Tok {
        let mut up = [0u8; WORD_MAX];
        let len = if letters.len() <= WORD_MAX {
            for (u, c) in up.iter_mut().zip(letters) {
                *u = c.to_ascii_uppercase();
            }
            letters.len() as u8
        } else {
            0
        };
        Tok::Word { up, len }
    }
}

/// Splits a line into `toks` (cleared first). The checks for `->` and
/// parentheses, whose reasons take precedence over any other lexical error,
/// run only when the walk fails: `-`, `(` and `)` are forbidden characters,
/// so a line that lexes contains none of them.
fn lex(line: &str, toks: &mut Vec<Tok>) -> Result<(), OrderError> {
    toks.clear();
    lex_bytes(line, toks).map_err(|e| {
        if line.contains("->") {
            OrderError::NebutilShorthand
        } else if line.contains('(') || line.contains(')') {
            OrderError::Parentheses
        } else {
            e
        }
    })
}

fn lex_bytes(line: &str, out: &mut Vec<Tok>) -> Result<(), OrderError> {
    // Over the bytes of the line: every token is ASCII, and the first
    // non-ASCII character is refused whole (decoded for the message), so no
    // per-line `Vec<char>` is needed (issue 9: parsing cost per line).
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'_' || c == b' ' || c == b'\t' {
            i += 1;
        } else if c == b'*' {
            out.push(Tok::Star);
            i += 1;
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            out.push(Tok::word(&b[start..i]));
        } else if c.is_ascii_digit() {
            let start = i;
            // Saturating: once past the limit the value never comes back
            // under it, so any run of digits over 1,000,000 (or over u32) is
            // refused whole, leading zeros included, as `str::parse` did.
            let mut n: u32 = 0;
            while i < b.len() && b[i].is_ascii_digit() {
                n = n.saturating_mul(10).saturating_add(u32::from(b[i] - b'0'));
                i += 1;
            }
            if n > 1_000_000 {
                return Err(OrderError::TooLarge(line[start..i].to_string()));
            }
            out.push(Tok::Num(n));
        } else {
            let ch = line[i..].chars().next().expect("i is on a char boundary");
            return Err(OrderError::ForbiddenChar(ch));
        }
    }
    Ok(())
}

/// Parses one normalised order line into an order or a French reason.
pub fn parse_order(line: &str) -> Result<Order, OrderError> {
    parse_order_with(line, &mut Vec::new())
}

/// [`parse_order`] with a token buffer reused from line to line.
fn parse_order_with(line: &str, toks: &mut Vec<Tok>) -> Result<Order, OrderError> {
    lex(line, toks)?;
    let toks: &[Tok] = toks;
    let w = |i: usize| -> Option<&str> {
        match toks.get(i) {
            // ASCII letters only, so always UTF-8; a long word is "".
            Some(Tok::Word { up, len }) => std::str::from_utf8(&up[..usize::from(*len)]).ok(),
            _ => None,
        }
    };
    let n = |i: usize| -> Option<u32> {
        match toks.get(i) {
            Some(Tok::Num(v)) => Some(*v),
            _ => None,
        }
    };
    let star = |i: usize| matches!(toks.get(i), Some(Tok::Star));
    let end = |i: usize| -> Result<(), OrderError> {
        if toks.len() > i {
            Err(OrderError::Trailing)
        } else {
            Ok(())
        }
    };
    match (w(0), n(1)) {
        (Some("MD"), Some(m)) => Err(OrderError::StartNotation(m)),
        (Some(g @ ("VI" | "VP")), _) => {
            let group = if g == "VI" { Group::Vi } else { Group::Vp };
            let gname: &'static str = if group == Group::Vi { "VI" } else { "VP" };
            let world = match (w(1), n(2)) {
                (Some("M"), Some(m)) => WorldId(m),
                _ => return Err(OrderError::GroupWithoutWorld(gname)),
            };
            if w(3) == Some("S") {
                return match (w(4), n(5)) {
                    (Some("M"), Some(t)) => {
                        end(6)?;
                        Ok(Order::Probe {
                            from: Container::Group(world, group),
                            target: WorldId(t),
                        })
                    }
                    _ => Err(OrderError::Form("sonde : le monde sondé doit s'écrire M_n")),
                };
            }
            if w(3) == Some("C") && group == Group::Vi {
                return match (n(4), w(5)) {
                    (Some(q), Some("I")) => {
                        end(6)?;
                        Ok(Order::Convert { world, qty: q })
                    }
                    _ => Err(OrderError::Form("conversion : VI M_m C x I")),
                };
            }
            if star(3) {
                let shooter = Shooter::Group(world, group);
                return match (w(4), n(5)) {
                    (Some("F"), Some(f)) => {
                        end(6)?;
                        Ok(Order::Fire {
                            shooter,
                            target: Target::Fleet(FleetId(f)),
                        })
                    }
                    (Some("N"), None) if group == Group::Vp => {
                        end(5)?;
                        Ok(Order::Fire {
                            shooter,
                            target: Target::N,
                        })
                    }
                    (Some("N"), None) => Err(OrderError::ViFireOnlyAtFleets),
                    (Some(x @ ("M" | "P" | "I")), _) => Err(OrderError::GroupTarget {
                        group: gname,
                        target: x.to_string(),
                        allowed: if group == Group::Vp {
                            "F_f ou N"
                        } else {
                            "F_f"
                        },
                    }),
                    _ => Err(OrderError::Form("cible de tir invalide")),
                };
            }
            Err(OrderError::UnknownGroupOrder(gname))
        }
        (Some("M"), Some(m)) => {
            let world = WorldId(m);
            match w(2) {
                Some("C") => {
                    let q = n(3).ok_or(OrderError::MissingQuantity("C"))?;
                    let what = match w(4) {
                        Some("VC") => match (w(5), n(6)) {
                            (Some("F"), Some(f)) => {
                                end(7)?;
                                return Ok(Order::Build {
                                    world,
                                    qty: q,
                                    what: Build::Vc(FleetId(f)),
                                });
                            }
                            _ => {
                                return Err(OrderError::Form("construction de VC : M_m C x VC F_f"))
                            }
                        },
                        Some("VI") => Build::Vi,
                        Some("VP") => Build::Vp,
                        Some("DEP") => Build::Research(Tech::Dep),
                        Some("ATT") => Build::Research(Tech::Att),
                        Some("DEF") => Build::Research(Tech::Def),
                        Some("P") => Build::Limit,
                        Some("I") => Build::Industry,
                        Some(t @ ("RAD" | "ALI" | "CAR")) => {
                            return Err(OrderError::NoSuchTech(t.to_string()))
                        }
                        _ => {
                            return Err(OrderError::Form(
                                "construction inconnue (VC F_f, VI, VP, DEP, ATT, DEF, P ou I)",
                            ))
                        }
                    };
                    end(5)?;
                    Ok(Order::Build {
                        world,
                        qty: q,
                        what,
                    })
                }
                Some("E") => match (n(3), w(4), w(5), n(6)) {
                    (Some(q), Some("N"), Some("M"), Some(t)) => {
                        end(7)?;
                        Ok(Order::Emigrate {
                            from: world,
                            qty: q,
                            to: WorldId(t),
                        })
                    }
                    _ => Err(OrderError::Form("émigration : M_a E x N M_b")),
                },
                Some("T") => {
                    let q = n(3).ok_or(OrderError::MissingQuantity("T"))?;
                    let src = match w(4) {
                        Some("VI") => Group::Vi,
                        Some("VP") => Group::Vp,
                        _ => return Err(OrderError::Form("transfert : M_m T x VI|VP (VP|VI|F_f)")),
                    };
                    let to = match (w(5), n(6)) {
                        (Some("VI"), _) if src == Group::Vp => Dest::Group(Group::Vi),
                        (Some("VP"), _) if src == Group::Vi => Dest::Group(Group::Vp),
                        (Some("F"), Some(f)) => Dest::Fleet(FleetId(f)),
                        _ => return Err(OrderError::Form("transfert : destination invalide")),
                    };
                    end(if matches!(to, Dest::Fleet(_)) { 7 } else { 6 })?;
                    Ok(Order::Transfer {
                        from: Container::Group(world, src),
                        qty: q,
                        to,
                    })
                }
                _ => Err(OrderError::Form("ordre de monde inconnu (C, E ou T)")),
            }
        }
        (Some("F"), Some(f)) => {
            let fleet = FleetId(f);
            if star(2) {
                let target = match (w(3), n(4)) {
                    (Some("F"), Some(g)) => {
                        end(5)?;
                        Target::Fleet(FleetId(g))
                    }
                    (Some("M"), None) => Target::M,
                    (Some("M"), Some(_)) => return Err(OrderError::NumberAfterM),
                    (Some("P"), None) => Target::P,
                    (Some("I"), None) => Target::I,
                    _ => return Err(OrderError::Form("cible de tir invalide (F_g, M, P ou I)")),
                };
                if !matches!(target, Target::Fleet(_)) {
                    end(4)?;
                }
                return Ok(Order::Fire {
                    shooter: Shooter::Fleet(fleet),
                    target,
                });
            }
            match w(2) {
                Some("S") => match (w(3), n(4)) {
                    (Some("M"), Some(t)) => {
                        end(5)?;
                        Ok(Order::Probe {
                            from: Container::Fleet(fleet),
                            target: WorldId(t),
                        })
                    }
                    _ => Err(OrderError::Form("sonde : F_f S M_m")),
                },
                Some(k @ ("C" | "D")) => {
                    let (qty, i) = match n(3) {
                        Some(q) => (Some(q), 4),
                        None => (None, 3),
                    };
                    let cargo = match w(i) {
                        Some("MP") => Cargo::Mp,
                        Some("N") => Cargo::N,
                        _ => {
                            return Err(OrderError::Form(if k == "C" {
                                "chargement : F_f C (x) MP|N"
                            } else {
                                "déchargement : F_f D (x) MP|N"
                            }))
                        }
                    };
                    end(i + 1)?;
                    Ok(if k == "C" {
                        Order::Load { fleet, qty, cargo }
                    } else {
                        Order::Unload { fleet, qty, cargo }
                    })
                }
                Some("T") => {
                    let q = n(3).ok_or(OrderError::MissingQuantity("T"))?;
                    if w(4) != Some("VC") {
                        return Err(OrderError::Form(
                            "transfert de flotte : F_f T x VC (VI|VP|F_g)",
                        ));
                    }
                    let to = match (w(5), n(6)) {
                        (Some("VI"), _) => Dest::Group(Group::Vi),
                        (Some("VP"), _) => Dest::Group(Group::Vp),
                        (Some("F"), Some(g)) => Dest::Fleet(FleetId(g)),
                        _ => return Err(OrderError::Form("transfert : destination invalide")),
                    };
                    end(if matches!(to, Dest::Fleet(_)) { 7 } else { 6 })?;
                    Ok(Order::Transfer {
                        from: Container::Fleet(fleet),
                        qty: q,
                        to,
                    })
                }
                Some("MM") => {
                    let mut path = Vec::new();
                    for t in &toks[3..] {
                        match t {
                            Tok::Num(v) => path.push(WorldId(*v)),
                            _ => {
                                return Err(OrderError::Form(
                                    "déplacement : F_f MM m n ... (des numéros seulement)",
                                ))
                            }
                        }
                    }
                    if path.is_empty() {
                        return Err(OrderError::Form("déplacement sans destination"));
                    }
                    Ok(Order::Move { fleet, path })
                }
                Some("M") => {
                    let mut path = Vec::new();
                    let mut i = 2;
                    while i < toks.len() {
                        match (w(i), n(i + 1)) {
                            (Some("M"), Some(v)) => path.push(WorldId(v)),
                            (Some("MD"), Some(v)) => return Err(OrderError::StartNotation(v)),
                            _ => return Err(OrderError::Form("déplacement : F_f M_m M_n ...")),
                        }
                        i += 2;
                    }
                    Ok(Order::Move { fleet, path })
                }
                _ => Err(OrderError::Form("ordre de flotte inconnu")),
            }
        }
        _ => Err(OrderError::Form("ordre inconnu")),
    }
}

fn quantity(o: &Order) -> Option<u32> {
    match o {
        Order::Build { qty, .. }
        | Order::Emigrate { qty, .. }
        | Order::Convert { qty, .. }
        | Order::Transfer { qty, .. } => Some(*qty),
        Order::Unload { qty, .. } | Order::Load { qty, .. } => *qty,
        _ => None,
    }
}

/// The line parser handed to `arbitre_core::parse_lines`; it keeps one
/// token buffer for the whole block.
#[derive(Default)]
pub struct NebParser {
    toks: Vec<Tok>,
}

impl LineParser for NebParser {
    type Order = Order;

    fn is_comment(&self, line: &str) -> bool {
        line.starts_with('#') || line.starts_with(';')
    }

    fn parse_line(&mut self, no: usize, line: &str, out: &mut Parsed<Order>) {
        match parse_order_with(line, &mut self.toks) {
            Ok(o) => {
                if quantity(&o) == Some(0) {
                    out.warn(no, line, "quantité nulle : ordre sans effet");
                }
                out.push(no, line, o);
            }
            Err(e) => {
                let reason = e.to_string();
                out.error(no, line, reason.clone());
                // Kept so the turn's report can list it (see Order::Rejected).
                out.push(no, line, Order::Rejected { reason });
            }
        }
    }
}

pub fn parse(text: &str) -> Parsed<Order> {
    arbitre_core::parse_lines(&mut NebParser::default(), text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Order {
        parse_order(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn neb_6_lexer_underscore_space_glued_and_case() {
        let a = ok("M_127 C 10 VC F_57");
        assert_eq!(a, ok("M 127 C 10 VC F 57"));
        assert_eq!(a, ok("M127 C 10 VC F57"));
        assert_eq!(a, ok("m_127 c 10 vc f_57"));
        assert_eq!(
            a,
            Order::Build {
                world: WorldId(127),
                qty: 10,
                what: Build::Vc(FleetId(57))
            }
        );
        let p = parse("# commentaire\n; autre\n\nM_1 C 1 VI\n");
        assert_eq!(p.orders.len(), 1);
        assert_eq!(p.orders[0].line, 4);
        assert!(p.diagnostics.is_empty());
    }

    #[test]
    fn neb_7_every_order_form_parses() {
        let w = WorldId;
        let f = FleetId;
        let cases: Vec<(&str, Order)> = vec![
            (
                "VI M_15 S M_13",
                Order::Probe {
                    from: Container::Group(w(15), Group::Vi),
                    target: w(13),
                },
            ),
            (
                "VP M_15 S M_13",
                Order::Probe {
                    from: Container::Group(w(15), Group::Vp),
                    target: w(13),
                },
            ),
            (
                "F_57 S M_65",
                Order::Probe {
                    from: Container::Fleet(f(57)),
                    target: w(65),
                },
            ),
            (
                "M_127 C 10 VC F_57",
                Order::Build {
                    world: w(127),
                    qty: 10,
                    what: Build::Vc(f(57)),
                },
            ),
            (
                "M_1 C 2 VI",
                Order::Build {
                    world: w(1),
                    qty: 2,
                    what: Build::Vi,
                },
            ),
            (
                "M_1 C 2 VP",
                Order::Build {
                    world: w(1),
                    qty: 2,
                    what: Build::Vp,
                },
            ),
            (
                "M_1 C 2 DEP",
                Order::Build {
                    world: w(1),
                    qty: 2,
                    what: Build::Research(Tech::Dep),
                },
            ),
            (
                "M_1 C 2 ATT",
                Order::Build {
                    world: w(1),
                    qty: 2,
                    what: Build::Research(Tech::Att),
                },
            ),
            (
                "M_1 C 2 DEF",
                Order::Build {
                    world: w(1),
                    qty: 2,
                    what: Build::Research(Tech::Def),
                },
            ),
            (
                "M_1 C 2 P",
                Order::Build {
                    world: w(1),
                    qty: 2,
                    what: Build::Limit,
                },
            ),
            (
                "M_15 E 8 N M_235",
                Order::Emigrate {
                    from: w(15),
                    qty: 8,
                    to: w(235),
                },
            ),
            (
                "M_1 C 2 I",
                Order::Build {
                    world: w(1),
                    qty: 2,
                    what: Build::Industry,
                },
            ),
            (
                "VI M_456 C 1 I",
                Order::Convert {
                    world: w(456),
                    qty: 1,
                },
            ),
            (
                "F_176 D MP",
                Order::Unload {
                    fleet: f(176),
                    qty: None,
                    cargo: Cargo::Mp,
                },
            ),
            (
                "F_176 D 5 N",
                Order::Unload {
                    fleet: f(176),
                    qty: Some(5),
                    cargo: Cargo::N,
                },
            ),
            (
                "M_1 T 3 VI VP",
                Order::Transfer {
                    from: Container::Group(w(1), Group::Vi),
                    qty: 3,
                    to: Dest::Group(Group::Vp),
                },
            ),
            (
                "M_1 T 3 VP VI",
                Order::Transfer {
                    from: Container::Group(w(1), Group::Vp),
                    qty: 3,
                    to: Dest::Group(Group::Vi),
                },
            ),
            (
                "M_1 T 3 VI F_2",
                Order::Transfer {
                    from: Container::Group(w(1), Group::Vi),
                    qty: 3,
                    to: Dest::Fleet(f(2)),
                },
            ),
            (
                "M_1 T 3 VP F_2",
                Order::Transfer {
                    from: Container::Group(w(1), Group::Vp),
                    qty: 3,
                    to: Dest::Fleet(f(2)),
                },
            ),
            (
                "F_2 T 3 VC VI",
                Order::Transfer {
                    from: Container::Fleet(f(2)),
                    qty: 3,
                    to: Dest::Group(Group::Vi),
                },
            ),
            (
                "F_2 T 3 VC VP",
                Order::Transfer {
                    from: Container::Fleet(f(2)),
                    qty: 3,
                    to: Dest::Group(Group::Vp),
                },
            ),
            (
                "F_177 T 4 VC F_176",
                Order::Transfer {
                    from: Container::Fleet(f(177)),
                    qty: 4,
                    to: Dest::Fleet(f(176)),
                },
            ),
            (
                "F_177 C N",
                Order::Load {
                    fleet: f(177),
                    qty: None,
                    cargo: Cargo::N,
                },
            ),
            (
                "F_177 C 3 MP",
                Order::Load {
                    fleet: f(177),
                    qty: Some(3),
                    cargo: Cargo::Mp,
                },
            ),
            (
                "F_128 * F_258",
                Order::Fire {
                    shooter: Shooter::Fleet(f(128)),
                    target: Target::Fleet(f(258)),
                },
            ),
            (
                "F_124 * M",
                Order::Fire {
                    shooter: Shooter::Fleet(f(124)),
                    target: Target::M,
                },
            ),
            (
                "F_124 * P",
                Order::Fire {
                    shooter: Shooter::Fleet(f(124)),
                    target: Target::P,
                },
            ),
            (
                "F_124 * I",
                Order::Fire {
                    shooter: Shooter::Fleet(f(124)),
                    target: Target::I,
                },
            ),
            (
                "VP M_463 * F_124",
                Order::Fire {
                    shooter: Shooter::Group(w(463), Group::Vp),
                    target: Target::Fleet(f(124)),
                },
            ),
            (
                "VP M_463 * N",
                Order::Fire {
                    shooter: Shooter::Group(w(463), Group::Vp),
                    target: Target::N,
                },
            ),
            (
                "VI M_463 * F_124",
                Order::Fire {
                    shooter: Shooter::Group(w(463), Group::Vi),
                    target: Target::Fleet(f(124)),
                },
            ),
            (
                "F_11 MM 12 250 126",
                Order::Move {
                    fleet: f(11),
                    path: vec![w(12), w(250), w(126)],
                },
            ),
            (
                "F_57 M_48",
                Order::Move {
                    fleet: f(57),
                    path: vec![w(48)],
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(ok(text), want, "{text}");
        }
        assert_eq!(ok("F_11 MM 12 250 126"), ok("F_11 M_12 M_250 M_126"));
        assert_eq!(ok("M_15 C 10 VC F_57"), ok("M 15 C 10 VC F 57"));
    }

    #[test]
    fn neb_8_rejections_carry_a_reason() {
        for (bad, needle) in [
            ("Md_127 C 10 VI", "M_127"),
            ("F_176 D (5) MP", "parenthèses"),
            ("F_11 -> 126", "Nebutil"),
            ("M_5 C 2 RAD", "RAD"),
            ("M_5 C 2 ALI", "ALI"),
            ("F_1 * M 12", "pas de numéro"),
            ("M_1 C 2 VI VI", "en trop"),
            ("BONJOUR", "inconnu"),
            ("M_1 C -2 VI", "interdit"),
            ("VI M_1 * N", "flotte"),
        ] {
            let e = parse_order(bad).expect_err(bad).to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
        let p = parse("M_1 C 2 VI\nXX\nF_1 M_2");
        assert_eq!(p.error_count(), 1);
        assert_eq!(p.diagnostics[0].line, 2);
    }

    #[test]
    fn neb_8_zero_quantity_is_a_warning() {
        let p = parse("M_1 C 0 VI");
        assert_eq!(p.error_count(), 0);
        assert!(p.diagnostics[0].warning);
    }

    #[test]
    fn garbage_never_panics() {
        let mut seed: u64 = 12345;
        let alphabet: Vec<char> = "MFVIPCDTSE_ *0123456789()->#;éMDxx\t\u{a0}"
            .chars()
            .collect();
        for _ in 0..5000 {
            let mut s = String::new();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = (seed >> 58) as usize;
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push(alphabet[(seed >> 33) as usize % alphabet.len()]);
            }
            let _ = parse(&s);
        }
        let _ = parse("F_1 M_99999999999999999999");
        let _ = parse("F_1 MM");
        let _ = parse("*");
    }
}
