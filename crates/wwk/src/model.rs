//! The game state (spec §2): global state, nations, zones, units, diplomacy.
//!
//! Everything is `BTreeMap`/`Vec` so that serialisation and iteration are
//! deterministic. The same structure, written as TOML, is the "full position"
//! a GM can load to resume a game (every field has a serde default, so a
//! position only needs what differs from an empty game).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub type NationCode = String;
pub type ZoneCode = String;
pub type UnitId = u32;

/// Owner tag of the neutral forces and of guerrillas (not nations, §2.3).
pub const NEUTRAL: &str = "NEUTRE";
pub const GUERRILLA: &str = "GUERILLA";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Field {
    I,
    V,
    A,
    Nv,
    N,
    L,
}

impl Field {
    pub const ALL: [Field; 6] = [Field::I, Field::V, Field::A, Field::Nv, Field::N, Field::L];
    pub fn label(self) -> &'static str {
        match self {
            Field::I => "I",
            Field::V => "V",
            Field::A => "A",
            Field::Nv => "Nv",
            Field::N => "N",
            Field::L => "L",
        }
    }
    pub fn parse(s: &str) -> Option<Field> {
        match s.to_ascii_uppercase().as_str() {
            "I" => Some(Field::I),
            "V" => Some(Field::V),
            "A" => Some(Field::A),
            "NV" => Some(Field::Nv),
            "N" => Some(Field::N),
            "L" => Some(Field::L),
            _ => None,
        }
    }
    pub fn idx(self) -> usize {
        self as usize
    }
}

/// Technology levels 0..100 in the six fields (§2.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tech {
    #[serde(rename = "I", default)]
    pub i: i32,
    #[serde(rename = "V", default)]
    pub v: i32,
    #[serde(rename = "A", default)]
    pub a: i32,
    #[serde(rename = "Nv", default)]
    pub nv: i32,
    #[serde(rename = "N", default)]
    pub n: i32,
    #[serde(rename = "L", default)]
    pub l: i32,
}

impl Tech {
    pub fn get(&self, f: Field) -> i32 {
        match f {
            Field::I => self.i,
            Field::V => self.v,
            Field::A => self.a,
            Field::Nv => self.nv,
            Field::N => self.n,
            Field::L => self.l,
        }
    }
    pub fn set(&mut self, f: Field, v: i32) {
        let v = v.clamp(0, 100);
        match f {
            Field::I => self.i = v,
            Field::V => self.v = v,
            Field::A => self.a = v,
            Field::Nv => self.nv = v,
            Field::N => self.n = v,
            Field::L => self.l = v,
        }
    }
    /// Sum of the five military fields (L excluded, §2.6).
    pub fn sum5(&self) -> i64 {
        i64::from(self.i + self.v + self.a + self.nv + self.n)
    }
}

/// The six raw materials (§2.5), in canonical order N M P O F U.
pub const RES: [char; 6] = ['N', 'M', 'P', 'O', 'F', 'U'];

/// A zone's reserve for one nation: ec and stocks (§2.4 `ledger`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    #[serde(default)]
    pub ec: i64,
    #[serde(rename = "N", default)]
    pub n: i64,
    #[serde(rename = "M", default)]
    pub m: i64,
    #[serde(rename = "P", default)]
    pub p: i64,
    #[serde(rename = "O", default)]
    pub o: i64,
    #[serde(rename = "F", default)]
    pub f: i64,
    #[serde(rename = "U", default)]
    pub u: i64,
}

