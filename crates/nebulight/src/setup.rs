//! Game creation (spec 4 "what the referee does" step 1, NEB-1..5): built-in
//! maps, map files, inline or file positions, options, initial UP and the
//! turn-0 discovered worlds.

use crate::map;
use crate::model::*;
use crate::tech;
use crate::update::{fleets_by_world, up_with};
use crate::visibility;
use arbitre_core::setup_error::{Expected, Item, Rule};
use arbitre_core::{Rng, SetupConfig, SetupError};

/// Built-in maps and scenarios (positions of the rulebook's worked examples),
/// embedded so the crate never does I/O: `map = "duel"` in a game's `[rules]`.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "duel-petit",
        include_str!("../../../rulesets/nebulight/maps/duel-petit.toml"),
    ),
    (
        "duel",
        include_str!("../../../rulesets/nebulight/maps/duel.toml"),
    ),
    (
        "exemple-ouverture",
        include_str!("../../../rulesets/nebulight/scenarios/exemple-ouverture.toml"),
    ),
    (
        "exemple-combat",
        include_str!("../../../rulesets/nebulight/scenarios/exemple-combat.toml"),
    ),
    (
        "exemple-embuscade",
        include_str!("../../../rulesets/nebulight/scenarios/exemple-embuscade.toml"),
    ),
    (
        "exemple-paralysie",
        include_str!("../../../rulesets/nebulight/scenarios/exemple-paralysie.toml"),
    ),
];

/// Every key a game's `[rules]` accepts (issue 19 item 1; docs/nebulight.md
/// lists them, a test keeps the list true).
pub const RULES_KEYS: [&str; 7] = [
    "map",
    "map_file",
    "position",
    "position_file",
    "turns",
    "hide_foreign_cargo",
    "enforce_known_worlds",
];

/// The keys of a player's `[players.rules]`.
pub const PLAYER_KEYS: [&str; 1] = ["slot"];

/// The names `map` accepts.
pub fn builtin_names() -> Vec<String> {
    BUILTIN.iter().map(|(n, _)| n.to_string()).collect()
}

fn opt_bool(c: &SetupConfig, key: &str, default: bool) -> Result<bool, SetupError> {
    match c.options.get(key) {
        None => Ok(default),
        Some(v) => v.as_bool().ok_or_else(|| SetupError::BadValue {
            key: key.to_string(),
            value: v.to_string(),
            expected: Expected::Bool,
        }),
    }
}

