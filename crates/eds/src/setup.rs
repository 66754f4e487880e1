//! Game set-up (rulebook "Startbedingungen", spec §2.12, §8.3): a galaxy from a
//! built-in scenario (`map = "trio"`), a scenario file (`map_file`), a generated
//! map (`map = "generate"`) or a full position (`position = {...}` or
//! `position_file`), then the start assets of every ruler. A position carries
//! every attribute and the month, so a game master can resume a game from it and
//! a test can start mid-game; [`position_toml`] writes one from a state.

use crate::formulas::{jump_range, lx, tx};
use crate::galaxy::{generate, GenStar};
use crate::model::{Facility, Ruler, RulerNr, Ship, Star, State};
use crate::params::Params;
use arbitre_core::setup_error::{Expected, Item, Load, Role, Rule};
use arbitre_core::{PlayerId, Rng, SetupConfig, SetupError};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Built-in scenarios, embedded so that the crate does no I/O.
pub const SCENARIOS: [(&str, &str); 3] = [
    (
        "duel",
        include_str!("../../../rulesets/eds/scenarios/duel.toml"),
    ),
    (
        "trio",
        include_str!("../../../rulesets/eds/scenarios/trio.toml"),
    ),
    (
        "standard",
        include_str!("../../../rulesets/eds/scenarios/standard.toml"),
    ),
];

/// The setup keys of `[rules]`; every other key is a parameter (§2.13).
const SETUP_KEYS: [&str; 6] = [
    "map",
    "map_file",
    "position",
    "position_file",
    "galaxy",
    "announcements",
];

/// Every key a game's `[rules]` accepts: [`SETUP_KEYS`] and the parameters
/// (issue 19 item 1; docs/eds.md lists them, a test keeps the list true).
pub fn rules_keys() -> Vec<String> {
    let params = toml::Table::try_from(Params::default()).unwrap_or_default();
    SETUP_KEYS
        .iter()
        .map(|k| k.to_string())
        .chain(params.keys().cloned())
        .collect()
}

