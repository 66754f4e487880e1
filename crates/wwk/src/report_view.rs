//! What one reader sees of a turn, as data (issue 20 items 1, 2 and 4): the
//! structure the text report ([`crate::report::text`]) is rendered from and
//! that the JSON report carries under `view` (schema
//! docs/schemas/wwk.view.schema.json, version 2).
//!
//! The fog of war of §8.1 (S l.571) is decided here only: a nation sees its
//! own sheet (tech, PV, treasury, options, diplomacy, market), the events it
//! may read, the zones it controls, shares, contests or has units in (with
//! every unit present where it holds the zone, only its own elsewhere), its
//! own stocks and CE, its units in space, and the zone table of the map
//! ([`crate::view::rows`]). The spectator sees public news and the control
//! of the zones that are not neutral; the GM sees everything.

use crate::catalog::sp;
use crate::model::*;
use crate::report_index::Index;
use crate::turn::{Event, Sec, Vis};
use crate::view::{rows_with, ZoneRow};
use arbitre_core::SetupError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the view's shape; the schema's `$id` carries it.
pub const VERSION: u32 = 2;

/// Who the view is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Seat {
    Nation {
        code: NationCode,
        /// Empty when the nation has no name.
        name: String,
    },
    Spectator,
    GameMaster,
}

/// The rule parameters an order check needs (§10.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub local_orders_per_zone: usize,
    pub ai_capital_extra_orders: usize,
    pub national_actions: usize,
    pub capital_min_factories: usize,
    pub vp_tech_divisor: i64,
}

/// One nation of the game: its code and name are public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NationName {
    pub code: NationCode,
    pub name: String,
}

/// The options a nation has taken (§2.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Taken {
    pub economy_restored: bool,
    pub soylent_green: bool,
    pub ai: bool,
}

/// The reader's own nation sheet (the NATION section).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    /// Levels by the rulebook's field letters I V A Nv N L.
    pub tech: Tech,
    /// The field that gains +1 a turn, `(S)` in the text.
    pub specialty: Field,
    /// The fields that lose 1 a turn, `(W)` in the text.
    pub weaknesses: Vec<Field>,
    /// (I+V+A+Nv+N)/divisor as the report writes it (one decimal at most).
    pub tech_average: String,
    /// Research points at the next turn.
    pub research_points: i64,
    /// Victory points (PV).
    pub vp: i64,
    pub superpower: bool,
    /// Écus (ec).
    pub treasury: i64,
    pub options: Taken,
    pub initiative: i64,
    pub war: Vec<NationCode>,
    pub allied: Vec<NationCode>,
    pub market_open: bool,
}

/// A group of like units in the rulebook's notation: `3 INF`, `1 ABMP*(4
/// tirs)`, `1 TLS[1 INF]`, inside an army or loose.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitGroup {
    pub count: usize,
    pub code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    pub damaged: bool,
    /// Anti-missile shots left (ABMP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shots: Option<u32>,
    /// Loaded warheads.
    pub heads: Vec<String>,
    /// A transport's hold, by unit code.
    pub cargo: Vec<Cargo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cargo {
    pub count: usize,
    pub code: String,
}

/// A group of like bases (factories apart: they are counted in the stock).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseGroup {
    pub count: usize,
    pub code: String,
    pub heads: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shots: Option<u32>,
}

/// A nation's stock in a zone: ec, raw materials, factories, CE.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stock {
    pub ledger: Ledger,
    pub factories: usize,
    /// The zone's CE, for a nation with a stake in the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ce: Option<i64>,
}

/// What one owner has in a zone, as far as the reader sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holding {
    /// A nation code, `NEUTRE` or `GUERILLA`.
    pub owner: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock: Option<Stock>,
    pub units: Vec<UnitGroup>,
    pub bases: Vec<BaseGroup>,
}

