//! Order parser (spec §3.2–§3.5) with order budgets (§3.3).
//!
//! Lexing first removes the rulebook's brackets (`IST [2] [INF] [MOVE] [ODE]`
//! equals `IST 2 INF MOVE ODE`, an unclosed `[` is tolerated), upper-cases
//! everything and applies the aliases (CAP, ESCORT, HMOVE, SMOVE, `kT`, `MT`).
//! Every line yields an order or a diagnostic in French; the parser never
//! stops at the first error. Budgets are checked here because they depend only
//! on the state at the start of the turn and the file order, so the
//! confirmation mail can already say "hors budget".
//!
//! A line is first offered to [`crate::fast_path`], which reads the
//! commonest right lines in one pass and otherwise gives up; the grammar
//! (the words of [`crate::grammar`] matched below) stays the definition and
//! reads every other line. Both hand their order to the same budget and
//! receipt checks (`settle_national`, `settle_local`).

use crate::catalog;
use crate::fast_path::Read;
use crate::grammar;
use crate::model::{Field, Nation, State, RES};
use crate::orders::*;
use crate::parse_index::{Index, UnitsOf, Want};
use arbitre_core::{LineParser, Parsed};

pub struct WwkParser<'a> {
    pub state: &'a State,
    pub nation: &'a str,
    /// The nation's entry, asked once a block rather than once an order.
    nat: Option<&'a Nation>,
    /// Local orders counted per issuing zone, and the zones whose free
    /// economic order is used, by the zone's position in the map: a block
    /// names one to three zones, so a short list searched by number (no
    /// key copied, no string compare) serves (issue 21).
    local_used: Used,
    free_used: Vec<usize>,
    national_used: usize,
    market_counted: bool,
    /// The line and issuing zone of the last air mission an `ESCT` may
    /// follow.
    last_mission: Option<(usize, ZoneId)>,
    /// An `END` line was seen: the rest is ignored (§3.1).
    ended: bool,
    /// A `TURN` or `NATION` header line that does not match: the whole
    /// message is rejected (§3.1, WWK-7).
    pub rejected: bool,
    /// Where the nation's units stand when the mail arrives.
    units: Units<'a>,
    /// The upper-cased copy of the current line, when it needs one.
    scratch: String,
    /// Lines are offered to [`crate::fast_path`] first (off only to check
    /// it against the grammar alone).
    fast: bool,
}

impl<'a> WwkParser<'a> {
    /// A parser that reads the nation's units for this block alone.
    pub fn new(state: &'a State, nation: &'a str) -> Self {
        Self::with_units(
            state,
            nation,
            state.nations.get(nation),
            Units::Block(Default::default(), Default::default()),
        )
    }

    fn with_units(
        state: &'a State,
        nation: &'a str,
        nat: Option<&'a Nation>,
        units: Units<'a>,
    ) -> Self {
        WwkParser {
            state,
            nation,
            nat,
            local_used: Used::default(),
            free_used: Vec::new(),
            national_used: 0,
            market_counted: false,
            last_mission: None,
            ended: false,
            rejected: false,
            units,
            scratch: String::new(),
            fast: true,
        }
    }
}

/// Local orders counted per issuing zone, by the zone's map position: the
/// first zones in place, the rest in a vector. A block names one to three
/// zones, and the vector it took was an allocation and a free a block
/// (issue 21).
#[derive(Default)]
struct Used {
    head: [(usize, usize); 4],
    len: usize,
    rest: Vec<(usize, usize)>,
}

impl Used {
    /// The count of the zone at map position `at` (0 when first asked).
    fn of(&mut self, at: usize) -> &mut usize {
        let head = self.head.len();
        if let Some(i) = self.head[..self.len].iter().position(|(p, _)| *p == at) {
            return &mut self.head[i].1;
        }
        if self.len < head {
            let i = self.len;
            self.head[i] = (at, 0);
            self.len += 1;
            return &mut self.head[i].1;
        }
        let i = match self.rest.iter().position(|(p, _)| *p == at) {
            Some(i) => i,
            None => {
                self.rest.push((at, 0));
                self.rest.len() - 1
            }
        };
        &mut self.rest[i].1
    }
}

/// The nation's units: from the state's [`Index`] when there is one, else
/// read on the first question of the block (a block of national orders
/// asks none), borrowed from the state.
// One per parse, on the stack: boxing the larger variant (grown by the
// packed-key map of the unit counts) would add an allocation per block.
#[allow(clippy::large_enum_variant)]
enum Units<'a> {
    /// The nation's units, and the positions of the zones it may issue
    /// orders from ([`Index::issuers`]).
    Index(&'a UnitsOf<String>, &'a [usize]),
    /// Where the units are, and the counts, each read when first asked.
    Block(
        std::cell::OnceCell<UnitsOf<&'a str>>,
        std::cell::OnceCell<UnitsOf<&'a str>>,
    ),
}