pub fn setup(c: &SetupConfig, rng: &mut Rng) -> Result<NebState, SetupError> {
    // Unknown keys first (issue 19 items 1–2): `mapp = "duel-petit"` used to
    // give the default 41-world map without a word.
    arbitre_core::ruleset::check_keys(&c.options, "[rules]", &RULES_KEYS)?;
    arbitre_core::ruleset::check_player_keys(&c.players, &PLAYER_KEYS)?;
    if c.players.len() != 2 {
        return Err(SetupError::PlayerCount {
            got: c.players.len(),
            min: 2,
            max: Some(2),
            known: String::new(),
        });
    }
    for p in &c.players {
        if p.name.chars().any(|ch| "\"():!{}\n\r".contains(ch)) {
            return Err(SetupError::Breaks {
                item: Item::Player,
                id: p.name.clone(),
                rule: Rule::BadName,
            });
        }
    }
    let text: String = if let Some(t) = c.files.get("position_file") {
        t.clone()
    } else if let Some(v) = c.options.get("position") {
        let table = v.as_table().ok_or_else(|| SetupError::BadValue {
            key: "position".into(),
            value: v.to_string(),
            expected: Expected::Table,
        })?;
        toml::to_string(table).map_err(|e| SetupError::Position(e.to_string()))?
    } else if let Some(t) = c.files.get("map_file") {
        t.clone()
    } else {
        let name = c
            .options
            .get("map")
            .and_then(|v| v.as_str())
            .unwrap_or("duel");
        BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.to_string())
            .ok_or_else(|| SetupError::UnknownMap {
                name: name.to_string(),
                valid: builtin_names(),
            })?
    };
    // Slot 1 is the map's player 1. By default the players' TOML order decides;
    // `[players.rules] slot = 1|2` may say it explicitly (both players then).
    let mut ordered: Vec<&arbitre_core::PlayerSetup> = c.players.iter().collect();
    let slots: Vec<Option<i64>> = ordered
        .iter()
        .map(|p| p.options.get("slot").and_then(|v| v.as_integer()))
        .collect();
    if slots.iter().any(|x| x.is_some()) {
        let mut sorted = slots.clone();
        sorted.sort();
        if sorted != [Some(1), Some(2)] {
            return Err(SetupError::BadValue {
                key: "[players.rules] slot".into(),
                value: sorted
                    .iter()
                    .map(|s| s.map_or("-".into(), |s| s.to_string()))
                    .collect::<Vec<_>>()
                    .join(", "),
                expected: Expected::Between(1, 2),
            });
        }
        ordered.sort_by_key(|p| p.options.get("slot").and_then(|v| v.as_integer()));
    }
    let loaded = map::load(&text, rng)?;
    let renumber = loaded.renumber;
    let mut players = Vec::new();
    for (slot, p) in ordered.iter().enumerate() {
        let o = loaded.players.get(&slot);
        let lvl = |t: Tech, x: Option<&TechLevel>| {
            x.cloned().unwrap_or(TechLevel {
                level: tech::initial(t),
                progress: 0,
            })
        };
        let name = if p.name.is_empty() {
            p.id.to_string()
        } else {
            p.name.clone()
        };
        // Issue 19 item 8: the game file names the players; a position's
        // `name` that says otherwise is refused, never silently dropped.
        if let Some(given) = o.and_then(|o| o.name.as_ref()) {
            if *given != name {
                return Err(SetupError::NameMismatch {
                    player: (slot + 1).to_string(),
                    position: given.clone(),
                    game: name,
                });
            }
        }
        players.push(Player {
            id: p.id.to_string(),
            name,
            dep: lvl(Tech::Dep, o.and_then(|o| o.dep.as_ref())),
            att: lvl(Tech::Att, o.and_then(|o| o.att.as_ref())),
            def: lvl(Tech::Def, o.and_then(|o| o.def.as_ref())),
            score_total: o.map_or(0, |o| o.score),
            discovered: o.map(|o| o.discovered.clone()).unwrap_or_default(),
        });
    }
    let turns = match c.options.get("turns") {
        Some(v) => v
            .as_integer()
            .filter(|n| *n >= 1)
            .ok_or_else(|| SetupError::BadValue {
                key: "turns".into(),
                value: v.to_string(),
                expected: Expected::AtLeast(1),
            })? as u32,
        None => loaded.max_turns.unwrap_or(20),
    };
    let mut s = NebState {
        game: c.game_id.clone(),
        turn: loaded.turn,
        max_turns: turns,
        options: Options {
            hide_foreign_cargo: opt_bool(c, "hide_foreign_cargo", true)?,
            enforce_known_worlds: opt_bool(c, "enforce_known_worlds", true)?,
        },
        players,
        worlds: loaded.worlds,
        fleets: loaded.fleets,
        log: TurnLog::default(),
    };
    // A map must give each player a world; a position may show a player who
    // has already lost everything.
    for slot in 0..2 {
        if renumber && !s.worlds.values().any(|w| w.owner == Some(slot)) {
            return Err(SetupError::NoHome {
                player: (slot + 1).to_string(),
            });
        }
    }
    let at = fleets_by_world(&s);
    for (id, w) in s.worlds.iter_mut() {
        if !loaded.up_given.contains(id) {
            w.up = up_with(w, at.get(id).map_or(&[], |v| v.as_slice()));
        }
    }
    for slot in 0..2 {
        let v = visibility::visible(&s, slot);
        s.players[slot].discovered.extend(v);
    }
    Ok(s)
}
