//! Unit catalogue (spec §2.8): every unit code with its stats, costs, tech
//! requirements and flags, and the warhead table (§2.8.10).
//!
//! The rulebook gives only a handful of stats (LT, INF, AA, MAA, ACAV, AINF, the
//! factory cost); everything else is the specification's proposed table [P]. The
//! table is static data rather than TOML because every rule module needs it and
//! a typo in a TOML override should not silently change combat arithmetic.

use crate::model::Field;

/// Combat category: decides how D is derived (§2.8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cat {
    Inf,
    Art,
    Veh,
    Heli,
    Acft,
    Ship,
    Sub,
    /// Naval transports (TLS, MSLC, AASH): not warships.
    Trans,
    /// Military bases (ABSE, FORT, missile bases): engaged in land combat.
    Base,
    /// Civil bases (FAC, PROC, SPC): never engaged, no maintenance.
    Civil,
    Space,
}

/// Movement type (§2.8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mt {
    I,
    V,
    Nv,
    H,
    Air,
    S,
    B,
}

pub const ASLT: u32 = 1;
pub const DEPL: u32 = 1 << 1;
pub const STLH: u32 = 1 << 2;
pub const ECM: u32 = 1 << 3;
pub const PROT: u32 = 1 << 4;
pub const ARM: u32 = 1 << 5;
pub const SAM: u32 = 1 << 6;
pub const ENG: u32 = 1 << 7;
pub const NOMAINT: u32 = 1 << 8;
pub const COAST: u32 = 1 << 9;
pub const DUAL: u32 = 1 << 10;
pub const M_CAPS: u32 = 1 << 11;
pub const M_ESCT: u32 = 1 << 12;
pub const M_BOMB: u32 = 1 << 13;
pub const NBOMB: u32 = 1 << 14;
pub const M_DROP: u32 = 1 << 15;
pub const M_HMOV: u32 = 1 << 16;
/// Satellite that may attack other satellites (SATT #TTNN).
pub const SAT_SPACE: u32 = 1 << 17;
/// Satellite that may attack the ground (SATT zone, SATC).
pub const SAT_GROUND: u32 = 1 << 18;
/// ABM only when the unit was given no order this turn (LSAT, HVRG).
pub const ABM_IDLE: u32 = 1 << 19;
/// Single use (RSAT, KSAT).
pub const ONE_SHOT: u32 = 1 << 20;
/// HVCR: moves on land and sea.
pub const AMPHI: u32 = 1 << 21;
/// May fire warheads at space targets (AIBM, MSLP).
pub const SPACE_FIRE: u32 = 1 << 22;

#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub code: &'static str,
    pub name: &'static str,
    pub cat: Cat,
    pub mt: Mt,
    pub tech: &'static [(Field, i32)],
    /// Resource letters of the cost, in listed order ("FNO").
    pub res: &'static str,
    pub ec: i64,
    /// Ground/naval attack A.
    pub a: i64,
    /// Anti-air attack a.
    pub aa: i64,
    /// Anti-submarine attack s.
    pub s: i64,
    pub d: i64,
    /// Infantry rank for guerrillas and partisans (0 = not ranked).
    pub rank: u8,
    pub flags: u32,
    /// Air range R (aircraft, VTOL).
    pub range: u32,
    /// DROP range (para units).
    pub drop: u32,
    /// Transport capacity (units).
    pub trn: u32,
    /// Carrier capacity (aircraft/helicopters).
    pub carr: u32,
    /// Warhead capacity.
    pub nuc: u32,
    /// Largest warhead kind accepted: 0 none, see [`Spec::accepts`].
    pub nuc_kinds: NucKinds,
    /// Ballistic range (u32::MAX = unlimited), 0 = none.
    pub bal: u32,
    /// Cruise range, 0 = none.
    pub cru: u32,
    pub abm: u32,
    pub acm: u32,
    pub sup: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NucKinds {
    None,
    /// HART shells: 5K and 5N.
    Shell,
    /// SSM: K up to 50, N.
    UpTo50,
    /// SSN torpedoes: K up to 20, N.
    UpTo20,
    All,
}

