//! The order enum (spec §3.5, §3.6): national, local and military orders.

use crate::model::Field;
use std::fmt;
use std::sync::Arc;

/// A zone code as an order holds it: the map's own copy of the code,
/// shared (issue 21: an accepted order allocated a `String` for each zone
/// it named; cloning this is a reference count). Built by
/// [`crate::model::Map::zone_id`] for a zone of the map, or from any code
/// ([`ZoneId::from`]) where an order is written by hand.
///
/// It reads, compares, orders and hashes as the code itself, and its
/// `Debug` is the code's (`"IST"`, as the `String` it replaced), so the
/// orders' debug text that the verdict tests fingerprint is unchanged.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ZoneId(Arc<str>);

impl ZoneId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for ZoneId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for ZoneId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for ZoneId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for ZoneId {
    fn from(s: &str) -> Self {
        ZoneId(Arc::from(s))
    }
}

impl fmt::Debug for ZoneId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for ZoneId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

/// The steps of a `MOVE`, read as a slice of zones. A path of one step,
/// nearly every one a player or a bot writes, is held in place: its vector
/// was an allocation and a free an order, a twentieth of parsing a bot's
/// block (issue 21). It compares as its steps, whichever way they are held,
/// and its `Debug` is theirs (as the `Vec` it replaced).
#[derive(Clone)]
pub enum Path {
    One([ZoneId; 1]),
    Many(Vec<ZoneId>),
}

impl std::ops::Deref for Path {
    type Target = [ZoneId];
    fn deref(&self) -> &[ZoneId] {
        match self {
            Path::One(z) => z,
            Path::Many(v) => v,
        }
    }
}

impl From<Vec<ZoneId>> for Path {
    fn from(v: Vec<ZoneId>) -> Self {
        Path::Many(v)
    }
}

impl PartialEq for Path {
    fn eq(&self, o: &Self) -> bool {
        **self == **o
    }
}
impl Eq for Path {}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq<str> for ZoneId {
    fn eq(&self, o: &str) -> bool {
        *self.0 == *o
    }
}

impl PartialEq<&str> for ZoneId {
    fn eq(&self, o: &&str) -> bool {
        *self.0 == **o
    }
}

impl PartialEq<String> for ZoneId {
    fn eq(&self, o: &String) -> bool {
        *self.0 == **o
    }
}

impl PartialEq<ZoneId> for String {
    fn eq(&self, o: &ZoneId) -> bool {
        **self == *o.0
    }
}

impl PartialEq<ZoneId> for str {
    fn eq(&self, o: &ZoneId) -> bool {
        *self == *o.0
    }
}

impl PartialEq<ZoneId> for &str {
    fn eq(&self, o: &ZoneId) -> bool {
        **self == *o.0
    }
}

/// A unit type's code (or a warhead's, for `BUILD`), the catalog's static
/// spelling: an order names the type without a copy of it (issue 21).
pub type UnitCode = &'static str;

