//! The orders of Annexe I read in one pass over the line's bytes, for the
//! lines that are right (issue 21): nearly every line a player or a bot
//! sends is one, and for them the nom grammar's separate passes (the first
//! word read to pick the form, then read again as a keyword, each id and
//! keyword through its combinator, `cut` and `context` around every form)
//! were two thirds of a parse.
//!
//! [`order`] either gives the order the grammar ([`crate::grammar`]) gives
//! the line, or gives up: it never refuses a line, so that every refusal
//! and its reason still come from the grammar alone. It gives up at the
//! first thing out of the ordinary (any byte that is not a letter, digit,
//! separator or `*`, a number over [`MAX_NUMBER`], a word no form has
//! there), and the grammar then reads the line from its start.
//!
//! The tokens are the grammar's (spec 3.1): separators (`_`, space, tab)
//! skipped and optional, a word a maximal run of ASCII letters in any case,
//! a number a maximal run of digits. `tests/grammar_differential.rs` checks
//! that on the corpus and its mutants the two accept the same lines with
//! the same orders.

use crate::grammar::MAX_NUMBER;
use crate::model::{FleetId, Tech, WorldId};
use crate::orders::{Build, Cargo, Container, Dest, Group, Order, Path, Shooter, Target};

/// A word of at most three letters, upper case, with its length: one
/// comparison tells it from a keyword. Longer words are no keyword.
type Key = u32;

const fn key(w: &str) -> Key {
    let b = w.as_bytes();
    let mut k = 0;
    let mut i = 0;
    while i < b.len() {
        k = (k << 8) | b[i] as u32;
        i += 1;
    }
    ((b.len() as u32) << 24) | k
}

const M: Key = key("M");
const F: Key = key("F");
const VI: Key = key("VI");
const VP: Key = key("VP");
const VC: Key = key("VC");
const C: Key = key("C");
const D: Key = key("D");
const E: Key = key("E");
const T: Key = key("T");
const S: Key = key("S");
const N: Key = key("N");
const I: Key = key("I");
const P: Key = key("P");
const MP: Key = key("MP");
const MM: Key = key("MM");
const DEP: Key = key("DEP");
const ATT: Key = key("ATT");
const DEF: Key = key("DEF");

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tok {
    Word(Key),
    Num(u32),
    Star,
    End,
}

struct Lex<'a> {
    b: &'a [u8],
    k: usize,
}

impl Lex<'_> {
    #[inline]
    fn skip_seps(&mut self) {
        while let Some(b' ' | b'_' | b'\t') = self.b.get(self.k) {
            self.k += 1;
        }
    }

    /// The word at the cursor; `None` when no letter is there.
    #[inline]
    fn letters(&mut self) -> Option<Key> {
        let start = self.k;
        let mut w: Key = 0;
        while let Some(&c) = self.b.get(self.k) {
            if !c.is_ascii_alphabetic() {
                break;
            }
            // `& 0xdf` upper-cases an ASCII letter.
            w = (w << 8) | Key::from(c & 0xdf);
            self.k += 1;
        }
        match self.k - start {
            0 => None,
            len @ 1..=3 => Some(((len as Key) << 24) | w),
            _ => Some(0),
        }
    }

    /// The number at the cursor; `None` when no digit is there, or when
    /// it is over [`MAX_NUMBER`] (the grammar refuses it).
    #[inline]
    fn digits(&mut self) -> Option<u32> {
        let start = self.k;
        let mut n: u32 = 0;
        while let Some(&c) = self.b.get(self.k) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            // Never over 10 * MAX_NUMBER + 9: no overflow.
            n = n * 10 + u32::from(d);
            if n > MAX_NUMBER {
                return None;
            }
            self.k += 1;
        }
        (self.k != start).then_some(n)
    }

    /// The next token; `None` where the grammar alone can judge.
    #[inline]
    fn next(&mut self) -> Option<Tok> {
        self.skip_seps();
        match self.b.get(self.k) {
            None => Some(Tok::End),
            Some(b'*') => {
                self.k += 1;
                Some(Tok::Star)
            }
            Some(c) if c.is_ascii_digit() => self.digits().map(Tok::Num),
            Some(_) => self.letters().map(Tok::Word),
        }
    }

    #[inline]
    fn word(&mut self) -> Option<Key> {
        self.skip_seps();
        self.letters()
    }

    #[inline]
    fn num(&mut self) -> Option<u32> {
        self.skip_seps();
        self.digits()
    }

    /// Nothing left but separators.
    #[inline]
    fn end(&mut self) -> bool {
        self.skip_seps();
        self.k == self.b.len()
    }

    fn keyword(&mut self, k: Key) -> Option<()> {
        (self.word()? == k).then_some(())
    }

    /// `M_m`, `M m` or `Mm`.
    fn world(&mut self) -> Option<WorldId> {
        self.keyword(M)?;
        self.num().map(WorldId)
    }

    fn fleet(&mut self) -> Option<FleetId> {
        self.keyword(F)?;
        self.num().map(FleetId)
    }
}

