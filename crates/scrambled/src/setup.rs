//! Game start (spec §3.13) and loading a full position from TOML.
//!
//! `[rules]` names a built-in world (`world = "testland"` or `map = …`) or a
//! world file (`world_file`/`map_file`, read by the daemon), overrides any
//! parameter, and may hold a full position (`position = {…}` inline or
//! `position_file`) so a game master can resume a game and a test can start
//! mid-game. Without a position, each player gets a distinct start territory
//! drawn with the setup RNG (D25), unless `[players.rules] start = "LOR"`
//! fixes it.

use crate::combat::compute_supremacy;
use crate::params::{Params, PARAM_KEYS, SETUP_KEYS};
use crate::state::{Chain, Mark, Player, State, Status, TerrState};
use crate::world::{TerrId, World};
use arbitre_core::setup_error::{Expected, Item, Role, Rule};
use arbitre_core::{PlayerId, Rng, SetupConfig, SetupError};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// The world of a game whose `[rules]` names none.
pub const DEFAULT_WORLD: &str = "hexagone";

/// `max(1, ⌊land / starting players⌋)` (§2.6, D21).
pub fn quota(land: usize, players: usize) -> u32 {
    (land / players.max(1)).max(1) as u32
}

/// A built-in scenario (`scenario = "alsace"`): its world name and position.
fn scenario_of(config: &SetupConfig) -> Result<Option<(String, toml::Table)>, SetupError> {
    let Some(v) = config.options.get("scenario") else {
        return Ok(None);
    };
    let name = v.as_str().ok_or_else(|| SetupError::BadValue {
        key: "scenario".into(),
        value: v.to_string(),
        expected: Expected::Name,
    })?;
    let text = crate::world::scenario(name)
        .ok_or_else(|| unknown_map(name, crate::world::scenario_names()))?;
    let t: toml::Table = toml::from_str(text).map_err(|e| SetupError::Position(e.to_string()))?;
    let world = t
        .get("scenario")
        .and_then(|s| s.get("world"))
        .and_then(|w| w.as_str())
        // A built-in scenario always names its world: no player sees this.
        .ok_or_else(|| SetupError::Position(format!("scenario {name}: no world")))?
        .to_string();
    let pos = t
        .get("position")
        .and_then(|p| p.as_table())
        .cloned()
        .unwrap_or_default();
    Ok(Some((world, pos)))
}

fn world_of(config: &SetupConfig) -> Result<World, SetupError> {
    let o = &config.options;
    if let Some((w, _)) = scenario_of(config)? {
        let text = crate::world::builtin(&w)
            .ok_or_else(|| unknown_map(&w, crate::world::builtin_names()))?;
        return Ok(World::from_toml(text)?);
    }
    let text: String = if let Some(t) = config
        .files
        .get("world_file")
        .or_else(|| config.files.get("map_file"))
    {
        t.clone()
    } else {
        // The rulebook makes the world a mandatory setting of the web form; a
        // mail game without one (e.g. the daemon's offline order check) plays
        // on the default world rather than failing.
        let name = match o.get("world").or_else(|| o.get("map")) {
            Some(v) => v.as_str().ok_or_else(|| SetupError::BadValue {
                key: "world".into(),
                value: v.to_string(),
                expected: Expected::Name,
            })?,
            None => DEFAULT_WORLD,
        };
        crate::world::builtin(name)
            .ok_or_else(|| unknown_map(name, crate::world::builtin_names()))?
            .to_string()
    };
    Ok(World::from_toml(&text)?)
}

/// Every key a game's `[rules]` accepts (issue 19 item 1; docs/scrambled.md
/// lists them, a test keeps the list true).
pub fn rules_keys() -> Vec<&'static str> {
    SETUP_KEYS.iter().chain(PARAM_KEYS).copied().collect()
}

/// The keys of a player's `[players.rules]`.
pub const PLAYER_KEYS: [&str; 1] = ["start"];

fn unknown_map(name: &str, valid: Vec<String>) -> SetupError {
    SetupError::UnknownMap {
        name: name.to_string(),
        valid,
    }
}

