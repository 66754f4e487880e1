//! What a nation sees of the map (issue 18, items 1 and 2): one row per zone
//! with its static data (code, name, kind, neighbours by land and by sea),
//! the control the nation's text report shows, its own units and bases, and
//! whether its espionage or reconnaissance named the zone this turn.
//!
//! The rows are computed once and rendered twice: as the zone table of the
//! text report and as the SVG map (`svg`). Both therefore show the same
//! thing, and the fog of war of §8.1 (S l.571) is decided here only: a nation
//! sees the control of the zones it holds, shares, contests or has units in,
//! exactly the zones the `ZONES` section of its report lists. The map graph
//! itself (codes, names, links) is the scenario's public data.

use crate::catalog::sp;
use crate::model::*;
use crate::turn::{Event, Sec};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Control of a zone as the viewer knows it: `null` in the JSON view when
/// unknown, the control otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Seen {
    /// The viewer's report says nothing about this zone.
    Unknown,
    Known(Status),
}

/// One zone as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneRow {
    pub code: ZoneCode,
    pub name: String,
    pub kind: ZoneKind,
    #[serde(rename = "control")]
    pub seen: Seen,
    /// A capital (§2.3) in a zone whose control is shown.
    pub capital: bool,
    /// Neighbours (adjacency and red-line crossings) that are land or mountain.
    pub land: Vec<ZoneCode>,
    /// Neighbours that are seas.
    pub sea: Vec<ZoneCode>,
    /// The viewer's units here (bases excluded), by code.
    pub units: BTreeMap<String, usize>,
    /// The viewer's bases here (factories included), by code.
    pub bases: BTreeMap<String, usize>,
    /// Named by the viewer's espionage or reconnaissance results this turn.
    pub revealed: bool,
}

/// Zones of `st` as `viewer` sees them, in map order. `events` are the
/// turn's events; only those the viewer may read are used.
pub fn rows(st: &State, events: &[Event], viewer: Option<&str>, gm: bool) -> Vec<ZoneRow> {
    let at = st.units_at();
    let present: BTreeSet<String> = match viewer {
        Some(n) => st
            .units
            .values()
            .filter(|u| u.owner == n)
            .filter_map(|u| st.unit_zone(u.id))
            .collect(),
        None => BTreeSet::new(),
    };
    let codes: BTreeSet<&str> = st.map.zones.iter().map(|z| z.code.as_str()).collect();
    let mut revealed: BTreeSet<String> = BTreeSet::new();
    for e in events
        .iter()
        .filter(|e| matches!(e.sec, Sec::Espionage | Sec::Recon))
        .filter(|e| gm || e.visible(viewer))
    {
        for part in e.text.split('[').skip(1) {
            if let Some(code) = part.split(']').next() {
                if codes.contains(code) {
                    revealed.insert(code.to_string());
                }
            }
        }
    }
    st.map
        .zones
        .iter()
        .map(|d| {
            let z = d.code.as_str();
            let zs = st.zone(z);
            // The same rule as the ZONES section of `report::render`.
            let visible = match viewer {
                _ if gm => true,
                None => zs.status != Status::Neutral,
                Some(n) => zs.status.has_party(n) || present.contains(z),
            };
            let seen = if visible {
                Seen::Known(zs.status.clone())
            } else {
                Seen::Unknown
            };
            let capital = visible
                && match &zs.status {
                    Status::Controlled { by } => {
                        at.units(st, z)
                            .filter(|u| u.owner == *by && u.code == "FAC")
                            .count()
                            >= st.params.capital_min_factories
                    }
                    _ => false,
                };
            let (mut land, mut sea) = (vec![], vec![]);
            for n in st.neighbours(z) {
                if st.kind(&n).is_sea() {
                    sea.push(n);
                } else {
                    land.push(n);
                }
            }
            let (mut units, mut bases) = (BTreeMap::new(), BTreeMap::new());
            if let Some(n) = viewer {
                for u in at.units(st, z).filter(|u| u.owner == n) {
                    let into = if sp(&u.code).is_base() {
                        &mut bases
                    } else {
                        &mut units
                    };
                    *into.entry(u.code.clone()).or_insert(0) += 1;
                }
            }
            ZoneRow {
                code: d.code.clone(),
                name: d.name.clone(),
                kind: d.kind,
                seen,
                capital,
                land,
                sea,
                units,
                bases,
                revealed: revealed.contains(z),
            }
        })
        .collect()
}

/// French word for a zone kind, as the zone table prints it.
pub fn kind_word(k: ZoneKind) -> &'static str {
    match k {
        ZoneKind::Land => "terre",
        ZoneKind::Sea => "mer",
        ZoneKind::Highsea => "haute mer",
        ZoneKind::Innersea => "mer intérieure",
        ZoneKind::Mountain => "montagne",
    }
}

/// Control as the zone table prints it.
pub fn seen_text(r: &ZoneRow) -> String {
    match &r.seen {
        Seen::Unknown => "?".into(),
        Seen::Known(Status::Neutral) => "neutre".into(),
        Seen::Known(Status::Controlled { by }) => {
            if r.capital {
                format!("{by} [CAPITAL]")
            } else {
                by.clone()
            }
        }
        Seen::Known(Status::Shared { by }) => format!("partagée {}", by.join("+")),
        Seen::Known(Status::Contested { by, .. }) => format!("contestée {}", by.join("+")),
    }
}

/// The zone table of the report (item 2): one line per zone,
/// `[IST] Istanbul (terre) TUR [CAPITAL] | terre : ANK BUL | mer : AEG BLA`.
pub fn zone_table(rows: &[ZoneRow]) -> String {
    let mut o = String::from("== TABLE DES ZONES ==\n");
    o.push_str(
        "(zone, nom, type, contrôle connu de vous (? = inconnu) | voisins par terre | voisins par mer)\n",
    );
    let list = |v: &[ZoneCode]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(" ")
        }
    };
    for r in rows {
        o.push_str(&format!(
            "[{}] {} ({}) {} | terre : {} | mer : {}\n",
            r.code,
            r.name,
            kind_word(r.kind),
            seen_text(r),
            list(&r.land),
            list(&r.sea)
        ));
    }
    o
}