fn group(w: Key) -> Option<Group> {
    match w {
        VI => Some(Group::Vi),
        VP => Some(Group::Vp),
        _ => None,
    }
}

/// The order on `line` when the grammar accepts it (the same order), else
/// `None`: the grammar then says why the line is refused, or reads what
/// this pass left to it.
pub fn order(line: &str) -> Option<Order> {
    let mut l = Lex {
        b: line.as_bytes(),
        k: 0,
    };
    let o = match l.word()? {
        M => world_order(&mut l)?,
        F => fleet_order(&mut l)?,
        w => group_order(&mut l, group(w)?)?,
    };
    l.end().then_some(o)
}

/// `VI|VP M_m …` after the group.
fn group_order(l: &mut Lex, g: Group) -> Option<Order> {
    let w = l.world()?;
    Some(match l.next()? {
        Tok::Star => {
            let target = match l.word()? {
                F => Target::Fleet(FleetId(l.num()?)),
                N if g == Group::Vp => Target::N,
                _ => return None,
            };
            Order::Fire {
                shooter: Shooter::Group(w, g),
                target,
            }
        }
        Tok::Word(S) => Order::Probe {
            from: Container::Group(w, g),
            target: l.world()?,
        },
        Tok::Word(C) if g == Group::Vi => {
            let qty = l.num()?;
            l.keyword(I)?;
            Order::Convert { world: w, qty }
        }
        _ => return None,
    })
}

/// `M_m C|E|T …` after the `M`.
fn world_order(l: &mut Lex) -> Option<Order> {
    let w = WorldId(l.num()?);
    let verb = l.word()?;
    let qty = l.num()?;
    Some(match verb {
        C => {
            let what = match l.word()? {
                VC => Build::Vc(l.fleet()?),
                VI => Build::Vi,
                VP => Build::Vp,
                DEP => Build::Research(Tech::Dep),
                ATT => Build::Research(Tech::Att),
                DEF => Build::Research(Tech::Def),
                P => Build::Limit,
                I => Build::Industry,
                _ => return None,
            };
            Order::Build {
                world: w,
                qty,
                what,
            }
        }
        E => {
            l.keyword(N)?;
            Order::Emigrate {
                from: w,
                qty,
                to: l.world()?,
            }
        }
        T => {
            let src = group(l.word()?)?;
            let to = match (l.word()?, src) {
                (F, _) => Dest::Fleet(FleetId(l.num()?)),
                (VP, Group::Vi) => Dest::Group(Group::Vp),
                (VI, Group::Vp) => Dest::Group(Group::Vi),
                _ => return None,
            };
            Order::Transfer {
                from: Container::Group(w, src),
                qty,
                to,
            }
        }
        _ => return None,
    })
}

/// `F_f *|S|C|D|T|MM|M_m …` after the `F`.
fn fleet_order(l: &mut Lex) -> Option<Order> {
    let fleet = FleetId(l.num()?);
    let verb = match l.next()? {
        Tok::Star => {
            let target = match l.word()? {
                F => Target::Fleet(FleetId(l.num()?)),
                // `F_f * M m` is refused: the line must end here, which
                // [`order`] checks.
                M => Target::M,
                P => Target::P,
                I => Target::I,
                _ => return None,
            };
            return Some(Order::Fire {
                shooter: Shooter::Fleet(fleet),
                target,
            });
        }
        Tok::Word(v) => v,
        _ => return None,
    };
    Some(match verb {
        M => {
            let mut path = Path::new();
            path.push(WorldId(l.num()?));
            // Worlds up to the end of the line ([`order`] reads the end
            // again: at the end, `next` gives it every time).
            loop {
                match l.next()? {
                    Tok::Word(M) => path.push(WorldId(l.num()?)),
                    Tok::End => break,
                    _ => return None,
                }
            }
            Order::Move { fleet, path }
        }
        MM => {
            let mut path = Path::new();
            path.push(WorldId(l.num()?));
            loop {
                match l.next()? {
                    Tok::Num(m) => path.push(WorldId(m)),
                    Tok::End => break,
                    _ => return None,
                }
            }
            Order::Move { fleet, path }
        }
        C | D => {
            let (qty, cargo) = match l.next()? {
                Tok::Num(q) => (Some(q), l.word()?),
                Tok::Word(c) => (None, c),
                _ => return None,
            };
            let cargo = match cargo {
                MP => Cargo::Mp,
                N => Cargo::N,
                _ => return None,
            };
            if verb == C {
                Order::Load { fleet, qty, cargo }
            } else {
                Order::Unload { fleet, qty, cargo }
            }
        }
        S => Order::Probe {
            from: Container::Fleet(fleet),
            target: l.world()?,
        },
        T => {
            let qty = l.num()?;
            l.keyword(VC)?;
            let to = match l.word()? {
                F => Dest::Fleet(FleetId(l.num()?)),
                w => Dest::Group(group(w)?),
            };
            Order::Transfer {
                from: Container::Fleet(fleet),
                qty,
                to,
            }
        }
        _ => return None,
    })
}
