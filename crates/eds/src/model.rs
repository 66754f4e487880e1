//! The game state (spec §2): rulers, stars, ships. Stars are numbered 1..25·N and
//! stored in a `BTreeMap` keyed by number, as are ships, so that iteration (and
//! thus every report and every RNG draw that follows an iteration) is in number
//! order and deterministic.

use crate::params::Params;
use arbitre_core::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A ruler's registration number (1..N), printed with two digits.
pub type RulerNr = u8;
/// A star's number (1..25·N).
pub type StarNr = u32;
/// A ship's number, from the pool 1..25·N.
pub type ShipNr = u32;

/// The three goods, in the rulebook's column order E, U, G.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Good {
    E,
    U,
    G,
}

impl Good {
    pub fn idx(self) -> usize {
        self as usize
    }
    pub fn letter(self) -> char {
        ['E', 'U', 'G'][self.idx()]
    }
    pub fn from_letter(c: &str) -> Option<Good> {
        match c.to_ascii_uppercase().as_str() {
            "E" => Some(Good::E),
            "U" => Some(Good::U),
            "G" => Some(Good::G),
            _ => None,
        }
    }
    pub fn word(self) -> &'static str {
        ["Erz", "Uran", "Getreide"][self.idx()]
    }
}

/// The single facility a star may carry (§2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Facility {
    W,
    E,
    U,
    G,
    F,
}

impl Facility {
    pub fn idx(self) -> usize {
        self as usize
    }
    pub fn letter(self) -> char {
        ['W', 'E', 'U', 'G', 'F'][self.idx()]
    }
    pub fn from_letter(c: &str) -> Option<Facility> {
        match c.to_ascii_uppercase().as_str() {
            "W" => Some(Facility::W),
            "E" => Some(Facility::E),
            "U" => Some(Facility::U),
            "G" => Some(Facility::G),
            "F" => Some(Facility::F),
            _ => None,
        }
    }
    pub fn word(self) -> &'static str {
        [
            "Werft",
            "Erzbergwerk",
            "Uranbergwerk",
            "Getreideanbau",
            "Forschungsstation",
        ][self.idx()]
    }
}