impl WwkParser<'_> {
    /// The nation has units in zone `z`.
    fn present(&self, z: &str) -> bool {
        match &self.units {
            Units::Index(u, _) => u.present(z),
            Units::Block(cell, _) => cell
                .get_or_init(|| {
                    let want = Want {
                        present: true,
                        counts: false,
                        factories: false,
                    };
                    UnitsOf::of(self.state, self.nation, want)
                })
                .present(z),
        }
    }

    /// How many of the nation's `code` units stand in `zone`.
    fn count(&self, zone: &str, code: &str) -> usize {
        match &self.units {
            Units::Index(u, _) => u.count(zone, code),
            Units::Block(_, cell) => cell
                .get_or_init(|| {
                    let want = Want {
                        present: false,
                        counts: true,
                        factories: false,
                    };
                    UnitsOf::of(self.state, self.nation, want)
                })
                .count(zone, code),
        }
    }
}

impl WwkParser<'_> {
    /// The nation's factories in zone `z` ([`State::factories`]).
    fn factories(&self, z: &str) -> usize {
        match &self.units {
            Units::Index(u, _) => u.factories(z),
            Units::Block(..) => self.state.factories(self.nation, z),
        }
    }
}

/// The words of a line, upper-cased, brackets read as separators, aliases
/// applied (WWK-8, WWK-9); see [`crate::grammar`].
pub use crate::grammar::tokens;

/// `[k X] size (K|N|M)` → (k, warhead code).
pub fn parse_warhead(t: &str) -> Option<(usize, String)> {
    // Every warhead code starts with a digit, and a count `k` with a digit
    // or the `+` that `usize::from_str` accepts: a mission's keyword
    // (`MOVE`, `BOMB` …), asked here first, is out on its first byte.
    if !t.starts_with(|c: char| c.is_ascii_digit() || c == '+') {
        return None;
    }
    let (k, rest) = match t.split_once('X') {
        Some((k, r)) => (k.parse::<usize>().ok()?, r),
        None => (1, t),
    };
    let code = catalog::warhead(rest)?.code;
    if k == 0 {
        return None;
    }
    Some((k, code.to_string()))
}

/// A research field (words are upper case already: [`Field::parse`]
/// without its copy).
fn field(t: &str) -> Option<Field> {
    Some(match t {
        "I" => Field::I,
        "V" => Field::V,
        "A" => Field::A,
        "NV" => Field::Nv,
        "N" => Field::N,
        "L" => Field::L,
        _ => return None,
    })
}

fn num(t: &str) -> Option<i64> {
    t.parse::<i64>().ok().filter(|v| *v > 0 && *v < 1_000_000)
}

fn res(t: &str) -> Option<char> {
    let c = t.chars().next()?;
    (t.len() == 1 && RES.contains(&c)).then_some(c)
}

fn resx(t: &str) -> Option<char> {
    if t == "EC" {
        Some('E')
    } else {
        res(t)
    }
}

pub fn is_group(t: &str) -> bool {
    group(t).is_some()
}

/// A unit group's code, as its static spelling.
fn group(t: &str) -> Option<&'static str> {
    ["I", "V", "A", "NV", "I/V"].into_iter().find(|g| *g == t)
}

fn is_army_name(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= 12
        && t.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && t.chars().all(|c| c.is_ascii_alphanumeric())
        && !crate::setup::reserved(t)
}

type R<T> = Result<T, String>;