impl Ledger {
    pub fn res(&self, r: char) -> i64 {
        match r {
            'N' => self.n,
            'M' => self.m,
            'P' => self.p,
            'O' => self.o,
            'F' => self.f,
            'U' => self.u,
            _ => self.ec,
        }
    }
    pub fn res_mut(&mut self, r: char) -> &mut i64 {
        match r {
            'N' => &mut self.n,
            'M' => &mut self.m,
            'P' => &mut self.p,
            'O' => &mut self.o,
            'F' => &mut self.f,
            'U' => &mut self.u,
            _ => &mut self.ec,
        }
    }
    pub fn add(&mut self, o: &Ledger) {
        self.ec += o.ec;
        for r in RES {
            *self.res_mut(r) += o.res(r);
        }
    }
    /// `F5 N2 M0 P1 O0 U0` (§8.2).
    pub fn stock_line(&self) -> String {
        format!(
            "F{} N{} M{} P{} O{} U{}",
            self.f, self.n, self.m, self.p, self.o, self.u
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ZoneKind {
    #[default]
    Land,
    Sea,
    Highsea,
    Innersea,
    Mountain,
}

impl ZoneKind {
    pub fn is_sea(self) -> bool {
        matches!(self, ZoneKind::Sea | ZoneKind::Highsea | ZoneKind::Innersea)
    }
}

/// Static map data of a zone (§2.4, §10.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ZoneDef {
    pub code: ZoneCode,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub kind: ZoneKind,
    #[serde(default)]
    pub coastal: bool,
    #[serde(default)]
    pub symbols: Vec<char>,
    #[serde(default)]
    pub capital_symbol: bool,
    #[serde(default)]
    pub adjacent: Vec<ZoneCode>,
    /// Where the map attachment draws the zone (0..1000 both ways, y down;
    /// issue 18). A map without positions gets a computed layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub a: ZoneCode,
    pub b: ZoneCode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<ZoneCode>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Map {
    #[serde(default, rename = "zone", alias = "zones")]
    pub zones: Vec<ZoneDef>,
    #[serde(default, rename = "crossing")]
    pub crossings: Vec<Link>,
    #[serde(default, rename = "strait")]
    pub straits: Vec<Link>,
    /// Lookup tables built on first use (never serialised, never compared):
    /// the map is static once loaded, and a zone lookup by code or its
    /// neighbour list is needed in every phase (issue 9: linear scans of
    /// `zones` made a turn O(zones²)).
    #[serde(skip)]
    pub index: MapIndex,
}

/// Zone position by code and each zone's neighbours (adjacency both ways
/// plus crossings, sorted), derived from a [`Map`].
#[derive(Clone, Debug, Default)]
pub struct MapIndex {
    /// Boxed: built once per map, and a `Map` stays small to move.
    cell: std::sync::OnceLock<Box<MapTables>>,
}

/// FNV-1a for the zone index (issue 21 item 4): zone codes are a few
/// bytes, where SipHash's setup cost dominated a parse's lookups. The keys
/// come from the game file, not from players, so no flooding concern.
#[derive(Clone, Copy, Debug, Default)]
struct BuildFnv;

struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100000001b3);
        }
    }
}

impl std::hash::BuildHasher for BuildFnv {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf29ce484222325)
    }
}

/// A code of at most seven bytes packed into one word, its length in the
/// top byte: two codes are equal exactly when their keys are. A zone or
/// unit code is nearly always this short (`Z95`, `INF`); hashing and
/// comparing one word replaces a byte-by-byte hash and a `memcmp` call per
/// lookup, a tenth of a WWK parse (issue 21 item 4).
#[inline]
pub fn short_key(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.len() > 7 {
        return None;
    }
    let mut k = (b.len() as u64) << 56;
    for (i, &c) in b.iter().enumerate() {
        k |= u64::from(c) << (8 * i);
    }
    Some(k)
}

/// The number of a code written `Z` then a number without leading zero, of
/// at most four digits (`Z7`, `Z95`): one code a number, so the number keys
/// the code exactly.
#[inline]
fn z_number(s: &str) -> Option<usize> {
    match s.as_bytes() {
        [b'Z', d @ b'1'..=b'9', rest @ ..] if rest.len() <= 3 => {
            rest.iter().try_fold(usize::from(d - b'0'), |n, &c| {
                c.is_ascii_digit().then(|| n * 10 + usize::from(c - b'0'))
            })
        }
        _ => None,
    }
}

