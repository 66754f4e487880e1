//! Maps and positions as TOML (spec AMB-35, NEB-1..3; rulebook: "les numéros
//! des mondes sont tirés au hasard pour chaque partie").
//!
//! One format serves both uses. A *map* names worlds and fleets by keys and is
//! renumbered at game creation from the setup RNG stream. A *position*
//! (`renumber = false`) uses the real numbers as keys and may give every
//! attribute of the game, down to research progress, scores, discovered worlds
//! and the turn number, so a game can be resumed or a test started mid-game.

use crate::model::*;
use arbitre_core::setup_error::{Expected, Item, Load, Role, Rule};
use arbitre_core::{Rng, SetupError};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapHead {
    #[serde(default)]
    name: Option<String>,
    #[serde(default = "yes")]
    symmetric_links: bool,
    #[serde(default = "yes")]
    renumber: bool,
    #[serde(default)]
    world_number_max: Option<u32>,
    #[serde(default)]
    fleet_number_max: Option<u32>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize, Clone)]
#[serde(untagged)]
enum Key {
    Num(i64),
    Str(String),
}

impl Key {
    fn text(&self) -> String {
        match self {
            Key::Num(n) => n.to_string(),
            Key::Str(s) => s.clone(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WorldToml {
    #[serde(alias = "number")]
    key: Key,
    #[serde(default)]
    links: Vec<Key>,
    #[serde(default)]
    coords: Option<(i64, i64)>,
    #[serde(default)]
    start_of: Option<usize>,
    #[serde(default)]
    start: bool,
    #[serde(default)]
    black_hole: bool,
    #[serde(default)]
    owner: Option<usize>,
    #[serde(default)]
    counter: u32,
    #[serde(default)]
    industries: u32,
    #[serde(default)]
    population: u32,
    #[serde(default)]
    pop_limit: u32,
    #[serde(default)]
    mp: u32,
    #[serde(default)]
    cm: u32,
    #[serde(default)]
    vi: u32,
    #[serde(default)]
    vp: u32,
    #[serde(default)]
    up: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FleetToml {
    #[serde(alias = "number")]
    key: Key,
    world: Key,
    #[serde(default)]
    owner: Option<usize>,
    #[serde(default)]
    vc: u32,
    #[serde(default)]
    cargo_mp: u32,
    #[serde(default)]
    cargo_n: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerToml {
    slot: usize,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    dep: Option<u32>,
    #[serde(default)]
    dep_progress: u32,
    #[serde(default)]
    att: Option<u32>,
    #[serde(default)]
    att_progress: u32,
    #[serde(default)]
    def: Option<u32>,
    #[serde(default)]
    def_progress: u32,
    #[serde(default)]
    score: i64,
    #[serde(default)]
    discovered: Vec<Key>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct GameToml {
    #[serde(default)]
    turn: u32,
    #[serde(default)]
    turns: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapToml {
    map: MapHead,
    #[serde(default)]
    game: GameToml,
    #[serde(default)]
    world: Vec<WorldToml>,
    #[serde(default)]
    fleet: Vec<FleetToml>,
    #[serde(default)]
    player: Vec<PlayerToml>,
}

/// What a loaded map or position gives the setup.
pub struct Loaded {
    /// A map (renumbered) rather than a position.
    pub renumber: bool,
    pub name: Option<String>,
    pub turn: u32,
    pub max_turns: Option<u32>,
    pub worlds: BTreeMap<WorldId, World>,
    pub fleets: BTreeMap<FleetId, Fleet>,
    /// Per slot: (name, dep, att, def, score, discovered), for positions.
    pub players: BTreeMap<Slot, PlayerOverride>,
    /// Worlds whose `up` was given (the rest get it computed).
    pub up_given: BTreeSet<WorldId>,
}

#[derive(Default)]
pub struct PlayerOverride {
    pub name: Option<String>,
    pub dep: Option<TechLevel>,
    pub att: Option<TechLevel>,
    pub def: Option<TechLevel>,
    pub score: i64,
    pub discovered: BTreeSet<WorldId>,
}

fn bad(msg: impl Into<String>) -> SetupError {
    SetupError::Position(msg.into())
}

/// The drawing grid of the player's map (svg.rs): a world's `coords` are
/// whole numbers in 0..=COORD_MAX on both axes (issue 19 item 7; the
/// built-in maps use 0..24).
pub const COORD_MAX: i64 = 99;

fn broken(item: Item, id: impl ToString, rule: Rule) -> SetupError {
    SetupError::Breaks {
        item,
        id: id.to_string(),
        rule,
    }
}

fn draw_numbers(rng: &mut Rng, n: usize, max: u32) -> Vec<u32> {
    let mut all: Vec<u32> = (1..=max).collect();
    rng.shuffle(&mut all);
    all.truncate(n);
    all
}

/// Loads a map (renumbered with `rng`) or a position (fixed numbers).
pub fn load(text: &str, rng: &mut Rng) -> Result<Loaded, SetupError> {
    let m: MapToml = toml::from_str(text).map_err(|e| bad(e.to_string()))?;
    if m.world.is_empty() {
        return Err(SetupError::NoneOf { item: Item::World });
    }
    // Keys → display numbers.
    let mut wnum: BTreeMap<String, WorldId> = BTreeMap::new();
    let mut fnum: BTreeMap<String, FleetId> = BTreeMap::new();
    let keys: Vec<String> = m.world.iter().map(|w| w.key.text()).collect();
    let fkeys: Vec<String> = m.fleet.iter().map(|f| f.key.text()).collect();
    // Issue 19 item 7: the error names the item that appears twice.
    for (item, ks) in [(Item::World, &keys), (Item::Fleet, &fkeys)] {
        let mut set: BTreeSet<&String> = BTreeSet::new();
        if let Some(k) = ks.iter().find(|k| !set.insert(k)) {
            return Err(SetupError::Duplicate {
                item,
                id: k.to_string(),
            });
        }
    }
    if m.map.renumber {
        let wmax = m.map.world_number_max.unwrap_or(999);
        let fmax = m.map.fleet_number_max.unwrap_or(400);
        for (key, max, needed) in [
            ("world_number_max", wmax, keys.len()),
            ("fleet_number_max", fmax, fkeys.len()),
        ] {
            if (max as usize) < needed {
                return Err(SetupError::BadValue {
                    key: format!("map.{key}"),
                    value: max.to_string(),
                    expected: Expected::AtLeast(needed as i64),
                });
            }
        }
        let wn = draw_numbers(rng, keys.len(), wmax);
        let fnn = draw_numbers(rng, fkeys.len(), fmax);
        for (k, n) in keys.iter().zip(wn) {
            wnum.insert(k.clone(), WorldId(n));
        }
        for (k, n) in fkeys.iter().zip(fnn) {
            fnum.insert(k.clone(), FleetId(n));
        }
    } else {
        let (mut wseen, mut fseen) = (BTreeSet::new(), BTreeSet::new());
        for k in &keys {
            let n: u32 = k
                .parse()
                .map_err(|_| broken(Item::World, k, Rule::NeedsNumber))?;
            // "7" and "07" are one number: the second would replace the first.
            if !wseen.insert(n) {
                return Err(SetupError::Duplicate {
                    item: Item::World,
                    id: n.to_string(),
                });
            }
            wnum.insert(k.clone(), WorldId(n));
        }
        for k in &fkeys {
            let n: u32 = k
                .parse()
                .map_err(|_| broken(Item::Fleet, k, Rule::NeedsNumber))?;
            if !fseen.insert(n) {
                return Err(SetupError::Duplicate {
                    item: Item::Fleet,
                    id: n.to_string(),
                });
            }
            fnum.insert(k.clone(), FleetId(n));
        }
    }
    // What names a world that does not exist, and in which role
    // (issue 19 item 7: a link to an unknown node names both ends).
    let wref = |item: Item, id: &Key, role: Role, k: &Key| -> Result<WorldId, SetupError> {
        wnum.get(&k.text())
            .copied()
            .ok_or_else(|| SetupError::UnknownRef {
                item,
                id: id.text(),
                role,
                target: Item::World,
                name: k.text(),
            })
    };
    let slot = |item: Item, id: &Key, o: Option<usize>| -> Result<Owner, SetupError> {
        match o {
            None | Some(0) => Ok(None),
            Some(s @ (1 | 2)) => Ok(Some(s - 1)),
            Some(s) => Err(SetupError::UnknownRef {
                item,
                id: id.text(),
                role: Role::Owner,
                target: Item::Player,
                name: s.to_string(),
            }),
        }
    };
    let mut places: BTreeMap<(i64, i64), String> = BTreeMap::new();
    let mut worlds: BTreeMap<WorldId, World> = BTreeMap::new();
    let mut up_given = BTreeSet::new();
    for w in &m.world {
        let id = wref(Item::World, &w.key, Role::Other, &w.key)?;
        let mut links = Vec::new();
        for l in &w.links {
            let t = wref(Item::World, &w.key, Role::Link, l)?;
            if t == id {
                return Err(broken(Item::World, w.key.text(), Rule::LinkedToItself));
            }
            links.push(t);
        }
        if let Some((x, y)) = w.coords {
            if !(0..=COORD_MAX).contains(&x) || !(0..=COORD_MAX).contains(&y) {
                return Err(SetupError::OffMap {
                    item: Item::World,
                    id: w.key.text(),
                    x,
                    y,
                    min: 0,
                    max_x: COORD_MAX,
                    max_y: COORD_MAX,
                });
            }
            if places.insert((x, y), w.key.text()).is_some() {
                return Err(SetupError::SamePlace {
                    item: Item::World,
                    id: w.key.text(),
                    x,
                    y,
                });
            }
        }
        let owner = match w.start_of {
            Some(s) => slot(Item::World, &w.key, Some(s))?,
            None => slot(Item::World, &w.key, w.owner)?,
        };
        if w.black_hole
            && (owner.is_some()
                || w.population + w.industries + w.vi + w.vp + w.mp + w.cm + w.pop_limit > 0)
        {
            return Err(broken(
                Item::World,
                w.key.text(),
                Rule::BlackHoleHoldsNothing,
            ));
        }
        if owner.is_some() && w.population == 0 {
            return Err(broken(
                Item::World,
                w.key.text(),
                Rule::OwnerWithoutPopulation,
            ));
        }
        if w.cm > 10 {
            return Err(SetupError::BadValue {
                key: format!("world {}: cm", w.key.text()),
                value: w.cm.to_string(),
                expected: Expected::Between(0, 10),
            });
        }
        if w.population > w.pop_limit + 10 {
            return Err(broken(Item::World, w.key.text(), Rule::PopulationOverLimit));
        }
        if let Some(u) = w.up {
            up_given.insert(id);
            let _ = u;
        }
        worlds.insert(
            id,
            World {
                links,
                is_start: w.start_of.is_some() || w.start,
                black_hole: w.black_hole,
                coords: w.coords,
                owner,
                counter: if owner.is_some() { w.counter } else { 0 },
                industries: w.industries,
                vi: w.vi,
                population: w.population,
                limit: w.pop_limit,
                vp: w.vp,
                mp: w.mp,
                cm: w.cm,
                // A neutral world never has UP (decision AMB-13).
                up: if owner.is_some() {
                    w.up.unwrap_or(0)
                } else {
                    0
                },
            },
        );
    }
    if m.map.symmetric_links {
        let pairs: Vec<(WorldId, WorldId)> = worlds
            .iter()
            .flat_map(|(a, w)| w.links.iter().map(move |b| (*b, *a)))
            .collect();
        for (b, a) in pairs {
            let wb = worlds.get_mut(&b).expect("link targets exist");
            if !wb.links.contains(&a) {
                wb.links.push(a);
            }
        }
    }
    for (id, w) in worlds.iter_mut() {
        w.links.sort();
        w.links.dedup();
        if w.links.is_empty() {
            return Err(broken(Item::World, id.0, Rule::NoLinks));
        }
    }
    let mut fleets = BTreeMap::new();
    for f in &m.fleet {
        let id = fnum[&f.key.text()];
        let world = wref(Item::Fleet, &f.key, Role::Place, &f.world)?;
        if worlds[&world].black_hole {
            return Err(broken(Item::Fleet, f.key.text(), Rule::FleetInBlackHole));
        }
        if f.cargo_mp + f.cargo_n > f.vc {
            return Err(SetupError::OverCapacity {
                item: Item::Fleet,
                id: f.key.text(),
                load: Load::Cargo,
                amount: (f.cargo_mp + f.cargo_n).into(),
                capacity: f.vc.into(),
            });
        }
        fleets.insert(
            id,
            Fleet {
                world,
                owner: slot(Item::Fleet, &f.key, f.owner)?,
                vc: f.vc,
                cargo_mp: f.cargo_mp,
                cargo_n: f.cargo_n,
            },
        );
    }
    let mut players = BTreeMap::new();
    for p in &m.player {
        let s = match p.slot {
            s @ (1 | 2) => s - 1,
            s => {
                return Err(SetupError::BadValue {
                    key: "player.slot".into(),
                    value: s.to_string(),
                    expected: Expected::Between(1, 2),
                })
            }
        };
        let lvl = |l: Option<u32>, prog: u32, t: Tech| -> Result<Option<TechLevel>, SetupError> {
            match l {
                None => Ok(None),
                Some(l) if (crate::tech::initial(t)..=crate::tech::max(t)).contains(&l) => {
                    Ok(Some(TechLevel {
                        level: l,
                        progress: prog,
                    }))
                }
                Some(l) => Err(SetupError::BadValue {
                    key: format!("player {}: {}", p.slot, crate::tech::keyword(t)),
                    value: l.to_string(),
                    expected: Expected::Between(
                        crate::tech::initial(t).into(),
                        crate::tech::max(t).into(),
                    ),
                }),
            }
        };
        let mut discovered = BTreeSet::new();
        for k in &p.discovered {
            discovered.insert(wnum.get(&k.text()).copied().ok_or_else(|| {
                SetupError::UnknownRef {
                    item: Item::Player,
                    id: p.slot.to_string(),
                    role: Role::Other,
                    target: Item::World,
                    name: k.text(),
                }
            })?);
        }
        players.insert(
            s,
            PlayerOverride {
                name: p.name.clone(),
                dep: lvl(p.dep, p.dep_progress, Tech::Dep)?,
                att: lvl(p.att, p.att_progress, Tech::Att)?,
                def: lvl(p.def, p.def_progress, Tech::Def)?,
                score: p.score,
                discovered,
            },
        );
    }
    Ok(Loaded {
        renumber: m.map.renumber,
        name: m.map.name,
        turn: m.game.turn,
        max_turns: m.game.turns,
        worlds,
        fleets,
        players,
        up_given,
    })
}

/// The position of a state, as `arbitre game export` writes it (issue 19
/// item 6): `renumber = false` with the game's real numbers, every world and
/// fleet with every attribute, and per player the research progress, score
/// and discovered worlds, so that [`load`] gives the same game back. The
/// `[game] turn` is the last resolved turn; `turns` the game's length. The
/// `[rules]` options (`hide_foreign_cargo` …) stay in the game file. The last
/// turn's log (traces, combat marks) is not part of a position: it only
/// renders the report of the turn already played.
pub fn export(s: &NebState) -> Result<String, SetupError> {
    use toml::{Table, Value};
    let int = |v: u32| Value::Integer(i64::from(v));
    let mut root = Table::new();
    let mut head = Table::new();
    head.insert("renumber".into(), Value::Boolean(false));
    head.insert("symmetric_links".into(), Value::Boolean(false));
    root.insert("map".into(), Value::Table(head));
    let mut game = Table::new();
    game.insert("turn".into(), int(s.turn));
    game.insert("turns".into(), int(s.max_turns));
    root.insert("game".into(), Value::Table(game));
    let mut worlds = Vec::new();
    for (id, w) in &s.worlds {
        let mut t = Table::new();
        t.insert("number".into(), int(id.0));
        t.insert(
            "links".into(),
            Value::Array(w.links.iter().map(|l| int(l.0)).collect()),
        );
        if let Some((x, y)) = w.coords {
            t.insert(
                "coords".into(),
                Value::Array(vec![Value::Integer(x), Value::Integer(y)]),
            );
        }
        if w.is_start {
            t.insert("start".into(), Value::Boolean(true));
        }
        if w.black_hole {
            t.insert("black_hole".into(), Value::Boolean(true));
        }
        if let Some(o) = w.owner {
            t.insert("owner".into(), Value::Integer(o as i64 + 1));
            t.insert("counter".into(), int(w.counter));
        }
        for (k, v) in [
            ("industries", w.industries),
            ("population", w.population),
            ("pop_limit", w.limit),
            ("mp", w.mp),
            ("cm", w.cm),
            ("vi", w.vi),
            ("vp", w.vp),
        ] {
            t.insert(k.into(), int(v));
        }
        if w.owner.is_some() {
            t.insert("up".into(), int(w.up));
        }
        worlds.push(Value::Table(t));
    }
    root.insert("world".into(), Value::Array(worlds));
    let mut fleets = Vec::new();
    for (id, f) in &s.fleets {
        let mut t = Table::new();
        t.insert("number".into(), int(id.0));
        t.insert("world".into(), int(f.world.0));
        if let Some(o) = f.owner {
            t.insert("owner".into(), Value::Integer(o as i64 + 1));
        }
        t.insert("vc".into(), int(f.vc));
        t.insert("cargo_mp".into(), int(f.cargo_mp));
        t.insert("cargo_n".into(), int(f.cargo_n));
        fleets.push(Value::Table(t));
    }
    root.insert("fleet".into(), Value::Array(fleets));
    let mut players = Vec::new();
    for (slot, p) in s.players.iter().enumerate() {
        let mut t = Table::new();
        t.insert("slot".into(), Value::Integer(slot as i64 + 1));
        t.insert("name".into(), Value::String(p.name.clone()));
        for (k, l) in [("dep", &p.dep), ("att", &p.att), ("def", &p.def)] {
            t.insert(k.into(), int(l.level));
            t.insert(format!("{k}_progress"), int(l.progress));
        }
        t.insert("score".into(), Value::Integer(p.score_total));
        t.insert(
            "discovered".into(),
            Value::Array(p.discovered.iter().map(|w| int(w.0)).collect()),
        );
        players.push(Value::Table(t));
    }
    root.insert("player".into(), Value::Array(players));
    toml::to_string(&root).map_err(|e| bad(e.to_string()))
}