impl WwkParser<'_> {
    fn zone(&self, t: &str) -> R<ZoneId> {
        self.state
            .map
            .zone_id(t)
            .ok_or_else(|| format!("zone inconnue {t}"))
    }
    fn nation_arg(&self, t: &str) -> R<String> {
        if self.state.nations.contains_key(t) {
            if t == self.nation {
                Err("votre propre nation".into())
            } else {
                Ok(t.to_string())
            }
        } else {
            Err(format!("nation inconnue {t}"))
        }
    }
    fn zlist(&self, issuer: &str, ts: &[&str]) -> R<Vec<ZoneId>> {
        // The issuing zone written first is not a step of the path.
        let ts = match ts.split_first() {
            Some((first, rest)) if *first == issuer => rest,
            _ => ts,
        };
        let mut v = Vec::with_capacity(ts.len());
        for t in ts {
            v.push(self.zone(t)?);
        }
        if v.is_empty() {
            return Err("destination manquante".into());
        }
        Ok(v)
    }

    /// A zone may issue local orders if the nation holds it or has units
    /// there (`at`: its map position).
    fn may_issue(&self, z: &str, at: usize) -> bool {
        let st = self.state;
        if let Units::Index(_, issuers) = &self.units {
            return issuers.binary_search(&at).is_ok();
        }
        st.zone(z).status.has_party(self.nation) || self.present(z)
    }

    fn local_budget(&self, z: &str) -> usize {
        let st = self.state;
        let mut b = st.params.local_orders_per_zone;
        if let Some(n) = self.nat {
            // [`State::is_capital`], the factories counted from the index.
            if n.options.ai
                && st.zone(z).status.controller() == Some(self.nation)
                && self.factories(z) >= st.params.capital_min_factories
            {
                b += st.params.ai_capital_extra_orders;
            }
        }
        b
    }

    fn economy_restored(&self) -> bool {
        self.nat.is_some_and(|n| n.tech.l >= 40)
    }

    fn selector(&self, ts: &[&str]) -> R<(Selector, usize)> {
        let t0 = ts.first().ok_or("sélecteur manquant")?;
        if t0.starts_with('#') && t0.len() >= 5 && t0[1..].chars().all(|c| c.is_ascii_digit()) {
            return Ok((Selector::Space(t0.to_string()), 1));
        }
        let count = if *t0 == "ALL" {
            None
        } else if let Some(n) = num(t0) {
            Some(n as usize)
        } else if is_army_name(t0) && !self.state.is_zone(t0) {
            return Ok((Selector::Army(t0.to_string()), 1));
        } else {
            return Err(format!("quantité ou armée attendue, lu {t0}"));
        };
        let t1 = ts.get(1).ok_or("type d'unité manquant")?;
        if *t1 == "ARMY" {
            return if count.is_none() {
                Ok((Selector::AllArmy, 2))
            } else {
                Err("ARMY s'emploie avec ALL".into())
            };
        }
        if let Some(g) = group(t1) {
            return Ok((Selector::Group(count, g), 2));
        }
        if let Some(s) = catalog::spec(t1) {
            return Ok((Selector::Units(count, s.code), 2));
        }
        Err(format!("type d'unité inconnu {t1}"))
    }

    fn mission(&self, issuer: &str, ts: &[&str]) -> R<Mission> {
        let m = ts.first().ok_or("mission manquante")?;
        let args = &ts[1..];
        let one = |args: &[&str]| -> R<ZoneId> {
            let t = args.last().ok_or("zone cible manquante")?;
            self.zone(t)
        };
        let target = |args: &[&str]| -> R<Target> {
            let t = args.last().ok_or("cible manquante")?;
            if t.starts_with('#') {
                Ok(Target::Space(t.to_string()))
            } else {
                Ok(Target::Zone(self.zone(t)?))
            }
        };
        if let Some((k, head)) = parse_warhead(m) {
            if args.len() != 1 {
                return Err("une seule cible".into());
            }
            return Ok(Mission::Nuke {
                k,
                head,
                target: target(args)?,
            });
        }
        // The arms are compared in order: the commonest mission first.
        Ok(match *m {
            "MOVE" => {
                let z = self.zlist(issuer, args)?;
                if z.len() > 3 {
                    return Err("MOVE : 3 zones au plus".into());
                }
                Mission::Move(z.into())
            }
            "RECN" => Mission::Recn(one(args)?),
            "SATT" => Mission::Satt(target(args)?),
            "SATC" => Mission::Satc(one(args)?),
            "MISS" => Mission::Miss(one(args)?),
            "MISC" => Mission::Misc(one(args)?),
            // Aircraft fly straight: only the last zone matters (§3.5).
            "CAPS" => Mission::Caps(one(args)?),
            "BOMB" => Mission::Bomb(one(args)?),
            "BMBC" => Mission::Bmbc(one(args)?),
            "DROP" => Mission::Drop(one(args)?),
            "TRSF" => Mission::Trsf(one(args)?),
            "HMOV" => {
                let z = self.zlist(issuer, args)?;
                if z.len() > 2 {
                    return Err("HMOV : 2 zones au plus".into());
                }
                Mission::Hmov(z)
            }
            "SMOV" => Mission::Smov(self.zlist(issuer, args)?),
            other => return Err(format!("mission inconnue {other}")),
        })
    }

    fn national(&mut self, ts: &[&str]) -> R<(Order, bool)> {
        let k = ts.first().copied().ok_or("ordre national vide")?;
        let a = &ts[1..];
        let arg = |i: usize| {
            a.get(i)
                .copied()
                .ok_or_else(|| "argument manquant".to_string())
        };
        let exact = |n: usize| {
            if a.len() == n {
                Ok(())
            } else {
                Err("nombre d'arguments incorrect".to_string())
            }
        };
        // (order, costs a national action)
        Ok(match k {
            "WAR" => {
                exact(1)?;
                (Order::War(self.nation_arg(arg(0)?)?), true)
            }
            "CEASEFIRE" => {
                exact(1)?;
                (Order::Ceasefire(self.nation_arg(arg(0)?)?), true)
            }
            "ALLY" => {
                exact(1)?;
                (Order::Ally(self.nation_arg(arg(0)?)?), true)
            }
            "BREAK" => {
                exact(0)?;
                (Order::Break, true)
            }
            "RESEARCH" => {
                if a.is_empty() || !a.len().is_multiple_of(2) {
                    return Err("RESEARCH : paires domaine valeur attendues".into());
                }
                let mut w = [0i64; 6];
                for p in a.chunks(2) {
                    let f = field(p[0]).ok_or_else(|| format!("domaine inconnu {}", p[0]))?;
                    let v: i64 = p[1]
                        .parse()
                        .ok()
                        .filter(|v: &i64| (0..=1000).contains(v))
                        .ok_or("poids invalide")?;
                    w[f.idx()] = v;
                }
                (Order::Research(w), false)
            }
            "MARKET" => {
                exact(4)?;
                let zone = self.zone(arg(0)?)?;
                let sell = match arg(1)? {
                    "SELL" => true,
                    "BUY" => false,
                    _ => return Err("SELL ou BUY attendu".into()),
                };
                let q = num(arg(2)?).ok_or("quantité invalide")?;
                let r = res(arg(3)?).ok_or("le marché ne traite que les matières premières")?;
                let first = !self.market_counted;
                self.market_counted = true;
                (
                    Order::Market {
                        zone,
                        sell,
                        q,
                        res: r,
                    },
                    first,
                )
            }
            "SPY" => {
                let op = SpyOp::parse(arg(0)?).ok_or("opération inconnue")?;
                match op {
                    SpyOp::Rt => {
                        exact(2)?;
                        (
                            Order::SpyNat {
                                op,
                                target: self.nation_arg(arg(1)?)?,
                                field: None,
                            },
                            true,
                        )
                    }
                    SpyOp::St => {
                        exact(3)?;
                        let f = field(arg(2)?).ok_or("domaine inconnu")?;
                        (
                            Order::SpyNat {
                                op,
                                target: self.nation_arg(arg(1)?)?,
                                field: Some(f),
                            },
                            true,
                        )
                    }
                    _ => return Err("seules RT et ST sont nationales".into()),
                }
            }
            "DEMOB" => {
                exact(1)?;
                let c = arg(0)?;
                let c = catalog::spec(c).ok_or_else(|| format!("unité inconnue {c}"))?;
                (Order::NatDemob(c.code), true)
            }
            "XFER" => {
                exact(3)?;
                let ec = num(arg(0)?).ok_or("montant invalide")?;
                if arg(1)? != "EC" {
                    return Err("le trésor ne contient que des ec".into());
                }
                (
                    Order::NatXfer {
                        ec,
                        zone: self.zone(arg(2)?)?,
                    },
                    true,
                )
            }
            "OPTION" => {
                exact(2)?;
                let ai = match arg(0)? {
                    "AI" => true,
                    "GREEN" => false,
                    _ => return Err("option GREEN ou AI".into()),
                };
                let yes = match arg(1)? {
                    "YES" => true,
                    "NO" => false,
                    _ => return Err("YES ou NO attendu".into()),
                };
                (Order::Opt { ai, yes }, false)
            }
            other => return Err(format!("ordre national inconnu {other}")),
        })
    }

    /// (order, costs a slot, is a free-able economic order)
    /// `zone` is `z` as the order holds it.
    fn local(&mut self, z: &str, zone: ZoneId, ts: &[&str], line: usize) -> R<(Order, bool, bool)> {
        let k = ts.first().copied().ok_or("ordre vide")?;
        let a = &ts[1..];
        let arg = |i: usize| {
            a.get(i)
                .copied()
                .ok_or_else(|| "argument manquant".to_string())
        };
        Ok(match k {
            "AID" => {
                if a.len() != 2 {
                    return Err("AID <ec> <zone>".into());
                }
                let to = self.zone(arg(1)?)?;
                (
                    Order::Aid {
                        from: zone,
                        ec: num(arg(0)?).ok_or("montant invalide")?,
                        to,
                    },
                    true,
                    true,
                )
            }
            "XFER" => {
                if a.len() != 3 {
                    return Err("XFER <q> <ressource|EC> <zone|NAT>".into());
                }
                let q = num(arg(0)?).ok_or("quantité invalide")?;
                let r = resx(arg(1)?).ok_or("ressource inconnue")?;
                let to = if arg(2)? == "NAT" {
                    if r != 'E' {
                        return Err("le trésor ne reçoit que des ec".into());
                    }
                    None
                } else {
                    Some(self.zone(arg(2)?)?)
                };
                (
                    Order::Xfer {
                        from: zone,
                        q,
                        res: r,
                        to,
                    },
                    true,
                    true,
                )
            }
            "EXCH" => {
                if a.len() != 8 || arg(0)? != "GIVE" || arg(3)? != "GET" || arg(6)? != "WITH" {
                    return Err("EXCH GIVE <q> <r> GET <q> <r> WITH <zone>".into());
                }
                let give = (
                    num(arg(1)?).ok_or("quantité invalide")?,
                    resx(arg(2)?).ok_or("ressource inconnue")?,
                );
                let get = (
                    num(arg(4)?).ok_or("quantité invalide")?,
                    resx(arg(5)?).ok_or("ressource inconnue")?,
                );
                (
                    Order::Exch {
                        from: zone,
                        give,
                        get,
                        with: self.zone(arg(7)?)?,
                    },
                    true,
                    true,
                )
            }
            "CE" => {
                if a.len() != 1 {
                    return Err("CE <ec>".into());
                }
                (
                    Order::Ce {
                        zone,
                        ec: num(arg(0)?).ok_or("montant invalide")?,
                    },
                    true,
                    false,
                )
            }
            "SPY" => {
                let op = SpyOp::parse(arg(0)?).ok_or("opération inconnue")?;
                match op {
                    SpyOp::Rt | SpyOp::St => {
                        return Err("RT et ST sont des ordres nationaux (NAT SPY)".into())
                    }
                    SpyOp::Rp | SpyOp::Pg => {
                        if a.len() > 2 || (a.len() == 2 && a[1] != z) {
                            return Err("RP et PG visent la zone émettrice".into());
                        }
                        (
                            Order::Spy {
                                zone,
                                op,
                                target: None,
                            },
                            true,
                            false,
                        )
                    }
                    _ => {
                        if a.len() != 2 {
                            return Err("zone cible manquante".into());
                        }
                        let t = self.zone(arg(1)?)?;
                        (
                            Order::Spy {
                                zone,
                                op,
                                target: Some(t),
                            },
                            true,
                            false,
                        )
                    }
                }
            }
            "DEMOB" => {
                let c = arg(0)?;
                let c = catalog::spec(c)
                    .ok_or_else(|| format!("unité inconnue {c}"))?
                    .code;
                let q = match a.get(1).copied() {
                    None | Some("ALL") => None,
                    Some(n) => Some(num(n).ok_or("quantité invalide")? as usize),
                };
                if a.len() > 2 {
                    return Err("trop d'arguments".into());
                }
                (Order::Demob { zone, code: c, q }, true, false)
            }
            "BUILD" => {
                let written = arg(0)?;
                let Some(c) = catalog::spec(written)
                    .map(|s| s.code)
                    .or_else(|| catalog::warhead(written).map(|w| w.code))
                else {
                    return Err(format!("unité inconnue {written}"));
                };
                let q = num(arg(1)?).ok_or("quantité invalide")? as usize;
                let mut host = None;
                let mut army = None;
                let mut r = None;
                for t in &a[2..] {
                    if let Some(s) = catalog::spec(t).filter(|_| host.is_none() && army.is_none()) {
                        host = Some(s.code);
                    } else if let Some(x) = res(t) {
                        r = Some(x);
                    } else if is_army_name(t) && army.is_none() {
                        army = Some(t.to_string());
                    } else {
                        return Err(format!("argument inattendu {t}"));
                    }
                }
                // Tech is checked at intake (§3.7).
                let n = self.nat.ok_or("nation inconnue")?;
                if let Some(s) = catalog::spec(c) {
                    if let Some((f, l)) = s.tech.iter().find(|(f, l)| n.tech.get(*f) < *l) {
                        return Err(format!(
                            "technologie insuffisante ({} {} requis)",
                            f.label(),
                            l
                        ));
                    }
                } else if let Some(w) = catalog::warhead(c) {
                    if n.tech.n < w.tech_n {
                        return Err(format!("technologie insuffisante (N {} requis)", w.tech_n));
                    }
                }
                (
                    Order::Build {
                        zone,
                        code: c,
                        q,
                        host,
                        army,
                        res: r,
                    },
                    false,
                    false,
                )
            }
            "TACD" | "TACO" => {
                let on = match arg(0)? {
                    "ON" => true,
                    "OFF" => false,
                    _ => return Err("ON ou OFF attendu".into()),
                };
                (
                    Order::Tac {
                        zone,
                        offensive: k == "TACO",
                        on,
                    },
                    true,
                    false,
                )
            }
            "-" => {
                if a.first().copied() != Some("-") || a.get(1).copied() != Some("ARMY") {
                    return Err("- - ARMY <n> <unité> ... <nom>".into());
                }
                let rest = &a[2..];
                if rest.len() < 3 || rest.len().is_multiple_of(2) {
                    return Err("- - ARMY <n> <unité> ... <nom>".into());
                }
                let name = rest.last().cloned().unwrap_or_default();
                if !is_army_name(name) {
                    return Err(format!("nom d'armée invalide {name}"));
                }
                let mut pairs = vec![];
                for p in rest[..rest.len() - 1].chunks(2) {
                    let n = num(p[0]).ok_or("quantité invalide")? as usize;
                    let s =
                        catalog::spec(p[1]).ok_or_else(|| format!("unité inconnue {}", p[1]))?;
                    pairs.push((n, s.code));
                }
                if pairs.len() > 4 {
                    return Err("4 paires (nombre, type) au plus".into());
                }
                (
                    Order::Army {
                        zone,
                        pairs,
                        name: name.to_string(),
                    },
                    true,
                    false,
                )
            }
            ">>" => {
                let (sel, used) = self.selector(a)?;
                if a.get(used).copied() != Some("ESCT") || a.len() != used + 1 {
                    return Err("escorte : Z >> <sélecteur> ESCT".into());
                }
                let of = match &self.last_mission {
                    Some((l, mz)) if mz == z => *l,
                    _ => return Err("ESCT doit suivre une mission aérienne de la même zone".into()),
                };
                (Order::Escort { zone, sel, of }, true, false)
            }
            _ => {
                let (sel, used) = self.selector(ts)?;
                let mission = self.mission(z, &ts[used..])?;
                let _ = line;
                // A launcher type that cannot carry the warhead, or not that
                // many on one missile, could never fire: refused on reading
                // (§5.10.1) rather than failing at step 3.5.
                if let (Selector::Units(_, code), Mission::Nuke { k, head, .. }) = (&sel, &mission)
                {
                    let s = catalog::sp(code);
                    if s.nuc > 0 && s.cat != catalog::Cat::Acft && *code != "ABSE" {
                        let w = catalog::warhead(head)
                            .ok_or_else(|| format!("tête inconnue {head}"))?;
                        if !s.accepts(w) {
                            return Err(format!("un {code} ne peut pas porter de tête {head}"));
                        }
                        if *k as u32 > s.nuc {
                            return Err(format!("un {code} porte au plus {} tête(s)", s.nuc));
                        }
                    }
                }
                (Order::Mil { zone, sel, mission }, true, false)
            }
        })
    }
}