impl Spec {
    pub fn has(&self, f: u32) -> bool {
        self.flags & f != 0
    }
    pub fn is_warship(&self) -> bool {
        matches!(self.cat, Cat::Ship | Cat::Sub)
    }
    pub fn is_naval(&self) -> bool {
        matches!(self.cat, Cat::Ship | Cat::Sub | Cat::Trans)
    }
    pub fn is_base(&self) -> bool {
        matches!(self.cat, Cat::Base | Cat::Civil)
    }
    pub fn is_air(&self) -> bool {
        self.mt == Mt::Air
    }
    pub fn is_heli(&self) -> bool {
        self.mt == Mt::H
    }
    pub fn is_land(&self) -> bool {
        matches!(self.cat, Cat::Inf | Cat::Art | Cat::Veh)
    }
    /// Maintenance is due (§7.5): not civil bases, RNGR or space units? Space
    /// units are maintained (at the SPC zone); warheads are not units here.
    pub fn needs_maint(&self) -> bool {
        !self.has(NOMAINT) && self.cat != Cat::Civil
    }
    pub fn accepts(&self, w: &Warhead) -> bool {
        match self.nuc_kinds {
            NucKinds::None => false,
            NucKinds::Shell => w.code == "5K" || w.code == "5N",
            NucKinds::UpTo50 => w.neutron || (!w.strategic && w.kt <= 50),
            NucKinds::UpTo20 => w.neutron || (!w.strategic && w.kt <= 20),
            NucKinds::All => true,
        }
    }
    /// Land D (§2.8.1): infantry, artillery and bases double d; others A + d;
    /// aircraft and helicopters max(A,a) + d.
    pub fn land_d(&self) -> i64 {
        match self.cat {
            Cat::Inf | Cat::Art | Cat::Base | Cat::Civil => self.d + self.d,
            Cat::Heli | Cat::Acft => self.a.max(self.aa) + self.d,
            _ => self.a + self.d,
        }
    }
    /// Anti-air D ("dca"): infantry and bases d + d, artillery and others a + d.
    pub fn dca_d(&self) -> i64 {
        match self.cat {
            Cat::Inf | Cat::Base | Cat::Civil => self.d + self.d,
            Cat::Heli | Cat::Acft => self.a.max(self.aa) + self.d,
            _ => self.aa + self.d,
        }
    }
}

#[allow(clippy::too_many_arguments)]
const fn u(
    code: &'static str,
    name: &'static str,
    cat: Cat,
    mt: Mt,
    tech: &'static [(Field, i32)],
    res: &'static str,
    ec: i64,
    a: i64,
    aa: i64,
    s: i64,
    d: i64,
) -> Spec {
    Spec {
        code,
        name,
        cat,
        mt,
        tech,
        res,
        ec,
        a,
        aa,
        s,
        d,
        rank: 0,
        flags: 0,
        range: 0,
        drop: 0,
        trn: 0,
        carr: 0,
        nuc: 0,
        nuc_kinds: NucKinds::None,
        bal: 0,
        cru: 0,
        abm: 0,
        acm: 0,
        sup: 0,
    }
}

use Cat::*;
use Field::{Nv as FNV, A as FA, I as FI, L as FL, N as FN, V as FV};

const FTR_M: u32 = M_CAPS | M_ESCT | M_BOMB;

