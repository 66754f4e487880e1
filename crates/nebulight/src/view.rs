//! The typed view of a Nébulight report (issue 20 items 1-2): exactly what
//! the compte rendu (spec section 9, rulebook Annexe II) shows one viewer,
//! as data. [`crate::report`] renders the text from it and the daemon sends
//! it as the JSON report's `view` (schema: docs/schemas/nebulight.view.schema.json),
//! so the two cannot disagree.
//!
//! Fog of war is decided here, once: a player's view holds the worlds of
//! [`crate::visibility::visible`], foreign cargo only when the game shows it
//! (`hide_foreign_cargo`), the origin of a foreign fleet passing through
//! never, and no number the text does not print (a counter after a change
//! of owner, a technology's cost at its maximum). Keys are English; the
//! rulebook's abbreviations (DEP, ATT, DEF, the fire marks `*F_3`, `*M`,
//! `**`) are kept as values.

use crate::model::*;
use crate::tech;
use crate::visibility;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Who the report is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewKind {
    Player,
    GameMaster,
    Spectator,
}

/// Who is looking: a player slot, or everything (game master).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eye {
    Player(Slot),
    All,
}

impl Eye {
    fn sees_inside(&self, owner: Owner, s: &NebState) -> bool {
        match self {
            Eye::All => true,
            Eye::Player(p) => owner == Some(*p) || !s.options.hide_foreign_cargo,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NebView {
    pub game: String,
    pub turn: u32,
    pub viewer: ViewKind,
    /// The technology, points and refused orders blocks: the viewer's own
    /// (player), every player's (game master), none (spectator).
    #[serde(default)]
    pub players: Vec<PlayerBlock>,
    /// The world blocks in ascending number (none for a spectator).
    #[serde(default)]
    pub worlds: Vec<WorldView>,
    /// The spectators' score lines (empty in the other reports).
    #[serde(default)]
    pub scores: Vec<Score>,
    /// The final result, once the last turn is played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_result: Option<FinalResult>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TechName {
    #[serde(rename = "DEP")]
    Dep,
    #[serde(rename = "ATT")]
    Att,
    #[serde(rename = "DEF")]
    Def,
}

impl From<Tech> for TechName {
    fn from(t: Tech) -> TechName {
        match t {
            Tech::Dep => TechName::Dep,
            Tech::Att => TechName::Att,
            Tech::Def => TechName::Def,
        }
    }
}

impl From<TechName> for Tech {
    fn from(t: TechName) -> Tech {
        match t {
            TechName::Dep => Tech::Dep,
            TechName::Att => Tech::Att,
            TechName::Def => Tech::Def,
        }
    }
}

/// One technology line: `DEPlacement : 2 (+3/5)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TechView {
    pub tech: TechName,
    pub level: u32,
    /// True at the technology's maximum level (no cost or progress shown).
    pub max: bool,
    /// Research points already spent toward the next level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<u32>,
    /// Research points one level costs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerBlock {
    pub name: String,
    /// DEP, ATT, DEF in this order.
    pub technologies: Vec<TechView>,
    /// CA, the attack coefficient of the ATT level.
    pub attack_coefficient: u32,
    /// CD, the defence coefficient of the DEF level.
    pub defence_coefficient: u32,
    /// Points scored this turn.
    pub points: i64,
    pub score_total: i64,
    /// The "Ordres non exécutés", in the order of the orders' lines.
    #[serde(default)]
    pub refused_orders: Vec<RefusedOrder>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedOrder {
    pub order: String,
    pub reason: String,
}

/// Who owns a world or a fleet and how that changed this turn (9.3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ownership {
    /// The owner's name now; absent for the neutral player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The owner's name at the start of the turn; absent when neutral.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_at_start: Option<String>,
    /// Captured this turn (the `!` of the report).
    #[serde(default)]
    pub acquired: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorldView {
    pub number: u32,
    /// A black hole shows nothing but its number.
    #[serde(default)]
    pub black_hole: bool,
    /// A starting world (`Md_`).
    #[serde(default)]
    pub start_world: bool,
    #[serde(default)]
    pub links: Vec<u32>,
    #[serde(flatten)]
    pub ownership: Ownership,
    /// The owner's holding counter (`"Name:3"`), when the report shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<u32>,
    /// I, the industries.
    #[serde(default)]
    pub industries: u32,
    /// The industries available this turn (the `a` of `I=a/b`).
    #[serde(default)]
    pub industries_available: u32,
    /// VI, the industry ships.
    #[serde(default)]
    pub vi: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vi_mark: Option<String>,
    /// P, the population.
    #[serde(default)]
    pub population: u32,
    /// The population limit, in brackets after P.
    #[serde(default)]
    pub limit: u32,
    /// Populations dead this turn (the `{-2N}`).
    #[serde(default)]
    pub deaths: u32,
    /// VP, the population ships.
    #[serde(default)]
    pub vp: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp_mark: Option<String>,
    /// MP, the raw materials.
    #[serde(default)]
    pub mp: u32,
    /// CM, the raw materials produced each turn (`MP=4(+2)`).
    #[serde(default)]
    pub cm: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coords: Option<[i64; 2]>,
    #[serde(default)]
    pub fleets: Vec<FleetView>,
    #[serde(default)]
    pub traces: Vec<TraceView>,
}

/// What a fleet carries (MP and populations), when the viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cargo {
    pub mp: u32,
    pub population: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FleetView {
    pub number: u32,
    #[serde(flatten)]
    pub ownership: Ownership,
    /// VC, the cargo ships.
    pub vc: u32,
    /// Absent when hidden (`[?]=5?`) or when the fleet has no VC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cargo: Option<Cargo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<String>,
    /// The world the fleet came from this turn (`du M_4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrived_from: Option<u32>,
}

/// A movement trace (9.11): a fleet left the world, or passed through.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceView {
    pub fleet: u32,
    pub owner: String,
    /// True when the fleet passed through (came from another world).
    pub passing: bool,
    /// Where a passing fleet came from; absent when hidden (`du M_?`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<u32>,
    pub to: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub player: String,
    pub total: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalResult {
    pub scores: Vec<Score>,
    /// Absent for a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

fn mark(m: Option<Mark>) -> Option<String> {
    m.map(|m| m.to_string())
}

fn ownership(s: &NebState, end: Owner, start: Owner, acquired: bool) -> Ownership {
    let name = |o: Owner| o.map(|o| s.name_of(Some(o)).to_string());
    Ownership {
        owner: name(end),
        owner_at_start: name(start),
        acquired,
    }
}

/// One world as `eye` sees it, with the fleets present (ascending).
pub fn world(s: &NebState, id: WorldId, eye: Eye, here: &[FleetId]) -> WorldView {
    let w = &s.worlds[&id];
    if w.black_hole {
        return WorldView {
            number: id.0,
            black_hole: true,
            start_world: false,
            links: Vec::new(),
            ownership: Ownership::default(),
            counter: None,
            industries: 0,
            industries_available: 0,
            vi: 0,
            vi_mark: None,
            population: 0,
            limit: 0,
            deaths: 0,
            vp: 0,
            vp_mark: None,
            mp: 0,
            cm: 0,
            coords: None,
            fleets: Vec::new(),
            traces: Vec::new(),
        };
    }
    let log = s.log.worlds.get(&id);
    let start = log.map_or(w.owner, |l| l.owner_start);
    let acquired = log.is_some_and(|l| l.acquired) && w.owner.is_some();
    // The counter is printed only while the owner keeps the world (9.3).
    let counter =
        (w.owner.is_some() && !acquired && start == w.owner && w.counter > 0).then_some(w.counter);
    let mut traces = log.map(|l| l.traces.clone()).unwrap_or_default();
    traces.sort_by_key(|t| t.fleet);
    WorldView {
        number: id.0,
        black_hole: false,
        start_world: w.is_start,
        links: w.links.iter().map(|l| l.0).collect(),
        ownership: ownership(s, w.owner, start, acquired),
        counter,
        industries: w.industries,
        industries_available: if w.industries > 0 { w.up } else { 0 },
        vi: w.vi,
        vi_mark: mark(log.and_then(|l| l.vi_mark)),
        population: w.population,
        limit: w.limit,
        deaths: log.map_or(0, |l| l.deaths),
        vp: w.vp,
        vp_mark: mark(log.and_then(|l| l.vp_mark)),
        mp: w.mp,
        cm: w.cm,
        coords: w.coords.map(|(x, y)| [x, y]),
        fleets: here.iter().map(|f| fleet(s, *f, eye)).collect(),
        traces: traces.iter().map(|t| trace(s, t, eye)).collect(),
    }
}

pub fn fleet(s: &NebState, id: FleetId, eye: Eye) -> FleetView {
    let f = &s.fleets[&id];
    let log = s.log.fleets.get(&id);
    let start = log.map_or(f.owner, |l| l.owner_start);
    let acquired = log.is_some_and(|l| l.acquired) && f.owner.is_some();
    FleetView {
        number: id.0,
        ownership: ownership(s, f.owner, start, acquired),
        vc: f.vc,
        cargo: (f.vc > 0 && eye.sees_inside(f.owner, s)).then_some(Cargo {
            mp: f.cargo_mp,
            population: f.cargo_n,
        }),
        mark: mark(log.and_then(|l| l.mark)),
        arrived_from: log.and_then(|l| l.arrived_from).map(|w| w.0),
    }
}

pub fn trace(s: &NebState, t: &Trace, eye: Eye) -> TraceView {
    // The origin of a fleet passing through is hidden from everyone but its
    // owner (rulebook: "on voit où elle va, pas d'où elle vient").
    let sees_origin = match eye {
        Eye::All => true,
        Eye::Player(v) => v == t.owner,
    };
    TraceView {
        fleet: t.fleet.0,
        owner: s.name_of(Some(t.owner)).to_string(),
        passing: t.from.is_some(),
        from: t.from.filter(|_| sees_origin).map(|w| w.0),
        to: t.to.0,
    }
}

pub fn tech_view(t: Tech, tl: &TechLevel) -> TechView {
    let max = tl.level >= tech::max(t);
    TechView {
        tech: t.into(),
        level: tl.level,
        max,
        progress: (!max && tl.progress > 0).then_some(tl.progress),
        cost: (!max).then_some(tech::cost(t)),
    }
}

fn player_block(s: &NebState, slot: Slot) -> PlayerBlock {
    let p = &s.players[slot];
    let log = s.log.players.get(slot);
    let mut refused = log.map(|l| l.rejections.clone()).unwrap_or_default();
    refused.sort_by_key(|r| r.line);
    PlayerBlock {
        name: p.name.clone(),
        technologies: vec![
            tech_view(Tech::Dep, &p.dep),
            tech_view(Tech::Att, &p.att),
            tech_view(Tech::Def, &p.def),
        ],
        attack_coefficient: tech::ca(p.att.level),
        defence_coefficient: tech::cd(p.def.level),
        points: log.map_or(0, |l| l.points),
        score_total: p.score_total,
        refused_orders: refused
            .into_iter()
            .map(|r| RefusedOrder {
                order: r.text,
                reason: r.reason,
            })
            .collect(),
    }
}

/// Every world's fleets in ascending number, built once per report: a report
/// of many worlds would otherwise scan every fleet for each (issue 9).
pub fn fleets_by_world(s: &NebState) -> BTreeMap<WorldId, Vec<FleetId>> {
    let mut m: BTreeMap<WorldId, Vec<FleetId>> = BTreeMap::new();
    for (f, fl) in &s.fleets {
        m.entry(fl.world).or_default().push(*f);
    }
    m
}

fn final_result(s: &NebState) -> Option<FinalResult> {
    if s.turn < s.max_turns || s.players.len() < 2 {
        return None;
    }
    let (a, b) = (&s.players[0], &s.players[1]);
    let winner = match a.score_total.cmp(&b.score_total) {
        std::cmp::Ordering::Greater => Some(a.name.clone()),
        std::cmp::Ordering::Less => Some(b.name.clone()),
        std::cmp::Ordering::Equal => None,
    };
    Some(FinalResult {
        scores: [a, b]
            .iter()
            .map(|p| Score {
                player: p.name.clone(),
                total: p.score_total,
            })
            .collect(),
        winner,
    })
}

fn worlds(s: &NebState, ids: impl IntoIterator<Item = WorldId>, eye: Eye) -> Vec<WorldView> {
    let at = fleets_by_world(s);
    ids.into_iter()
        .map(|w| world(s, w, eye, at.get(&w).map_or(&[], |v| v.as_slice())))
        .collect()
}

/// A player's view: their own blocks and the worlds they see.
pub fn player_view(s: &NebState, slot: Slot) -> NebView {
    NebView {
        game: s.game.clone(),
        turn: s.turn,
        viewer: ViewKind::Player,
        players: vec![player_block(s, slot)],
        worlds: worlds(s, visibility::visible(s, slot), Eye::Player(slot)),
        scores: Vec::new(),
        final_result: final_result(s),
    }
}

/// The game master's view: every player, every world, every cargo.
pub fn master_view(s: &NebState) -> NebView {
    NebView {
        game: s.game.clone(),
        turn: s.turn,
        viewer: ViewKind::GameMaster,
        players: (0..s.players.len()).map(|p| player_block(s, p)).collect(),
        worlds: worlds(s, s.worlds.keys().copied(), Eye::All),
        scores: Vec::new(),
        final_result: final_result(s),
    }
}

/// The spectators' view: the public facts only (turn and scores).
pub fn spectator_view(s: &NebState) -> NebView {
    NebView {
        game: s.game.clone(),
        turn: s.turn,
        viewer: ViewKind::Spectator,
        players: Vec::new(),
        worlds: Vec::new(),
        scores: s
            .players
            .iter()
            .map(|p| Score {
                player: p.name.clone(),
                total: p.score_total,
            })
            .collect(),
        final_result: final_result(s),
    }
}

/// echeck (issue 20 item 4): the state a player's own view describes, for
/// judging their orders. Only what the view shows is filled in; the
/// opponents are named players without technology or score (the view does
/// not show them), and the turn log is empty. Nébulight's order parser
/// judges syntax alone (execution refusals come in the next report), so
/// this state gives the referee's verdicts exactly.
pub fn state_from_view(
    v: &NebView,
    player: &arbitre_core::PlayerId,
) -> Result<NebState, arbitre_core::SetupError> {
    use arbitre_core::SetupError;
    if v.viewer != ViewKind::Player {
        return Err(SetupError::Invalid(
            "only a player's report can rebuild that player's game".into(),
        ));
    }
    let own = v
        .players
        .first()
        .ok_or_else(|| SetupError::Invalid("the report has no player block".into()))?;
    let level = |t: TechName| {
        own.technologies
            .iter()
            .find(|x| x.tech == t)
            .map(|x| TechLevel {
                level: x.level,
                progress: x.progress.unwrap_or(0),
            })
            .unwrap_or(TechLevel {
                level: tech::initial(t.into()),
                progress: 0,
            })
    };
    let mut players = vec![Player {
        id: player.to_string(),
        name: own.name.clone(),
        dep: level(TechName::Dep),
        att: level(TechName::Att),
        def: level(TechName::Def),
        score_total: own.score_total,
        discovered: v.worlds.iter().map(|w| WorldId(w.number)).collect(),
    }];
    let mut slot_of = |name: &Option<String>| -> Owner {
        let name = name.as_ref()?;
        if let Some(i) = players.iter().position(|p| &p.name == name) {
            return Some(i);
        }
        let initial = |t: Tech| TechLevel {
            level: tech::initial(t),
            progress: 0,
        };
        players.push(Player {
            // Not the opponent's handle (the report does not show it): a
            // name that no order can use.
            id: format!("?{name}"),
            name: name.clone(),
            dep: initial(Tech::Dep),
            att: initial(Tech::Att),
            def: initial(Tech::Def),
            score_total: 0,
            discovered: Default::default(),
        });
        Some(players.len() - 1)
    };
    let mut worlds = BTreeMap::new();
    let mut fleets = BTreeMap::new();
    for w in &v.worlds {
        let id = WorldId(w.number);
        worlds.insert(
            id,
            World {
                links: w.links.iter().map(|l| WorldId(*l)).collect(),
                is_start: w.start_world,
                black_hole: w.black_hole,
                coords: w.coords.map(|[x, y]| (x, y)),
                owner: slot_of(&w.ownership.owner),
                counter: w.counter.unwrap_or(0),
                industries: w.industries,
                vi: w.vi,
                population: w.population,
                limit: w.limit,
                vp: w.vp,
                mp: w.mp,
                cm: w.cm,
                up: w.industries_available,
            },
        );
        for f in &w.fleets {
            let cargo = f.cargo.as_ref();
            fleets.insert(
                FleetId(f.number),
                Fleet {
                    world: id,
                    owner: slot_of(&f.ownership.owner),
                    vc: f.vc,
                    cargo_mp: cargo.map_or(0, |c| c.mp),
                    cargo_n: cargo.map_or(0, |c| c.population),
                },
            );
        }
    }
    Ok(NebState {
        game: v.game.clone(),
        turn: v.turn,
        // The rulebook's 20 turns unless the report is the final one.
        max_turns: if v.final_result.is_some() {
            v.turn
        } else {
            20.max(v.turn + 1)
        },
        options: Options::default(),
        players,
        worlds,
        fleets,
        log: TurnLog::default(),
    })
}