/// The names `map` accepts.
pub fn map_names() -> Vec<String> {
    std::iter::once("generate")
        .chain(SCENARIOS.iter().map(|(n, _)| *n))
        .map(String::from)
        .collect()
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScenarioGame {
    #[serde(default)]
    pub name: String,
    pub players: usize,
    #[serde(default)]
    pub width: Option<i32>,
    #[serde(default)]
    pub height: Option<i32>,
    #[serde(default)]
    pub map: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScenarioRuler {
    pub number: RulerNr,
    pub home_star: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScenarioStar {
    pub number: u32,
    pub x: i32,
    pub y: i32,
    pub ore_rate: u32,
    pub uranium_rate: u32,
    pub grain_rate: u32,
}

/// A scenario file (spec §8.3, explicit map).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Scenario {
    pub format: String,
    pub game: ScenarioGame,
    #[serde(default)]
    pub rulers: Vec<ScenarioRuler>,
    #[serde(default)]
    pub stars: Vec<ScenarioStar>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PositionRuler {
    pub number: RulerNr,
    pub name: String,
    pub we: i64,
    pub ev: u32,
    #[serde(default)]
    pub home_star: u32,
    #[serde(default = "yes")]
    pub active: bool,
    /// Own status toward other rulers, keys are ruler numbers ("2" = 3).
    #[serde(default)]
    pub status: BTreeMap<String, u8>,
}

fn yes() -> bool {
    true
}

/// A full position (every star, ship, fighter, stock, wealth, EV, status, month).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Position {
    pub format: String,
    pub galaxy: String,
    pub width: i32,
    pub height: i32,
    pub month: u32,
    #[serde(default)]
    pub scrap_yards_prev: Vec<u32>,
    pub rulers: Vec<PositionRuler>,
    pub stars: Vec<Star>,
    #[serde(default)]
    pub ships: Vec<Ship>,
}

/// The start assets of §2.12 for ruler `nr` on home star `home`.
pub fn start_assets(state: &mut State, nr: RulerNr, home: u32) {
    let p = state.params.clone();
    let star = state.stars.get_mut(&home).expect("home star exists");
    star.owner = Some(nr);
    star.bv = p.home_bv;
    star.facility = Some(Facility::W);
    star.stock = p.home_stock;
    star.rate = p.home_rates;
    let (x, y) = (star.x, star.y);
    let base_nr = (nr as u32 - 1) * (p.start_ships + 1) + 1;
    state.ships.insert(
        base_nr,
        Ship {
            number: base_nr,
            name: "HEIMATBASIS".into(),
            owner: nr,
            typ: 8,
            tk: 0,
            jg: 0,
            guns: [256, 0, 0, 0],
            shields: [256, 0, 0, 0],
            lr: 0,
            rw: 0,
            lx: 1,
            tx: 0,
            x,
            y,
            hits: 0,
            sp: 0,
            ljg: 0,
            tjg: 0,
            cargo: None,
            r: 4,
            home_base: true,
        },
    );
    for i in 1..=p.start_ships {
        let n = base_nr + i;
        state.ships.insert(
            n,
            Ship {
                number: n,
                name: format!("NAMENLOS {i}"),
                owner: nr,
                typ: 1,
                tk: 5,
                jg: 0,
                guns: [0; 4],
                shields: [0; 4],
                lr: 10,
                rw: jump_range(&p, p.start_ev),
                lx: lx(p.start_ev),
                tx: tx(p.start_ev),
                x,
                y,
                hits: 0,
                sp: 0,
                ljg: 0,
                tjg: 0,
                cargo: None,
                r: 2,
                home_base: false,
            },
        );
    }
}

fn new_ruler(nr: RulerNr, id: PlayerId, name: &str, p: &Params, home: u32) -> Ruler {
    Ruler {
        number: nr,
        id,
        name: name.to_uppercase(),
        we: p.start_we,
        ev: p.start_ev,
        status: BTreeMap::new(),
        home_star: home,
        active: true,
    }
}

/// Build the state of a scenario (explicit map) for the configured players.
pub fn from_scenario(
    config: &SetupConfig,
    sc: &Scenario,
    params: Params,
    galaxy: &str,
) -> Result<State, SetupError> {
    let n = config.players.len();
    if n != sc.game.players || sc.rulers.len() != n {
        return Err(SetupError::PlayerCount {
            got: n,
            min: sc.game.players,
            max: Some(sc.game.players),
            known: String::new(),
        });
    }
    let (dw, dh) = crate::formulas::map_size(&params, n as u32);
    let (w, h) = (sc.game.width.unwrap_or(dw), sc.game.height.unwrap_or(dh));
    let mut stars = BTreeMap::new();
    for s in &sc.stars {
        if !(1..=w).contains(&s.x) || !(1..=h).contains(&s.y) {
            return Err(SetupError::OffMap {
                item: Item::Star,
                id: s.number.to_string(),
                x: s.x.into(),
                y: s.y.into(),
                min: 1,
                max_x: w.into(),
                max_y: h.into(),
            });
        }
        if s.ore_rate > 340 || s.uranium_rate > 49 || s.grain_rate > 49 {
            return Err(SetupError::Breaks {
                item: Item::Star,
                id: s.number.to_string(),
                rule: Rule::YieldOutOfRange,
            });
        }
        let star = Star {
            number: s.number,
            x: s.x,
            y: s.y,
            name: String::new(),
            owner: None,
            bv: 0,
            facility: None,
            ljg: 0,
            tjg: 0,
            stock: [0; 3],
            rate: [s.ore_rate, s.uranium_rate, s.grain_rate],
        };
        if stars.insert(s.number, star).is_some() {
            return Err(SetupError::Duplicate {
                item: Item::Star,
                id: s.number.to_string(),
            });
        }
    }
    let expected = params.stars_per_player as usize * n;
    if stars.len() != expected || stars.keys().copied().ne(1..=expected as u32) {
        return Err(SetupError::Numbering {
            item: Item::Star,
            count: expected,
        });
    }
    let pts: Vec<&Star> = stars.values().collect();
    for (i, a) in pts.iter().enumerate() {
        for b in &pts[i + 1..] {
            let q = ((a.x - b.x) as i64).pow(2) + ((a.y - b.y) as i64).pow(2);
            if q < (params.min_star_distance as i64).pow(2) {
                return Err(SetupError::TooClose {
                    item: Item::Star,
                    id: a.number.to_string(),
                    other: b.number.to_string(),
                });
            }
        }
    }
    let mut state = State {
        game_id: config.game_id.clone(),
        galaxy: galaxy.to_uppercase(),
        width: w,
        height: h,
        month: 0,
        params,
        rulers: Vec::new(),
        stars,
        ships: BTreeMap::new(),
        scrap_yards_prev: BTreeSet::new(),
        winners: Vec::new(),
        game_over: false,
        anzeiger: Vec::new(),
        announcements: String::new(),
        last_events: Vec::new(),
    };
    let mut homes = BTreeSet::new();
    for (i, ps) in config.players.iter().enumerate() {
        let slot = sc
            .rulers
            .iter()
            .find(|r| r.number as usize == i + 1)
            .ok_or_else(|| SetupError::Missing {
                item: Item::Ruler,
                id: (i + 1).to_string(),
            })?;
        if !state.stars.contains_key(&slot.home_star) {
            return Err(SetupError::UnknownRef {
                item: Item::Ruler,
                id: (i + 1).to_string(),
                role: Role::Home,
                target: Item::Star,
                name: slot.home_star.to_string(),
            });
        }
        if !homes.insert(slot.home_star) {
            return Err(SetupError::Breaks {
                item: Item::Star,
                id: slot.home_star.to_string(),
                rule: Rule::HomeOfTwo,
            });
        }
        let p = state.params.clone();
        state.rulers.push(new_ruler(
            (i + 1) as RulerNr,
            ps.id.clone(),
            &ps.name,
            &p,
            slot.home_star,
        ));
    }
    for i in 0..n {
        let home = state.rulers[i].home_star;
        start_assets(&mut state, (i + 1) as RulerNr, home);
    }
    Ok(state)
}

/// A scenario file from a generated galaxy (used to write the built-in maps).
pub fn scenario_from_generated(name: &str, w: i32, h: i32, stars: &[GenStar]) -> Scenario {
    let n = stars.iter().filter(|s| s.home.is_some()).count();
    let mut rulers: Vec<ScenarioRuler> = stars
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            s.home.map(|h| ScenarioRuler {
                number: (h + 1) as RulerNr,
                home_star: i as u32 + 1,
            })
        })
        .collect();
    rulers.sort_by_key(|r| r.number);
    Scenario {
        format: "eds-scenario-1".into(),
        game: ScenarioGame {
            name: name.to_uppercase(),
            players: n,
            width: Some(w),
            height: Some(h),
            map: Some("explicit".into()),
        },
        rulers,
        stars: stars
            .iter()
            .enumerate()
            .map(|(i, s)| ScenarioStar {
                number: i as u32 + 1,
                x: s.x,
                y: s.y,
                ore_rate: s.rate[0],
                uranium_rate: s.rate[1],
                grain_rate: s.rate[2],
            })
            .collect(),
    }
}