impl LineParser for WwkParser<'_> {
    type Order = Order;

    fn is_comment(&self, line: &str) -> bool {
        line.starts_with('#') && !line[1..].starts_with(|c: char| c.is_ascii_digit())
    }

    fn parse_line(&mut self, no: usize, line: &str, out: &mut Parsed<Order>) {
        self.line(no, line, self.fast, out);
    }
}

impl WwkParser<'_> {
    /// [`arbitre_core::parse_lines`] for WWK: a line is first offered to
    /// [`crate::fast_path::read_plain`] as the mail gives it, and normalised
    /// ([`arbitre_core::text::normalize`]) only when that gives up, the
    /// normalisation's pass over every byte being a fifteenth of a parse where
    /// nearly every line is one the fast path reads (issue 21). The lines,
    /// their numbers and what each gives are the same.
    fn block(&mut self, text: &str) -> Parsed<Order> {
        let mut out = Parsed::new();
        // Room for an order every 20 bytes, about an order line: one
        // allocation for most blocks, where counting the newlines first (as
        // `parse_lines` does) cost more than reading a line; a block of
        // shorter lines grows the vector once or twice. Not more: a bot's
        // block of four orders would ask over a kilobyte, past the
        // allocator's per-thread cache, and cost more than the count did.
        out.orders.reserve(text.len() / 20 + 1);
        let mut rest = text;
        let mut no = 0;
        // Nothing after `END` is read (§3.1).
        while !rest.is_empty() && !self.ended {
            no += 1;
            let raw;
            (raw, rest) = cut_line(rest);
            if self.fast && self.fast_line(no, raw, true, &mut out) {
                continue;
            }
            let line = arbitre_core::text::normalize(raw);
            if line.is_empty() || self.is_comment(&line) {
                continue;
            }
            // A line the normalisation left as it was gave the fast path
            // up already.
            let fast = self.fast && matches!(line, std::borrow::Cow::Owned(_));
            self.line(no, &line, fast, &mut out);
        }
        out
    }

    /// The line read by [`crate::fast_path`] and settled: false where it
    /// gives up (`plain`: on the line as the mail gives it, else a
    /// normalised one) or the issuing zone may not order.
    #[inline(always)]
    fn fast_line(&mut self, no: usize, line: &str, plain: bool, out: &mut Parsed<Order>) -> bool {
        let map = &self.state.map;
        let read = if plain {
            crate::fast_path::read_plain(map, self.nat, line)
        } else {
            crate::fast_path::read(map, self.nat, line)
        };
        match read {
            Some(Read::National(o, costs)) => {
                self.settle_national(no, line, Ok((o, costs)), out);
                true
            }
            // A zone that may not order is the grammar's to refuse.
            Some(Read::Local {
                issuer,
                at,
                order,
                costs,
                econ,
            }) if self.may_issue(issuer, at) => {
                self.settle_local(no, line, issuer, at, Ok((order, costs, econ)), out);
                true
            }
            _ => false,
        }
    }

    /// One normalised line, offered to the fast path first when `fast`.
    fn line(&mut self, no: usize, line: &str, fast: bool, out: &mut Parsed<Order>) {
        if self.ended {
            return;
        }
        if fast && self.fast_line(no, line, false, out) {
            return;
        }
        // The upper-cased copy (only for a line written in lower case) is
        // kept from line to line.
        let mut scratch = std::mem::take(&mut self.scratch);
        let words = grammar::Words::read(grammar::upper(line, &mut scratch));
        self.words(no, line, words.as_slice(), out);
        drop(words);
        self.scratch = scratch;
    }
}

