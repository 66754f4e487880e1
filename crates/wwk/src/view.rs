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
use crate::report_index::Index;
use crate::turn::Event;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

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
    rows_with(&Index::new(st, events), viewer, gm)
}

/// [`rows`] from the turn's [`Index`], shared by every report of the turn.
pub fn rows_with(ix: &Index, viewer: Option<&str>, gm: bool) -> Vec<ZoneRow> {
    let revealed = ix.revealed(|e| gm || e.visible(viewer));
    let present = ix.present(viewer.unwrap_or_default());
    ix.st
        .map
        .zones
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let zs = ix.zone(i);
            // The same rule as the ZONES section of `report::render`.
            let visible = match viewer {
                _ if gm => true,
                None => zs.status != Status::Neutral,
                Some(n) => zs.status.has_party(n) || present.at(i),
            };
            let seen = if visible {
                Seen::Known(zs.status.clone())
            } else {
                Seen::Unknown
            };
            let (land, sea) = ix.sides(i);
            let (mut units, mut bases) = (BTreeMap::new(), BTreeMap::new());
            if let Some(n) = viewer {
                for u in ix.units_in(i).iter().filter(|u| u.owner == n) {
                    let into = if sp(&u.code).is_base() {
                        &mut bases
                    } else {
                        &mut units
                    };
                    match into.get_mut(u.code.as_str()) {
                        Some(k) => *k += 1,
                        None => {
                            into.insert(u.code.clone(), 1);
                        }
                    }
                }
            }
            ZoneRow {
                code: d.code.clone(),
                name: d.name.clone(),
                kind: d.kind,
                seen,
                capital: visible && ix.capital(i),
                land: land.to_vec(),
                sea: sea.to_vec(),
                units,
                bases,
                revealed: revealed[i],
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
    // Written in place: every nation's report has a line per zone of the map.
    let list = |o: &mut String, v: &[ZoneCode]| {
        if v.is_empty() {
            o.push('-');
        }
        for (i, z) in v.iter().enumerate() {
            if i > 0 {
                o.push(' ');
            }
            o.push_str(z);
        }
    };
    for r in rows {
        let _ = write!(
            o,
            "[{}] {} ({}) {} | terre : ",
            r.code,
            r.name,
            kind_word(r.kind),
            seen_text(r)
        );
        list(&mut o, &r.land);
        o.push_str(" | mer : ");
        list(&mut o, &r.sea);
        o.push('\n');
    }
    o
}