/// Load a full position for the configured players (matched by order).
pub fn from_position(
    config: &SetupConfig,
    pos: Position,
    params: Params,
) -> Result<State, SetupError> {
    if pos.rulers.len() != config.players.len() {
        return Err(SetupError::PlayerCount {
            got: config.players.len(),
            min: pos.rulers.len(),
            max: Some(pos.rulers.len()),
            known: String::new(),
        });
    }
    let mut rulers = Vec::new();
    for (i, (pr, ps)) in pos.rulers.iter().zip(&config.players).enumerate() {
        if pr.number as usize != i + 1 {
            return Err(SetupError::Numbering {
                item: Item::Ruler,
                count: pos.rulers.len(),
            });
        }
        let mut status = BTreeMap::new();
        for (k, v) in &pr.status {
            let k: RulerNr = k.parse().map_err(|_| SetupError::UnknownRef {
                item: Item::Ruler,
                id: pr.number.to_string(),
                role: Role::Other,
                target: Item::Ruler,
                name: k.clone(),
            })?;
            if !(1..=3).contains(v) {
                return Err(SetupError::BadValue {
                    key: format!("rulers.{}.status.{k}", pr.number),
                    value: v.to_string(),
                    expected: Expected::Between(1, 3),
                });
            }
            status.insert(k, *v);
        }
        rulers.push(Ruler {
            number: pr.number,
            id: ps.id.clone(),
            name: pr.name.to_uppercase(),
            we: pr.we,
            ev: pr.ev,
            status,
            home_star: pr.home_star,
            active: pr.active,
        });
    }
    if pos.width < 1 || pos.height < 1 {
        return Err(SetupError::BadValue {
            key: "width, height".into(),
            value: format!("{}, {}", pos.width, pos.height),
            expected: Expected::AtLeast(1),
        });
    }
    check_position_items(&pos)?;
    let stars: BTreeMap<u32, Star> = pos.stars.into_iter().map(|s| (s.number, s)).collect();
    let mut points = BTreeSet::new();
    for s in stars.values() {
        if s.owner.is_some_and(|o| o == 0 || o as usize > rulers.len()) {
            return Err(SetupError::UnknownRef {
                item: Item::Star,
                id: s.number.to_string(),
                role: Role::Owner,
                target: Item::Ruler,
                name: s.owner.map(|o| o.to_string()).unwrap_or_default(),
            });
        }
        if !points.insert((s.x, s.y)) {
            return Err(SetupError::SamePlace {
                item: Item::Star,
                id: s.number.to_string(),
                x: s.x.into(),
                y: s.y.into(),
            });
        }
    }
    let ships: BTreeMap<u32, Ship> = pos.ships.into_iter().map(|s| (s.number, s)).collect();
    for s in ships.values() {
        if s.owner == 0 || s.owner as usize > rulers.len() {
            return Err(SetupError::UnknownRef {
                item: Item::Ship,
                id: s.number.to_string(),
                role: Role::Owner,
                target: Item::Ruler,
                name: s.owner.to_string(),
            });
        }
        if !(1..=26).contains(&s.typ) {
            return Err(SetupError::BadValue {
                key: format!("ships.{}.typ", s.number),
                value: s.typ.to_string(),
                expected: Expected::Between(1, 26),
            });
        }
    }
    Ok(State {
        game_id: config.game_id.clone(),
        galaxy: pos.galaxy.to_uppercase(),
        width: pos.width,
        height: pos.height,
        month: pos.month,
        params,
        rulers,
        stars,
        ships,
        scrap_yards_prev: pos.scrap_yards_prev.into_iter().collect(),
        winners: Vec::new(),
        game_over: false,
        anzeiger: Vec::new(),
        announcements: String::new(),
        last_events: Vec::new(),
    })
}

