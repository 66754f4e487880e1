//! The 18 order kinds of the Befehlsblatt (spec §3.2), numbered like the phases
//! that execute them, plus the free-text sections of the e-mail format (§3.4).

use crate::model::{FType, Facility, Good, RulerNr, ShipNr, StarNr};

/// A ship design as written in order 13 (14 fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOrder {
    pub star: StarNr,
    pub name: String,
    pub typ: u32,
    pub tk: u32,
    pub jg: u32,
    pub guns: [u32; 4],
    pub shields: [u32; 4],
    pub r: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    StarName {
        star: StarNr,
        name: String,
    },
    ShipName {
        ship: ShipNr,
        name: String,
    },
    Status {
        ruler: u32,
        value: u32,
    },
    Repair {
        ship: ShipNr,
    },
    Refuel {
        ship: ShipNr,
        amount: u32,
    },
    Retreat {
        ship: ShipNr,
        r: u32,
    },
    Jump {
        ship: ShipNr,
        fleet: bool,
        x: i32,
        y: i32,
    },
    Unload {
        ship: ShipNr,
        good: Good,
        amount: u32,
    },
    Load {
        ship: ShipNr,
        good: Good,
        amount: u32,
    },
    FightersOut {
        ship: ShipNr,
        l: u32,
        t: u32,
    },
    FightersIn {
        ship: ShipNr,
        l: u32,
        t: u32,
    },
    BuildFighters {
        star: StarNr,
        kind: FType,
        count: u32,
    },
    BuildShip(BuildOrder),
    Scrap {
        ship: ShipNr,
    },
    Industry {
        star: StarNr,
        facility: Option<Facility>,
    },
    Colonise {
        star: StarNr,
    },
    Transfer {
        ruler: u32,
        amount: i64,
    },
    Handover {
        star: StarNr,
        ruler: u32,
    },
    /// `[ANZEIGER]`: a public post for the Sternenanzeiger.
    Anzeiger(String),
    /// `[DIPLOMATIE nn]`: a confidential message to ruler nn.
    Diplomatie {
        to: RulerNr,
        text: String,
    },
    /// `[HINWEIS]`: a note to the game master.
    Hinweis(String),
}

/// German phase names (§4.2), index = phase number.
pub const PHASE_NAMES: [&str; 24] = [
    "",
    "Sternname",
    "Schiffsname",
    "Status",
    "Reparatur",
    "Auftanken",
    "Rückzug",
    "Sprung",
    "Waren ausladen",
    "Waren einladen",
    "Jäger ausladen",
    "Jäger einladen",
    "Jäger bauen",
    "Schiff bauen",
    "Verschrotten",
    "Industrie",
    "Kolonisieren",
    "Überweisen",
    "Sternübergabe",
    "Besetzen",
    "Förderung",
    "Forschung",
    "Getreide",
    "Steuern",
];

/// Canonical section names of the mail format, index = phase number − 1.
pub const SECTION_NAMES: [&str; 18] = [
    "STERNNAMEN",
    "SCHIFFSNAMEN",
    "STATUS",
    "REPARATUR",
    "AUFTANKEN",
    "RUECKZUG",
    "SPRUNG",
    "WAREN AUSLADEN",
    "WAREN EINLADEN",
    "JAEGER AUSLADEN",
    "JAEGER EINLADEN",
    "JAEGER BAUEN",
    "SCHIFFBAU",
    "VERSCHROTTEN",
    "INDUSTRIE",
    "KOLONISIEREN",
    "UEBERWEISEN",
    "STERNUEBERGABE",
];

/// Syntax hints for the Befehlsblatt template, index = phase number − 1.
pub const SECTION_SYNTAX: [&str; 18] = [
    "Stern,Name",
    "Schiff,Name",
    "Herrscher,Status (1 freundlich, 2 neutral, 3 Krieg)",
    "Schiff",
    "Schiff,Uranmenge",
    "Schiff,Rückzugszahl (0-4)",
    "Schiff,A,X,Y  oder  Schiff,/,X,Y",
    "Schiff,E/U/G,Menge",
    "Schiff,E/U/G,Menge",
    "Schiff,Laserjäger,Thermojäger",
    "Schiff,Laserjäger,Thermojäger",
    "Werftstern,L/T,Anzahl",
    "Werftstern,Name,Klasse,Tanks,Hangars,LK,TK,NK,AK,LS,TS,NS,AS,Rückzugszahl",
    "Schiff",
    "Stern,W/E/U/G/F/-",
    "Stern",
    "Herrscher,WE",
    "Stern,Herrscher",
];

impl Order {
    /// The phase that executes this order (0 for the free-text sections).
    pub fn phase(&self) -> u8 {
        match self {
            Order::StarName { .. } => 1,
            Order::ShipName { .. } => 2,
            Order::Status { .. } => 3,
            Order::Repair { .. } => 4,
            Order::Refuel { .. } => 5,
            Order::Retreat { .. } => 6,
            Order::Jump { .. } => 7,
            Order::Unload { .. } => 8,
            Order::Load { .. } => 9,
            Order::FightersOut { .. } => 10,
            Order::FightersIn { .. } => 11,
            Order::BuildFighters { .. } => 12,
            Order::BuildShip(_) => 13,
            Order::Scrap { .. } => 14,
            Order::Industry { .. } => 15,
            Order::Colonise { .. } => 16,
            Order::Transfer { .. } => 17,
            Order::Handover { .. } => 18,
            Order::Anzeiger(_) | Order::Diplomatie { .. } | Order::Hinweis(_) => 0,
        }
    }
}