#[derive(Clone, Debug)]
struct MapTables {
    /// `zones.len()` and `crossings.len()` when built: a map grown since is
    /// detected and looked up the slow way.
    sizes: (usize, usize),
    by_code: std::collections::HashMap<ZoneCode, usize, BuildFnv>,
    /// The positions of the codes [`short_key`] packs: every such code of
    /// `by_code`, so a short code missing here is no zone.
    by_short: rustc_hash::FxHashMap<u64, usize>,
    /// The positions of the codes [`z_number`] reads, by number (`usize::MAX`
    /// where no zone has it): every such code of `by_code`, so a number
    /// missing here is no zone. Most maps name their zones `Z1`, `Z2`…, and
    /// indexing by the number cost a quarter of the hash lookup (issue 21).
    by_number: Vec<usize>,
    neighbours: Vec<Vec<ZoneCode>>,
    /// Each neighbour of `neighbours` that is a zone, by position, in the
    /// same order: adjacency asked as two positions compared, not codes.
    neighbour_at: Vec<Vec<usize>>,
    /// Each zone's code, shared: what an order holds of a zone it names
    /// ([`Map::zone_id`]), a reference count rather than a copy.
    ids: Vec<crate::orders::ZoneId>,
}

impl MapTables {
    /// Position of the zone coded `z`.
    #[inline]
    fn at(&self, z: &str) -> Option<usize> {
        if let Some(n) = z_number(z) {
            return self
                .by_number
                .get(n)
                .and_then(|&i| (i != usize::MAX).then_some(i));
        }
        self.at_hashed(z)
    }

    /// [`MapTables::at`] for a code not written `Z<n>`: kept out of line so
    /// that the numbered lookup, most of a parse's, saves no registers for
    /// the hashing (issue 21).
    #[inline(never)]
    fn at_hashed(&self, z: &str) -> Option<usize> {
        match short_key(z) {
            Some(k) => self.by_short.get(&k).copied(),
            None => self.by_code.get(z).copied(),
        }
    }
}

/// A derived cache: two maps with the same zones are equal whatever their caches hold.
impl PartialEq for MapIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for MapIndex {}

impl Map {
    fn tables(&self) -> Option<&MapTables> {
        let t = self.index.cell.get_or_init(|| {
            let mut by_code =
                std::collections::HashMap::with_capacity_and_hasher(self.zones.len(), BuildFnv);
            for (i, d) in self.zones.iter().enumerate() {
                by_code.entry(d.code.clone()).or_insert(i);
            }
            let mut sets: Vec<BTreeSet<ZoneCode>> = vec![BTreeSet::new(); self.zones.len()];
            for (i, d) in self.zones.iter().enumerate() {
                sets[i].extend(d.adjacent.iter().cloned());
                for a in &d.adjacent {
                    if let Some(j) = by_code.get(a) {
                        sets[*j].insert(d.code.clone());
                    }
                }
            }
            for c in &self.crossings {
                if let Some(i) = by_code.get(&c.a) {
                    sets[*i].insert(c.b.clone());
                }
                if let Some(i) = by_code.get(&c.b) {
                    sets[*i].insert(c.a.clone());
                }
            }
            // Duplicated codes (refused by `check_map`) would make the
            // first-match semantics of the scans differ: no tables then.
            let sizes = if by_code.len() == self.zones.len() {
                (self.zones.len(), self.crossings.len())
            } else {
                (usize::MAX, usize::MAX)
            };
            let by_short = by_code
                .iter()
                .filter_map(|(c, i)| short_key(c).map(|k| (k, *i)))
                .collect();
            let mut by_number = Vec::new();
            for (c, &i) in &by_code {
                if let Some(n) = z_number(c) {
                    if by_number.len() <= n {
                        by_number.resize(n + 1, usize::MAX);
                    }
                    by_number[n] = i;
                }
            }
            let neighbours: Vec<Vec<ZoneCode>> =
                sets.into_iter().map(|s| s.into_iter().collect()).collect();
            let neighbour_at = neighbours
                .iter()
                .map(|v| v.iter().filter_map(|c| by_code.get(c).copied()).collect())
                .collect();
            Box::new(MapTables {
                sizes,
                by_code,
                by_short,
                by_number,
                neighbour_at,
                neighbours,
                ids: self
                    .zones
                    .iter()
                    .map(|d| crate::orders::ZoneId::from(d.code.as_str()))
                    .collect(),
            })
        });
        (t.sizes == (self.zones.len(), self.crossings.len())).then_some(t)
    }

    /// Position of zone `z` in `zones`.
    pub fn position(&self, z: &str) -> Option<usize> {
        match self.tables() {
            Some(t) => t.at(z),
            None => self.zones.iter().position(|d| d.code == z),
        }
    }