/// Issue 19 item 7: what a hand-written position gets wrong, each error
/// naming the item. Before, a second star or ship with a number silently
/// replaced the first (the position is collected into maps by number).
fn check_position_items(pos: &Position) -> Result<(), SetupError> {
    let off_map = |item: Item, id: u32, x: i32, y: i32| {
        let on = (1..=pos.width).contains(&x) && (1..=pos.height).contains(&y);
        (!on).then(|| SetupError::OffMap {
            item,
            id: id.to_string(),
            x: x.into(),
            y: y.into(),
            min: 1,
            max_x: pos.width.into(),
            max_y: pos.height.into(),
        })
    };
    // A ruler in play needs a home star (repairs and the home base of §2.12
    // are counted from it); `home_star` may name a star the position does
    // not list, as the rulebook's worked examples do.
    if let Some(r) = pos.rulers.iter().find(|r| r.active && r.home_star == 0) {
        return Err(SetupError::NoHome {
            player: r.number.to_string(),
        });
    }
    let mut seen = BTreeSet::new();
    for s in &pos.stars {
        if !seen.insert(s.number) {
            return Err(SetupError::Duplicate {
                item: Item::Star,
                id: s.number.to_string(),
            });
        }
        if let Some(e) = off_map(Item::Star, s.number, s.x, s.y) {
            return Err(e);
        }
    }
    let mut ships = BTreeSet::new();
    for s in &pos.ships {
        let id = || s.number.to_string();
        if !ships.insert(s.number) {
            return Err(SetupError::Duplicate {
                item: Item::Ship,
                id: id(),
            });
        }
        if let Some(e) = off_map(Item::Ship, s.number, s.x, s.y) {
            return Err(e);
        }
        if s.sp > s.tk {
            return Err(SetupError::OverCapacity {
                item: Item::Ship,
                id: id(),
                load: Load::Fuel,
                amount: s.sp.into(),
                capacity: s.tk.into(),
            });
        }
        if let Some((_, n)) = s.cargo {
            if n > s.lr {
                return Err(SetupError::OverCapacity {
                    item: Item::Ship,
                    id: id(),
                    load: Load::Cargo,
                    amount: n.into(),
                    capacity: s.lr.into(),
                });
            }
        }
    }
    Ok(())
}

