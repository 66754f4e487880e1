//! Game parameters (rulebook "Créer une partie"; spec §1.3 and §10.T2).
//!
//! Every key has the rulebook's default (or the spec's recommended one where the
//! rulebook gives none, see docs/scrambled.md). The game's `[rules]` table may
//! override any of them; an unknown key is an error (SCN-1) so that a typo never
//! silently plays a game with the default.

use arbitre_core::setup_error::Expected;
use arbitre_core::SetupError;
use serde::{Deserialize, Serialize};

/// The rule parameters of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// Seconds between turns; the daemon owns the clock, we only keep and show it.
    pub turn_interval: u64,
    pub turn_limit: u32,
    pub min_players: Option<u32>,
    pub max_players: Option<u32>,
    pub troops_home_upkeep: u64,
    pub troops_away_upkeep: u64,
    pub troops_recruit_cost: u64,
    pub troops_efficiency: u64,
    pub troops_capture_capacity: u64,
    pub territory_base_income: u64,
    pub economy_modifier_conflict: i64,
    pub economy_modifier_peace: i64,
    pub bureaucracy_max_ratio: u32,
    pub bureaucracy_min_ratio: u32,
    pub allow_join_midgame: bool,
    pub starting_troops: u64,
    pub corruption_per_hop: u32,
    pub corruption_max: u32,
    pub neutral_initial_economy: u32,
    pub start_economy: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            turn_interval: 86_400,
            turn_limit: 30,
            min_players: None,
            max_players: None,
            troops_home_upkeep: 2,
            troops_away_upkeep: 3,
            troops_recruit_cost: 20,
            troops_efficiency: 5,
            // D1: the parameter list's 50, not the capture section's 20.
            troops_capture_capacity: 50,
            territory_base_income: 10_000,
            economy_modifier_conflict: -20,
            economy_modifier_peace: 20,
            bureaucracy_max_ratio: 100,
            bureaucracy_min_ratio: 50,
            allow_join_midgame: true,
            starting_troops: 1000,
            corruption_per_hop: 2,
            corruption_max: 50,
            neutral_initial_economy: 0,
            start_economy: 100,
        }
    }
}

/// Keys of `[rules]` that are not parameters but are understood by setup.
pub const SETUP_KEYS: &[&str] = &[
    "world",
    "map",
    "world_file",
    "map_file",
    "position",
    "position_file",
    "parameters",
    "scenario",
];

pub const PARAM_KEYS: &[&str] = &[
    "turn_interval",
    "turn_limit",
    "min_players",
    "max_players",
    "troops_home_upkeep",
    "troops_away_upkeep",
    "troops_recruit_cost",
    "troops_efficiency",
    "troops_capture_capacity",
    "territory_base_income",
    "economy_modifier_conflict",
    "economy_modifier_peace",
    "bureaucracy_max_ratio",
    "bureaucracy_min_ratio",
    "allow_join_midgame",
    "starting_troops",
    "corruption_per_hop",
    "corruption_max",
    "neutral_initial_economy",
    "start_economy",
];

/// Why a parameter is refused: the same kinds as every setup error, so the
/// command line renders them in its language (issue 19 item 3).
pub type ParamError = SetupError;

fn bad(key: &str, v: &toml::Value, expected: Expected) -> ParamError {
    SetupError::BadValue {
        key: key.into(),
        value: v.to_string(),
        expected,
    }
}

fn int(key: &str, v: &toml::Value) -> Result<i64, ParamError> {
    v.as_integer().ok_or_else(|| bad(key, v, Expected::Integer))
}

fn nonneg(key: &str, v: &toml::Value) -> Result<u64, ParamError> {
    let i = int(key, v)?;
    u64::try_from(i).map_err(|_| bad(key, v, Expected::AtLeast(0)))
}

/// `"1d"`, `"12h"`, `"30m"`, or an integer number of seconds.
pub fn parse_interval(key: &str, v: &toml::Value) -> Result<u64, ParamError> {
    if let Some(i) = v.as_integer() {
        return u64::try_from(i).map_err(|_| bad(key, v, Expected::Duration));
    }
    let s = v.as_str().ok_or_else(|| bad(key, v, Expected::Duration))?;
    let s = s.trim();
    let (num, unit) = s.split_at(s.len().saturating_sub(1));
    let mult = match unit {
        "d" | "j" => 86_400,
        "h" => 3_600,
        "m" => 60,
        "s" => 1,
        _ => return Err(bad(key, v, Expected::Duration)),
    };
    num.parse::<u64>()
        .map(|n| n * mult)
        .map_err(|_| bad(key, v, Expected::Duration))
}