impl WwkParser<'_> {
    /// One line, as its words.
    fn words(&mut self, no: usize, line: &str, ts: &[&str], out: &mut Parsed<Order>) {
        if ts.is_empty() {
            return;
        }
        // Header lines the mail layer leaves in the block (§3.1): the turn
        // (and the nation, if present) must match, or the message is refused.
        // Each has one or two words: an order line is not compared with them.
        match (ts[0], ts.len()) {
            (_, 3..) => {}
            ("END" | "FIN", 1) => {
                self.ended = true;
                return;
            }
            ("TURN" | "TOUR", 2) => {
                let want = self.state.turn + 1;
                if ts[1].parse::<u32>().ok() != Some(want) {
                    self.rejected = true;
                    out.error(
                        no,
                        line,
                        format!(
                            "ordres pour le tour {want} attendus, reçu {} : message entier refusé",
                            ts[1]
                        ),
                    );
                }
                return;
            }
            ("NATION", 2) => {
                if ts[1] != self.nation {
                    self.rejected = true;
                    out.error(
                        no,
                        line,
                        format!(
                            "nation {} attendue, reçu {} : message entier refusé",
                            self.nation, ts[1]
                        ),
                    );
                }
                return;
            }
            ("WWK", 2) if ts[1] == "ORDERS" => return,
            _ => {}
        }
        if ts[0] == "NAT" {
            let read = self.national(&ts[1..]);
            self.settle_national(no, line, read, out);
            return;
        }
        let z = ts[0];
        let Some((at, zone)) = self.state.map.lookup(z) else {
            out.error(no, line, format!("zone émettrice inconnue {z}"));
            return;
        };
        if !self.may_issue(z, at) {
            out.error(
                no,
                line,
                format!("la zone {z} ne peut pas donner d'ordre (ni tenue ni occupée)"),
            );
            return;
        }
        let read = self.local(z, zone, &ts[1..], no);
        self.settle_local(no, line, z, at, read, out);
    }

    /// A national order read (or refused), against the block's national
    /// actions.
    fn settle_national(
        &mut self,
        no: usize,
        line: &str,
        read: R<(Order, bool)>,
        out: &mut Parsed<Order>,
    ) {
        match read {
            Ok((o, costs)) => {
                if costs {
                    if self.national_used >= self.state.params.national_actions {
                        out.error(no, line, "hors budget (actions nationales épuisées)");
                        return;
                    }
                    self.national_used += 1;
                }
                out.push(no, line, o);
            }
            Err(e) => out.error(no, line, e),
        }
    }

    /// A local order of zone `z` (at map position `at`, which may issue
    /// orders) read (or refused), against the zone's budget, then the
    /// receipt's checks.
    fn settle_local(
        &mut self,
        no: usize,
        line: &str,
        z: &str,
        at: usize,
        read: R<(Order, bool, bool)>,
        out: &mut Parsed<Order>,
    ) {
        match read {
            Ok((o, costs, econ)) => {
                if costs {
                    // The zone's map position keys the counts.
                    let free = econ && self.economy_restored() && !self.free_used.contains(&at);
                    if free {
                        self.free_used.push(at);
                    } else {
                        let budget = self.local_budget(z);
                        let used = self.local_used.of(at);
                        if *used >= budget {
                            out.error(
                                no,
                                line,
                                format!("hors budget ({}e ordre local de [{z}])", *used + 1),
                            );
                            return;
                        }
                        *used += 1;
                    }
                }
                if let Order::Mil { zone, mission, .. } = &o {
                    if matches!(
                        mission,
                        Mission::Bomb(_)
                            | Mission::Bmbc(_)
                            | Mission::Drop(_)
                            | Mission::Trsf(_)
                            | Mission::Hmov(_)
                            | Mission::Nuke { .. }
                    ) {
                        self.last_mission = Some((no, zone.clone()));
                    } else {
                        self.last_mission = None;
                    }
                } else if !matches!(o, Order::Escort { .. }) {
                    self.last_mission = None;
                }
                match self.receipt(&o) {
                    Receipt::Refused(why) => out.reject(no, line, &why, o),
                    Receipt::Warned(why) => {
                        out.warn(no, line, why);
                        out.push(no, line, o);
                    }
                    Receipt::Fine => out.push(no, line, o),
                }
            }
            Err(e) => {
                self.last_mission = None;
                out.error(no, line, e)
            }
        }
    }
}

