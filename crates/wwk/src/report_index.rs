//! What every report of a turn reads of the state and the events that does
//! not depend on its reader, computed once (issue 22 item 5): the units of
//! each zone and of each hold, the zones each owner has units in, each
//! zone's capital and guerrilla flags and neighbours, and the zones the
//! espionage and reconnaissance events name. A report used to rebuild all
//! of it, looking every unit up by its string key, once per reader.
//!
//! Facts are kept by map position. Where a code is on the map twice (a map
//! `check_map` refuses), every position of the code reads the facts of its
//! first one, as the code-keyed sets these replace did.

use crate::model::*;
use crate::turn::{Event, Sec};
use rustc_hash::FxHashMap;
use std::cell::OnceCell;

pub struct Index<'a> {
    pub st: &'a State,
    pub events: &'a [Event],
    /// The first position of each position's code.
    first: Vec<usize>,
    /// `st.zone(code)` of each position.
    zones: Vec<&'a ZoneState>,
    /// Units standing in each zone, in the state's unit order.
    here: Vec<Vec<&'a Unit>>,
    /// The hold of each carrier: the units at `@<id>`, in unit order.
    hold: FxHashMap<UnitId, Vec<&'a Unit>>,
    /// Units in space (`#TTNN`), in unit order.
    space: Vec<&'a Unit>,
    /// For each owner, the zones where it has a unit (cargo in its
    /// carrier's zone): [`State::unit_zone`] of each of its units.
    present: FxHashMap<&'a str, Vec<bool>>,
    /// A controller's capital (§2.3), whatever the reader sees.
    capital: Vec<bool>,
    guerrilla: Vec<bool>,
    /// Espionage and reconnaissance events, with the zones their text names
    /// in brackets.
    revealing: Vec<(&'a Event, Vec<usize>)>,
    /// Neighbours by land and by sea: only a nation's zone table needs them.
    sides: OnceCell<Vec<(Vec<ZoneCode>, Vec<ZoneCode>)>>,
}

impl<'a> Index<'a> {
    pub fn new(st: &'a State, events: &'a [Event]) -> Self {
        let zones = &st.map.zones;
        let first: Vec<usize> = zones
            .iter()
            .enumerate()
            .map(|(i, d)| st.map.position(&d.code).unwrap_or(i))
            .collect();
        let mut here: Vec<Vec<&Unit>> = vec![Vec::new(); zones.len()];
        let mut hold: FxHashMap<UnitId, Vec<&Unit>> = FxHashMap::default();
        let mut space = Vec::new();
        let mut present: FxHashMap<&str, Vec<bool>> = FxHashMap::default();
        let keyed_by_id = st.units.iter().all(|(k, u)| is_ukey(k, u.id));
        for u in st.units.values() {
            let at = st.map.position(&u.at);
            // `UnitsAt::units` reads each unit again by its id, which finds
            // another unit, or none, under a key that is not its id's.
            let listed = if keyed_by_id {
                Some(u)
            } else {
                st.unit(u.id).filter(|v| v.at == u.at)
            };
            if let Some(v) = listed {
                if let Some(p) = at {
                    here[p].push(v);
                }
                if let Some(id) = carrier(&u.at) {
                    hold.entry(id).or_default().push(v);
                }
            }
            if u.at.starts_with('#') {
                space.push(u);
            }
            // With every unit under its own id's key, `st.unit(u.id)` is `u`
            // and `st.unit_zone(u.id)` of a unit outside a hold is its `at`.
            let zone = if keyed_by_id && !u.at.starts_with('@') {
                at.filter(|_| !u.at.starts_with('#'))
            } else {
                st.unit_zone(u.id).and_then(|z| st.map.position(&z))
            };
            if let Some(p) = zone {
                present
                    .entry(u.owner.as_str())
                    .or_insert_with(|| vec![false; zones.len()])[p] = true;
            }
        }
        let zone_states: Vec<&ZoneState> = zones.iter().map(|d| st.zone(&d.code)).collect();
        let capital = (0..zones.len())
            .map(|i| match &zone_states[i].status {
                Status::Controlled { by } => {
                    here[first[i]]
                        .iter()
                        .filter(|u| u.owner == *by && u.code == "FAC")
                        .count()
                        >= st.params.capital_min_factories
                }
                _ => false,
            })
            .collect();
        let guerrilla = (0..zones.len())
            .map(|i| here[first[i]].iter().any(|u| u.owner == GUERRILLA))
            .collect();
        let revealing = events
            .iter()
            .filter(|e| matches!(e.sec, Sec::Espionage | Sec::Recon))
            .map(|e| {
                let named = e
                    .text
                    .split('[')
                    .skip(1)
                    .filter_map(|part| part.split(']').next())
                    .filter_map(|code| st.map.position(code))
                    .collect();
                (e, named)
            })
            .collect();
        Index {
            st,
            events,
            first,
            zones: zone_states,
            here,
            hold,
            space,
            present,
            capital,
            guerrilla,
            revealing,
            sides: OnceCell::new(),
        }
    }

