//! What the Befehlsblatt's checks read of the state, found once per state
//! (issue 21): the ruler a player id names, the month a sheet must name
//! (`MONAT:`, EDS-15) and, for the receipt, each ship's owner and whether
//! it is a home base (spec §3.4, the orders on ships of phases 2 to 11).
//!
//! Read from the state, the ruler is a scan of every ruler comparing ids
//! and a ship a B-tree search: at 2,500 stars and 99 rulers they were a
//! tenth of a parse. The turn's parse and a loaded game's checks build the
//! index once ([`arbitre_core::Ruleset::parse_index`]); a block without one
//! reads the state, with the same verdicts
//! (`tests/grammar_differential.rs`).

use crate::formulas::short_month;
use crate::model::{RulerNr, ShipNr, State};
// Keys are player ids from the game file and ship numbers of the state,
// not text of a mail: a fast hash (Fx) rather than SipHash.
use rustc_hash::FxHashMap as HashMap;

/// A ship as the receipt sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShipFacts {
    pub owner: RulerNr,
    pub home_base: bool,
}

/// The index of one state.
#[derive(Clone, Debug)]
pub struct Index {
    /// The first ruler of each id, as [`State::ruler_by_id`] finds it.
    rulers: HashMap<String, RulerNr>,
    ships: HashMap<ShipNr, ShipFacts>,
    /// The month the sheet is for (`J1/M2`).
    month: String,
}

impl Index {
    pub fn build(s: &State) -> Index {
        let mut rulers = HashMap::default();
        for r in &s.rulers {
            rulers.entry(r.id.as_str().to_string()).or_insert(r.number);
        }
        let ships = s
            .ships
            .iter()
            .map(|(&n, sh)| {
                (
                    n,
                    ShipFacts {
                        owner: sh.owner,
                        home_base: sh.home_base,
                    },
                )
            })
            .collect();
        Index {
            rulers,
            ships,
            month: expected_month(s),
        }
    }

    /// The number of the ruler `id` plays.
    pub fn ruler(&self, id: &str) -> Option<RulerNr> {
        self.rulers.get(id).copied()
    }

    pub fn ship(&self, n: ShipNr) -> Option<ShipFacts> {
        self.ships.get(&n).copied()
    }

    pub fn month(&self) -> &str {
        &self.month
    }
}

/// The month a sheet for `s` must name.
pub fn expected_month(s: &State) -> String {
    short_month(&s.params, s.month + 1)
}

/// A ship read from the state itself (a block parsed without an index).
pub fn ship_of(s: &State, n: ShipNr) -> Option<ShipFacts> {
    s.ships.get(&n).map(|sh| ShipFacts {
        owner: sh.owner,
        home_base: sh.home_base,
    })
}