/// What the state at receipt already decides about an accepted local order
/// (issue 17 item 8): the verdict step 3.9 will reach, told in the
/// confirmation rather than only in the next report.
enum Receipt {
    Fine,
    /// Resolution is certain to fail it, with this reason. The order is kept
    /// (as a refused line) so that the report lists it like today.
    Refused(String),
    /// Units the order names are missing now; some may still arrive before
    /// the order runs, so it stands.
    Warned(String),
}

impl<'a> WwkParser<'a> {
    fn receipt(&self, o: &Order) -> Receipt {
        let Order::Mil { zone, sel, mission } = o else {
            return Receipt::Fine;
        };
        // The unit type's entry, looked up once for the checks below.
        let spec = match sel {
            Selector::Units(_, code) => catalog::spec(code),
            _ => None,
        };
        if let Mission::Move(path) = mission {
            // The same check, in the same words, as step 3.9 (§3.7): the map
            // does not change during a turn.
            let mut from = zone.as_str();
            for to in path.iter().map(ZoneId::as_str) {
                if !self.state.adjacent(from, to) {
                    return Receipt::Refused(format!(
                        "chemin invalide : [{to}] n'est pas adjacente à [{from}]"
                    ));
                }
                from = to;
            }
            if let Selector::Units(_, code) = sel {
                if let Some(s) = spec {
                    if !matches!(
                        s.mt,
                        catalog::Mt::I | catalog::Mt::V | catalog::Mt::Nv | catalog::Mt::H
                    ) {
                        return Receipt::Refused(format!(
                            "MOVE ne déplace que les unités terrestres, navales et les hélicoptères, pas {code} (aucune unité disponible)"
                        ));
                    }
                }
            }
        }
        // Space units stand in orbit, not in the issuing zone (§3.2).
        let in_orbit = spec.is_some_and(|s| s.cat == catalog::Cat::Space);
        match sel {
            Selector::Units(Some(n), code) if !in_orbit => {
                let have = self.units_at(zone, code);
                if *n > have {
                    return Receipt::Warned(format!(
                        "vous avez {have} {code} en [{zone}] à la réception : l'ordre portera sur ceux qui y seront, {have} si rien ne change"
                    ));
                }
            }
            _ => {}
        }
        Receipt::Fine
    }