    /// Zone `z`'s position ([`Map::position`]) and its code as an order
    /// holds it ([`Map::zone_id`]), in one lookup. Inlined: a parse asks
    /// it for every zone an order names, and the call's saved registers
    /// were a quarter of its cost (issue 21).
    #[inline(always)]
    pub fn lookup(&self, z: &str) -> Option<(usize, crate::orders::ZoneId)> {
        match self.tables() {
            Some(t) => t.at(z).map(|i| (i, t.ids[i].clone())),
            None => self
                .zones
                .iter()
                .position(|d| d.code == z)
                .map(|i| (i, crate::orders::ZoneId::from(z))),
        }
    }

    /// Zone `z`'s code as an order holds it, shared with the map (None for
    /// a code that is not a zone). A map without tables (duplicated codes,
    /// or grown since they were built) gives a fresh copy.
    pub fn zone_id(&self, z: &str) -> Option<crate::orders::ZoneId> {
        self.lookup(z).map(|(_, id)| id)
    }

    /// The zones' positions in `zones`, those of `codes` that are zones,
    /// ascending and without repeats: walking them visits the same zones in
    /// the same order as walking `zones` and keeping those in `codes`.
    /// None when the map's codes are not unique (then walk `zones`).
    pub fn positions_of<'a>(&self, codes: impl Iterator<Item = &'a str>) -> Option<Vec<usize>> {
        self.tables()?;
        let mut v: Vec<usize> = codes.filter_map(|z| self.position(z)).collect();
        v.sort_unstable();
        v.dedup();
        Some(v)
    }

    /// Neighbours of a zone of the map (None for a code that is not one).
    pub fn neighbours_of(&self, z: &str) -> Option<&[ZoneCode]> {
        let t = self.tables()?;
        Some(&t.neighbours[t.at(z)?])
    }

    /// Whether zone `b` is among the neighbours of zone `a`, when the
    /// tables exist and `a` is a zone (`None` otherwise): as
    /// `neighbours_of(a)` searched for `b`, by position where `b` is a zone.
    /// Inlined, as [`Map::lookup`]: the receipt of every `MOVE` asks it.
    #[inline(always)]
    pub fn neighbours_include(&self, a: &str, b: &str) -> Option<bool> {
        let t = self.tables()?;
        let i = t.at(a)?;
        Some(match t.at(b) {
            Some(j) => t.neighbour_at[i].contains(&j),
            None => t.neighbours[i].iter().any(|n| n == b),
        })
    }
}

/// Zone control status (§2.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Status {
    #[default]
    Neutral,
    Controlled {
        by: NationCode,
    },
    Shared {
        by: Vec<NationCode>,
    },
    Contested {
        by: Vec<NationCode>,
        holder: Option<NationCode>,
    },
}

impl Status {
    pub fn controller(&self) -> Option<&str> {
        match self {
            Status::Controlled { by } => Some(by),
            _ => None,
        }
    }
    /// Nations with a stake: controller, sharers or contestants.
    pub fn parties(&self) -> Vec<NationCode> {
        match self {
            Status::Neutral => vec![],
            Status::Controlled { by } => vec![by.clone()],
            Status::Shared { by } | Status::Contested { by, .. } => by.clone(),
        }
    }
    /// `parties().contains(n)`, without building the list.
    pub fn has_party(&self, n: &str) -> bool {
        match self {
            Status::Neutral => false,
            Status::Controlled { by } => by == n,
            Status::Shared { by } | Status::Contested { by, .. } => by.iter().any(|x| x == n),
        }
    }
    pub fn controls_or_shares(&self, n: &str) -> bool {
        match self {
            Status::Controlled { by } => by == n,
            Status::Shared { by } => by.iter().any(|x| x == n),
            _ => false,
        }
    }
    pub fn tag(&self) -> &'static str {
        match self {
            Status::Neutral => "[NEUT]",
            Status::Controlled { .. } => "[CTRL]",
            Status::Shared { .. } => "[SHRD]",
            Status::Contested { .. } => "[CONT]",
        }
    }
}