pub fn params_of(options: &toml::Table) -> Result<Params, SetupError> {
    // Unknown keys first, with the valid ones (issue 19 items 1–2).
    arbitre_core::ruleset::check_keys(options, "[rules]", &rules_keys())?;
    if let Some(t) = options.get("parameters").and_then(|t| t.as_table()) {
        arbitre_core::ruleset::check_keys(t, "[rules.parameters]", PARAM_KEYS)?;
    }
    let mut p = Params::default();
    p.apply(options, SETUP_KEYS)?;
    if let Some(t) = options.get("parameters") {
        let t = t.as_table().ok_or_else(|| SetupError::BadValue {
            key: "parameters".into(),
            value: t.to_string(),
            expected: Expected::Table,
        })?;
        p.apply(t, &[])?;
    }
    Ok(p)
}

pub fn setup(config: &SetupConfig, rng: &mut Rng) -> Result<State, SetupError> {
    let params = params_of(&config.options)?;
    arbitre_core::ruleset::check_player_keys(&config.players, &PLAYER_KEYS)?;
    let world = world_of(config)?;
    let n = config.players.len();
    if n == 0 {
        return Err(SetupError::PlayerCount {
            got: 0,
            min: 1,
            max: params.max_players.map(|m| m as usize),
            known: String::new(),
        });
    }
    if let Some(max) = params.max_players {
        if n > max as usize {
            return Err(SetupError::PlayerCount {
                got: n,
                min: params.min_players.map_or(1, |m| m as usize),
                max: Some(max as usize),
                known: String::new(),
            });
        }
    }
    if let Some(min) = params.min_players {
        if n < min as usize {
            return Err(SetupError::PlayerCount {
                got: n,
                min: min as usize,
                max: params.max_players.map(|m| m as usize),
                known: String::new(),
            });
        }
    }
    let land = world.land().count();
    let mut state = State {
        game_id: config.game_id.clone(),
        turn: 0,
        quota: quota(land, n),
        territories: world
            .territories
            .values()
            .map(|t| {
                let eco = if t.is_land() {
                    params.neutral_initial_economy
                } else {
                    0
                };
                (
                    t.id.clone(),
                    TerrState {
                        economy: eco,
                        ..Default::default()
                    },
                )
            })
            .collect(),
        params,
        world,
        players: BTreeMap::new(),
        chains: Vec::new(),
        next_chain: 1,
        log: Vec::new(),
        over: false,
        layout: BTreeMap::new(),
        map_borders: Default::default(),
    };
    let position = match (
        config.files.get("position_file"),
        config.options.get("position"),
    ) {
        (None, None) if config.options.contains_key("scenario") => {
            scenario_of(config)?.map(|(_, p)| p)
        }
        (Some(text), _) => Some(
            toml::from_str::<toml::Table>(text).map_err(|e| SetupError::Position(e.to_string()))?,
        ),
        (None, Some(v)) => Some(v.as_table().cloned().ok_or_else(|| SetupError::BadValue {
            key: "position".into(),
            value: v.to_string(),
            expected: Expected::Table,
        })?),
        (None, None) => None,
    };
    match position {
        Some(pos) => load_position(&mut state, config, pos)?,
        None => place(&mut state, config, rng)?,
    }
    compute_supremacy(&mut state);
    state.layout = crate::svg::layout(&state);
    Ok(state)
}