    /// How many of the nation's `code` units stand in `zone` now (cargo in
    /// its carrier's zone, as step 3.9 selects them).
    fn units_at(&self, zone: &str, code: &str) -> usize {
        self.count(zone, code)
    }
}

pub fn parse(state: &State, nation: &str, text: &str) -> Parsed<Order> {
    parse_with(WwkParser::new(state, nation), text)
}

/// The first line of `text` and what follows it, as
/// [`arbitre_core::text::lines`] cuts them (at `\n`, one `\r` before it
/// dropped; a last line without `\n` kept whole), for a `text` not empty.
/// Inlined in the block's loop, where [`arbitre_core::text::lines`] was
/// a call a line (issue 21).
#[inline(always)]
fn cut_line(text: &str) -> (&str, &str) {
    match arbitre_core::text::newline(text.as_bytes()) {
        Some(i) => {
            // `\n` is one byte of ASCII: both cuts are on boundaries.
            let line = text.get(..i).unwrap_or("");
            let rest = text.get(i + 1..).unwrap_or("");
            (line.strip_suffix('\r').unwrap_or(line), rest)
        }
        None => (text, ""),
    }
}

/// [`parse`] with the units of the nation read from the state's [`Index`].
pub fn parse_indexed(state: &State, index: &Index, nation: &str, text: &str) -> Parsed<Order> {
    let (nat, units) = match index.nation(nation) {
        Some(n) => (n.entry.as_ref(), Units::Index(&n.units, &n.issuers)),
        None => (
            state.nations.get(nation),
            Units::Block(Default::default(), Default::default()),
        ),
    };
    parse_with(WwkParser::with_units(state, nation, nat, units), text)
}