/// How units are chosen (§3.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// `<n> <UNIT>` (None = ALL).
    Units(Option<usize>, UnitCode),
    /// `<n> <GROUP>` with GROUP ∈ I, V, A, NV, I/V.
    Group(Option<usize>, &'static str),
    /// `ALL ARMY`.
    AllArmy,
    /// An army name.
    Army(String),
    /// `#TTNN`.
    Space(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Zone(ZoneId),
    Space(String),
}

impl Target {
    pub fn label(&self) -> &str {
        match self {
            Target::Zone(z) => z,
            Target::Space(s) => s,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mission {
    Recn(ZoneId),
    Satt(Target),
    Satc(ZoneId),
    /// `k` warheads of code `head` on one missile (MIRV).
    Nuke {
        k: usize,
        head: String,
        target: Target,
    },
    Miss(ZoneId),
    Misc(ZoneId),
    Caps(ZoneId),
    Bomb(ZoneId),
    Bmbc(ZoneId),
    Drop(ZoneId),
    Trsf(ZoneId),
    Hmov(Vec<ZoneId>),
    Move(Path),
    Smov(Vec<ZoneId>),
}

impl Mission {
    pub fn code(&self) -> &'static str {
        match self {
            Mission::Recn(_) => "RECN",
            Mission::Satt(_) => "SATT",
            Mission::Satc(_) => "SATC",
            Mission::Nuke { .. } => "NUKE",
            Mission::Miss(_) => "MISS",
            Mission::Misc(_) => "MISC",
            Mission::Caps(_) => "CAPS",
            Mission::Bomb(_) => "BOMB",
            Mission::Bmbc(_) => "BMBC",
            Mission::Drop(_) => "DROP",
            Mission::Trsf(_) => "TRSF",
            Mission::Hmov(_) => "HMOV",
            Mission::Move(_) => "MOVE",
            Mission::Smov(_) => "SMOV",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SpyOp {
    Pg,
    In,
    Rs,
    Rr,
    Rc,
    Rt,
    Sc,
    Sa,
    Sn,
    Sp,
    Sr,
    St,
    Rg,
    Rp,
}

impl SpyOp {
    /// Resolution order of step 2.2 (the enum's order).
    pub const ORDER: [SpyOp; 14] = [
        SpyOp::Pg,
        SpyOp::In,
        SpyOp::Rs,
        SpyOp::Rr,
        SpyOp::Rc,
        SpyOp::Rt,
        SpyOp::Sc,
        SpyOp::Sa,
        SpyOp::Sn,
        SpyOp::Sp,
        SpyOp::Sr,
        SpyOp::St,
        SpyOp::Rg,
        SpyOp::Rp,
    ];
    pub fn parse(s: &str) -> Option<SpyOp> {
        Some(match s {
            "RG" => SpyOp::Rg,
            "IN" => SpyOp::In,
            "RP" => SpyOp::Rp,
            "PG" => SpyOp::Pg,
            "RC" => SpyOp::Rc,
            "RR" => SpyOp::Rr,
            "RS" => SpyOp::Rs,
            "RT" => SpyOp::Rt,
            "SA" => SpyOp::Sa,
            "SC" => SpyOp::Sc,
            "SN" => SpyOp::Sn,
            "SP" => SpyOp::Sp,
            "ST" => SpyOp::St,
            "SR" => SpyOp::Sr,
            _ => return None,
        })
    }
    pub fn code(self) -> &'static str {
        match self {
            SpyOp::Rg => "RG",
            SpyOp::In => "IN",
            SpyOp::Rp => "RP",
            SpyOp::Pg => "PG",
            SpyOp::Rc => "RC",
            SpyOp::Rr => "RR",
            SpyOp::Rs => "RS",
            SpyOp::Rt => "RT",
            SpyOp::Sa => "SA",
            SpyOp::Sc => "SC",
            SpyOp::Sn => "SN",
            SpyOp::Sp => "SP",
            SpyOp::St => "ST",
            SpyOp::Sr => "SR",
        }
    }
    /// The base fail% of §6.3 (as normalised, D-16).
    pub fn base(self) -> i64 {
        match self {
            SpyOp::Rg => 60,
            SpyOp::In => 40,
            SpyOp::Rc => 40,
            SpyOp::Rr | SpyOp::Rs => 30,
            SpyOp::Rt => 40,
            SpyOp::Sa | SpyOp::Sc | SpyOp::Sn | SpyOp::Sr => 50,
            SpyOp::Sp => 60,
            SpyOp::St => 70,
            SpyOp::Rp => 40,
            SpyOp::Pg => 25,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    War(String),
    Ceasefire(String),
    Ally(String),
    Break,
    Research([i64; 6]),
    Market {
        zone: ZoneId,
        sell: bool,
        q: i64,
        res: char,
    },
    SpyNat {
        op: SpyOp,
        target: String,
        field: Option<Field>,
    },
    NatDemob(UnitCode),
    NatXfer {
        ec: i64,
        zone: ZoneId,
    },
    Opt {
        ai: bool,
        yes: bool,
    },
    Aid {
        from: ZoneId,
        ec: i64,
        to: ZoneId,
    },
    /// `res` = 'E' for ec; `to` None = national treasury.
    Xfer {
        from: ZoneId,
        q: i64,
        res: char,
        to: Option<ZoneId>,
    },
    Exch {
        from: ZoneId,
        give: (i64, char),
        get: (i64, char),
        with: ZoneId,
    },
    Ce {
        zone: ZoneId,
        ec: i64,
    },
    Spy {
        zone: ZoneId,
        op: SpyOp,
        target: Option<ZoneId>,
    },
    Demob {
        zone: ZoneId,
        code: UnitCode,
        q: Option<usize>,
    },
    Build {
        zone: ZoneId,
        code: UnitCode,
        q: usize,
        host: Option<UnitCode>,
        army: Option<String>,
        res: Option<char>,
    },
    Tac {
        zone: ZoneId,
        offensive: bool,
        on: bool,
    },
    Army {
        zone: ZoneId,
        pairs: Vec<(usize, UnitCode)>,
        name: String,
    },
    Mil {
        zone: ZoneId,
        sel: Selector,
        mission: Mission,
    },
    /// `Z >> <sel> ESCT`, attached to the mission on line `of`.
    Escort {
        zone: ZoneId,
        sel: Selector,
        of: usize,
    },
}

impl Order {
    /// The issuing zone of a local order (None for national orders).
    pub fn zone(&self) -> Option<&str> {
        match self {
            Order::Aid { from, .. } | Order::Xfer { from, .. } | Order::Exch { from, .. } => {
                Some(from)
            }
            Order::Ce { zone, .. }
            | Order::Spy { zone, .. }
            | Order::Demob { zone, .. }
            | Order::Build { zone, .. }
            | Order::Tac { zone, .. }
            | Order::Army { zone, .. }
            | Order::Mil { zone, .. }
            | Order::Escort { zone, .. } => Some(zone),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Map, ZoneDef};
    use std::sync::Arc;

    /// The verdict tests fingerprint the orders' debug text: a zone held as
    /// a `ZoneId` must print as the `String` it replaced, alone and in a
    /// path.
    #[test]
    fn zone_id_debug_is_the_string_s() {
        let z = ZoneId::from("IST");
        assert_eq!(format!("{z:?}"), format!("{:?}", "IST".to_string()));
        assert_eq!(
            format!(
                "{:?}",
                Mission::Move(vec![z.clone(), ZoneId::from("ODE")].into())
            ),
            format!("Move({:?})", vec!["IST".to_string(), "ODE".to_string()])
        );
        // A path of one step, held in place, prints and compares as one
        // held in a vector.
        let one = Mission::Move(Path::One([z.clone()]));
        assert_eq!(
            format!("{one:?}"),
            format!("Move({:?})", vec!["IST".to_string()])
        );
        assert_eq!(one, Mission::Move(vec![z.clone()].into()));
        assert_ne!(one, Mission::Move(vec![ZoneId::from("ODE")].into()));
        assert_eq!(z.to_string(), "IST");
        assert_eq!(z, "IST");
        assert_eq!(z, String::from("IST"));
        assert!(z != "ODE");
    }

    /// An order's zone is the map's code shared, not a copy; a code that is
    /// not a zone gets none.
    #[test]
    fn map_zone_ids_are_shared() {
        let zone = |code: &str| ZoneDef {
            code: code.into(),
            ..ZoneDef::default()
        };
        let map = Map {
            zones: vec![zone("IST"), zone("ODE")],
            ..Map::default()
        };
        let (Some(a), Some(b)) = (map.zone_id("ODE"), map.zone_id("ODE")) else {
            panic!("ODE is a zone of the map");
        };
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_eq!(map.lookup("ODE"), Some((1, a)));
        assert!(map.zone_id("XXX").is_none() && map.lookup("XXX").is_none());
    }
}