/// Dynamic state of one zone (§2.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ZoneState {
    #[serde(default)]
    pub status: Status,
    /// One ledger per nation holding stock here (D-69).
    #[serde(default)]
    pub ledgers: BTreeMap<NationCode, Ledger>,
    #[serde(default)]
    pub ce: i64,
    #[serde(default)]
    pub infiltration: BTreeMap<NationCode, i64>,
    /// Stored neutral garrison (unit codes) once generated (§5.15).
    #[serde(default)]
    pub garrison: Option<Vec<String>>,
    #[serde(default)]
    pub irradiated_until: u32,
    #[serde(default)]
    pub tacd: BTreeSet<NationCode>,
    #[serde(default)]
    pub taco: BTreeSet<NationCode>,
    /// Nations whose PG failed here: their L counts −10 until the next CE upgrade.
    #[serde(default)]
    pub pg_malus: BTreeSet<NationCode>,
    /// Turns accumulated towards an AI crisis since the last one (S l.683:
    /// "22% par tour cumulatifs ... le compteur de crash est remis à zéro").
    #[serde(default)]
    pub ai_counter: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Diplo {
    #[default]
    Peace,
    War,
    Allied,
}

/// A unit instance (§2.7). `at` is a zone code, `#TTNN` for space, or `@<id>`
/// for cargo of unit `id`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub owner: NationCode,
    pub code: String,
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    #[serde(default)]
    pub damaged: bool,
    /// ABMP shots left (10 at build).
    #[serde(default)]
    pub ammo: u32,
    #[serde(default)]
    pub built: u32,
    /// Loaded warheads (codes), for launchers, ABSE and NBOMB aircraft.
    #[serde(default)]
    pub heads: Vec<String>,
    /// PROC output type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub res: Option<char>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Options {
    #[serde(default)]
    pub economy_restored: bool,
    #[serde(default)]
    pub soylent_green: bool,
    #[serde(default)]
    pub ai: bool,
    /// Advance declarations (D-78).
    #[serde(default)]
    pub want_green: bool,
    #[serde(default)]
    pub want_ai: bool,
    /// The window closed for good.
    #[serde(default)]
    pub green_lost: bool,
    #[serde(default)]
    pub ai_lost: bool,
    /// Turn of the report that first showed L ≥ 60 / 80.
    #[serde(default)]
    pub green_seen: Option<u32>,
    #[serde(default)]
    pub ai_seen: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nation {
    /// Filled from the table key when a position omits it.
    #[serde(default)]
    pub code: NationCode,
    #[serde(default)]
    pub name: String,
    /// The daemon's player id playing this nation.
    #[serde(default)]
    pub player: String,
    #[serde(default)]
    pub tech: Tech,
    pub specialty: Field,
    #[serde(default)]
    pub weaknesses: Vec<Field>,
    /// Standing research weights in field order I V A Nv N L.
    #[serde(default = "default_weights")]
    pub research: [i64; 6],
    #[serde(default)]
    pub treasury: i64,
    #[serde(default)]
    pub options: Options,
    #[serde(default)]
    pub vp: i64,
    #[serde(default)]
    pub superpower: bool,
    /// Consecutive turns ending with ≥ 7 capitals.
    #[serde(default)]
    pub capital_streak: u32,
    #[serde(default = "yes")]
    pub active: bool,
    /// Initiative of the last resolved turn (L + 1d20), for the report.
    #[serde(default)]
    pub initiative: i64,
    #[serde(default)]
    pub home: ZoneCode,
}

fn default_weights() -> [i64; 6] {
    [1, 1, 1, 1, 1, 1]
}
fn yes() -> bool {
    true
}

/// Rules parameters (§10.2), every [P] number with its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    pub local_orders_per_zone: usize,
    pub ai_capital_extra_orders: usize,
    pub national_actions: usize,
    pub vp_tech_divisor: i64,
    pub espionage_literal_signs: bool,
    pub ce_cap: i64,
    pub irradiation_turns: u32,
    pub capital_min_factories: usize,
    pub max_turns: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            local_orders_per_zone: 5,
            ai_capital_extra_orders: 1,
            national_actions: 3,
            vp_tech_divisor: 5,
            espionage_literal_signs: false,
            ce_cap: 20,
            irradiation_turns: 3,
            capital_min_factories: 16,
            max_turns: 60,
        }
    }
}