/// [`parse`] by the grammar alone, [`crate::fast_path`] never asked, on
/// the lines [`arbitre_core::parse_lines`] cuts and normalises: what the
/// differential tests compare the fast path with.
pub fn parse_by_grammar(state: &State, nation: &str, text: &str) -> Parsed<Order> {
    let mut p = WwkParser::new(state, nation);
    p.fast = false;
    let out = arbitre_core::parse_lines(&mut p, text);
    finish(&p, out)
}

/// What the grammar reads on one line, at the step where
/// [`crate::fast_path::read`] hands over to the block's checks (before the
/// issuing zone's right to order, the budgets and the receipt): None for a
/// line it refuses or that orders nothing. `scratch` holds the line
/// upper-cased when it needs to be.
pub fn read_by_grammar<'l>(
    state: &State,
    nation: &str,
    line: &'l str,
    scratch: &'l mut String,
) -> Option<Read<'l>> {
    let mut p = WwkParser::new(state, nation);
    let words = grammar::Words::read(grammar::upper(line, scratch));
    let ts = words.as_slice();
    let first = *ts.first()?;
    // The header lines, as [`WwkParser::words`] tells them.
    match (first, ts.len()) {
        (_, 3..) => {}
        ("END" | "FIN", 1) | ("TURN" | "TOUR", 2) | ("NATION", 2) => return None,
        ("WWK", 2) if ts[1] == "ORDERS" => return None,
        _ => {}
    }
    if first == "NAT" {
        let (o, costs) = p.national(&ts[1..]).ok()?;
        return Some(Read::National(o, costs));
    }
    let (at, zone) = state.map.lookup(first)?;
    let (order, costs, econ) = p.local(first, zone, &ts[1..], 1).ok()?;
    Some(Read::Local {
        issuer: first,
        at,
        order,
        costs,
        econ,
    })
}

fn parse_with(mut p: WwkParser<'_>, text: &str) -> Parsed<Order> {
    let out = p.block(text);
    finish(&p, out)
}

/// The block's orders, all refused where a header line did not match.
fn finish(p: &WwkParser<'_>, mut out: Parsed<Order>) -> Parsed<Order> {
    let state = p.state;
    if p.rejected {
        // Every accepted line becomes an error too: nothing of it is kept,
        // and the orders already stored stay in force (issue 17 item 7).
        out.refuse_whole(&format!(
            "message entier refusé (en-tête incorrect) : le tour ouvert est le {}",
            state.turn + 1
        ));
    }
    out
}
