//! The world: territories, terrain, areas and adjacency (spec §2.1, §10.T1).
//!
//! Worlds are TOML files; the built-in ones live in `rulesets/scrambled/worlds/`
//! and are embedded at compile time, so the crate never does I/O. The world is
//! stored inside the game state, so a stored game keeps playing on the map it
//! started with even if a built-in map changes later.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A territory's short code ("LOR"), always upper-case ASCII.
///
/// Shared, not owned (issue 21): an order names territories the world
/// already holds, and a copy of the world's id is a reference count, where
/// a `String` was an allocation per territory named (2.6 allocations per
/// order in the parse bench). Serialised as the bare string.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TerrId(pub Arc<str>);

impl TerrId {
    pub fn new(s: &str) -> TerrId {
        TerrId(Arc::from(s.to_ascii_uppercase()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Serialize for TerrId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for TerrId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TerrId, D::Error> {
        // As stored, not upper-cased: a state reads back exactly as written.
        let s = String::deserialize(d)?;
        Ok(TerrId(Arc::from(s)))
    }
}

/// Maps keyed by [`TerrId`] are searched with a `&str` (its order and hash
/// are its string's).
impl std::borrow::Borrow<str> for TerrId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for TerrId {
    fn from(s: &str) -> TerrId {
        TerrId::new(s)
    }
}

impl fmt::Display for TerrId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    Land,
    /// `lake` in a map file is read as a sea (D31).
    #[serde(alias = "lake")]
    Sea,
    Mountain,
}

impl Terrain {
    pub fn passable(self) -> bool {
        !matches!(self, Terrain::Mountain)
    }
    pub fn french(self) -> &'static str {
        match self {
            Terrain::Land => "terre",
            Terrain::Sea => "mer",
            Terrain::Mountain => "montagne",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Territory {
    pub id: TerrId,
    pub name: String,
    pub terrain: Terrain,
    #[serde(default)]
    pub area: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_income: Option<u64>,
    pub neighbours: BTreeSet<TerrId>,
    #[serde(default)]
    pub start: bool,
}

impl Territory {
    pub fn is_land(&self) -> bool {
        self.terrain == Terrain::Land
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct World {
    pub name: String,
    pub territories: BTreeMap<TerrId, Territory>,
    /// The name index of §6.3, built on the first lookup and never stored:
    /// the JSON of a state is unchanged, and a world read back from the store
    /// builds its index again. `territories` is never changed once a world is
    /// loaded (setup, join and the turn only read it), so the index stays valid.
    #[serde(skip)]
    names: NameIndex,
}

/// Names folded once per world, so that resolving a name costs a few hash
/// lookups instead of folding every territory's name (parse was
/// O(orders × territories) with an allocation per territory).
#[derive(Clone, Default)]
struct NameIndex(OnceLock<NameTable<TerrId>>);

/// The three stages of §6.3 as hash maps from the key each stage compares to
/// the items it matches, built once; [`NameTable::lookup`] gives exactly what
/// [`lookup`] gives on the same items. Only looked up, never iterated, so the
/// hash order never reaches an output.
#[derive(Clone, Debug)]
pub struct NameTable<T> {
    items: Vec<T>,
    /// Stage 1: the id, ASCII lower case (`eq_ignore_ascii_case`).
    ascii: HashMap<String, Vec<usize>>,
    /// Stage 2: the name, lower case.
    lower: HashMap<String, Vec<usize>>,
    /// Stage 3: the folded name and the folded id; an item whose two fold
    /// alike is listed once.
    folded: HashMap<String, Vec<usize>>,
}

impl<T: Clone> NameTable<T> {
    /// From (item, id, display name) triples, as [`lookup`] takes them.
    pub fn new(entries: impl IntoIterator<Item = (T, String, String)>) -> NameTable<T> {
        let mut t = NameTable {
            items: Vec::new(),
            ascii: HashMap::new(),
            lower: HashMap::new(),
            folded: HashMap::new(),
        };
        for (i, (item, id, name)) in entries.into_iter().enumerate() {
            t.items.push(item);
            t.ascii.entry(id.to_ascii_lowercase()).or_default().push(i);
            t.lower.entry(name.to_lowercase()).or_default().push(i);
            let (fname, fid) = (fold(&name), fold(&id));
            if fid != fname {
                t.folded.entry(fid).or_default().push(i);
            }
            t.folded.entry(fname).or_default().push(i);
        }
        t
    }

    pub fn lookup(&self, input: &str) -> Lookup<T> {
        // Each stage's key is only computed when the earlier ones found nothing.
        type Stage<'a> = &'a dyn Fn() -> Option<&'a Vec<usize>>;
        let stages: [Stage<'_>; 3] = [
            &|| self.ascii.get(&input.to_ascii_lowercase()),
            &|| self.lower.get(&input.to_lowercase()),
            &|| self.folded.get(&fold(input)),
        ];
        for stage in stages {
            match stage().map(|v| v.as_slice()) {
                None | Some([]) => continue,
                Some([one]) => return Lookup::Found(self.items[*one].clone()),
                Some(_) => return Lookup::Ambiguous,
            }
        }
        Lookup::Unknown
    }
}

/// A cache, not part of the world's value: two worlds are equal whether or
/// not either has built its index.
impl PartialEq for NameIndex {
    fn eq(&self, _: &NameIndex) -> bool {
        true
    }
}

impl Eq for NameIndex {}

impl fmt::Debug for NameIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NameIndex")
    }
}

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum WorldError {
    #[error("monde illisible : {0}")]
    Toml(String),
    #[error("identifiant de territoire en double : {0}")]
    DuplicateId(String),
    #[error("nom de territoire en double : {0}")]
    DuplicateName(String),
    #[error("identifiant invalide : {0}")]
    BadId(String),
    #[error("{0} : voisin inconnu {1}")]
    UnknownNeighbour(String, String),
    #[error("{0} se liste comme son propre voisin")]
    SelfNeighbour(String),
    #[error("adjacence à sens unique : {0} -> {1}")]
    OneWay(String, String),
    #[error("{0} : territoire terrestre sans superficie")]
    NoArea(String),
    #[error("{0} : seul un territoire terrestre peut être un départ")]
    StartNotLand(String),
}

/// A world's error as a setup error: the same kinds every ruleset's setup
/// uses, which the command line renders in its language (issue 19 item 3).
impl From<WorldError> for arbitre_core::SetupError {
    fn from(e: WorldError) -> Self {
        use arbitre_core::setup_error::{Item, Role, Rule};
        use arbitre_core::SetupError as S;
        let breaks = |id: String, rule| S::Breaks {
            item: Item::Territory,
            id,
            rule,
        };
        match e {
            WorldError::Toml(m) => S::Position(m),
            WorldError::DuplicateId(id) | WorldError::DuplicateName(id) => S::Duplicate {
                item: Item::Territory,
                id,
            },
            WorldError::BadId(id) => breaks(id, Rule::BadId),
            WorldError::UnknownNeighbour(id, name) => S::UnknownRef {
                item: Item::Territory,
                id,
                role: Role::Link,
                target: Item::Territory,
                name,
            },
            WorldError::SelfNeighbour(id) => breaks(id, Rule::LinkedToItself),
            WorldError::OneWay(id, to) => S::OneWayLink {
                item: Item::Territory,
                id,
                to,
            },
            WorldError::NoArea(id) => breaks(id, Rule::LandWithoutArea),
            WorldError::StartNotLand(id) => breaks(id, Rule::HomeNotLand),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorldFile {
    world: WorldHeader,
    #[serde(rename = "territory", default)]
    territories: Vec<TerritoryFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorldHeader {
    name: String,
    #[serde(default)]
    #[allow(dead_code)]
    version: u32,
    #[serde(default = "yes")]
    strict_adjacency: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerritoryFile {
    id: String,
    name: String,
    terrain: Terrain,
    area: Option<u64>,
    base_income: Option<u64>,
    #[serde(default)]
    neighbours: Vec<String>,
    #[serde(default)]
    start: bool,
}

/// Built-in worlds, embedded so that setup never reads a file.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "testland",
        include_str!("../../../rulesets/scrambled/worlds/testland.toml"),
    ),
    (
        "hexagone",
        include_str!("../../../rulesets/scrambled/worlds/hexagone.toml"),
    ),
];

/// Built-in scenarios: a world name and a full position.
pub const SCENARIOS: &[(&str, &str)] = &[(
    "alsace",
    include_str!("../../../rulesets/scrambled/scenarios/alsace.toml"),
)];

/// The names `world`/`map` accept, for error messages.
pub fn builtin_names() -> Vec<String> {
    BUILTIN.iter().map(|(n, _)| n.to_string()).collect()
}

/// The names `scenario` accepts, for error messages.
pub fn scenario_names() -> Vec<String> {
    SCENARIOS.iter().map(|(n, _)| n.to_string()).collect()
}

pub fn scenario(name: &str) -> Option<&'static str> {
    let n = name.trim().trim_end_matches(".toml");
    let n = n.rsplit('/').next().unwrap_or(n);
    SCENARIOS
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(n))
        .map(|(_, v)| *v)
}

pub fn builtin(name: &str) -> Option<&'static str> {
    let n = name.trim().trim_end_matches(".toml");
    let n = n.rsplit('/').next().unwrap_or(n);
    BUILTIN
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(n))
        .map(|(_, v)| *v)
}

/// Fold a name for matching (§6.3): accents dropped, lower case, `_ - '` and
/// runs of spaces become one space. Without a Unicode normalisation crate we
/// map the Latin accented letters that French, German and Catalan names use;
/// names are NFC in practice (what mail clients send).
pub fn fold(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().flat_map(|c| c.to_lowercase()) {
        match folded(c) {
            Some(" ") => {
                if !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            Some(rep) => out.push_str(rep),
            None => out.push(c),
        }
    }
    out.trim_end().to_string()
}

/// What [`fold`] writes for the lower-case character `c`: an accented
/// Latin letter's plain letters (core's `text::unaccented`, the table the
/// daemon's seat ids use too), `" "` for a separator (`_ - ' ’` and the
/// space), `None` for a character kept as it is. The keyword reader
/// (`grammar::fold_upper`) folds with the same function.
pub(crate) fn folded(c: char) -> Option<&'static str> {
    match c {
        '_' | '-' | '\'' | '’' | ' ' => Some(" "),
        _ => arbitre_core::text::unaccented(c),
    }
}

fn valid_id(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic())
        && s.len() <= 16
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The outcome of resolving a name (§6.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup<T> {
    Found(T),
    Ambiguous,
    Unknown,
}

/// Match `input` against (id, display name) pairs in the three stages of §6.3.
pub fn lookup<T: Clone>(input: &str, items: &[(T, String, String)]) -> Lookup<T> {
    type Stage<'a, T> = &'a dyn Fn(&(T, String, String)) -> bool;
    let stages: [Stage<'_, T>; 3] = [
        &|it| it.1.eq_ignore_ascii_case(input),
        &|it| it.2.to_lowercase() == input.to_lowercase(),
        &|it| fold(&it.2) == fold(input) || fold(&it.1) == fold(input),
    ];
    for stage in stages {
        let hits: Vec<&(T, String, String)> = items.iter().filter(|it| stage(it)).collect();
        match hits.len() {
            0 => continue,
            1 => return Lookup::Found(hits[0].0.clone()),
            _ => return Lookup::Ambiguous,
        }
    }
    Lookup::Unknown
}

impl World {
    /// A world from territories already checked (the public map of a
    /// report's view, issue 20 item 4).
    pub fn from_parts(name: String, territories: BTreeMap<TerrId, Territory>) -> World {
        World {
            name,
            territories,
            names: NameIndex::default(),
        }
    }

    pub fn from_toml(text: &str) -> Result<World, WorldError> {
        let f: WorldFile = toml::from_str(text).map_err(|e| WorldError::Toml(e.to_string()))?;
        let mut territories: BTreeMap<TerrId, Territory> = BTreeMap::new();
        let mut names: HashMap<String, TerrId> = HashMap::new();
        for t in f.territories {
            if !valid_id(&t.id) {
                return Err(WorldError::BadId(t.id));
            }
            let id = TerrId::new(&t.id);
            if territories.contains_key(&id) {
                return Err(WorldError::DuplicateId(t.id));
            }
            if names.insert(fold(&t.name), id.clone()).is_some() {
                return Err(WorldError::DuplicateName(t.name));
            }
            let area = match (t.terrain, t.area) {
                (Terrain::Land, Some(a)) if a > 0 => a,
                (Terrain::Land, _) => return Err(WorldError::NoArea(t.id)),
                (_, a) => a.unwrap_or(0),
            };
            if t.start && t.terrain != Terrain::Land {
                return Err(WorldError::StartNotLand(t.id));
            }
            let neighbours = t.neighbours.iter().map(|n| TerrId::new(n)).collect();
            territories.insert(
                id.clone(),
                Territory {
                    id,
                    name: t.name,
                    terrain: t.terrain,
                    area,
                    base_income: t.base_income,
                    neighbours,
                    start: t.start,
                },
            );
        }
        // An id that folds to another territory's name would make names
        // ambiguous: one lookup per id in the folded names (unique, checked
        // above) instead of a comparison with every name.
        for id in territories.keys() {
            if matches!(names.get(&fold(id.as_str())), Some(owner) if owner != id) {
                return Err(WorldError::DuplicateName(id.0.to_string()));
            }
        }
        let ids: Vec<TerrId> = territories.keys().cloned().collect();
        let mut missing: Vec<(TerrId, TerrId)> = Vec::new();
        for id in &ids {
            let t = &territories[id];
            for n in &t.neighbours {
                if n == id {
                    return Err(WorldError::SelfNeighbour(id.0.to_string()));
                }
                match territories.get(n) {
                    None => {
                        return Err(WorldError::UnknownNeighbour(
                            id.0.to_string(),
                            n.0.to_string(),
                        ))
                    }
                    Some(o) if !o.neighbours.contains(id) => {
                        if f.world.strict_adjacency {
                            return Err(WorldError::OneWay(id.0.to_string(), n.0.to_string()));
                        }
                        missing.push((n.clone(), id.clone()));
                    }
                    Some(_) => {}
                }
            }
        }
        // D36, lenient mode: add the missing direction.
        for (a, b) in missing {
            if let Some(t) = territories.get_mut(&a) {
                t.neighbours.insert(b);
            }
        }
        Ok(World {
            name: f.world.name,
            territories,
            names: NameIndex::default(),
        })
    }

    pub fn get(&self, id: &TerrId) -> Option<&Territory> {
        self.territories.get(id)
    }

    pub fn land(&self) -> impl Iterator<Item = &Territory> {
        self.territories.values().filter(|t| t.is_land())
    }

    pub fn area(&self, id: &TerrId) -> u64 {
        self.territories.get(id).map(|t| t.area).unwrap_or(0)
    }

    pub fn name(&self, id: &TerrId) -> String {
        self.territories
            .get(id)
            .map(|t| t.name.clone())
            .unwrap_or_else(|| id.0.to_string())
    }

    pub fn passable(&self, id: &TerrId) -> bool {
        self.territories
            .get(id)
            .map(|t| t.terrain.passable())
            .unwrap_or(false)
    }

    /// Adjacent and both passable (§3.4.2 condition 1).
    pub fn can_step(&self, a: &TerrId, b: &TerrId) -> bool {
        self.passable(a)
            && self.passable(b)
            && self
                .territories
                .get(a)
                .map(|t| t.neighbours.contains(b))
                .unwrap_or(false)
    }

    /// Breadth-first move counts from `from` over passable territories,
    /// leaving out the territories `skip` says no to (except `from`).
    pub fn distances(
        &self,
        from: &TerrId,
        skip: &dyn Fn(&TerrId) -> bool,
    ) -> BTreeMap<TerrId, u32> {
        self.distances_until(from, skip, &mut |_| false)
    }

    /// [`World::distances`], stopping as soon as `done` says so of a
    /// territory just reached. Breadth-first order makes the early stop
    /// exact: when a territory at distance d is reached, every territory
    /// closer than d already has its final count, so callers that only need
    /// a few targets (a route, the corruption of the territories a player
    /// owns) pay for the ball around the start, not for the whole world.
    pub fn distances_until(
        &self,
        from: &TerrId,
        skip: &dyn Fn(&TerrId) -> bool,
        done: &mut dyn FnMut(&TerrId) -> bool,
    ) -> BTreeMap<TerrId, u32> {
        let mut dist = BTreeMap::new();
        if !self.passable(from) {
            return dist;
        }
        dist.insert(from.clone(), 0);
        if done(from) {
            return dist;
        }
        let mut q = VecDeque::from([from]);
        while let Some(t) = q.pop_front() {
            let d = dist[t];
            for n in &self.territories[t].neighbours {
                if !self.passable(n) || dist.contains_key(n) || skip(n) {
                    continue;
                }
                dist.insert(n.clone(), d + 1);
                if done(n) {
                    return dist;
                }
                q.push_back(n);
            }
        }
        dist
    }

    /// `hops(a, b)` of §2.1, ignoring ownership.
    pub fn hops(&self, a: &TerrId, b: &TerrId) -> Option<u32> {
        self.distances_until(a, &|_| false, &mut |t| t == b)
            .get(b)
            .copied()
    }

    /// Shortest route `from → to` (§3.4.3): intermediate territories for which
    /// `blocked` is true are left out; among equal routes, the one whose id list
    /// comes first in dictionary order (D29). Distances are taken *to* the
    /// destination, then the walk picks the smallest id one step closer.
    pub fn route(
        &self,
        from: &TerrId,
        to: &TerrId,
        blocked: &dyn Fn(&TerrId) -> bool,
    ) -> Option<Vec<TerrId>> {
        if from == to || !self.passable(from) || !self.passable(to) {
            return None;
        }
        let skip = |t: &TerrId| t != from && blocked(t);
        // The walk below reads only counts smaller than `from`'s, all final
        // once `from` is reached.
        let dist = self.distances_until(to, &skip, &mut |t| t == from);
        let mut d = *dist.get(from)?;
        let mut path = vec![from.clone()];
        let mut cur = from.clone();
        while d > 0 {
            let next = self.territories[&cur]
                .neighbours
                .iter()
                .filter(|n| dist.get(*n) == Some(&(d - 1)))
                .min()?
                .clone();
            path.push(next.clone());
            cur = next;
            d -= 1;
        }
        Some(path)
    }

    /// Resolve a territory reference (§6.3), with the same three stages as
    /// [`lookup`] but through the world's name index, built on first use.
    pub fn lookup(&self, input: &str) -> Lookup<TerrId> {
        if let Some((id, _)) = self.by_id(input) {
            return Lookup::Found(id.clone());
        }
        self.by_name(input)
    }

    /// [`World::lookup`] with the territory found: a caller that needs both
    /// asks the map once (issue 21 item 4, the order parser's MOVE).
    pub fn find(&self, input: &str) -> Lookup<(TerrId, Option<&Territory>)> {
        if let Some((id, t)) = self.by_id(input) {
            return Lookup::Found((id.clone(), Some(t)));
        }
        match self.by_name(input) {
            Lookup::Found(id) => {
                let t = self.territories.get(&id);
                Lookup::Found((id, t))
            }
            Lookup::Ambiguous => Lookup::Ambiguous,
            Lookup::Unknown => Lookup::Unknown,
        }
    }

    /// Stage 1 without building anything: ids are upper-case ASCII, so an
    /// ASCII case-insensitive match is an exact match of the input
    /// upper-cased, done on the stack.
    fn by_id(&self, input: &str) -> Option<(&TerrId, &Territory)> {
        if input.len() > 16 {
            return None;
        }
        let mut buf = [0u8; 16];
        let up = &mut buf[..input.len()];
        up.copy_from_slice(input.as_bytes());
        // Only ASCII bytes change: still UTF-8.
        up.make_ascii_uppercase();
        let key = std::str::from_utf8(up).ok()?;
        self.territories.get_key_value(key)
    }

    /// Stages 2 and 3, through the name index.
    fn by_name(&self, input: &str) -> Lookup<TerrId> {
        self.names
            .0
            .get_or_init(|| {
                NameTable::new(
                    self.territories
                        .values()
                        .map(|t| (t.id.clone(), t.id.0.to_string(), t.name.clone())),
                )
            })
            .lookup(input)
    }
}