/// Market closures (§7.2.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Market {
    #[serde(default)]
    pub closed_until: u32,
    #[serde(default)]
    pub closed_for: BTreeMap<NationCode, u32>,
    #[serde(default)]
    pub first_nuke_used: bool,
    #[serde(default)]
    pub first_strategic_used: bool,
}

/// One die roll (§5.16 roll log): step, sequence within the step, die, result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub step: String,
    pub seq: u32,
    pub die: u32,
    pub result: u32,
    /// The roll catalogue entry of the step (§5.16 R1–R21).
    #[serde(default)]
    pub purpose: String,
}

/// The whole game state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct State {
    /// The game's id, from its game file: a position leaves it out (see
    /// `setup::export_position`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub game_id: String,
    /// Last resolved turn (0 after setup).
    #[serde(default)]
    pub turn: u32,
    #[serde(default)]
    pub params: Params,
    #[serde(default)]
    pub map: Map,
    #[serde(default)]
    pub zones: BTreeMap<ZoneCode, ZoneState>,
    #[serde(default)]
    pub nations: BTreeMap<NationCode, Nation>,
    /// Pairs "AAA-BBB" (codes sorted) not at peace.
    #[serde(default)]
    pub diplomacy: BTreeMap<String, Diplo>,
    #[serde(default)]
    pub units: BTreeMap<String, Unit>,
    #[serde(default)]
    pub next_id: UnitId,
    #[serde(default)]
    pub market: Market,
    /// Launch serial within the current turn.
    #[serde(default)]
    pub launches: BTreeMap<String, u32>,
    /// Set when an end condition holds.
    #[serde(default)]
    pub winner: Option<Vec<NationCode>>,
    #[serde(default)]
    pub ended: bool,
    /// Every die roll of the last resolved turn (§5.16), for replays and the GM.
    #[serde(default)]
    pub roll_log: Vec<Roll>,
}

pub fn pair_key(a: &str, b: &str) -> String {
    if a <= b {
        format!("{a}-{b}")
    } else {
        format!("{b}-{a}")
    }
}