/// One zone of the ZONES section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneReport {
    pub code: ZoneCode,
    pub name: String,
    pub status: Status,
    /// `[CAPITAL]`: its controller has enough factories there (§2.3).
    pub capital: bool,
    /// `[IRR]`.
    pub irradiated: bool,
    /// `[GUE]`: guerrillas present.
    pub guerrilla: bool,
    pub symbols: Vec<char>,
    pub holdings: Vec<Holding>,
}

/// The lines of one event section, in the order of the turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    pub section: Sec,
    pub lines: Vec<String>,
}

/// A unit in space (ESPACE).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceUnit {
    /// The orbit slot, `#TTNN`.
    pub slot: String,
    pub code: String,
    pub heads: Vec<String>,
}

/// Everything one report shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub game: String,
    pub turn: u32,
    pub viewer: Seat,
    pub rules: Rules,
    pub nations: Vec<NationName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nation: Option<Sheet>,
    /// Event sections the reader may read.
    pub events: Vec<Section>,
    pub zones: Vec<ZoneReport>,
    pub space: Vec<SpaceUnit>,
    /// Die rolls of the turn (game master).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolls: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<NationCode>>,
    /// The zone table (a nation's reader): every zone with its neighbours,
    /// control only where the ZONES section shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<Vec<ZoneRow>>,
}

/// The unit notation a group is written in.
pub fn unit_notation(g: &UnitGroup) -> String {
    notation(&g.code, g.damaged, g.shots, &g.heads, &g.cargo)
}