/// Write a state as a position TOML (resume a game, start a test mid-game).
/// A state always serialises; a test that wants the text without a `Result`
/// gets an empty string in the impossible case.
pub fn position_toml(state: &State) -> String {
    export_position(state).unwrap_or_default()
}

/// The position of a state, as `arbitre game export` writes it (issue 19
/// item 6): what `from_position` reads back to the same game.
pub fn export_position(state: &State) -> Result<String, SetupError> {
    let pos = Position {
        format: "eds-position-1".into(),
        galaxy: state.galaxy.clone(),
        width: state.width,
        height: state.height,
        month: state.month,
        scrap_yards_prev: state.scrap_yards_prev.iter().copied().collect(),
        rulers: state
            .rulers
            .iter()
            .map(|r| PositionRuler {
                number: r.number,
                name: r.name.clone(),
                we: r.we,
                ev: r.ev,
                home_star: r.home_star,
                active: r.active,
                status: r.status.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            })
            .collect(),
        stars: state.stars.values().cloned().collect(),
        ships: state.ships.values().cloned().collect(),
    };
    toml::to_string(&pos).map_err(|e| SetupError::Position(e.to_string()))
}

fn parse_toml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, SetupError> {
    toml::from_str(text).map_err(|e| SetupError::Position(e.to_string()))
}

/// The whole of `Ruleset::setup`.
pub fn setup(config: &SetupConfig, rng: &mut Rng) -> Result<State, SetupError> {
    // Unknown keys first, with the valid ones (issue 19 items 1–2); EDS reads
    // no per-player key.
    let keys = rules_keys();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    arbitre_core::ruleset::check_keys(&config.options, "[rules]", &keys)?;
    arbitre_core::ruleset::check_player_keys(&config.players, &[])?;
    if config.players.len() < 2 {
        return Err(SetupError::PlayerCount {
            got: config.players.len(),
            min: 2,
            max: Some(99),
            known: String::new(),
        });
    }
    let mut ptable = toml::Table::new();
    for (k, v) in &config.options {
        if !SETUP_KEYS.contains(&k.as_str()) {
            ptable.insert(k.clone(), v.clone());
        }
    }
    let params = Params::from_table(&ptable)?;
    params.validate()?;
    if config.players.len() > 99 {
        return Err(SetupError::PlayerCount {
            got: config.players.len(),
            min: 2,
            max: Some(99),
            known: String::new(),
        });
    }
    let galaxy = config
        .options
        .get("galaxy")
        .and_then(|v| v.as_str())
        .unwrap_or(&config.game_id)
        .to_string();
    let mut state = if let Some(v) = config.options.get("position") {
        let pos: Position = v
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| SetupError::Position(e.to_string()))?;
        from_position(config, pos, params)?
    } else if let Some(text) = config.files.get("position_file") {
        from_position(config, parse_toml(text)?, params)?
    } else if let Some(text) = config.files.get("map_file") {
        let sc: Scenario = parse_toml(text)?;
        from_scenario(config, &sc, params, &galaxy)?
    } else {
        let map = config
            .options
            .get("map")
            .and_then(|v| v.as_str())
            .unwrap_or("generate");
        if map == "generate" {
            let (w, h, stars) = generate(&params, config.players.len(), rng);
            let sc = scenario_from_generated(&galaxy, w, h, &stars);
            from_scenario(config, &sc, params, &galaxy)?
        } else {
            let text = SCENARIOS
                .iter()
                .find(|(k, _)| *k == map)
                .ok_or_else(|| SetupError::UnknownMap {
                    name: map.to_string(),
                    valid: map_names(),
                })?
                .1;
            let sc: Scenario = parse_toml(text)?;
            from_scenario(config, &sc, params, &galaxy)?
        }
    };
    if let Some(a) = config.options.get("announcements").and_then(|v| v.as_str()) {
        state.announcements = a.to_string();
    }
    Ok(state)
}