impl State {
    pub fn zdef(&self, z: &str) -> Option<&ZoneDef> {
        self.map.position(z).map(|i| &self.map.zones[i])
    }
    pub fn is_zone(&self, z: &str) -> bool {
        self.zdef(z).is_some()
    }
    pub fn zone(&self, z: &str) -> &ZoneState {
        static EMPTY: std::sync::OnceLock<ZoneState> = std::sync::OnceLock::new();
        self.zones
            .get(z)
            .unwrap_or_else(|| EMPTY.get_or_init(ZoneState::default))
    }
    pub fn zone_mut(&mut self, z: &str) -> &mut ZoneState {
        self.zones.entry(z.to_string()).or_default()
    }
    pub fn diplo(&self, a: &str, b: &str) -> Diplo {
        if a == b {
            return Diplo::Allied;
        }
        self.diplomacy
            .get(&pair_key(a, b))
            .copied()
            .unwrap_or_default()
    }
    pub fn set_diplo(&mut self, a: &str, b: &str, d: Diplo) {
        let k = pair_key(a, b);
        if d == Diplo::Peace {
            self.diplomacy.remove(&k);
        } else {
            self.diplomacy.insert(k, d);
        }
    }
    pub fn ally_of(&self, n: &str) -> Option<NationCode> {
        self.nations
            .keys()
            .find(|m| m.as_str() != n && self.diplo(n, m) == Diplo::Allied)
            .cloned()
    }
    /// Hostility between two owners (nations, NEUTRE, GUERILLA) (§5.2).
    pub fn hostile(&self, a: &str, b: &str) -> bool {
        if a == b {
            return false;
        }
        let an = self.nations.contains_key(a);
        let bn = self.nations.contains_key(b);
        if !an || !bn {
            return true;
        }
        self.diplo(a, b) == Diplo::War
    }
    pub fn friendly(&self, a: &str, b: &str) -> bool {
        a == b || (self.nations.contains_key(a) && self.diplo(a, b) == Diplo::Allied)
    }
    pub fn add_unit(&mut self, owner: &str, code: &str, at: &str) -> UnitId {
        self.next_id += 1;
        let id = self.next_id;
        let ammo = if code == "ABMP" { 10 } else { 0 };
        self.units.insert(
            ukey(id),
            Unit {
                id,
                owner: owner.to_string(),
                code: code.to_string(),
                at: at.to_string(),
                army: None,
                damaged: false,
                ammo,
                built: self.turn,
                heads: vec![],
                res: None,
            },
        );
        id
    }
    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        let k = Ukey::new(id);
        self.units.get(k.as_str())
    }
    pub fn unit_mut(&mut self, id: UnitId) -> Option<&mut Unit> {
        let k = Ukey::new(id);
        self.units.get_mut(k.as_str())
    }
    /// Remove a unit with everything it carries (§7.4: "with everything they carry").
    pub fn remove_unit(&mut self, id: UnitId) -> Vec<Unit> {
        let mut out = vec![];
        if let Some(u) = self.units.remove(&ukey(id)) {
            out.push(u);
            let tag = format!("@{id}");
            let cargo: Vec<UnitId> = self
                .units
                .values()
                .filter(|c| c.at == tag)
                .map(|c| c.id)
                .collect();
            for c in cargo {
                out.extend(self.remove_unit(c));
            }
        }
        out
    }
    /// The zone a unit is in (its carrier's zone for cargo; None in space).
    pub fn unit_zone(&self, id: UnitId) -> Option<String> {
        let u = self.unit(id)?;
        if let Some(c) = u.at.strip_prefix('@') {
            return self.unit_zone(c.parse().ok()?);
        }
        if u.at.starts_with('#') {
            return None;
        }
        Some(u.at.clone())
    }
    /// Units standing directly in zone `z` (not in cargo, not in space).
    pub fn units_in(&self, z: &str) -> Vec<&Unit> {
        self.units.values().filter(|u| u.at == z).collect()
    }
    /// Index of the units by their `at` (see [`UnitsAt`]).
    pub fn units_at(&self) -> UnitsAt {
        UnitsAt::build(self)
    }
    pub fn count(&self, owner: &str, code: &str, z: &str) -> usize {
        self.units
            .values()
            .filter(|u| u.owner == owner && u.code == code && u.at == z)
            .count()
    }
    pub fn factories(&self, owner: &str, z: &str) -> usize {
        self.count(owner, "FAC", z)
    }
    pub fn is_capital(&self, n: &str, z: &str) -> bool {
        self.zone(z).status.controller() == Some(n)
            && self.factories(n, z) >= self.params.capital_min_factories
    }
    pub fn capitals(&self, n: &str) -> Vec<ZoneCode> {
        // `is_capital` for every zone, with the nation's factories counted in
        // one pass over the units rather than one per zone (issue 9).
        let mut fac: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for u in self
            .units
            .values()
            .filter(|u| u.owner == n && u.code == "FAC")
        {
            *fac.entry(u.at.as_str()).or_default() += 1;
        }
        self.zones
            .iter()
            .filter(|(z, s)| {
                s.status.controller() == Some(n)
                    && fac.get(z.as_str()).copied().unwrap_or(0)
                        >= self.params.capital_min_factories
            })
            .map(|(z, _)| z.clone())
            .collect()
    }
    pub fn nation_of_player(&self, p: &str) -> Option<&Nation> {
        self.nations.values().find(|n| n.player == p)
    }
    pub fn ledger(&self, n: &str, z: &str) -> Ledger {
        self.zone(z).ledgers.get(n).copied().unwrap_or_default()
    }
    pub fn ledger_mut(&mut self, n: &str, z: &str) -> &mut Ledger {
        self.zone_mut(z).ledgers.entry(n.to_string()).or_default()
    }
    /// Zones a nation controls / shares.
    pub fn controlled(&self, n: &str) -> Vec<ZoneCode> {
        self.zones
            .iter()
            .filter(|(_, s)| s.status.controller() == Some(n))
            .map(|(z, _)| z.clone())
            .collect()
    }
    pub fn shared(&self, n: &str) -> Vec<ZoneCode> {
        self.zones
            .iter()
            .filter(
                |(_, s)| matches!(&s.status, Status::Shared { by } if by.iter().any(|x| x == n)),
            )
            .map(|(z, _)| z.clone())
            .collect()
    }
    pub fn space_label(&self, u: &Unit) -> String {
        u.at.clone()
    }
}

pub fn ukey(id: UnitId) -> String {
    format!("{id:06}")
}

