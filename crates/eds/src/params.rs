//! Rule parameters (spec §2.13). Every constant of the rulebook is a parameter the
//! game master may override in the game's `[rules]` table before the start; omitted
//! keys take the rulebook's defaults. Parameters live in the state, so they are
//! frozen once the game has begun (EDS-109): no order or phase changes them.

use arbitre_core::setup_error::Expected;
use arbitre_core::SetupError;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    pub stars_per_player: u32,
    pub area_per_player: u32,
    pub aspect_w: u32,
    pub aspect_h: u32,
    pub min_star_distance: u32,
    pub start_range: u32,
    pub home_neighbours_min: u32,
    pub home_neighbours_max: u32,
    pub resource_balance_min: f64,
    pub resource_balance_max: f64,
    pub ships_per_player: u32,
    pub start_we: i64,
    pub start_ev: u32,
    pub home_bv: u32,
    pub home_stock: [u32; 3],
    pub home_rates: [u32; 3],
    pub start_ships: u32,
    pub name_max_len: usize,
    pub stock_cap: u32,
    pub fighter_cap: u32,
    pub cargo_cap: u32,
    pub bv_max: u32,
    pub ev_win: u32,
    pub yard_repair_hits: u32,
    pub yard_fighters: u32,
    pub fighter_we_l: i64,
    pub fighter_we_t: i64,
    pub fighter_ore: u32,
    pub thermo_fighter_ev: u32,
    pub hull_we_factor: i64,
    pub hull_ore_factor: u32,
    pub repair_base_factor: i64,
    /// Armament and repair weights of L, T, N, A.
    pub arm_weights: [i64; 4],
    pub scrap_ore_percent: u32,
    /// Cost in WE of W, E, U, G, F.
    pub industry_cost: [i64; 5],
    /// Minimum BV of W, E, U, G, F.
    pub industry_bv: [u32; 5],
    pub colonise_factor: i64,
    pub tax_factor: i64,
    pub grain_per_bv: u32,
    pub mine_decline_percent: u32,
    pub research_numerator: u64,
    pub misjump_denominator: u64,
    pub range_base: f64,
    pub range_sqrt_add: f64,
    pub hits_to_destroy: u32,
    pub scatter_min: f64,
    pub scatter_span: f64,
    /// Explosion chance per round, in hundredths of a percent: ship 100 (= 1 %), fighter 25.
    pub explosion_ship_bp: u64,
    pub explosion_fighter_bp: u64,
    /// Entry limits per order kind 1..18.
    pub order_limits: [usize; 18],
    pub months_per_year: u32,
    pub year_names: Vec<String>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            stars_per_player: 25,
            area_per_player: 625,
            aspect_w: 125,
            aspect_h: 85,
            min_star_distance: 2,
            start_range: 10,
            home_neighbours_min: 8,
            home_neighbours_max: 16,
            resource_balance_min: 0.75,
            resource_balance_max: 1.30,
            ships_per_player: 25,
            start_we: 2500,
            start_ev: 0,
            home_bv: 10,
            home_stock: [2000, 100, 400],
            home_rates: [250, 25, 32],
            start_ships: 5,
            name_max_len: 12,
            stock_cap: 30000,
            fighter_cap: 999,
            cargo_cap: 999,
            bv_max: 20,
            ev_win: 100,
            yard_repair_hits: 5,
            yard_fighters: 10,
            fighter_we_l: 100,
            fighter_we_t: 150,
            fighter_ore: 5,
            thermo_fighter_ev: 4,
            hull_we_factor: 100,
            hull_ore_factor: 25,
            repair_base_factor: 25,
            arm_weights: [1, 2, 4, 8],
            scrap_ore_percent: 60,
            industry_cost: [2500, 1000, 1000, 250, 5000],
            industry_bv: [5, 3, 3, 1, 1],
            colonise_factor: 5,
            tax_factor: 10,
            grain_per_bv: 1,
            mine_decline_percent: 10,
            research_numerator: 240,
            misjump_denominator: 17,
            range_base: 8.5,
            range_sqrt_add: 2.25,
            hits_to_destroy: 4,
            scatter_min: 0.60,
            scatter_span: 0.40,
            explosion_ship_bp: 100,
            explosion_fighter_bp: 25,
            order_limits: [
                5, 5, 10, 10, 10, 10, 12, 10, 10, 10, 10, 10, 10, 10, 10, 10, 3, 10,
            ],
            months_per_year: 12,
            year_names: [
                "Jahr des Erwachens",
                "Jahr des Aufbruchs",
                "Jahr der Kolonien",
                "Jahr der Händler",
                "Jahr der Begegnung",
                "Jahr der Flotten",
                "Jahr der Verträge",
                "Jahr der Forscher",
                "Jahr der Grenzen",
                "Jahr der Stürme",
                "Jahr des Wandels",
                "Jahr der Sterne",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        }
    }
}

impl Params {
    /// Values that would make a rule meaningless (a divisor of 0, a battle that can
    /// never end) are refused before the game starts.
    pub fn validate(&self) -> Result<(), SetupError> {
        let positive = [
            ("ships_per_player", self.ships_per_player as i64),
            ("months_per_year", self.months_per_year as i64),
            ("misjump_denominator", self.misjump_denominator as i64),
            ("hits_to_destroy", self.hits_to_destroy as i64),
            ("grain_per_bv", self.grain_per_bv as i64),
            ("stars_per_player", self.stars_per_player as i64),
            ("area_per_player", self.area_per_player as i64),
            ("aspect_h", self.aspect_h as i64),
        ];
        let bad = |key: &str, value: i64, expected: Expected| SetupError::BadValue {
            key: key.into(),
            value: value.to_string(),
            expected,
        };
        for (k, v) in positive {
            if v <= 0 {
                return Err(bad(k, v, Expected::AtLeast(1)));
            }
        }
        // Ships must be certain to explode by round 1000 (§4.4.7).
        if self.explosion_ship_bp < 10 {
            return Err(bad(
                "explosion_ship_bp",
                self.explosion_ship_bp as i64,
                Expected::AtLeast(10),
            ));
        }
        if self.hits_to_destroy > 4 {
            return Err(bad(
                "hits_to_destroy",
                self.hits_to_destroy as i64,
                Expected::Between(1, 4),
            ));
        }
        Ok(())
    }

    /// Parameters from the keys of a `[rules]` table that are not setup keys.
    pub fn from_table(t: &toml::Table) -> Result<Params, SetupError> {
        toml::Value::Table(t.clone())
            .try_into::<Params>()
            .map_err(|e| SetupError::Rules(e.to_string()))
    }
}