fn place(state: &mut State, config: &SetupConfig, rng: &mut Rng) -> Result<(), SetupError> {
    let mut pool: Vec<TerrId> = state
        .world
        .land()
        .filter(|t| t.start)
        .map(|t| t.id.clone())
        .collect();
    if pool.is_empty() {
        pool = state.world.land().map(|t| t.id.clone()).collect();
    }
    // Fixed starts first, so that the draw never hands them to someone else.
    let mut fixed: BTreeMap<PlayerId, TerrId> = BTreeMap::new();
    for p in &config.players {
        if let Some(v) = p.options.get("start") {
            let s = v.as_str().ok_or_else(|| SetupError::BadValue {
                key: format!("[players.rules] start of {}", p.id),
                value: v.to_string(),
                expected: Expected::Name,
            })?;
            let t = match state.world.lookup(s) {
                crate::world::Lookup::Found(t)
                    if state.world.get(&t).map(|x| x.is_land()).unwrap_or(false) =>
                {
                    t
                }
                _ => {
                    return Err(SetupError::UnknownRef {
                        item: Item::Player,
                        id: p.id.to_string(),
                        role: Role::Home,
                        target: Item::Territory,
                        name: s.to_string(),
                    })
                }
            };
            if fixed.values().any(|x| x == &t) {
                return Err(SetupError::Breaks {
                    item: Item::Territory,
                    id: t.to_string(),
                    rule: Rule::HomeOfTwo,
                });
            }
            pool.retain(|x| x != &t);
            fixed.insert(p.id.clone(), t);
        }
    }
    let need = config.players.len() - fixed.len();
    if pool.len() < need {
        return Err(SetupError::TooFewStarts {
            needed: config.players.len(),
            available: pool.len() + fixed.len(),
        });
    }
    rng.shuffle(&mut pool);
    let mut draw = pool.into_iter();
    for p in &config.players {
        let t = match fixed.get(&p.id) {
            Some(t) => t.clone(),
            None => draw.next().expect("checked above"),
        };
        let eco = state.params.start_economy;
        let ts = state.terr_mut(&t);
        ts.owner = Some(p.id.clone());
        ts.economy = eco;
        let troops = state.params.starting_troops;
        state.terr_mut(&t).add(&p.id, troops);
        state.players.insert(
            p.id.clone(),
            Player {
                id: p.id.clone(),
                name: p.name.clone(),
                status: Status::Active,
                start_territory: t.clone(),
                capital: Some(t),
                pending_capital: None,
                marks: BTreeMap::new(),
            },
        );
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PosFile {
    #[serde(default)]
    turn: u32,
    /// The game has ended (an exported finished game stays finished).
    #[serde(default)]
    over: bool,
    quota: Option<u32>,
    next_chain: Option<u32>,
    #[serde(default, rename = "player")]
    players: Vec<PosPlayer>,
    #[serde(default, rename = "territory")]
    territories: Vec<PosTerr>,
    #[serde(default, rename = "chain")]
    chains: Vec<PosChain>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PosPlayer {
    id: String,
    start: String,
    capital: Option<String>,
    pending_capital: Option<String>,
    pending_due: Option<u32>,
    #[serde(default)]
    status: Option<String>,
    status_turn: Option<u32>,
    #[serde(default)]
    enemies: Vec<String>,
    /// Players marked as allies (the `ALLIÉ` mark), as `enemies` for enemies.
    #[serde(default)]
    allies: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PosTerr {
    id: String,
    owner: Option<String>,
    economy: Option<u32>,
    #[serde(default)]
    suppression: u32,
    #[serde(default)]
    conflict: bool,
    #[serde(default)]
    contested: bool,
    #[serde(default)]
    troops: BTreeMap<String, u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PosChain {
    number: u32,
    player: String,
    route: Vec<String>,
    #[serde(default)]
    next: usize,
    planned: Option<u64>,
}

fn load_position(
    state: &mut State,
    config: &SetupConfig,
    pos: toml::Table,
) -> Result<(), SetupError> {
    let bad = |m: String| SetupError::Position(m);
    let f: PosFile = toml::Value::Table(pos)
        .try_into()
        .map_err(|e: toml::de::Error| bad(e.to_string()))?;
    state.turn = f.turn;
    state.over = f.over;
    if let Some(q) = f.quota {
        state.quota = q.max(1);
    }
    let ids: BTreeMap<PlayerId, &arbitre_core::PlayerSetup> =
        config.players.iter().map(|p| (p.id.clone(), p)).collect();
    let terr = |s: &str, w: &World| -> Result<TerrId, SetupError> {
        let t = TerrId::new(s);
        if w.get(&t).is_none() {
            return Err(SetupError::Unknown {
                item: Item::Territory,
                name: s.to_string(),
            });
        }
        Ok(t)
    };
    let player = |s: &str| -> Result<PlayerId, SetupError> {
        let p = PlayerId::new(s);
        if !ids.contains_key(&p) {
            return Err(SetupError::Unknown {
                item: Item::Player,
                name: s.to_string(),
            });
        }
        Ok(p)
    };
    // Issue 19 item 7: a second entry for a player, territory or chain used
    // to replace the first without a word; the error names the item.
    let mut seen = BTreeSet::new();
    for (what, key) in f
        .players
        .iter()
        .map(|p| (Item::Player, p.id.clone()))
        .chain(
            f.territories
                .iter()
                .map(|t| (Item::Territory, t.id.clone())),
        )
        .chain(f.chains.iter().map(|c| (Item::Chain, c.number.to_string())))
    {
        if !seen.insert((what, key.clone())) {
            return Err(SetupError::Duplicate {
                item: what,
                id: key,
            });
        }
    }
    for pp in &f.players {
        let id = player(&pp.id)?;
        let status = match (pp.status.as_deref().unwrap_or("active"), pp.status_turn) {
            ("active", _) => Status::Active,
            ("quit", t) => Status::Quit(t.unwrap_or(0)),
            ("eliminated", t) => Status::Eliminated(t.unwrap_or(0)),
            (s, _) => {
                return Err(SetupError::Unknown {
                    item: Item::Status,
                    name: s.to_string(),
                })
            }
        };
        let pending = match &pp.pending_capital {
            Some(t) => Some((terr(t, &state.world)?, pp.pending_due.unwrap_or(f.turn + 1))),
            None => None,
        };
        let mut marks = BTreeMap::new();
        for e in &pp.enemies {
            marks.insert(player(e)?, Mark::Enemy);
        }
        for a in &pp.allies {
            if marks.insert(player(a)?, Mark::Ally).is_some() {
                return Err(SetupError::Breaks {
                    item: Item::Player,
                    id: format!("{} ({a})", pp.id),
                    rule: Rule::AllyAndEnemy,
                });
            }
        }
        state.players.insert(
            id.clone(),
            Player {
                id: id.clone(),
                name: ids[&id].name.clone(),
                status,
                start_territory: terr(&pp.start, &state.world)?,
                capital: pp
                    .capital
                    .as_deref()
                    .map(|c| terr(c, &state.world))
                    .transpose()?,
                pending_capital: pending,
                marks,
            },
        );
    }
    for p in &config.players {
        if !state.players.contains_key(&p.id) {
            return Err(SetupError::Missing {
                item: Item::Player,
                id: p.id.to_string(),
            });
        }
    }
    for pt in &f.territories {
        let t = terr(&pt.id, &state.world)?;
        let land = state.world.get(&t).map(|x| x.is_land()).unwrap_or(false);
        let owner = pt.owner.as_deref().map(player).transpose()?;
        if owner.is_some() && !land {
            return Err(SetupError::Breaks {
                item: Item::Territory,
                id: t.to_string(),
                rule: Rule::CannotBeOwned,
            });
        }
        if !state.world.passable(&t) && !pt.troops.is_empty() {
            return Err(SetupError::Breaks {
                item: Item::Territory,
                id: t.to_string(),
                rule: Rule::MountainWithoutTroops,
            });
        }
        let mut ts = TerrState {
            owner,
            economy: pt
                .economy
                .unwrap_or(if land {
                    state.params.neutral_initial_economy
                } else {
                    0
                })
                .min(100),
            conflict: pt.conflict,
            contested: pt.contested,
            suppression: pt.suppression.min(100),
            ..Default::default()
        };
        for (p, n) in &pt.troops {
            ts.add(&player(p)?, *n);
        }
        state.territories.insert(t, ts);
    }
    let mut max_chain = 0;
    for c in &f.chains {
        let route: Vec<TerrId> = c
            .route
            .iter()
            .map(|s| terr(s, &state.world))
            .collect::<Result<_, _>>()?;
        if route.len() < 2
            || c.next + 1 >= route.len()
            || route
                .windows(2)
                .any(|w| !state.world.can_step(&w[0], &w[1]))
        {
            return Err(SetupError::Breaks {
                item: Item::Chain,
                id: c.number.to_string(),
                rule: Rule::BadPath,
            });
        }
        max_chain = max_chain.max(c.number);
        state.chains.push(Chain {
            number: c.number,
            player: player(&c.player)?,
            route,
            next: c.next,
            planned: c.planned,
        });
    }
    state.next_chain = f.next_chain.unwrap_or(max_chain + 1).max(max_chain + 1);
    Ok(())
}