/// Fighter type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FType {
    L,
    T,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ruler {
    pub number: RulerNr,
    pub id: PlayerId,
    pub name: String,
    pub we: i64,
    pub ev: u32,
    /// Own declared status toward every other ruler (1, 2 or 3); missing = 2.
    #[serde(default)]
    pub status: BTreeMap<RulerNr, u8>,
    #[serde(default)]
    pub home_star: StarNr,
    #[serde(default = "yes")]
    pub active: bool,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Star {
    pub number: StarNr,
    pub x: i32,
    pub y: i32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub owner: Option<RulerNr>,
    #[serde(default)]
    pub bv: u32,
    #[serde(default)]
    pub facility: Option<Facility>,
    #[serde(default)]
    pub ljg: u32,
    #[serde(default)]
    pub tjg: u32,
    /// Stocks E, U, G.
    #[serde(default)]
    pub stock: [u32; 3],
    /// Yield rates E, U, G.
    #[serde(default)]
    pub rate: [u32; 3],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    pub number: ShipNr,
    pub name: String,
    pub owner: RulerNr,
    /// Size class as Typ 1..26 (A..Z).
    pub typ: u32,
    pub tk: u32,
    pub jg: u32,
    /// Guns L, T, N, A.
    pub guns: [u32; 4],
    /// Shields L, T, N, A.
    pub shields: [u32; 4],
    pub lr: u32,
    pub rw: u32,
    pub lx: u32,
    pub tx: u32,
    pub x: i32,
    pub y: i32,
    #[serde(default)]
    pub hits: u32,
    #[serde(default)]
    pub sp: u32,
    #[serde(default)]
    pub ljg: u32,
    #[serde(default)]
    pub tjg: u32,
    #[serde(default)]
    pub cargo: Option<(Good, u32)>,
    pub r: u8,
    #[serde(default)]
    pub home_base: bool,
}

impl Ship {
    pub fn class_letter(&self) -> char {
        (b'A' + (self.typ.clamp(1, 26) as u8) - 1) as char
    }
    pub fn pos(&self) -> (i32, i32) {
        (self.x, self.y)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The game's id as the daemon knows it (for the order-mail envelope).
    #[serde(default)]
    pub game_id: String,
    pub galaxy: String,
    pub width: i32,
    pub height: i32,
    /// The last evaluated month (0 = Spielvorbereitung).
    pub month: u32,
    pub params: Params,
    pub rulers: Vec<Ruler>,
    pub stars: BTreeMap<StarNr, Star>,
    pub ships: BTreeMap<ShipNr, Ship>,
    /// Stars where a ship was scrapped in the previous month (phase 13 priority).
    #[serde(default)]
    pub scrap_yards_prev: BTreeSet<StarNr>,
    #[serde(default)]
    pub winners: Vec<RulerNr>,
    #[serde(default)]
    pub game_over: bool,
    /// Public posts of the last month's Sternenanzeiger (author, text).
    #[serde(default)]
    pub anzeiger: Vec<(RulerNr, String)>,
    /// Game-master announcements printed in every Sternenanzeiger.
    #[serde(default)]
    pub announcements: String,
    /// What the last month produced, kept so that its documents can be rendered
    /// again from the snapshot alone, byte for byte (spec §8.4).
    #[serde(default)]
    pub last_events: Vec<crate::events::Event>,
}

/// Where stars and ships stand, built once for work that looks up many points
/// (reports, the lost check, occupation, finding battles): stars never move, so
/// the star index stays valid for a whole month; the ship index for one phase.
pub struct Spatial {
    pub stars: BTreeMap<(i32, i32), StarNr>,
    pub ships: BTreeMap<(i32, i32), Vec<ShipNr>>,
}

impl Spatial {
    pub fn star_nr(&self, x: i32, y: i32) -> Option<StarNr> {
        self.stars.get(&(x, y)).copied()
    }
    pub fn ships_at(&self, x: i32, y: i32) -> &[ShipNr] {
        self.ships.get(&(x, y)).map(|v| v.as_slice()).unwrap_or(&[])
    }
}

impl State {
    pub fn spatial(&self) -> Spatial {
        let mut ships: BTreeMap<(i32, i32), Vec<ShipNr>> = BTreeMap::new();
        for s in self.ships.values() {
            ships.entry((s.x, s.y)).or_default().push(s.number);
        }
        Spatial {
            stars: self
                .stars
                .values()
                .map(|s| ((s.x, s.y), s.number))
                .collect(),
            ships,
        }
    }

    pub fn ruler(&self, n: RulerNr) -> Option<&Ruler> {
        self.rulers
            .get((n as usize).wrapping_sub(1))
            .filter(|r| r.number == n)
    }
    pub fn ruler_mut(&mut self, n: RulerNr) -> Option<&mut Ruler> {
        self.rulers
            .get_mut((n as usize).wrapping_sub(1))
            .filter(|r| r.number == n)
    }
    pub fn ruler_by_id(&self, id: &PlayerId) -> Option<&Ruler> {
        self.rulers.iter().find(|r| &r.id == id)
    }
    pub fn name_of(&self, n: RulerNr) -> String {
        self.ruler(n).map(|r| r.name.clone()).unwrap_or_default()
    }
    /// `st(a,b)`: a's declared status toward b (2 when never declared).
    pub fn st(&self, a: RulerNr, b: RulerNr) -> u8 {
        self.ruler(a)
            .and_then(|r| r.status.get(&b).copied())
            .unwrap_or(2)
    }
    /// `hostile(a,b)`: status 3 declared by either side (§2.3).
    pub fn hostile(&self, a: RulerNr, b: RulerNr) -> bool {
        a != b && (self.st(a, b) == 3 || self.st(b, a) == 3)
    }
    /// The star owner lets ruler x refuel and load there.
    pub fn friendly_to(&self, owner: RulerNr, x: RulerNr) -> bool {
        owner == x || self.st(owner, x) == 1
    }
    pub fn star_at(&self, x: i32, y: i32) -> Option<&Star> {
        self.stars.values().find(|s| s.x == x && s.y == y)
    }
    pub fn star_nr_at(&self, x: i32, y: i32) -> Option<StarNr> {
        self.star_at(x, y).map(|s| s.number)
    }
    pub fn ships_at(&self, x: i32, y: i32) -> impl Iterator<Item = &Ship> {
        self.ships.values().filter(move |s| s.x == x && s.y == y)
    }
    pub fn ship_limit(&self) -> u32 {
        self.params.ships_per_player * self.rulers.len() as u32
    }
    pub fn lowest_free_ship_number(&self) -> Option<ShipNr> {
        (1..=self.ship_limit()).find(|n| !self.ships.contains_key(n))
    }
    pub fn in_map(&self, x: i32, y: i32) -> bool {
        x >= 1 && y >= 1 && x <= self.width && y <= self.height
    }
    pub fn active_rulers(&self) -> Vec<RulerNr> {
        self.rulers
            .iter()
            .filter(|r| r.active)
            .map(|r| r.number)
            .collect()
    }
}