/// Whether `k` is the key [`ukey`] gives unit `id`.
pub fn is_ukey(k: &str, id: UnitId) -> bool {
    let u = Ukey::new(id);
    // One word compared rather than a `memcmp` call: a report checks every key.
    match (short_key(k), short_key(u.as_str())) {
        (Some(a), Some(b)) => a == b,
        _ => u.as_str() == k,
    }
}

/// [`ukey`] on the stack: looking a unit up by id must not allocate, as it
/// runs for every unit a phase touches.
struct Ukey {
    buf: [u8; 10],
    start: usize,
}

impl Ukey {
    fn new(id: UnitId) -> Self {
        let mut buf = [b'0'; 10];
        let mut i = buf.len();
        let mut v = id;
        while v > 0 {
            i -= 1;
            buf[i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
        // At least six digits, zero-padded, as `{id:06}`.
        Ukey {
            buf,
            start: i.min(buf.len() - 6),
        }
    }
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[self.start..]).unwrap_or("")
    }
}

/// The units of a state grouped by their `at` (zone code, `#TTNN` or
/// `@<carrier>`), each group in the state's unit order (issue 9: the phases
/// that visit every zone used to scan every unit for each zone).
///
/// A snapshot: a phase builds it once, then reads each group through
/// [`UnitsAt::units`], which looks every unit up again and skips those that
/// were removed or moved away since. Units moved *into* a place after the
/// build are not seen, so a phase that adds or moves units only builds it
/// where that cannot matter (documented at each use).
#[derive(Debug, Default)]
pub struct UnitsAt {
    at: std::collections::HashMap<String, Vec<UnitId>>,
}

impl UnitsAt {
    pub fn build(st: &State) -> Self {
        let mut at: std::collections::HashMap<String, Vec<UnitId>> =
            std::collections::HashMap::new();
        for u in st.units.values() {
            match at.get_mut(u.at.as_str()) {
                Some(v) => v.push(u.id),
                None => {
                    at.insert(u.at.clone(), vec![u.id]);
                }
            }
        }
        UnitsAt { at }
    }
    /// Ids of the units that stood at `place` when built, in unit order.
    pub fn ids(&self, place: &str) -> &[UnitId] {
        self.at.get(place).map(|v| v.as_slice()).unwrap_or(&[])
    }
    /// Units still at `place`, in the state's unit order.
    pub fn units<'a>(
        &'a self,
        st: &'a State,
        place: &'a str,
    ) -> impl Iterator<Item = &'a Unit> + 'a {
        self.ids(place)
            .iter()
            .filter_map(move |id| st.unit(*id))
            .filter(move |u| u.at == place)
    }
    /// Places holding units, with their ids (unordered: callers sort).
    pub fn places(&self) -> impl Iterator<Item = (&str, &[UnitId])> {
        self.at.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }
}

#[cfg(test)]
mod short_key_tests {
    use super::{short_key, z_number};

    /// Only the canonical spelling of a number is read: one code a number.
    #[test]
    fn z_numbers_are_read_from_canonical_codes_only() {
        for (code, want) in [
            ("Z1", Some(1)),
            ("Z95", Some(95)),
            ("Z1000", Some(1000)),
            ("Z9999", Some(9999)),
            ("Z0", None),
            ("Z01", None),
            ("Z10000", None),
            ("Z", None),
            ("Z9a", None),
            ("z9", None),
            ("Y9", None),
            ("Z1\u{661}", None),
        ] {
            assert_eq!(z_number(code), want, "{code:?}");
        }
    }

    /// Two codes have the same key exactly when they are the same code,
    /// including codes that are prefixes of one another or hold a NUL.
    #[test]
    fn short_keys_are_equal_exactly_when_codes_are() {
        let codes = [
            "", "Z", "Z1", "Z1\0", "Z10", "Z01", "INF", "INFx", "@1", "#1", "ABCDEFG", "ABCDEFg",
            "é", "e\u{301}", "Z1000",
        ];
        for a in codes {
            for b in codes {
                assert_eq!(short_key(a) == short_key(b), a == b, "{a:?} {b:?}");
            }
        }
        assert_eq!(short_key("ABCDEFGH"), None, "eight bytes are not packed");
    }
}