impl Params {
    /// Apply the overrides of a TOML table. Keys in `ignore` are left to the caller.
    pub fn apply(&mut self, table: &toml::Table, ignore: &[&str]) -> Result<(), ParamError> {
        for (k, v) in table {
            if ignore.contains(&k.as_str()) {
                continue;
            }
            match k.as_str() {
                "turn_interval" => self.turn_interval = parse_interval(k, v)?,
                "turn_limit" => self.turn_limit = nonneg(k, v)? as u32,
                "min_players" => self.min_players = Some(nonneg(k, v)? as u32),
                "max_players" => self.max_players = Some(nonneg(k, v)? as u32),
                "troops_home_upkeep" => self.troops_home_upkeep = nonneg(k, v)?,
                "troops_away_upkeep" => self.troops_away_upkeep = nonneg(k, v)?,
                "troops_recruit_cost" => self.troops_recruit_cost = nonneg(k, v)?,
                "troops_efficiency" => self.troops_efficiency = nonneg(k, v)?,
                "troops_capture_capacity" => self.troops_capture_capacity = nonneg(k, v)?,
                "territory_base_income" => self.territory_base_income = nonneg(k, v)?,
                "economy_modifier_conflict" => self.economy_modifier_conflict = int(k, v)?,
                "economy_modifier_peace" => self.economy_modifier_peace = int(k, v)?,
                "bureaucracy_max_ratio" => self.bureaucracy_max_ratio = nonneg(k, v)? as u32,
                "bureaucracy_min_ratio" => self.bureaucracy_min_ratio = nonneg(k, v)? as u32,
                "allow_join_midgame" => {
                    self.allow_join_midgame =
                        v.as_bool().ok_or_else(|| bad(k, v, Expected::Bool))?
                }
                "starting_troops" => self.starting_troops = nonneg(k, v)?,
                "corruption_per_hop" => self.corruption_per_hop = nonneg(k, v)? as u32,
                "corruption_max" => self.corruption_max = nonneg(k, v)? as u32,
                "neutral_initial_economy" => self.neutral_initial_economy = nonneg(k, v)? as u32,
                "start_economy" => self.start_economy = nonneg(k, v)? as u32,
                other => {
                    return Err(SetupError::UnknownKey {
                        table: "[rules]".into(),
                        key: other.to_string(),
                        valid: PARAM_KEYS.iter().map(|k| k.to_string()).collect(),
                    })
                }
            }
        }
        self.validate()
    }

    /// The range checks of §10.T2.
    pub fn validate(&self) -> Result<(), ParamError> {
        let bad = |k: &str, value: i64, expected: Expected| {
            Err(SetupError::BadValue {
                key: k.into(),
                value: value.to_string(),
                expected,
            })
        };
        if self.min_players.is_some() && self.max_players.is_some() {
            // D23: one of the two bounds, never both.
            return Err(SetupError::Exclusive {
                a: "min_players".into(),
                b: "max_players".into(),
            });
        }
        if self.troops_efficiency < 1 {
            return bad(
                "troops_efficiency",
                self.troops_efficiency as i64,
                Expected::AtLeast(1),
            );
        }
        if self.troops_capture_capacity < 1 {
            return bad(
                "troops_capture_capacity",
                self.troops_capture_capacity as i64,
                Expected::AtLeast(1),
            );
        }
        if self.troops_recruit_cost < 1 {
            return bad(
                "troops_recruit_cost",
                self.troops_recruit_cost as i64,
                Expected::AtLeast(1),
            );
        }
        if self.bureaucracy_min_ratio > self.bureaucracy_max_ratio
            || self.bureaucracy_max_ratio > 100
        {
            return bad(
                "bureaucracy_min_ratio",
                self.bureaucracy_min_ratio as i64,
                Expected::Between(0, self.bureaucracy_max_ratio.min(100) as i64),
            );
        }
        if self.corruption_max > 100 {
            return bad(
                "corruption_max",
                self.corruption_max as i64,
                Expected::Between(0, 100),
            );
        }
        for (k, m) in [
            ("economy_modifier_conflict", self.economy_modifier_conflict),
            ("economy_modifier_peace", self.economy_modifier_peace),
        ] {
            if !(-100..=100).contains(&m) {
                return bad(k, m, Expected::Between(-100, 100));
            }
        }
        if self.turn_limit < 1 {
            return bad("turn_limit", self.turn_limit as i64, Expected::AtLeast(1));
        }
        for (k, v) in [
            ("start_economy", self.start_economy),
            ("neutral_initial_economy", self.neutral_initial_economy),
        ] {
            if v > 100 {
                return bad(k, v as i64, Expected::Between(0, 100));
            }
        }
        Ok(())
    }
}
