//! Order parsing for a whole block (spec 3.1, 3.2; rulebook Annexe I):
//! each line read in one pass by [`crate::fast_path`] when it is right,
//! else through the nom grammar of [`crate::grammar`], which alone refuses
//! a line and says why; with the block-level rules: `#` and `;` start comments, a zero quantity is a
//! warning (the order stands and does nothing), and a refused line is kept
//! as [`Order::Rejected`] so the turn's report can list it.
//!
//! A `TOUR n` line (the order template's, issue 17 item 7) must name the
//! open turn: a block for another turn is refused whole
//! ([`arbitre_core::Parsed::refuse_whole`]), so a stale template sent again
//! never replaces the orders already stored.
//!
//! The grammar replaced the hand-written lexer and matcher of issue 9 in
//! issue 21; `tests/grammar_differential.rs` holds the verdicts the old
//! parser gave on 125,290 lines and checks the grammar still gives them.

use crate::grammar::{explain, order, order_by_grammar};
use crate::orders::Order;
use arbitre_core::grammar::run_line;
use arbitre_core::{Lang, LineParser, Parsed};

pub use crate::grammar::OrderError;

/// Parses one normalised order line into an order, or the reason it is
/// refused (column, what was expected, the form being read).
pub fn parse_order(line: &str) -> Result<Order, OrderError<'_>> {
    run_line(order, 1, line).map_err(|e| explain(line, e))
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

/// The line parser handed to `arbitre_core::parse_lines`.
#[derive(Default)]
pub struct NebParser {
    /// The turn orders are expected for, when the state is known: a
    /// `TOUR` line naming another refuses the block.
    open_turn: Option<u32>,
    /// The reason the block is refused whole, once a `TOUR` line said so.
    wrong_turn: Option<String>,
}

/// `TOUR n` / `TURN n`: the number, or `Err(())` for a turn line whose
/// number does not read; `None` for any other line.
fn turn_line(line: &str) -> Option<Result<u32, ()>> {
    // Only a line starting with a T can be one: the order lines are told
    // apart by one byte (the `split` below was 3 % of a parse, issue 21
    // item 4).
    if !matches!(line.as_bytes().first(), Some(b'T' | b't')) {
        return None;
    }
    let mut words = line.split(' ');
    let first = words.next()?;
    if !(first.eq_ignore_ascii_case("TOUR") || first.eq_ignore_ascii_case("TURN")) {
        return None;
    }
    match (words.next(), words.next()) {
        (Some(n), None) => Some(n.parse().map_err(|_| ())),
        _ => Some(Err(())),
    }
}

impl LineParser for NebParser {
    type Order = Order;

    fn is_comment(&self, line: &str) -> bool {
        line.starts_with('#') || line.starts_with(';')
    }

    fn parse_line(&mut self, no: usize, line: &str, out: &mut Parsed<Order>) {
        if let Some(t) = turn_line(line) {
            match (t, self.open_turn) {
                (Ok(t), Some(open)) if t != open => {
                    let why = format!(
                        "ordres pour le tour {t}, mais le tour ouvert est le {open} : bloc entier refusé"
                    );
                    out.error(no, line, why.clone());
                    self.wrong_turn = Some(why);
                }
                (Ok(_), _) => {}
                (Err(()), _) => out.error(no, line, "numéro de tour illisible (TOUR n)"),
            }
            return;
        }
        // A right line is read once, by the fast path; only the others go
        // through the grammar, which says why they are refused.
        let read = match crate::fast_path::order(line) {
            Some(o) => Ok(o),
            None => run_line(order_by_grammar, no, line),
        };
        match read {
            Ok(o) => {
                if quantity(&o) == Some(0) {
                    out.warn(no, line, "quantité nulle : ordre sans effet");
                }
                out.push(no, line, o);
            }
            Err(e) => {
                let reason = explain(line, e).render(Lang::Fr);
                // Kept so the turn's report can list it (see Order::Rejected),
                // but never counted as accepted (issue 17 item 8).
                out.reject(no, line, reason.clone(), Order::Rejected { reason });
            }
        }
    }
}

/// Every order of a block, and a diagnostic for every refused line.
pub fn parse(text: &str) -> Parsed<Order> {
    arbitre_core::parse_lines(&mut NebParser::default(), text)
}

/// [`parse`] for the orders of turn `open`: a `TOUR` line naming another
/// turn refuses the whole block (issue 17 item 7).
pub fn parse_for_turn(text: &str, open: u32) -> Parsed<Order> {
    let mut p = NebParser {
        open_turn: Some(open),
        wrong_turn: None,
    };
    let mut out = arbitre_core::parse_lines(&mut p, text);
    if let Some(why) = p.wrong_turn {
        out.refuse_whole(&why);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::model::{FleetId, Tech, WorldId};
    use crate::orders::{Build, Cargo, Container, Dest, Group, Shooter, Target};

    fn ok(s: &str) -> Order {
        parse_order(s).unwrap_or_else(|e| panic!("{s}: {}", e.render(Lang::Fr)))
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
                    path: [w(12), w(250), w(126)].into_iter().collect(),
                },
            ),
            (
                "F_57 M_48",
                Order::Move {
                    fleet: f(57),
                    path: [w(48)].into_iter().collect(),
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
            (
                "M_1 C 2 VI VI",
                "colonne 12 : attendu la fin de l'ordre, trouvé « VI »",
            ),
            (
                "BONJOUR",
                "colonne 1 : attendu M_m, F_f, VI ou VP, trouvé « BONJOUR »",
            ),
            (
                "F_1 C 3 X",
                "colonne 9 : attendu MP ou N, trouvé « X » (chargement : F_f C (x) MP|N)",
            ),
            ("M_1 C -2 VI", "colonne 7 : caractère interdit « - »"),
            ("F_11 -> 126", "colonne 6 : raccourci de Nebutil"),
            (
                "M_12 C 2000000 VI",
                "colonne 8 : nombre trop grand : 2000000 (au plus 1000000)",
            ),
            ("M_1 C -2 VI", "interdit"),
            ("VI M_1 * N", "flotte"),
        ] {
            let e = parse_order(bad).expect_err(bad).render(Lang::Fr);
            assert!(e.contains(needle), "{bad}: {e}");
        }
        let p = parse("M_1 C 2 VI\nXX\nF_1 M_2");
        assert_eq!(p.error_count(), 1);
        assert_eq!(p.diagnostics[0].line, 2);
    }

    #[test]
    fn item7_tour_line_for_another_turn_refuses_the_whole_block() {
        let p = parse_for_turn("TOUR 3\nM_1 C 1 VI\nXX\n", 4);
        assert!(p.refused);
        assert!(p.orders.is_empty());
        // The TOUR line, the order it carried and the refused line: one
        // error each, never two for one line.
        assert_eq!(p.error_count(), 3, "{:?}", p.diagnostics);
        assert!(p.diagnostics[0].reason.contains("le tour ouvert est le 4"));
        let ok = parse_for_turn("tour 4\nM_1 C 1 VI\n", 4);
        assert!(!ok.refused && ok.diagnostics.is_empty());
        assert_eq!(ok.accepted_count(), 1);
        assert_eq!(parse_for_turn("TOUR x\n", 4).error_count(), 1);
    }

    #[test]
    fn item8_refused_lines_are_kept_for_the_report_but_not_accepted() {
        let p = parse("M_1 C 2 VI\nXX\nF_1 M_2\nYY");
        assert_eq!(p.orders.len(), 4, "refused lines kept as Order::Rejected");
        assert_eq!(p.accepted_count(), 2);
        assert_eq!(p.error_count(), 2);
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
