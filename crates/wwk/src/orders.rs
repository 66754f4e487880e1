//! The order enum (spec §3.5, §3.6): national, local and military orders.

use crate::model::Field;

/// How units are chosen (§3.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// `<n> <UNIT>` (None = ALL).
    Units(Option<usize>, String),
    /// `<n> <GROUP>` with GROUP ∈ I, V, A, NV, I/V.
    Group(Option<usize>, String),
    /// `ALL ARMY`.
    AllArmy,
    /// An army name.
    Army(String),
    /// `#TTNN`.
    Space(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Zone(String),
    Space(String),
}

impl Target {
    pub fn label(&self) -> &str {
        match self {
            Target::Zone(z) | Target::Space(z) => z,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mission {
    Recn(String),
    Satt(Target),
    Satc(String),
    /// `k` warheads of code `head` on one missile (MIRV).
    Nuke {
        k: usize,
        head: String,
        target: Target,
    },
    Miss(String),
    Misc(String),
    Caps(String),
    Bomb(String),
    Bmbc(String),
    Drop(String),
    Trsf(String),
    Hmov(Vec<String>),
    Move(Vec<String>),
    Smov(Vec<String>),
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
        zone: String,
        sell: bool,
        q: i64,
        res: char,
    },
    SpyNat {
        op: SpyOp,
        target: String,
        field: Option<Field>,
    },
    NatDemob(String),
    NatXfer {
        ec: i64,
        zone: String,
    },
    Opt {
        ai: bool,
        yes: bool,
    },
    Aid {
        from: String,
        ec: i64,
        to: String,
    },
    /// `res` = 'E' for ec; `to` None = national treasury.
    Xfer {
        from: String,
        q: i64,
        res: char,
        to: Option<String>,
    },
    Exch {
        from: String,
        give: (i64, char),
        get: (i64, char),
        with: String,
    },
    Ce {
        zone: String,
        ec: i64,
    },
    Spy {
        zone: String,
        op: SpyOp,
        target: Option<String>,
    },
    Demob {
        zone: String,
        code: String,
        q: Option<usize>,
    },
    Build {
        zone: String,
        code: String,
        q: usize,
        host: Option<String>,
        army: Option<String>,
        res: Option<char>,
    },
    Tac {
        zone: String,
        offensive: bool,
        on: bool,
    },
    Army {
        zone: String,
        pairs: Vec<(usize, String)>,
        name: String,
    },
    Mil {
        zone: String,
        sel: Selector,
        mission: Mission,
    },
    /// `Z >> <sel> ESCT`, attached to the mission on line `of`.
    Escort {
        zone: String,
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
