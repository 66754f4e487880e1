//! Game creation (§2.2, §10.2): built-in scenarios, scenario TOML and full
//! positions.
//!
//! Three sources, in this order of precedence:
//! * `position` (inline table) or `files["position_file"]`: a full saved
//!   position, the serde form of [`State`] written in TOML (every field has a
//!   default; `map = "trio"` inside it fills in a built-in map);
//! * `files["scenario_file"]` / `files["map_file"]`: a scenario TOML;
//! * `map = "<name>"` (or `scenario`): a built-in scenario embedded from
//!   `rulesets/wwk/scenarios/`.
//!
//! Nations are assigned by [`assign_nations`] (issue 18 item 3): a player's
//! `nation = "TUR"` (code or name, in `[players.rules]`) first, then a player
//! whose id or name is a nation's code or name. A nation the scenario lacks,
//! two players on one nation, or a seat matched by neither refuses the game
//! with the reason. Nations without a player are left out and their home
//! zone stays neutral.

use crate::catalog;
use crate::model::*;
use arbitre_core::setup_error::{Item, NationProblem, Role, Rule};
use arbitre_core::{SetupConfig, SetupError};
use serde::Deserialize;
use std::collections::BTreeSet;

pub const TRIO: &str = include_str!("../../../rulesets/wwk/scenarios/trio.toml");
pub const MONDE: &str = include_str!("../../../rulesets/wwk/scenarios/monde.toml");

/// A built-in scenario: its name, the other names it answers to, its TOML.
pub struct Builtin {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub text: &'static str,
}

/// Every built-in scenario (docs/wwk.md lists them; a test keeps the list true).
pub const SCENARIOS: [Builtin; 2] = [
    Builtin {
        name: "trio",
        aliases: &["duel", "petit"],
        text: TRIO,
    },
    Builtin {
        name: "monde",
        aliases: &["world"],
        text: MONDE,
    },
];

pub fn builtin(name: &str) -> Option<&'static str> {
    SCENARIOS
        .iter()
        .find(|b| b.name == name || b.aliases.contains(&name))
        .map(|b| b.text)
}