pub static UNITS: &[Spec] = &[
    // §2.8.3 infantry
    Spec {
        rank: 1,
        ..u("MIL", "Milice", Inf, Mt::I, &[], "N", 1, 2, 0, 0, 3)
    },
    Spec {
        rank: 2,
        ..u("INF", "Infanterie", Inf, Mt::I, &[], "N", 2, 3, 0, 0, 4)
    },
    Spec {
        flags: ENG,
        ..u("ENG", "Génie", Inf, Mt::I, &[], "NF", 2, 1, 0, 0, 3)
    },
    Spec {
        rank: 3,
        flags: M_DROP | DEPL,
        drop: 4,
        ..u(
            "AIR",
            "Parachutistes",
            Inf,
            Mt::I,
            &[(FI, 10)],
            "NP",
            3,
            3,
            0,
            0,
            4,
        )
    },
    Spec {
        rank: 4,
        flags: ASLT | DEPL,
        ..u(
            "MAR",
            "Marines",
            Inf,
            Mt::I,
            &[(FI, 20)],
            "NF",
            3,
            5,
            0,
            0,
            5,
        )
    },
    Spec {
        rank: 5,
        flags: M_DROP | DEPL | ASLT | STLH,
        drop: 4,
        ..u(
            "COM",
            "Commandos",
            Inf,
            Mt::I,
            &[(FI, 30)],
            "NFO",
            4,
            6,
            0,
            0,
            5,
        )
    },
    Spec {
        rank: 6,
        ..u(
            "AINF",
            "Infanterie aéromobile",
            Inf,
            Mt::I,
            &[(FI, 35)],
            "NF",
            4,
            8,
            0,
            0,
            10,
        )
    },
    Spec {
        rank: 7,
        flags: M_DROP | DEPL | STLH | NOMAINT,
        drop: 5,
        ..u(
            "RNGR",
            "Rangers",
            Inf,
            Mt::I,
            &[(FI, 45)],
            "NFO",
            5,
            9,
            0,
            0,
            10,
        )
    },
    Spec {
        rank: 8,
        flags: M_DROP | DEPL,
        drop: 6,
        ..u(
            "AAIR",
            "Aéroportés avancés",
            Inf,
            Mt::I,
            &[(FI, 55), (FA, 30)],
            "NFP",
            5,
            10,
            0,
            0,
            11,
        )
    },
    Spec {
        rank: 9,
        flags: M_DROP | M_HMOV | DEPL | ASLT,
        drop: 3,
        ..u(
            "HAIR",
            "Assaut héliporté",
            Inf,
            Mt::I,
            &[(FI, 60), (FA, 40)],
            "NFP",
            6,
            11,
            2,
            0,
            12,
        )
    },
    // §2.8.4 artillery
    Spec {
        sup: 10,
        ..u(
            "ART",
            "Artillerie",
            Art,
            Mt::I,
            &[(FI, 5)],
            "FP",
            2,
            4,
            0,
            0,
            3,
        )
    },
    Spec {
        sup: 20,
        nuc: 1,
        nuc_kinds: NucKinds::Shell,
        ..u(
            "HART",
            "Artillerie lourde",
            Art,
            Mt::V,
            &[(FV, 30), (FN, 10)],
            "FFP",
            4,
            7,
            0,
            0,
            4,
        )
    },
    // §2.8.5 vehicles
    Spec {
        flags: ARM,
        ..u("LT", "Char léger", Veh, Mt::V, &[], "FP", 3, 6, 0, 0, 4)
    },
    u("AA", "DCA", Veh, Mt::V, &[], "FP", 2, 3, 6, 0, 4),
    Spec {
        trn: 2,
        ..u(
            "MINF",
            "Transport motorisé",
            Veh,
            Mt::V,
            &[(FV, 5)],
            "FP",
            2,
            2,
            0,
            0,
            3,
        )
    },
    Spec {
        trn: 2,
        ..u(
            "MECH",
            "Infanterie mécanisée",
            Veh,
            Mt::V,
            &[(FV, 15)],
            "FFP",
            3,
            4,
            1,
            0,
            5,
        )
    },
    Spec {
        bal: 3,
        nuc: 1,
        nuc_kinds: NucKinds::UpTo50,
        ..u(
            "SSM",
            "Lance-missiles",
            Veh,
            Mt::V,
            &[(FV, 20), (FN, 10)],
            "FMP",
            4,
            0,
            0,
            0,
            4,
        )
    },
    Spec {
        flags: ARM | PROT,
        ..u(
            "HT",
            "Char lourd",
            Veh,
            Mt::V,
            &[(FV, 25)],
            "FFP",
            4,
            10,
            0,
            0,
            8,
        )
    },
    Spec {
        flags: ENG,
        ..u(
            "MENG",
            "Génie mécanisé",
            Veh,
            Mt::V,
            &[(FV, 30)],
            "FFP",
            4,
            3,
            0,
            0,
            6,
        )
    },
    Spec {
        flags: SAM | PROT,
        ..u(
            "MAA",
            "DCA mobile",
            Veh,
            Mt::V,
            &[(FV, 40)],
            "FMP",
            5,
            8,
            10,
            0,
            12,
        )
    },
    Spec {
        flags: PROT,
        trn: 2,
        ..u(
            "HTMI",
            "Blindé lourd",
            Veh,
            Mt::V,
            &[(FV, 45)],
            "FFMP",
            5,
            8,
            2,
            0,
            10,
        )
    },
    Spec {
        flags: AMPHI,
        trn: 2,
        ..u(
            "HVCR",
            "Aéroglisseur",
            Veh,
            Mt::V,
            &[(FV, 50), (FNV, 30)],
            "FMP",
            5,
            6,
            2,
            0,
            6,
        )
    },
    Spec {
        flags: PROT | ECM,
        trn: 2,
        ..u(
            "AMEC",
            "Mécanisé avancé",
            Veh,
            Mt::V,
            &[(FV, 60)],
            "FFOP",
            6,
            12,
            4,
            0,
            12,
        )
    },
    // §2.8.6 helicopters
    Spec {
        flags: M_HMOV,
        trn: 1,
        ..u(
            "ACAV",
            "Hélicoptère de transport",
            Heli,
            Mt::H,
            &[(FA, 30)],
            "FOP",
            4,
            6,
            0,
            0,
            10,
        )
    },
    Spec {
        flags: M_HMOV | ASLT,
        ..u(
            "AH",
            "Hélicoptère d'attaque",
            Heli,
            Mt::H,
            &[(FA, 35)],
            "FOP",
            5,
            8,
            4,
            0,
            8,
        )
    },
    Spec {
        flags: M_HMOV | ENG,
        ..u(
            "AENG",
            "Génie aéroporté",
            Heli,
            Mt::H,
            &[(FA, 40)],
            "FOP",
            5,
            3,
            0,
            0,
            8,
        )
    },
    Spec {
        flags: M_HMOV | M_CAPS | M_ESCT,
        range: 2,
        acm: 15,
        ..u(
            "VTOL",
            "ADAV",
            Heli,
            Mt::H,
            &[(FA, 50)],
            "FMOP",
            6,
            8,
            8,
            0,
            8,
        )
    },
    // §2.8.7 aircraft
    Spec {
        flags: FTR_M,
        range: 3,
        acm: 20,
        ..u("FTR", "Chasseur", Acft, Mt::Air, &[], "FP", 3, 2, 6, 0, 4)
    },
    Spec {
        flags: M_BOMB | NBOMB,
        range: 5,
        ..u(
            "BMB",
            "Bombardier",
            Acft,
            Mt::Air,
            &[(FA, 5)],
            "FFP",
            4,
            8,
            1,
            0,
            4,
        )
    },
    Spec {
        flags: FTR_M | DUAL,
        range: 3,
        acm: 15,
        ..u(
            "FB",
            "Chasseur-bombardier",
            Acft,
            Mt::Air,
            &[(FA, 10)],
            "FFP",
            4,
            5,
            5,
            0,
            4,
        )
    },
    Spec {
        flags: M_BOMB,
        range: 5,
        ..u(
            "ASWP",
            "Patrouilleur ASM",
            Acft,
            Mt::Air,
            &[(FA, 10)],
            "FP",
            3,
            2,
            0,
            8,
            4,
        )
    },
    Spec {
        flags: M_BOMB,
        range: 3,
        ..u(
            "TAC",
            "Avion d'attaque",
            Acft,
            Mt::Air,
            &[(FA, 15)],
            "FFP",
            4,
            9,
            2,
            0,
            5,
        )
    },
    Spec {
        flags: M_BOMB | NBOMB,
        range: 8,
        cru: 4,
        ..u(
            "HBMB",
            "Bombardier lourd",
            Acft,
            Mt::Air,
            &[(FA, 20)],
            "FFPP",
            6,
            12,
            2,
            0,
            6,
        )
    },
    Spec {
        flags: M_BOMB,
        range: 3,
        ..u(
            "GNSH",
            "Gunship",
            Acft,
            Mt::Air,
            &[(FA, 25)],
            "FFP",
            5,
            10,
            0,
            0,
            6,
        )
    },
    Spec {
        flags: M_CAPS | M_ESCT,
        range: 4,
        acm: 30,
        ..u(
            "JFTR",
            "Chasseur à réaction",
            Acft,
            Mt::Air,
            &[(FA, 30)],
            "FOP",
            5,
            3,
            10,
            0,
            6,
        )
    },
    Spec {
        flags: FTR_M | DUAL,
        range: 4,
        acm: 25,
        ..u(
            "JFB",
            "Chasseur-bombardier à réaction",
            Acft,
            Mt::Air,
            &[(FA, 35)],
            "FFOP",
            6,
            8,
            8,
            0,
            6,
        )
    },
    Spec {
        flags: M_BOMB | NBOMB,
        range: 8,
        cru: 4,
        ..u(
            "JBMB",
            "Bombardier à réaction",
            Acft,
            Mt::Air,
            &[(FA, 40)],
            "FFOP",
            7,
            14,
            2,
            0,
            7,
        )
    },
    Spec {
        flags: M_BOMB,
        range: 6,
        ..u(
            "ASWJ",
            "ASM à réaction",
            Acft,
            Mt::Air,
            &[(FA, 40)],
            "FOP",
            5,
            4,
            0,
            12,
            6,
        )
    },
    Spec {
        flags: FTR_M | DUAL,
        range: 6,
        acm: 20,
        ..u(
            "AASW",
            "ASM avancé",
            Acft,
            Mt::Air,
            &[(FA, 60)],
            "FMOP",
            7,
            6,
            6,
            16,
            8,
        )
    },
    Spec {
        flags: M_CAPS | M_ESCT | ECM,
        range: 5,
        acm: 40,
        ..u(
            "AFTR",
            "Chasseur avancé",
            Acft,
            Mt::Air,
            &[(FA, 65)],
            "FOOP",
            8,
            4,
            16,
            0,
            10,
        )
    },
    Spec {
        flags: FTR_M | DUAL,
        range: 5,
        acm: 35,
        ..u(
            "AFB",
            "Chasseur-bombardier avancé",
            Acft,
            Mt::Air,
            &[(FA, 70)],
            "FFOOP",
            9,
            12,
            12,
            0,
            10,
        )
    },
    Spec {
        flags: M_BOMB | NBOMB | STLH | ECM,
        range: 10,
        ..u(
            "SBMB",
            "Bombardier furtif",
            Acft,
            Mt::Air,
            &[(FA, 80)],
            "FFOOP",
            10,
            18,
            0,
            0,
            8,
        )
    },
    // §2.8.8 naval
    Spec {
        flags: COAST,
        ..u(
            "CST",
            "Navire côtier",
            Ship,
            Mt::Nv,
            &[],
            "FP",
            2,
            3,
            1,
            2,
            3,
        )
    },
    u(
        "DD",
        "Destroyer",
        Ship,
        Mt::Nv,
        &[(FNV, 5)],
        "FFP",
        3,
        4,
        2,
        6,
        4,
    ),
    u(
        "SS",
        "Sous-marin",
        Sub,
        Mt::Nv,
        &[(FNV, 10)],
        "FFP",
        3,
        6,
        0,
        0,
        4,
    ),
    Spec {
        cru: 4,
        ..u(
            "CA",
            "Croiseur",
            Ship,
            Mt::Nv,
            &[(FNV, 15)],
            "FFMP",
            5,
            8,
            4,
            2,
            8,
        )
    },
    Spec {
        flags: PROT,
        cru: 4,
        ..u(
            "BB",
            "Cuirassé",
            Ship,
            Mt::Nv,
            &[(FNV, 20)],
            "FFFMP",
            7,
            14,
            4,
            0,
            14,
        )
    },
    Spec {
        carr: 6,
        ..u(
            "CV",
            "Porte-avions",
            Ship,
            Mt::Nv,
            &[(FNV, 25), (FA, 10)],
            "FFFMP",
            8,
            1,
            4,
            0,
            10,
        )
    },
    Spec {
        carr: 4,
        ..u(
            "CVH",
            "Porte-hélicoptères",
            Ship,
            Mt::Nv,
            &[(FNV, 30), (FA, 30)],
            "FFMP",
            6,
            1,
            3,
            2,
            8,
        )
    },
    Spec {
        flags: PROT,
        nuc: 1,
        nuc_kinds: NucKinds::UpTo20,
        cru: 4,
        ..u(
            "SSN",
            "Sous-marin nucléaire d'attaque",
            Sub,
            Mt::Nv,
            &[(FNV, 50), (FN, 30)],
            "FFMPU",
            7,
            10,
            0,
            0,
            8,
        )
    },
    Spec {
        flags: PROT,
        nuc: 3,
        nuc_kinds: NucKinds::All,
        bal: 8,
        ..u(
            "SSBN",
            "Sous-marin lance-engins",
            Sub,
            Mt::Nv,
            &[(FNV, 60), (FN, 50)],
            "FFMPU",
            9,
            2,
            0,
            0,
            8,
        )
    },
    Spec {
        trn: 2,
        ..u(
            "TLS",
            "Navire de débarquement",
            Trans,
            Mt::Nv,
            &[],
            "FP",
            2,
            0,
            0,
            0,
            3,
        )
    },
    Spec {
        trn: 4,
        ..u(
            "MSLC",
            "Transport maritime",
            Trans,
            Mt::Nv,
            &[(FNV, 15)],
            "FFP",
            3,
            0,
            0,
            0,
            4,
        )
    },
    Spec {
        trn: 3,
        carr: 2,
        ..u(
            "AASH",
            "Navire d'assaut amphibie",
            Trans,
            Mt::Nv,
            &[(FNV, 40), (FA, 30)],
            "FFMP",
            6,
            2,
            2,
            0,
            8,
        )
    },
    // §2.8.9 bases
    Spec {
        flags: NOMAINT,
        ..u("FAC", "Usine", Civil, Mt::B, &[], "FNO", 2, 0, 0, 0, 2)
    },
    Spec {
        flags: NOMAINT,
        ..u(
            "PROC",
            "Centre de traitement",
            Civil,
            Mt::B,
            &[(FL, 10)],
            "FM",
            3,
            0,
            0,
            0,
            2,
        )
    },
    Spec {
        flags: NOMAINT,
        ..u(
            "SPC",
            "Centre spatial",
            Civil,
            Mt::B,
            &[(FA, 20)],
            "FMO",
            5,
            0,
            0,
            0,
            3,
        )
    },
    Spec {
        nuc: 99,
        nuc_kinds: NucKinds::All,
        ..u(
            "ABSE",
            "Base aérienne",
            Base,
            Mt::B,
            &[],
            "FP",
            2,
            0,
            0,
            0,
            4,
        )
    },
    u(
        "FORT",
        "Fortification",
        Base,
        Mt::B,
        &[(FI, 10)],
        "FFM",
        3,
        4,
        0,
        0,
        10,
    ),
    Spec {
        bal: 8,
        nuc: 1,
        nuc_kinds: NucKinds::All,
        ..u(
            "IRBM",
            "Base de missiles",
            Base,
            Mt::B,
            &[(FN, 20)],
            "FFPU",
            5,
            0,
            0,
            0,
            3,
        )
    },
    Spec {
        flags: PROT,
        bal: u32::MAX,
        nuc: 5,
        nuc_kinds: NucKinds::All,
        ..u(
            "ICBM",
            "Base de missiles intercontinentaux",
            Base,
            Mt::B,
            &[(FN, 40)],
            "FFOPU",
            8,
            0,
            0,
            0,
            4,
        )
    },
    Spec {
        abm: 40,
        ..u(
            "ABMP",
            "Batterie ABM",
            Base,
            Mt::B,
            &[(FN, 35)],
            "FOPU",
            6,
            0,
            0,
            0,
            4,
        )
    },
    Spec {
        flags: PROT | SPACE_FIRE,
        bal: u32::MAX,
        nuc: 3,
        nuc_kinds: NucKinds::All,
        ..u(
            "AIBM",
            "Base ICBM avancée",
            Base,
            Mt::B,
            &[(FN, 55)],
            "FFOOPU",
            9,
            0,
            0,
            0,
            4,
        )
    },
    // §2.8.9 space
    u(
        "SPB",
        "Base spatiale",
        Space,
        Mt::S,
        &[(FA, 70)],
        "FFFMOO",
        12,
        0,
        0,
        0,
        5,
    ),
    Spec {
        flags: ONE_SHOT,
        ..u(
            "RSAT",
            "Satellite de reconnaissance",
            Space,
            Mt::S,
            &[(FA, 30)],
            "FMO",
            5,
            0,
            0,
            0,
            0,
        )
    },
    Spec {
        flags: ONE_SHOT | SAT_SPACE,
        ..u(
            "KSAT",
            "Satellite tueur",
            Space,
            Mt::S,
            &[(FA, 45)],
            "FFMO",
            6,
            0,
            0,
            0,
            0,
        )
    },
    Spec {
        abm: 25,
        ..u(
            "QSAT",
            "Satellite anti-missile",
            Space,
            Mt::S,
            &[(FA, 50), (FN, 30)],
            "FFMOO",
            8,
            0,
            0,
            0,
            0,
        )
    },
    Spec {
        flags: SAT_SPACE | SAT_GROUND | ABM_IDLE,
        abm: 15,
        ..u(
            "HVRG",
            "Canon électrique orbital",
            Space,
            Mt::S,
            &[(FA, 55), (FN, 20)],
            "FFMOO",
            8,
            12,
            0,
            0,
            0,
        )
    },
    Spec {
        flags: SAT_SPACE | SAT_GROUND | ABM_IDLE,
        abm: 20,
        ..u(
            "LSAT",
            "Satellite laser",
            Space,
            Mt::S,
            &[(FA, 60), (FN, 40)],
            "FFMOOU",
            10,
            10,
            0,
            0,
            0,
        )
    },
    Spec {
        flags: SPACE_FIRE,
        bal: u32::MAX,
        nuc: 5,
        nuc_kinds: NucKinds::All,
        ..u(
            "MSLP",
            "Plate-forme orbitale",
            Space,
            Mt::S,
            &[(FA, 60), (FN, 60)],
            "FFMOU",
            10,
            0,
            0,
            0,
            0,
        )
    },
];