    /// The zone at map position `i`.
    pub fn zone(&self, i: usize) -> &'a ZoneState {
        self.zones[i]
    }

    /// Units standing in the zone at map position `i`, in unit order.
    pub fn units_in(&self, i: usize) -> &[&'a Unit] {
        &self.here[self.first[i]]
    }

    /// The units carried by unit `id` (at `@<id>`), in unit order.
    pub fn hold_of(&self, id: UnitId) -> &[&'a Unit] {
        self.hold.get(&id).map_or(&[], |v| v.as_slice())
    }

    /// Units in space, in unit order.
    pub fn space(&self) -> &[&'a Unit] {
        &self.space
    }

    /// The zones where `owner` has a unit, for [`Present::at`].
    pub fn present(&self, owner: &str) -> Present<'_> {
        Present {
            first: &self.first,
            zones: self.present.get(owner).map(|v| v.as_slice()),
        }
    }

    pub fn capital(&self, i: usize) -> bool {
        self.capital[i]
    }

    pub fn guerrilla(&self, i: usize) -> bool {
        self.guerrilla[i]
    }

    /// The zones named by the espionage and reconnaissance events `sees`
    /// accepts, by map position.
    pub fn revealed(&self, sees: impl Fn(&Event) -> bool) -> Vec<bool> {
        let mut out = vec![false; self.zones.len()];
        for (_, named) in self.revealing.iter().filter(|(e, _)| sees(e)) {
            for &p in named {
                out[p] = true;
            }
        }
        (0..out.len()).map(|i| out[self.first[i]]).collect()
    }

    /// The neighbours of the zone at map position `i`, land then sea.
    pub fn sides(&self, i: usize) -> (&[ZoneCode], &[ZoneCode]) {
        let all = self.sides.get_or_init(|| {
            self.st
                .map
                .zones
                .iter()
                .map(|d| {
                    let (mut land, mut sea) = (vec![], vec![]);
                    for n in self.st.neighbours(&d.code) {
                        if self.st.kind(&n).is_sea() {
                            sea.push(n);
                        } else {
                            land.push(n);
                        }
                    }
                    (land, sea)
                })
                .collect()
        });
        (&all[i].0, &all[i].1)
    }
}

/// The zones where one owner has a unit, looked up once per report.
#[derive(Clone, Copy)]
pub struct Present<'i> {
    first: &'i [usize],
    zones: Option<&'i [bool]>,
}

impl Present<'_> {
    /// Whether the owner has a unit in the zone at map position `i`.
    pub fn at(&self, i: usize) -> bool {
        self.zones.is_some_and(|v| v[self.first[i]])
    }
}

/// The carrier `id` of a place written `@<id>` exactly as `format!("@{id}")`
/// writes it (no sign, no leading zero), the only spelling a hold is looked
/// up by.
fn carrier(at: &str) -> Option<UnitId> {
    let s = at.strip_prefix('@')?;
    let id: UnitId = s.parse().ok()?;
    (s.len() == decimal_len(id)).then_some(id)
}

fn decimal_len(mut v: UnitId) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}