/// [`unit_notation`] of a group's parts, so that a unit is only made a
/// group when its notation is new.
fn notation(
    code: &str,
    damaged: bool,
    shots: Option<u32>,
    heads: &[String],
    cargo: &[Cargo],
) -> String {
    let mut code = code.to_string();
    if damaged {
        code.push('*');
    }
    if let Some(s) = shots {
        code.push_str(&format!("({s} tirs)"));
    }
    if !heads.is_empty() {
        code = format!("{}({})", code, heads.join(","));
    }
    if !cargo.is_empty() {
        code = format!(
            "{code}[{}]",
            cargo
                .iter()
                .map(|c| format!("{} {}", c.count, c.code))
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    code
}

pub fn base_notation(b: &BaseGroup) -> String {
    let mut s = b.code.clone();
    if !b.heads.is_empty() {
        s.push_str(&format!("({})", b.heads.join(",")));
    }
    if let Some(a) = b.shots {
        s.push_str(&format!("({a} tirs)"));
    }
    s
}

/// `owner`'s units and bases among `here` (a zone's units), grouped and
/// ordered as the text writes them: loose groups, then each army, each
/// sorted by notation.
fn groups(ix: &Index, here: &[&Unit], owner: &str) -> (Vec<UnitGroup>, Vec<BaseGroup>) {
    let mut loose: BTreeMap<String, UnitGroup> = BTreeMap::new();
    let mut armies: BTreeMap<String, BTreeMap<String, UnitGroup>> = BTreeMap::new();
    let mut bases: BTreeMap<String, BaseGroup> = BTreeMap::new();
    for u in here.iter().filter(|u| u.owner == owner) {
        let abm = (u.code == "ABMP").then_some(u.ammo);
        if sp(&u.code).is_base() {
            if u.code == "FAC" {
                continue;
            }
            let b = BaseGroup {
                count: 0,
                code: u.code.clone(),
                heads: u.heads.clone(),
                shots: abm,
            };
            bases.entry(base_notation(&b)).or_insert(b).count += 1;
            continue;
        }
        let mut hold: BTreeMap<&str, usize> = BTreeMap::new();
        for c in ix.hold_of(u.id) {
            *hold.entry(c.code.as_str()).or_default() += 1;
        }
        let cargo: Vec<Cargo> = hold
            .into_iter()
            .map(|(c, k)| Cargo {
                count: k,
                code: c.to_string(),
            })
            .collect();
        let key = notation(&u.code, u.damaged, abm, &u.heads, &cargo);
        let into = match &u.army {
            Some(a) => match armies.get_mut(a) {
                Some(m) => m,
                None => armies.entry(a.clone()).or_default(),
            },
            None => &mut loose,
        };
        match into.get_mut(&key) {
            Some(g) => g.count += 1,
            None => {
                let g = UnitGroup {
                    count: 1,
                    code: u.code.clone(),
                    army: u.army.clone(),
                    damaged: u.damaged,
                    shots: abm,
                    heads: u.heads.clone(),
                    cargo,
                };
                into.insert(key, g);
            }
        }
    }
    let mut units: Vec<UnitGroup> = loose.into_values().collect();
    for m in armies.into_values() {
        units.extend(m.into_values());
    }
    (units, bases.into_values().collect())
}

fn sheet(st: &State, n: &Nation) -> Sheet {
    let t = n.tech;
    let (mut war, mut allied) = (vec![], vec![]);
    for m in st.nations.keys().filter(|m| *m != &n.code) {
        match st.diplo(&n.code, m) {
            Diplo::War => war.push(m.clone()),
            Diplo::Allied => allied.push(m.clone()),
            Diplo::Peace => {}
        }
    }
    Sheet {
        tech: t,
        specialty: n.specialty,
        weaknesses: n.weaknesses.clone(),
        tech_average: crate::combat::Rat::int(t.sum5())
            .mul(1, st.params.vp_tech_divisor)
            .show(),
        research_points: crate::economy::research_points(
            i64::from(t.l),
            st.zones
                .values()
                .filter(|z| z.status.controller() == Some(n.code.as_str()))
                .count() as i64,
        ),
        vp: n.vp,
        superpower: n.superpower,
        treasury: n.treasury,
        options: Taken {
            economy_restored: n.options.economy_restored,
            soylent_green: n.options.soylent_green,
            ai: n.options.ai,
        },
        initiative: n.initiative,
        war,
        allied,
        market_open: !crate::admin::market_closed_for(st, &n.code, st.turn + 1),
    }
}

/// The view of `st` after the turn that gave `events`, for the nation
/// `viewer` (None: spectator, or the GM when `gm`).
pub fn build(st: &State, events: &[Event], viewer: Option<&str>, gm: bool) -> View {
    build_with(&Index::new(st, events), viewer, gm)
}

/// [`build`] from the turn's [`Index`], shared by every report of the turn.
pub fn build_with(ix: &Index, viewer: Option<&str>, gm: bool) -> View {
    let (st, events) = (ix.st, ix.events);
    let seat = match viewer {
        _ if gm => Seat::GameMaster,
        Some(n) => Seat::Nation {
            code: n.to_string(),
            name: st
                .nations
                .get(n)
                .map(|x| x.name.clone())
                .unwrap_or_default(),
        },
        None => Seat::Spectator,
    };
    let nation = viewer
        .filter(|_| !gm)
        .and_then(|n| st.nations.get(n))
        .map(|n| sheet(st, n));
    let sees = |e: &Event| gm || e.visible(viewer);
    let mut sections: BTreeMap<Sec, Vec<String>> = BTreeMap::new();
    for e in events.iter().filter(|e| sees(e)) {
        // The GM sees every nation's orders: each line names its nation.
        let text = match (&e.to, gm) {
            (Vis::Nation(n), true) if e.sec == Sec::Orders => format!("{n} {}", e.text),
            _ => e.text.clone(),
        };
        sections.entry(e.sec).or_default().push(text);
    }
    let present = ix.present(viewer.unwrap_or_default());
    let mut zones = Vec::new();
    for (i, d) in st.map.zones.iter().enumerate() {
        let z = &d.code;
        let zs = ix.zone(i);
        let visible = match viewer {
            _ if gm => true,
            None => zs.status != Status::Neutral,
            Some(n) => zs.status.has_party(n) || present.at(i),
        };
        if !visible {
            continue;
        }
        let here = ix.units_in(i);
        let owners: Vec<String> = match viewer {
            // In the zones a nation holds it sees every unit present (S l.571).
            Some(n) if !gm && zs.status.has_party(n) => {
                let mut others: Vec<&str> = here
                    .iter()
                    .filter(|u| u.owner != n)
                    .map(|u| u.owner.as_str())
                    .collect();
                others.sort_unstable();
                others.dedup();
                std::iter::once(n)
                    .chain(others)
                    .map(str::to_string)
                    .collect()
            }
            Some(n) if !gm => vec![n.to_string()],
            _ if gm => {
                let mut v: Vec<&str> = here.iter().map(|u| u.owner.as_str()).collect();
                v.extend(zs.ledgers.keys().map(|k| k.as_str()));
                v.sort_unstable();
                v.dedup();
                v.into_iter().map(str::to_string).collect()
            }
            _ => vec![],
        };
        let mut holdings = Vec::new();
        for n in owners {
            // Never another nation's stocks or CE (§8.1), except for the GM.
            let own = gm || viewer == Some(n.as_str());
            let stock = zs.ledgers.get(&n).filter(|_| own).map(|l| Stock {
                ledger: *l,
                factories: here
                    .iter()
                    .filter(|u| u.owner == n && u.code == "FAC")
                    .count(),
                ce: zs.status.has_party(&n).then_some(zs.ce),
            });
            let (units, bases) = groups(ix, here, &n);
            if stock.is_some() || !units.is_empty() || !bases.is_empty() {
                holdings.push(Holding {
                    owner: n,
                    stock,
                    units,
                    bases,
                });
            }
        }
        zones.push(ZoneReport {
            code: z.clone(),
            name: d.name.clone(),
            status: zs.status.clone(),
            capital: ix.capital(i),
            irradiated: zs.irradiated_until >= st.turn && zs.irradiated_until > 0,
            guerrilla: ix.guerrilla(i),
            symbols: d.symbols.clone(),
            holdings,
        });
    }
    let space = ix
        .space()
        .iter()
        .filter(|u| gm || viewer == Some(u.owner.as_str()))
        .map(|u| SpaceUnit {
            slot: u.at.clone(),
            code: u.code.clone(),
            heads: u.heads.clone(),
        })
        .collect();
    let map = (viewer.is_some() && !gm).then(|| rows_with(ix, viewer, gm));
    View {
        game: st.game_id.clone(),
        turn: st.turn,
        viewer: seat,
        rules: Rules {
            local_orders_per_zone: st.params.local_orders_per_zone,
            ai_capital_extra_orders: st.params.ai_capital_extra_orders,
            national_actions: st.params.national_actions,
            capital_min_factories: st.params.capital_min_factories,
            vp_tech_divisor: st.params.vp_tech_divisor,
        },
        nations: st
            .nations
            .values()
            .map(|n| NationName {
                code: n.code.clone(),
                name: n.name.clone(),
            })
            .collect(),
        nation,
        events: sections
            .into_iter()
            .map(|(section, lines)| Section { section, lines })
            .collect(),
        zones,
        space,
        rolls: (gm && !st.roll_log.is_empty()).then_some(st.roll_log.len()),
        winners: st.winner.clone(),
        map,
    }
}

/// echeck (issue 20 item 4): a state rebuilt from the view of `player`'s
/// last report. The map (codes, names, kinds, neighbours) comes from the
/// zone table, the nation list and rules are public; the nation's own
/// sheet, the control of the zones it sees, its units there (one unit per
/// count, at its zone) and its factories where it shows a stock are exact.
/// What fog hides stays neutral and empty: the order checks only ask where
/// the nation may give orders, which the view decides.
pub fn state_from_view(
    value: &serde_json::Value,
    player: &arbitre_core::PlayerId,
) -> Result<State, SetupError> {
    let view: View = serde_json::from_value(value.clone())
        .map_err(|e| SetupError::Invalid(format!("not a WWK view: {e}")))?;
    let Seat::Nation { code: me, name } = &view.viewer else {
        return Err(SetupError::Invalid(
            "this report is not a nation's own".into(),
        ));
    };
    let sheet = view
        .nation
        .as_ref()
        .ok_or_else(|| SetupError::Invalid("the view has no nation sheet".into()))?;
    let table = view
        .map
        .as_ref()
        .ok_or_else(|| SetupError::Invalid("the view has no zone table".into()))?;
    let mut st = State {
        game_id: view.game.clone(),
        turn: view.turn,
        ..State::default()
    };
    st.params.local_orders_per_zone = view.rules.local_orders_per_zone;
    st.params.ai_capital_extra_orders = view.rules.ai_capital_extra_orders;
    st.params.national_actions = view.rules.national_actions;
    st.params.capital_min_factories = view.rules.capital_min_factories;
    st.params.vp_tech_divisor = view.rules.vp_tech_divisor;
    st.map.zones = table
        .iter()
        .map(|r| ZoneDef {
            code: r.code.clone(),
            name: r.name.clone(),
            kind: r.kind,
            adjacent: r.land.iter().chain(r.sea.iter()).cloned().collect(),
            ..ZoneDef::default()
        })
        .collect();
    for n in &view.nations {
        let mine = &n.code == me;
        st.nations.insert(
            n.code.clone(),
            Nation {
                code: n.code.clone(),
                name: if mine { name.clone() } else { n.name.clone() },
                player: if mine {
                    player.as_str().to_string()
                } else {
                    String::new()
                },
                tech: if mine { sheet.tech } else { Tech::default() },
                specialty: if mine { sheet.specialty } else { Field::I },
                weaknesses: if mine {
                    sheet.weaknesses.clone()
                } else {
                    vec![]
                },
                research: [1; 6],
                treasury: if mine { sheet.treasury } else { 0 },
                options: Options {
                    economy_restored: mine && sheet.options.economy_restored,
                    soylent_green: mine && sheet.options.soylent_green,
                    ai: mine && sheet.options.ai,
                    ..Options::default()
                },
                vp: if mine { sheet.vp } else { 0 },
                superpower: mine && sheet.superpower,
                capital_streak: 0,
                active: true,
                initiative: if mine { sheet.initiative } else { 0 },
                home: String::new(),
            },
        );
    }
    for m in &sheet.war {
        st.set_diplo(me, m, Diplo::War);
    }
    for m in &sheet.allied {
        st.set_diplo(me, m, Diplo::Allied);
    }
    for z in &view.zones {
        st.zone_mut(&z.code).status = z.status.clone();
        // `[CAPITAL]` is the factory count the view may not itemise.
        let shown: usize = z
            .holdings
            .iter()
            .filter(|h| &h.owner == me)
            .filter_map(|h| h.stock.as_ref().map(|s| s.factories))
            .sum();
        if z.capital && z.status.controller() == Some(me.as_str()) {
            for _ in shown..view.rules.capital_min_factories {
                st.add_unit(me, "FAC", &z.code);
            }
        }
        for h in z.holdings.iter().filter(|h| &h.owner == me) {
            if let Some(s) = &h.stock {
                st.zone_mut(&z.code).ledgers.insert(me.clone(), s.ledger);
                if let Some(ce) = s.ce {
                    st.zone_mut(&z.code).ce = ce;
                }
                for _ in 0..s.factories {
                    st.add_unit(me, "FAC", &z.code);
                }
            }
            for g in &h.units {
                for _ in 0..g.count {
                    let id = st.add_unit(me, &g.code, &z.code);
                    if let Some(u) = st.unit_mut(id) {
                        u.army = g.army.clone();
                        u.damaged = g.damaged;
                        u.heads = g.heads.clone();
                        u.ammo = g.shots.unwrap_or(0);
                    }
                }
            }
            for b in &h.bases {
                for _ in 0..b.count {
                    let id = st.add_unit(me, &b.code, &z.code);
                    if let Some(u) = st.unit_mut(id) {
                        u.heads = b.heads.clone();
                        u.ammo = b.shots.unwrap_or(0);
                    }
                }
            }
        }
    }
    for s in &view.space {
        let id = st.add_unit(me, &s.code, &s.slot);
        if let Some(u) = st.unit_mut(id) {
            u.heads = s.heads.clone();
        }
    }
    st.winner = view.winners.clone();
    st.ended = view.winners.is_some();
    Ok(st)
}