/// The tables of [`spec`]: by code, by packed code, and the packed codes
/// placed without collisions.
struct SpecTables {
    by_code: rustc_hash::FxHashMap<&'static str, &'static Spec>,
    by_short: rustc_hash::FxHashMap<u64, &'static Spec>,
    direct: Option<Direct>,
}

static SPEC_TABLES: std::sync::OnceLock<SpecTables> = std::sync::OnceLock::new();

// Asked several times per order line (issue 21): a hash of the code rather
// than a compare with each of the table's codes in turn; the first entry of
// a code wins, as the scan's did. Codes of up to seven bytes (all of the
// table's) by their packed key, placed in a table without collisions
// ([`Direct`]): one multiplication and one compare, inlined, where the
// hash map's probe and the call's saved registers were most of a lookup.
#[inline]
pub fn spec(code: &str) -> Option<&'static Spec> {
    let t = match SPEC_TABLES.get() {
        Some(t) => t,
        None => spec_tables(),
    };
    match (crate::model::short_key(code), &t.direct) {
        (Some(k), Some(d)) => d.get(k),
        _ => spec_hashed(t, code),
    }
}

#[cold]
#[inline(never)]
fn spec_tables() -> &'static SpecTables {
    SPEC_TABLES.get_or_init(|| {
        let mut by_code = rustc_hash::FxHashMap::default();
        for s in UNITS {
            by_code.entry(s.code).or_insert(s);
        }
        let by_short: rustc_hash::FxHashMap<u64, &'static Spec> = by_code
            .iter()
            .filter_map(|(c, s)| crate::model::short_key(c).map(|k| (k, *s)))
            .collect();
        let direct = Direct::build(&by_short);
        SpecTables {
            by_code,
            by_short,
            direct,
        }
    })
}