/// The names a game may give to `scenario`/`map`, for error messages.
pub fn builtin_names() -> Vec<String> {
    SCENARIOS
        .iter()
        .flat_map(|b| std::iter::once(b.name).chain(b.aliases.iter().copied()))
        .map(String::from)
        .collect()
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct GameSection {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    max_turns: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NationDef {
    code: String,
    #[serde(default)]
    name: String,
    specialty: String,
    #[serde(default)]
    weaknesses: Vec<String>,
    home: String,
    #[serde(default)]
    tech: Option<Tech>,
    #[serde(default)]
    ec: Option<i64>,
    #[serde(default)]
    stock: Option<Ledger>,
    /// "7 INF, 2 ENG" overrides the unit package.
    #[serde(default)]
    units: Option<String>,
    #[serde(default)]
    bases: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    #[serde(default)]
    game: GameSection,
    #[serde(default)]
    rules: Option<Params>,
    #[serde(default)]
    zone: Vec<ZoneDef>,
    #[serde(default)]
    crossing: Vec<Link>,
    #[serde(default)]
    strait: Vec<Link>,
    #[serde(default)]
    nation: Vec<NationDef>,
}

/// Tokens a zone code may not take (§3.5 "reserved").
pub fn reserved(tok: &str) -> bool {
    const KW: &[&str] = &[
        "NAT",
        "ALL",
        "ARMY",
        "WAR",
        "CEASEFIRE",
        "ALLY",
        "BREAK",
        "RESEARCH",
        "MARKET",
        "SELL",
        "BUY",
        "SPY",
        "DEMOB",
        "XFER",
        "EC",
        "OPTION",
        "GREEN",
        "AI",
        "YES",
        "NO",
        "AID",
        "EXCH",
        "GIVE",
        "GET",
        "WITH",
        "CE",
        "BUILD",
        "TACD",
        "TACO",
        "ON",
        "OFF",
        "RECN",
        "SATT",
        "SATC",
        "MISS",
        "MISC",
        "CAPS",
        "CAP",
        "BOMB",
        "BMBC",
        "DROP",
        "ESCT",
        "ESCORT",
        "TRSF",
        "HMOV",
        "HMOVE",
        "MOVE",
        "SMOV",
        "SMOVE",
        "END",
        "RG",
        "IN",
        "RP",
        "PG",
        "RC",
        "RR",
        "RS",
        "RT",
        "SA",
        "SC",
        "SN",
        "SP",
        "ST",
        "SR",
        "I",
        "V",
        "A",
        "NV",
        "N",
        "L",
        "I/V",
        "M",
        "P",
        "O",
        "F",
        "U",
    ];
    KW.contains(&tok) || catalog::spec(tok).is_some() || catalog::warhead(tok).is_some()
}

fn perr(e: impl std::fmt::Display) -> SetupError {
    SetupError::Position(e.to_string())
}

/// Parse "7 INF, 2 ENG" into (count, code).
pub fn parse_units(s: &str) -> Result<Vec<(usize, String)>, SetupError> {
    let mut out = vec![];
    for part in s.split(',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let mut it = part.split_whitespace();
        let (n, code) = match (it.next(), it.next()) {
            (Some(n), Some(c)) => (n.parse::<usize>().map_err(perr)?, c.to_ascii_uppercase()),
            (Some(c), None) => (1, c.to_ascii_uppercase()),
            _ => continue,
        };
        if catalog::spec(&code).is_none() {
            return Err(SetupError::Unknown {
                item: Item::UnitType,
                name: code,
            });
        }
        out.push((n, code));
    }
    Ok(out)
}

/// Validate a map (WWK-1): unique, non-reserved codes; symmetric adjacency.
pub fn check_map(map: &Map) -> Result<(), SetupError> {
    let mut seen = BTreeSet::new();
    for z in &map.zones {
        if !seen.insert(z.code.clone()) {
            return Err(SetupError::Duplicate {
                item: Item::Zone,
                id: z.code.clone(),
            });
        }
        if reserved(&z.code) || z.code != z.code.to_ascii_uppercase() {
            return Err(SetupError::Breaks {
                item: Item::Zone,
                id: z.code.clone(),
                rule: Rule::ReservedCode,
            });
        }
        // The map attachment draws zones on 0..1000 both ways (issue 19
        // item 7: a hand-written zone off that grid is refused).
        if let (Some(x), Some(y)) = (z.x, z.y) {
            if !(0..=1000).contains(&x) || !(0..=1000).contains(&y) {
                return Err(SetupError::OffMap {
                    item: Item::Zone,
                    id: z.code.clone(),
                    x: x.into(),
                    y: y.into(),
                    min: 0,
                    max_x: 1000,
                    max_y: 1000,
                });
            }
        }
        for s in &z.symbols {
            if !RES.contains(s) {
                return Err(SetupError::UnknownRef {
                    item: Item::Zone,
                    id: z.code.clone(),
                    role: Role::Other,
                    target: Item::Symbol,
                    name: s.to_string(),
                });
            }
        }
    }
    // Zone by code, first of its code as `find` would (issue 9: was O(zones²)).
    let mut by_code: std::collections::HashMap<&str, &ZoneDef> = std::collections::HashMap::new();
    for z in &map.zones {
        by_code.entry(z.code.as_str()).or_insert(z);
    }
    for z in &map.zones {
        for a in &z.adjacent {
            let Some(o) = by_code.get(a.as_str()) else {
                return Err(SetupError::UnknownRef {
                    item: Item::Zone,
                    id: z.code.clone(),
                    role: Role::Link,
                    target: Item::Zone,
                    name: a.clone(),
                });
            };
            if !o.adjacent.contains(&z.code) {
                return Err(SetupError::OneWayLink {
                    item: Item::Zone,
                    id: z.code.clone(),
                    to: a.clone(),
                });
            }
        }
    }
    Ok(())
}

/// Build the start package for a nation (§2.2, WWK-2).
fn place_start(st: &mut State, n: &NationDef) -> Result<(), SetupError> {
    let home = n.home.clone();
    let def = st
        .zdef(&home)
        .cloned()
        .ok_or_else(|| SetupError::UnknownRef {
            item: Item::Nation,
            id: n.code.clone(),
            role: Role::Home,
            target: Item::Zone,
            name: home.clone(),
        })?;
    if def.kind != ZoneKind::Land {
        return Err(SetupError::Breaks {
            item: Item::Zone,
            id: home,
            rule: Rule::HomeNotLand,
        });
    }
    let bases = n.bases.clone().unwrap_or_else(|| "16 FAC, 1 ABSE".into());
    let mut units = n
        .units
        .clone()
        .unwrap_or_else(|| "7 INF, 2 ENG, 4 LT, 2 ART, 2 AA, 2 FTR, 2 BMB".into());
    if n.units.is_none() && def.coastal {
        units.push_str(", 2 DD, 1 TLS");
    }
    for (k, code) in parse_units(&bases)?.into_iter().chain(parse_units(&units)?) {
        for _ in 0..k {
            st.add_unit(&n.code, &code, &home);
        }
    }
    let mut led = Ledger {
        ec: n.ec.unwrap_or(20),
        ..Default::default()
    };
    match n.stock {
        Some(s) => {
            for r in RES {
                *led.res_mut(r) = s.res(r);
            }
        }
        None => {
            for s in &def.symbols {
                *led.res_mut(*s) = 4;
            }
        }
    }
    let z = st.zone_mut(&home);
    z.status = Status::Controlled { by: n.code.clone() };
    z.ledgers.insert(n.code.clone(), led);
    Ok(())
}

fn field(s: &str) -> Result<Field, SetupError> {
    Field::parse(s).ok_or_else(|| SetupError::Unknown {
        item: Item::Field,
        name: s.to_string(),
    })
}

/// Build a state from a scenario TOML text and the game's players.
pub fn from_scenario(text: &str, cfg: &SetupConfig) -> Result<State, SetupError> {
    let sc: ScenarioFile = toml::from_str(text).map_err(perr)?;
    let map = Map {
        zones: sc.zone,
        crossings: sc.crossing,
        straits: sc.strait,
        ..Default::default()
    };
    check_map(&map)?;
    let mut st = State {
        game_id: cfg.game_id.clone(),
        map,
        ..Default::default()
    };
    st.params = sc.rules.unwrap_or_default();
    if let Some(m) = sc.game.max_turns {
        st.params.max_turns = m;
    }
    let _ = (sc.game.id, sc.game.name);
    apply_param_overrides(&mut st.params, &cfg.options)?;
    for z in &st.map.zones {
        st.zones.insert(z.code.clone(), ZoneState::default());
    }
    if cfg.players.is_empty() {
        return Err(SetupError::PlayerCount {
            got: 0,
            min: 1,
            max: Some(sc.nation.len()),
            known: String::new(),
        });
    }
    let list: Vec<Seat> = sc
        .nation
        .iter()
        .map(|n| Seat {
            code: n.code.clone(),
            name: n.name.clone(),
            player: String::new(),
        })
        .collect();
    let assign = assign_nations(&cfg.players, &list)?;
    for (pi, ni) in assign {
        let nd = &sc.nation[ni];
        let p = &cfg.players[pi];
        let specialty = field(&nd.specialty)?;
        let weaknesses: Vec<Field> = nd
            .weaknesses
            .iter()
            .map(|w| field(w))
            .collect::<Result<_, _>>()?;
        let mut tech = Tech::default();
        for f in Field::ALL {
            let v = if f == specialty {
                10
            } else if weaknesses.contains(&f) {
                0
            } else {
                5
            };
            tech.set(f, v);
        }
        if let Some(t) = nd.tech {
            tech = t;
        }
        st.nations.insert(
            nd.code.clone(),
            Nation {
                code: nd.code.clone(),
                name: if nd.name.is_empty() {
                    p.name.clone()
                } else {
                    nd.name.clone()
                },
                player: p.id.to_string(),
                tech,
                specialty,
                weaknesses,
                research: [1; 6],
                treasury: 0,
                options: Options::default(),
                vp: 0,
                superpower: false,
                capital_streak: 0,
                active: true,
                initiative: 0,
                home: nd.home.clone(),
            },
        );
        place_start(&mut st, nd)?;
    }
    Ok(st)
}

/// A nation a player may take: its code, its name, and in a position the
/// player id it already carries (empty in a scenario).
pub struct Seat {
    pub code: String,
    pub name: String,
    pub player: String,
}

/// Which nation each player plays (issue 18 item 3), as `(player index,
/// nation index)` pairs sorted by player. Two passes:
/// 1. a player's `nation` option (`[players.rules] nation = "TUR"`) names a
///    nation by code or name (any case); a nation the scenario lacks, a
///    non-string value, or a nation named by two players refuses the game;
/// 2. a player without the option whose id or display name is a nation's
///    code or name (any case), or, in a position, the player id the nation
///    carries, takes it, if still free: a seat named "Turquie" plays Turkey,
///    never another nation.
///
/// A seat matched by neither refuses the game: nations are never handed out
/// in the scenario's order behind the game master's back (a GM's "Turquie"
/// used to play whichever nation came first). Every refusal names the seat
/// and lists the scenario's nations. More players than nations is refused.
pub fn assign_nations(
    players: &[arbitre_core::PlayerSetup],
    nations: &[Seat],
) -> Result<Vec<(usize, usize)>, SetupError> {
    let find = |word: &str| {
        nations.iter().position(|n| {
            n.code.eq_ignore_ascii_case(word)
                || (!n.name.is_empty() && n.name.to_lowercase() == word.to_lowercase())
        })
    };
    let known = nations
        .iter()
        .map(|n| {
            if n.name.is_empty() {
                n.code.clone()
            } else {
                format!("{} ({})", n.code, n.name)
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    if players.len() > nations.len() {
        return Err(SetupError::PlayerCount {
            got: players.len(),
            min: 1,
            max: Some(nations.len()),
            known: known.clone(),
        });
    }
    let refuse = |p: &arbitre_core::PlayerSetup, problem| SetupError::Nation {
        player: p.id.to_string(),
        problem,
        known: known.clone(),
    };
    let mut owner: Vec<Option<usize>> = vec![None; nations.len()];
    let mut assign: Vec<Option<usize>> = vec![None; players.len()];
    for (pi, p) in players.iter().enumerate() {
        let Some(v) = p.options.get("nation") else {
            continue;
        };
        let word = v
            .as_str()
            .ok_or_else(|| refuse(p, NationProblem::NotText))?;
        let ni = find(word).ok_or_else(|| {
            refuse(
                p,
                NationProblem::NotInScenario {
                    word: word.to_string(),
                },
            )
        })?;
        if let Some(other) = owner[ni] {
            return Err(refuse(
                p,
                NationProblem::NamedTwice {
                    nation: nations[ni].code.clone(),
                    other: players[other].id.to_string(),
                },
            ));
        }
        owner[ni] = Some(pi);
        assign[pi] = Some(ni);
    }
    for (pi, p) in players.iter().enumerate() {
        if assign[pi].is_some() {
            continue;
        }
        let hit = find(p.id.as_str()).or_else(|| find(&p.name)).or_else(|| {
            nations
                .iter()
                .position(|n| !n.player.is_empty() && n.player == p.id.as_str())
        });
        match hit {
            Some(ni) if owner[ni].is_none() => {
                owner[ni] = Some(pi);
                assign[pi] = Some(ni);
            }
            Some(ni) => {
                return Err(refuse(
                    p,
                    NationProblem::Taken {
                        nation: nations[ni].code.clone(),
                        other: owner[ni]
                            .map(|o| players[o].id.to_string())
                            .unwrap_or_default(),
                    },
                ));
            }
            None => {
                return Err(refuse(p, NationProblem::None));
            }
        }
    }
    Ok(assign
        .into_iter()
        .enumerate()
        .filter_map(|(pi, ni)| ni.map(|ni| (pi, ni)))
        .collect())
}

fn apply_param_overrides(p: &mut Params, opts: &toml::Table) -> Result<(), SetupError> {
    let mut t = toml::Table::try_from(p.clone()).map_err(perr)?;
    for (k, v) in opts {
        if t.contains_key(k) {
            t.insert(k.clone(), v.clone());
        }
    }
    *p = t.try_into().map_err(perr)?;
    Ok(())
}

/// A position's `map`: a built-in map's name, or the map itself inline
/// (zones, crossings, straits; issue 18 item 4).
#[derive(Deserialize)]
#[serde(untagged)]
enum MapSpec {
    Name(String),
    Inline(Map),
}

#[derive(Deserialize)]
struct PositionHead {
    #[serde(default)]
    map: Option<MapSpec>,
}

/// Load a full position (serde form of [`State`] in TOML).
pub fn from_position(text: &str, cfg: &SetupConfig) -> Result<State, SetupError> {
    let head: PositionHead = toml::from_str(text).map_err(perr)?;
    let mut table: toml::Table = toml::from_str(text).map_err(perr)?;
    table.remove("map");
    // Units may be written as a list (`[[units]]`), the natural TOML form.
    if let Some(toml::Value::Array(list)) = table.get("units").cloned() {
        let mut keyed = toml::Table::new();
        for (i, u) in list.into_iter().enumerate() {
            let id = u
                .get("id")
                .and_then(|v| v.as_integer())
                .unwrap_or(i as i64 + 1);
            // Issue 19 item 7: a second unit with one id used to replace the first.
            if keyed.insert(ukey(id as UnitId), u).is_some() {
                return Err(SetupError::Duplicate {
                    item: Item::Unit,
                    id: id.to_string(),
                });
            }
        }
        table.insert("units".into(), toml::Value::Table(keyed));
    }
    let mut st: State = table.try_into().map_err(perr)?;
    match head.map {
        Some(MapSpec::Name(name)) => {
            let sc = builtin(&name).ok_or_else(|| unknown_scenario(&name))?;
            let sf: ScenarioFile = toml::from_str(sc).map_err(perr)?;
            st.map = Map {
                zones: sf.zone,
                crossings: sf.crossing,
                straits: sf.strait,
                ..Default::default()
            };
        }
        Some(MapSpec::Inline(map)) => st.map = map,
        None => {}
    }
    check_map(&st.map)?;
    for z in st
        .map
        .zones
        .iter()
        .map(|z| z.code.clone())
        .collect::<Vec<_>>()
    {
        st.zones.entry(z).or_default();
    }
    // The game file names the game; a `game_id` in a position (exports
    // before this one wrote it) gives way to it (docs/wwk.md).
    if !cfg.game_id.is_empty() || st.game_id.is_empty() {
        st.game_id = cfg.game_id.clone();
    }
    // Unit ids: a hand-written position may omit next_id.
    let max = st.units.values().map(|u| u.id).max().unwrap_or(0);
    st.next_id = st.next_id.max(max);
    // Re-key units by id so that hand-written keys are canonical.
    let units: Vec<Unit> = std::mem::take(&mut st.units).into_values().collect();
    for mut u in units {
        u.code = u.code.to_ascii_uppercase();
        if catalog::spec(&u.code).is_none() {
            return Err(SetupError::Unknown {
                item: Item::UnitType,
                name: u.code,
            });
        }
        st.units.insert(ukey(u.id), u);
    }
    for (code, n) in st.nations.iter_mut() {
        n.code = code.clone();
        if n.player.is_empty() {
            n.player = code.to_ascii_lowercase();
        }
    }
    check_position_items(&st)?;
    // Players of the game TOML take the position's nations by the same
    // rule as a scenario's (issue 18 item 3).
    if !cfg.players.is_empty() {
        let list: Vec<Seat> = st
            .nations
            .values()
            .map(|n| Seat {
                code: n.code.clone(),
                name: n.name.clone(),
                player: n.player.clone(),
            })
            .collect();
        for (pi, ni) in assign_nations(&cfg.players, &list)? {
            let code = &list[ni].code;
            if let Some(n) = st.nations.get_mut(code) {
                n.player = cfg.players[pi].id.to_string();
            }
        }
    }
    apply_param_overrides(&mut st.params, &cfg.options)?;
    Ok(st)
}

/// The position of a state, as `arbitre game export` writes it (issue 19
/// item 6): the whole state in TOML, its map inline, which
/// [`from_position`] reads back to the same game. The turn is the last
/// resolved turn.
///
/// The game's id is left out: it belongs to the game file that loads the
/// position, so a game started from another game's position reports under
/// its own id (it used to print the source game's id in every report).
pub fn export_position(st: &State) -> Result<String, SetupError> {
    let mut st = st.clone();
    st.game_id.clear();
    toml::to_string(&st).map_err(|e| SetupError::Position(e.to_string()))
}

/// The keys of a game's `[rules]` that choose the start (the others are
/// [`Params`]).
pub const SETUP_KEYS: [&str; 6] = [
    "scenario",
    "map",
    "scenario_file",
    "map_file",
    "position",
    "position_file",
];

/// The keys of a player's `[players.rules]`.
pub const PLAYER_KEYS: [&str; 1] = ["nation"];

/// Every key a game's `[rules]` accepts: [`SETUP_KEYS`] and the parameters
/// (issue 19 item 1; docs/wwk.md lists them, a test keeps the list true).
pub fn rules_keys() -> Vec<String> {
    let params = toml::Table::try_from(Params::default()).unwrap_or_default();
    SETUP_KEYS
        .iter()
        .map(|k| k.to_string())
        .chain(params.keys().cloned())
        .collect()
}

/// Unknown keys first (issue 19 items 1–2): a misspelt `mapp = "monde"`
/// must be named, not hidden behind the player count of the default map.
fn check_game_file(cfg: &SetupConfig) -> Result<(), SetupError> {
    let keys = rules_keys();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    arbitre_core::ruleset::check_keys(&cfg.options, "[rules]", &keys)?;
    arbitre_core::ruleset::check_player_keys(&cfg.players, &PLAYER_KEYS)
}

fn unknown_scenario(name: &str) -> SetupError {
    SetupError::UnknownMap {
        name: name.to_string(),
        valid: builtin_names(),
    }
}

/// Issue 19 item 7: what a hand-written position gets wrong, each error
/// naming the item (zones are checked by [`check_map`]).
fn check_position_items(st: &State) -> Result<(), SetupError> {
    let unknown = |item: Item, id: String, role: Role, target: Item, name: &str| {
        Err(SetupError::UnknownRef {
            item,
            id,
            role,
            target,
            name: name.to_string(),
        })
    };
    for n in st.nations.values() {
        // A position's nation may omit its home (nothing after setup reads
        // it); one that names a home names a zone of the map.
        if !n.home.is_empty() && !st.is_zone(&n.home) {
            return unknown(
                Item::Nation,
                n.code.clone(),
                Role::Home,
                Item::Zone,
                &n.home,
            );
        }
    }
    for u in st.units.values() {
        if !st.is_zone(&u.at) {
            return unknown(
                Item::Unit,
                format!("{} ({} {})", u.id, u.owner, u.code),
                Role::Place,
                Item::Zone,
                &u.at,
            );
        }
        if u.owner != NEUTRAL && u.owner != GUERRILLA && !st.nations.contains_key(&u.owner) {
            return unknown(
                Item::Unit,
                format!("{} ({})", u.id, u.code),
                Role::Owner,
                Item::Nation,
                &u.owner,
            );
        }
    }
    for (code, z) in &st.zones {
        if !st.is_zone(code) {
            return Err(SetupError::Unknown {
                item: Item::Zone,
                name: code.clone(),
            });
        }
        if let Status::Controlled { by } = &z.status {
            if !st.nations.contains_key(by) {
                return unknown(Item::Zone, code.clone(), Role::Owner, Item::Nation, by);
            }
        }
    }
    Ok(())
}

pub fn setup(cfg: &SetupConfig) -> Result<State, SetupError> {
    check_game_file(cfg)?;
    if let Some(text) = cfg.files.get("position_file") {
        return from_position(text, cfg);
    }
    if let Some(pos) = cfg.options.get("position") {
        let text = toml::to_string(pos).map_err(perr)?;
        return from_position(&text, cfg);
    }
    for key in ["scenario_file", "map_file"] {
        if let Some(text) = cfg.files.get(key) {
            return from_scenario(text, cfg);
        }
    }
    let name = cfg
        .options
        .get("map")
        .or_else(|| cfg.options.get("scenario"))
        .and_then(|v| v.as_str())
        .unwrap_or("trio");
    let text = builtin(name).ok_or_else(|| unknown_scenario(name))?;
    from_scenario(text, cfg)
}