/// [`spec`] by the hash maps: a code longer than seven bytes, or no
/// multiplier found for the direct table.
#[inline(never)]
fn spec_hashed(t: &SpecTables, code: &str) -> Option<&'static Spec> {
    match crate::model::short_key(code) {
        Some(k) => t.by_short.get(&k).copied(),
        None => t.by_code.get(code).copied(),
    }
}

/// The packed codes' entries, each at `(key × mul) >> shift`: a
/// multiplier is searched (deterministically) under which no two codes
/// share a slot, so a slot holds the one code that may land there.
struct Direct {
    mul: u64,
    shift: u32,
    slots: Vec<Option<(u64, &'static Spec)>>,
}

impl Direct {
    /// None if no multiplier tried separates the codes (then the hash
    /// map answers).
    fn build(short: &rustc_hash::FxHashMap<u64, &'static Spec>) -> Option<Direct> {
        for bits in 8..=14u32 {
            if short.len() * 4 > 1 << bits {
                continue;
            }
            let mut mul = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..64 {
                let mut slots = vec![None; 1 << bits];
                let shift = 64 - bits;
                let fits = short.iter().all(|(&k, &s)| {
                    let i = (k.wrapping_mul(mul) >> shift) as usize;
                    slots[i].is_none() && {
                        slots[i] = Some((k, s));
                        true
                    }
                });
                if fits {
                    return Some(Direct { mul, shift, slots });
                }
                // Another odd multiplier (an LCG step, odd kept).
                mul = mul
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407)
                    | 1;
            }
        }
        None
    }

    #[inline]
    fn get(&self, k: u64) -> Option<&'static Spec> {
        match self
            .slots
            .get((k.wrapping_mul(self.mul) >> self.shift) as usize)
        {
            Some(Some((key, s))) if *key == k => Some(s),
            _ => None,
        }
    }
}

/// Spec of a unit known to exist (codes in the state come from this table).
pub fn sp(code: &str) -> &'static Spec {
    spec(code).unwrap_or(&UNITS[1])
}

/// Satellite kill table (§2.8.9).
pub fn kill_pct(target: &str) -> u32 {
    match target {
        "RSAT" => 80,
        "KSAT" => 70,
        "QSAT" => 60,
        "HVRG" | "LSAT" => 50,
        "MSLP" => 40,
        "SPB" => 30,
        _ => 50,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Warhead {
    pub code: &'static str,
    pub kt: u32,
    pub neutron: bool,
    pub strategic: bool,
    pub tech_n: i32,
    pub res: &'static str,
    pub ec: i64,
    pub emp: u32,
}

pub static WARHEADS: &[Warhead] = &[
    Warhead {
        code: "5K",
        kt: 5,
        neutron: false,
        strategic: false,
        tech_n: 10,
        res: "U",
        ec: 2,
        emp: 10,
    },
    Warhead {
        code: "20K",
        kt: 20,
        neutron: false,
        strategic: false,
        tech_n: 20,
        res: "UU",
        ec: 3,
        emp: 20,
    },
    Warhead {
        code: "50K",
        kt: 50,
        neutron: false,
        strategic: false,
        tech_n: 30,
        res: "UU",
        ec: 4,
        emp: 30,
    },
    Warhead {
        code: "5N",
        kt: 5,
        neutron: true,
        strategic: false,
        tech_n: 45,
        res: "UUO",
        ec: 4,
        emp: 25,
    },
    Warhead {
        code: "1M",
        kt: 1000,
        neutron: false,
        strategic: true,
        tech_n: 40,
        res: "UUU",
        ec: 6,
        emp: 50,
    },
    Warhead {
        code: "5M",
        kt: 5000,
        neutron: false,
        strategic: true,
        tech_n: 55,
        res: "UUUU",
        ec: 8,
        emp: 75,
    },
];

pub fn warhead(code: &str) -> Option<&'static Warhead> {
    WARHEADS.iter().find(|w| w.code == code)
}

/// Infantry types a nation can build, most advanced first (§2.8.11); ENG excluded.
pub fn infantry_by_rank(tech: &crate::model::Tech) -> Vec<&'static str> {
    let mut v: Vec<&Spec> = UNITS
        .iter()
        .filter(|s| s.rank > 0 && s.tech.iter().all(|(f, l)| tech.get(*f) >= *l))
        .collect();
    v.sort_by_key(|s| std::cmp::Reverse(s.rank));
    v.into_iter().map(|s| s.code).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wwk_81_derived_values_tv1() {
        // TV-1: LT 6/10 and dca 0/4; INF 3/8 and 0/8; AA 3/7 and 6/10.
        let lt = sp("LT");
        assert_eq!((lt.a, lt.land_d(), lt.aa, lt.dca_d()), (6, 10, 0, 4));
        let inf = sp("INF");
        assert_eq!((inf.a, inf.land_d(), inf.aa, inf.dca_d()), (3, 8, 0, 8));
        let aa = sp("AA");
        assert_eq!((aa.a, aa.land_d(), aa.aa, aa.dca_d()), (3, 7, 6, 10));
        // Artillery doubles d on land too.
        assert_eq!(sp("ART").land_d(), 6);
    }

    #[test]
    fn unit_codes_are_unique() {
        let mut c: Vec<&str> = UNITS.iter().map(|s| s.code).collect();
        c.sort();
        let n = c.len();
        c.dedup();
        assert_eq!(n, c.len());
    }

    /// The direct table answers as a scan of the table does (first entry
    /// of a code wins): every code, every one-to-three-character word of
    /// letters and digits, and a few longer ones.
    #[test]
    fn spec_is_the_first_entry_of_the_code() {
        let scan = |c: &str| UNITS.iter().find(|s| s.code == c);
        let mut words: Vec<String> = UNITS.iter().map(|s| s.code.to_string()).collect();
        let alphabet: Vec<char> = ('A'..='Z').chain('0'..='9').collect();
        for a in &alphabet {
            words.push(a.to_string());
            for b in &alphabet {
                words.push(format!("{a}{b}"));
                for c in &alphabet {
                    words.push(format!("{a}{b}{c}"));
                }
            }
        }
        words.extend(["", "inf", "INFANTRY", "1234567", "ABCDEFG"].map(String::from));
        for w in &words {
            assert_eq!(
                spec(w).map(|s| s as *const Spec),
                scan(w).map(|s| s as *const Spec),
                "{w:?}"
            );
        }
    }
}
