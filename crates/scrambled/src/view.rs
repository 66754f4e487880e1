//! What one viewer sees of the game, as data (issue 20 items 1, 2 and 4): the
//! structure the text report ([`crate::report`]) is rendered from and that
//! the JSON report carries under `view` (schema
//! docs/schemas/scrambled.view.schema.json, version 2).
//!
//! The fog of war of the rulebook's "Brouillard de guerre" (spec §4) is
//! decided here only: troop counts and movements only in the vision set of
//! §4.1, owners, capitals, CONFLIT/CONTESTÉ, economic ratio and area for
//! everyone, the viewer's own orders, budget and standing paths. A spectator
//! sees the public facts; the game master everything. The map (names,
//! terrain, area, neighbours) is public: it is in every view, so that
//! [`state_from_view`] can rebuild a state to check orders against.

use crate::events::{Budget, Event, Hit, OrderStatus};
use crate::params::Params;
use crate::score;
use crate::state::{Chain, Mark, Player, State, Status, TerrState};
use crate::world::{TerrId, Terrain, Territory, World};
use arbitre_core::{PlayerId, SetupError, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Version of the view's shape; the schema's `$id` carries it.
pub const VERSION: u32 = 2;

/// Who the view is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Seat {
    Player { id: PlayerId },
    Spectator,
    GameMaster,
}

/// The rule parameters the report's figures use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub turn_limit: u32,
    pub troops_home_upkeep: u64,
    pub troops_away_upkeep: u64,
    pub troops_recruit_cost: u64,
}

/// A capital move under way (§3.11): target and the resolution that completes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapitalMove {
    pub territory: TerrId,
    pub due: u32,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRow {
    pub id: PlayerId,
    pub name: String,
    #[serde(flatten)]
    pub status: Status,
    /// Territories held.
    pub territories: usize,
    /// Area held, km².
    pub area: u64,
    /// Area of the start territory, km² (lent: the score subtracts it).
    pub start_area: u64,
    pub score: i64,
}

/// One order line of the last resolution and what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderLine {
    pub player: PlayerId,
    pub order: String,
    pub status: OrderStatus,
    pub detail: String,
}

/// A player's budget of the last resolution (§3.8–§3.10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerBudget {
    pub player: PlayerId,
    pub budget: Budget,
    /// `budget.bp` as the percentage the text writes (86.76 for 8676).
    pub bureaucracy_percent: f64,
}

/// One of the viewer's own stacks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnTroops {
    pub territory: TerrId,
    pub count: u64,
    /// In a territory the viewer owns (home upkeep) or not (away upkeep).
    pub home: bool,
    pub supremacy: bool,
}

/// A standing path (§3.4.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingPath {
    pub player: PlayerId,
    pub number: u32,
    pub route: Vec<TerrId>,
    /// 1-based number of the next step (`P<number>.<next_step>`).
    pub next_step: usize,
    /// Troops planned for the next step; absent = all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned: Option<u64>,
}

/// Troops of one player in one territory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stack {
    pub player: PlayerId,
    pub count: u64,
}

/// Troops at the end of the turn, with supremacy (§3.5.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndStack {
    pub player: PlayerId,
    pub count: u64,
    pub supremacy: bool,
}

/// One movement seen entering or leaving a territory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    pub player: PlayerId,
    pub from: TerrId,
    pub to: TerrId,
    pub count: u64,
}

/// A stack after a battle and what it lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Survivors {
    pub player: PlayerId,
    pub count: u64,
    pub lost: u64,
}

/// What happened in one visible territory, in the order of the resolution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Local {
    Gift {
        from: PlayerId,
        to: PlayerId,
        count: u64,
    },
    Battle {
        before: Vec<Stack>,
        hits: Vec<Hit>,
        after: Vec<Survivors>,
    },
    Capture {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<PlayerId>,
        to: PlayerId,
        after_desertion: bool,
    },
    Recruited {
        player: PlayerId,
        count: u64,
    },
    Deserted {
        player: PlayerId,
        count: u64,
    },
}

/// The activity of one territory of the vision set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activity {
    pub territory: TerrId,
    pub moves_in: Vec<Movement>,
    pub moves_out: Vec<Movement>,
    pub events: Vec<Local>,
    pub end: Vec<EndStack>,
}

/// The public flags of a territory, as the report writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flag {
    #[serde(rename = "CAP")]
    Capital,
    #[serde(rename = "CONFLIT")]
    Conflict,
    #[serde(rename = "CONTESTÉ")]
    Contested,
}

impl Flag {
    pub fn word(self) -> &'static str {
        match self {
            Flag::Capital => "CAP",
            Flag::Conflict => "CONFLIT",
            Flag::Contested => "CONTESTÉ",
        }
    }
}

/// One territory: the public map, its public state, its troops if seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerritoryRow {
    pub id: TerrId,
    pub name: String,
    pub terrain: Terrain,
    /// km²; land only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<u64>,
    pub neighbours: Vec<TerrId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<PlayerId>,
    /// Economic ratio in percent; land only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub economy: Option<u32>,
    pub flags: Vec<Flag>,
    /// The stacks present; absent where the viewer cannot see (fog of war).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub troops: Option<Vec<Stack>>,
}

/// How the viewer and another player mark each other (§1.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarkRow {
    pub player: PlayerId,
    pub you_mark: Mark,
    pub marks_you: Mark,
}

/// Whom a player marks as enemy (game master's view).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnemyRow {
    pub player: PlayerId,
    pub enemies: Vec<PlayerId>,
}

/// A final ranking line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalScore {
    pub rank: u32,
    pub player: PlayerId,
    pub score: i64,
}

/// Everything one report shows. Sections the viewer does not get are absent
/// (`None`), not empty: an empty list is a section that says `(aucun)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub game: String,
    pub turn: u32,
    pub over: bool,
    /// The turn whose orders are awaited; absent once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders_for_turn: Option<u32>,
    pub viewer: Seat,
    pub world: String,
    /// Bureaucracy quota in territories (§2.6).
    pub quota: u32,
    pub rules: Rules,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capital: Option<TerrId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capital_move: Option<CapitalMove>,
    pub players: Vec<PlayerRow>,
    /// The events of the last resolution the viewer is told about.
    pub messages: Vec<Event>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders: Option<Vec<OrderLine>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub economy: Option<Vec<PlayerBudget>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub troops: Option<Vec<OwnTroops>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standing_paths: Option<Vec<StandingPath>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity: Option<Vec<Activity>>,
    pub territories: Vec<TerritoryRow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marks: Option<Vec<MarkRow>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enemies: Option<Vec<EnemyRow>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_scores: Option<Vec<FinalScore>>,
}

impl View {
    pub fn me(&self) -> Option<&PlayerId> {
        match &self.viewer {
            Seat::Player { id } => Some(id),
            _ => None,
        }
    }

    pub fn master(&self) -> bool {
        self.viewer == Seat::GameMaster
    }

    pub fn spectator(&self) -> bool {
        self.viewer == Seat::Spectator
    }
}

/// The seat a viewer gets: an unknown player id is a spectator.
pub fn seat(state: &State, viewer: &Viewer) -> Seat {
    match viewer {
        Viewer::Player(p) if state.players.contains_key(p) => Seat::Player { id: p.clone() },
        Viewer::Player(_) | Viewer::Spectator => Seat::Spectator,
        Viewer::GameMaster => Seat::GameMaster,
    }
}

/// The territories whose troops `seat` sees.
pub fn sight(state: &State, seat: &Seat) -> BTreeSet<TerrId> {
    sight_with(state, seat, &Presence::new(state))
}

fn sight_with(state: &State, seat: &Seat, presence: &Presence<'_>) -> BTreeSet<TerrId> {
    match seat {
        Seat::Player { id } => presence.vision(id),
        Seat::Spectator => BTreeSet::new(),
        Seat::GameMaster => state.territories.keys().cloned().collect(),
    }
}

/// What a turn's reports look up for each player, gathered in one pass
/// over the map and the log (issue 22 item 5): each report scanned the
/// whole map (5,000 territories) for its player's stacks three times.
pub struct Presence<'a> {
    /// The territories each player owns or has a stack in, in map order.
    at: BTreeMap<&'a PlayerId, Vec<(&'a TerrId, &'a TerrState)>>,
    /// Each player's vision set of the last resolution (its first
    /// `Vision` event, as [`crate::report::vision`] reads it).
    seen: BTreeMap<&'a PlayerId, &'a BTreeSet<TerrId>>,
    /// Each player's budget of the last resolution (its first `Economy` event).
    budgets: BTreeMap<&'a PlayerId, &'a Budget>,
    /// Where in the log are the events that name each player (the MESSAGES
    /// a player may be told of, [`told`]), those told to everyone, each
    /// player's order results, and the events of each territory (ACTIVITÉ
    /// VISIBLE): a report reads those, not the whole log.
    named: BTreeMap<&'a PlayerId, Vec<usize>>,
    everyone: Vec<usize>,
    results: BTreeMap<&'a PlayerId, Vec<usize>>,
    local: BTreeMap<&'a TerrId, Vec<usize>>,
}

/// The players an event names, as [`told`] reads them; `None`: one told to
/// everyone.
fn named(e: &Event) -> Option<Vec<&PlayerId>> {
    Some(match e {
        Event::Quit { .. } | Event::Eliminated { .. } | Event::GameOver => return None,
        Event::Surprise { victim, .. } => vec![victim],
        Event::Tribute { from, to, .. }
        | Event::TroopsGiven { from, to, .. }
        | Event::TerritoryGiven { from, to, .. } => vec![from, to],
        Event::Captured { from, to, .. } => from.iter().chain([to]).collect(),
        Event::Abandoned { player, .. }
        | Event::CapitalLost { player, .. }
        | Event::CapitalPending { player, .. }
        | Event::CapitalMoved { player, .. }
        | Event::CapitalMoveCancelled { player, .. }
        | Event::ChainCancelled { player, .. }
        | Event::WipedOut { player, .. }
        | Event::NoCapital { player }
        | Event::Economy { player, .. } => vec![player],
        Event::OrderResult { .. }
        | Event::Moved { .. }
        | Event::Battle { .. }
        | Event::Recruited { .. }
        | Event::Deserted { .. }
        | Event::Vision { .. } => Vec::new(),
    })
}

/// The territories whose ACTIVITÉ VISIBLE rows an event may add to
/// ([`activity`]).
fn local_to(e: &Event) -> Vec<&TerrId> {
    match e {
        Event::Moved { from, to, .. } => vec![from, to],
        Event::TroopsGiven { terr, .. }
        | Event::Battle { terr, .. }
        | Event::Captured { terr, .. }
        | Event::Recruited { terr, .. }
        | Event::Deserted { terr, .. } => vec![terr],
        _ => Vec::new(),
    }
}

/// The union of sorted lists of indices, sorted, without repeats.
fn merged(lists: impl Iterator<Item = impl IntoIterator<Item = usize>>) -> Vec<usize> {
    let mut v: Vec<usize> = lists.flatten().collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl<'a> Presence<'a> {
    pub fn new(state: &'a State) -> Presence<'a> {
        let mut at: BTreeMap<&PlayerId, Vec<(&TerrId, &TerrState)>> = BTreeMap::new();
        for (t, ts) in &state.territories {
            if let Some(o) = &ts.owner {
                at.entry(o).or_default().push((t, ts));
            }
            for p in ts.troops.keys() {
                if ts.owner.as_ref() != Some(p) {
                    at.entry(p).or_default().push((t, ts));
                }
            }
        }
        let mut seen = BTreeMap::new();
        let mut budgets = BTreeMap::new();
        let mut named_in: BTreeMap<&PlayerId, Vec<usize>> = BTreeMap::new();
        let mut everyone = Vec::new();
        let mut results: BTreeMap<&PlayerId, Vec<usize>> = BTreeMap::new();
        let mut local: BTreeMap<&TerrId, Vec<usize>> = BTreeMap::new();
        for (i, e) in state.log.iter().enumerate() {
            match e {
                Event::Vision { player, terrs } => {
                    seen.entry(player).or_insert(terrs);
                }
                Event::Economy { player, budget } => {
                    budgets.entry(player).or_insert(budget);
                }
                Event::OrderResult { player, .. } => results.entry(player).or_default().push(i),
                _ => {}
            }
            match named(e) {
                None => everyone.push(i),
                Some(ps) => {
                    for p in ps {
                        let v = named_in.entry(p).or_default();
                        if v.last() != Some(&i) {
                            v.push(i);
                        }
                    }
                }
            }
            for t in local_to(e) {
                let v = local.entry(t).or_default();
                if v.last() != Some(&i) {
                    v.push(i);
                }
            }
        }
        Presence {
            at,
            seen,
            budgets,
            named: named_in,
            everyone,
            results,
            local,
        }
    }

    /// The log's events that may be told to player `p`, in log order.
    fn told_to(&self, p: &PlayerId) -> Vec<usize> {
        let mine = self.named.get(p).map(Vec::as_slice).unwrap_or(&[]);
        merged(
            [mine, self.everyone.as_slice()]
                .into_iter()
                .map(|l| l.iter().copied()),
        )
    }

    /// The log's events of the territories of `vis`, in log order.
    fn local_to(&self, vis: &BTreeSet<TerrId>) -> Vec<usize> {
        merged(
            vis.iter()
                .filter_map(|t| self.local.get(t))
                .map(|l| l.iter().copied()),
        )
    }

    /// The territories `p` owns or has a stack in (even of no troops), in
    /// map order.
    pub fn of(&self, p: &PlayerId) -> &[(&'a TerrId, &'a TerrState)] {
        self.at.get(p).map(Vec::as_slice).unwrap_or(&[])
    }

    /// [`crate::report::vision`] of `p`.
    pub fn vision(&self, p: &PlayerId) -> BTreeSet<TerrId> {
        let now = self
            .of(p)
            .iter()
            .filter(|(_, ts)| ts.owner.as_ref() == Some(p) || ts.troops_of(p) > 0)
            .map(|(t, _)| (*t).clone());
        match self.seen.get(p) {
            Some(terrs) => {
                let mut v = (*terrs).clone();
                v.extend(now);
                v
            }
            None => now.collect(),
        }
    }

    fn budget(&self, p: &PlayerId) -> Option<&'a Budget> {
        self.budgets.get(p).copied()
    }
}

/// Does the MESSAGES section tell `seat` about `e`?
fn told(e: &Event, seat: &Seat) -> bool {
    let master = *seat == Seat::GameMaster;
    let me = match seat {
        Seat::Player { id } => Some(id),
        _ => None,
    };
    let is_me = |p: &PlayerId| me == Some(p);
    match e {
        Event::Quit { .. } | Event::Eliminated { .. } | Event::GameOver => true,
        Event::Surprise { victim, .. } => is_me(victim) || master,
        Event::Tribute { from, to, .. } => is_me(from) || is_me(to) || master,
        Event::TroopsGiven { to, .. } => is_me(to) || master,
        Event::TerritoryGiven { from, to, .. } => is_me(to) || is_me(from) || master,
        Event::Captured { from, to, .. } => {
            is_me(to) || from.as_ref().map(is_me).unwrap_or(false) || master
        }
        Event::Abandoned { player, .. }
        | Event::CapitalLost { player, .. }
        | Event::CapitalPending { player, .. }
        | Event::CapitalMoved { player, .. }
        | Event::CapitalMoveCancelled { player, .. }
        | Event::ChainCancelled { player, .. }
        | Event::WipedOut { player, .. }
        | Event::NoCapital { player } => is_me(player) || master,
        Event::Economy { player, budget } => (is_me(player) || master) && budget.deserted > 0,
        Event::OrderResult { .. }
        | Event::Moved { .. }
        | Event::Battle { .. }
        | Event::Recruited { .. }
        | Event::Deserted { .. }
        | Event::Vision { .. } => false,
    }
}

fn flags(state: &State, caps: &BTreeSet<TerrId>, t: &TerrId) -> Vec<Flag> {
    let ts = state.terr(t);
    let mut f = Vec::new();
    if caps.contains(t) {
        f.push(Flag::Capital);
    }
    if ts.conflict {
        f.push(Flag::Conflict);
    }
    if ts.contested {
        f.push(Flag::Contested);
    }
    f
}

fn supremacy(ts: &TerrState, p: &PlayerId) -> bool {
    ts.supremacy.get(p).copied().unwrap_or(true)
}

/// The view of `state` for `viewer`.
pub fn build(state: &State, viewer: &Viewer) -> View {
    let (mut view, vis) = build_parts(state, viewer);
    let caps = state.capitals();
    view.territories = state
        .rows()
        .map(|(t, terr, ts)| territory_row(state, &caps, &vis, t, terr, ts))
        .collect();
    view
}

/// One row of the map as a viewer who sees the troops of `vis` sees it.
fn territory_row(
    state: &State,
    caps: &BTreeSet<TerrId>,
    vis: &BTreeSet<TerrId>,
    t: &TerrId,
    terr: &Territory,
    ts: &TerrState,
) -> TerritoryRow {
    let land = terr.is_land();
    let troops = if !terr.terrain.passable() {
        Some(Vec::new())
    } else if vis.contains(t) {
        Some(
            ts.troops
                .iter()
                .map(|(p, c)| Stack {
                    player: p.clone(),
                    count: *c,
                })
                .collect(),
        )
    } else {
        None
    };
    TerritoryRow {
        id: t.clone(),
        name: terr.name.clone(),
        terrain: terr.terrain,
        area: land.then_some(terr.area),
        neighbours: terr.neighbours.iter().cloned().collect(),
        owner: ts.owner.clone(),
        economy: land.then_some(ts.economy),
        flags: flags(state, caps, t),
        troops,
    }
}

/// Every row of the map as a viewer who sees no troops sees it (issue 22
/// item 5): the part of the view every report of a state shares.
pub fn public_rows(state: &State, caps: &BTreeSet<TerrId>) -> Vec<TerritoryRow> {
    let none = BTreeSet::new();
    state
        .rows()
        .map(|(t, terr, ts)| territory_row(state, caps, &none, t, terr, ts))
        .collect()
}

/// The rows a viewer who sees the troops of `vis` sees otherwise than
/// [`public_rows`] shows them: the passable territories of `vis`, in map order.
pub fn seen_rows(
    state: &State,
    caps: &BTreeSet<TerrId>,
    vis: &BTreeSet<TerrId>,
) -> Vec<TerritoryRow> {
    vis.iter()
        .filter_map(|t| {
            let terr = state.world.territories.get(t)?;
            terr.terrain
                .passable()
                .then(|| territory_row(state, caps, vis, t, terr, state.terr(t)))
        })
        .collect()
}

/// The view of `state` for `viewer` without its map (`territories` is
/// empty: see [`public_rows`] and [`seen_rows`]), and the territories whose
/// troops the viewer sees.
pub fn build_parts(state: &State, viewer: &Viewer) -> (View, BTreeSet<TerrId>) {
    build_parts_with(state, viewer, player_rows(state), &Presence::new(state))
}

/// The standings: the same in every view of a state.
pub fn player_rows(state: &State) -> Vec<PlayerRow> {
    let held = state.holdings();
    state
        .players
        .values()
        .map(|p| {
            let (count, area) = held.get(&p.id).copied().unwrap_or((0, 0));
            PlayerRow {
                id: p.id.clone(),
                name: p.name.clone(),
                status: p.status,
                territories: count,
                area,
                start_area: state.world.area(&p.start_territory),
                score: score::score_with_area(state, &p.id, area),
            }
        })
        .collect()
}

/// [`build_parts`] with the standings already listed ([`player_rows`] of
/// the same state: a turn's reports list them once) and the players'
/// territories gathered ([`Presence`] of the same state).
pub fn build_parts_with(
    state: &State,
    viewer: &Viewer,
    players: Vec<PlayerRow>,
    presence: &Presence<'_>,
) -> (View, BTreeSet<TerrId>) {
    let seat = seat(state, viewer);
    let vis = sight_with(state, &seat, presence);
    let me = match &seat {
        Seat::Player { id } => Some(id.clone()),
        _ => None,
    };
    let master = seat == Seat::GameMaster;
    let spectator = seat == Seat::Spectator;
    // A player's report reads only the events that name them or their
    // vision set (the game master's, all of them).
    let log = |ix: Option<Vec<usize>>| -> Vec<&Event> {
        match ix {
            Some(ix) => ix.into_iter().filter_map(|i| state.log.get(i)).collect(),
            None => state.log.iter().collect(),
        }
    };
    let messages = log(me.as_ref().map(|p| presence.told_to(p)))
        .into_iter()
        .filter(|e| told(e, &seat))
        .cloned()
        .collect();
    let orders = (!spectator).then(|| {
        log(me
            .as_ref()
            .map(|p| presence.results.get(p).cloned().unwrap_or_default()))
        .into_iter()
        .filter_map(|e| match e {
            Event::OrderResult {
                player,
                text,
                status,
                detail,
            } if master || me.as_ref() == Some(player) => Some(OrderLine {
                player: player.clone(),
                order: text.clone(),
                status: *status,
                detail: detail.clone(),
            }),
            _ => None,
        })
        .collect()
    });
    let economy = (!spectator).then(|| {
        let who: Vec<&PlayerId> = match &me {
            Some(p) => vec![p],
            None => state.players.keys().collect(),
        };
        who.into_iter()
            .filter_map(|p| {
                presence.budget(p).map(|b| PlayerBudget {
                    player: p.clone(),
                    budget: b.clone(),
                    bureaucracy_percent: f64::from(b.bp) / 100.0,
                })
            })
            .collect()
    });
    let troops = me.as_ref().map(|p| {
        presence
            .of(p)
            .iter()
            .filter(|(_, ts)| ts.troops_of(p) > 0)
            .map(|(t, ts)| OwnTroops {
                territory: (*t).clone(),
                count: ts.troops_of(p),
                home: ts.owner.as_ref() == Some(p),
                supremacy: supremacy(ts, p),
            })
            .collect()
    });
    let standing_paths = (!spectator).then(|| {
        state
            .chains
            .iter()
            .filter(|c| master || me.as_ref() == Some(&c.player))
            .map(|c| StandingPath {
                player: c.player.clone(),
                number: c.number,
                route: c.route.clone(),
                next_step: c.next + 1,
                planned: c.planned,
            })
            .collect()
    });
    let activity = (!spectator).then(|| {
        activity(
            state,
            &vis,
            &log(me.as_ref().map(|_| presence.local_to(&vis))),
        )
    });
    let marks = me.as_ref().map(|me| {
        state
            .players
            .values()
            .filter(|p| &p.id != me)
            .map(|p| MarkRow {
                player: p.id.clone(),
                you_mark: state.mark(me, &p.id),
                marks_you: state.mark(&p.id, me),
            })
            .collect()
    });
    let enemies = master.then(|| {
        state
            .players
            .values()
            .map(|a| EnemyRow {
                player: a.id.clone(),
                enemies: state
                    .players
                    .values()
                    .filter(|b| b.id != a.id && state.mark(&a.id, &b.id) == Mark::Enemy)
                    .map(|b| b.id.clone())
                    .collect(),
            })
            .collect()
    });
    let final_scores = state.over.then(|| {
        score::ranking(state)
            .into_iter()
            .map(|r| FinalScore {
                rank: r.rank,
                player: r.player,
                score: r.score,
            })
            .collect()
    });
    let mine = me.as_ref().and_then(|p| state.players.get(p));
    let view = View {
        game: state.game_id.clone(),
        turn: state.turn,
        over: state.over,
        orders_for_turn: (!state.over).then_some(state.turn + 1),
        world: state.world.name.clone(),
        quota: state.quota,
        rules: Rules {
            turn_limit: state.params.turn_limit,
            troops_home_upkeep: state.params.troops_home_upkeep,
            troops_away_upkeep: state.params.troops_away_upkeep,
            troops_recruit_cost: state.params.troops_recruit_cost,
        },
        capital: mine.and_then(|p| p.capital.clone()),
        capital_move: mine.and_then(|p| {
            p.pending_capital.as_ref().map(|(t, due)| CapitalMove {
                territory: t.clone(),
                due: *due,
            })
        }),
        viewer: seat,
        players,
        messages,
        orders,
        economy,
        troops,
        standing_paths,
        activity,
        territories: Vec::new(),
        marks,
        enemies,
        final_scores,
    };
    (view, vis)
}

/// The ACTIVITÉ VISIBLE rows: each territory of the vision set where
/// something moved or happened, or troops stand.
fn activity(state: &State, vis: &BTreeSet<TerrId>, log: &[&Event]) -> Vec<Activity> {
    let mut rows: BTreeMap<&TerrId, Activity> = vis
        .iter()
        .map(|t| {
            (
                t,
                Activity {
                    territory: t.clone(),
                    moves_in: Vec::new(),
                    moves_out: Vec::new(),
                    events: Vec::new(),
                    end: Vec::new(),
                },
            )
        })
        .collect();
    for e in log {
        let (terr, local) = match e {
            Event::Moved {
                player,
                from,
                to,
                count,
            } => {
                let m = Movement {
                    player: player.clone(),
                    from: from.clone(),
                    to: to.clone(),
                    count: *count,
                };
                if let Some(a) = rows.get_mut(to) {
                    a.moves_in.push(m.clone());
                }
                if let Some(a) = rows.get_mut(from) {
                    a.moves_out.push(m);
                }
                continue;
            }
            Event::TroopsGiven {
                terr,
                from,
                to,
                count,
            } => (
                terr,
                Local::Gift {
                    from: from.clone(),
                    to: to.clone(),
                    count: *count,
                },
            ),
            Event::Battle {
                terr,
                before,
                hits,
                after,
            } => (
                terr,
                Local::Battle {
                    before: before
                        .iter()
                        .map(|(p, c)| Stack {
                            player: p.clone(),
                            count: *c,
                        })
                        .collect(),
                    hits: hits.clone(),
                    after: after
                        .iter()
                        .map(|(p, c)| Survivors {
                            player: p.clone(),
                            count: *c,
                            lost: before.get(p).copied().unwrap_or(0).saturating_sub(*c),
                        })
                        .collect(),
                },
            ),
            Event::Captured {
                terr,
                from,
                to,
                after_desertion,
            } => (
                terr,
                Local::Capture {
                    from: from.clone(),
                    to: to.clone(),
                    after_desertion: *after_desertion,
                },
            ),
            Event::Recruited {
                player,
                terr,
                count,
            } => (
                terr,
                Local::Recruited {
                    player: player.clone(),
                    count: *count,
                },
            ),
            Event::Deserted {
                player,
                terr,
                count,
            } => (
                terr,
                Local::Deserted {
                    player: player.clone(),
                    count: *count,
                },
            ),
            _ => continue,
        };
        if let Some(a) = rows.get_mut(terr) {
            a.events.push(local);
        }
    }
    rows.into_values()
        .filter_map(|mut a| {
            let ts = state.terr(&a.territory);
            a.end = ts
                .troops
                .iter()
                .map(|(p, c)| EndStack {
                    player: p.clone(),
                    count: *c,
                    supremacy: supremacy(ts, p),
                })
                .collect();
            let quiet = a.moves_in.is_empty() && a.moves_out.is_empty() && a.events.is_empty();
            (!(quiet && a.end.is_empty())).then_some(a)
        })
        .collect()
}

/// Names and areas of a view, looked up by id while rendering.
pub struct Index<'a> {
    pub view: &'a View,
    players: BTreeMap<&'a PlayerId, &'a PlayerRow>,
    terrs: Terrs<'a>,
    /// The widest territory name, in characters: counted once (a turn's
    /// reports share it through [`crate::public::Public`]).
    name_width: std::cell::OnceCell<usize>,
}

/// The rows a territory is looked up in.
enum Terrs<'a> {
    /// A view's own rows, in whatever order it holds them.
    Map(BTreeMap<&'a TerrId, &'a TerritoryRow>),
    /// [`public_rows`]: in map order, so searched without an index (the
    /// index would cost a tree of the whole map per report).
    Sorted(&'a [TerritoryRow]),
}

impl<'a> Index<'a> {
    pub fn new(view: &'a View) -> Index<'a> {
        Index {
            view,
            players: view.players.iter().map(|p| (&p.id, p)).collect(),
            terrs: Terrs::Map(view.territories.iter().map(|t| (&t.id, t)).collect()),
            name_width: std::cell::OnceCell::new(),
        }
    }

    /// For a view built without its map ([`build_parts`]): names, owners
    /// and flags are looked up in `public` ([`public_rows`] of the same
    /// state), which show them as every view does.
    pub fn with_public(view: &'a View, public: &'a [TerritoryRow]) -> Index<'a> {
        Index {
            view,
            players: view.players.iter().map(|p| (&p.id, p)).collect(),
            terrs: Terrs::Sorted(public),
            name_width: std::cell::OnceCell::new(),
        }
    }

    /// The width of the name column of ÉCONOMIE and VOS TROUPES (before
    /// their margins): the widest name, at least 10.
    pub fn name_width(&self) -> usize {
        *self.name_width.get_or_init(|| {
            self.rows()
                .iter()
                .map(|t| t.name.chars().count())
                .max()
                .unwrap_or(8)
                .max(10)
        })
    }

    /// [`Index::name_width`] already counted (for the same rows).
    pub fn with_name_width(self, w: usize) -> Index<'a> {
        let _ = self.name_width.set(w);
        self
    }

    /// A player's name; the id for one the view does not list.
    pub fn player(&self, p: &'a PlayerId) -> &'a str {
        self.players
            .get(p)
            .map(|x| x.name.as_str())
            .unwrap_or(p.0.as_str())
    }

    /// Every row of the map (the view's own, or the shared ones).
    pub fn rows(&self) -> &'a [TerritoryRow] {
        match &self.terrs {
            Terrs::Map(_) => &self.view.territories,
            Terrs::Sorted(rows) => rows,
        }
    }

    pub fn terr(&self, t: &TerrId) -> Option<&'a TerritoryRow> {
        match &self.terrs {
            Terrs::Map(m) => m.get(t).copied(),
            Terrs::Sorted(rows) => rows
                .binary_search_by(|r| r.id.cmp(t))
                .ok()
                .and_then(|i| rows.get(i)),
        }
    }

    /// A territory's name; its id for an unknown one.
    pub fn name(&self, t: &TerrId) -> String {
        self.terr(t)
            .map(|x| x.name.clone())
            .unwrap_or_else(|| t.0.to_string())
    }

    /// "Lorraine (LOR)".
    pub fn tname(&self, t: &TerrId) -> String {
        format!("{} ({})", self.name(t), t)
    }
}

/// echeck (issue 20 item 4): a state rebuilt from the view of `player`'s
/// last report. The map, owners, economy and flags are public and exact;
/// the player's own troops, supremacy, capital, standing paths and marks are
/// in the view; foreign troops are known only in the vision set and are
/// empty elsewhere, which can only make a PATH's route easier, never an
/// order an error the referee would accept.
pub fn state_from_view(value: &serde_json::Value, player: &PlayerId) -> Result<State, SetupError> {
    let view: View = serde_json::from_value(value.clone())
        .map_err(|e| SetupError::Invalid(format!("not a Scrambled Nations view: {e}")))?;
    if view.me() != Some(player) {
        return Err(SetupError::Invalid(format!(
            "this report is not {player}'s own"
        )));
    }
    let mut territories = BTreeMap::new();
    let mut states = BTreeMap::new();
    for r in &view.territories {
        territories.insert(
            r.id.clone(),
            Territory {
                id: r.id.clone(),
                name: r.name.clone(),
                terrain: r.terrain,
                area: r.area.unwrap_or(0),
                base_income: None,
                neighbours: r.neighbours.iter().cloned().collect(),
                start: false,
            },
        );
        let troops: BTreeMap<PlayerId, u64> = r
            .troops
            .iter()
            .flatten()
            .filter(|s| s.count > 0)
            .map(|s| (s.player.clone(), s.count))
            .collect();
        states.insert(
            r.id.clone(),
            TerrState {
                owner: r.owner.clone(),
                economy: r.economy.unwrap_or(0),
                conflict: r.flags.contains(&Flag::Conflict),
                contested: r.flags.contains(&Flag::Contested),
                suppression: 0,
                troops,
                supremacy: BTreeMap::new(),
            },
        );
    }
    // The player's own stacks and supremacy: VOS TROUPES is exact.
    for o in view.troops.iter().flatten() {
        if let Some(ts) = states.get_mut(&o.territory) {
            ts.troops.insert(player.clone(), o.count);
            ts.supremacy.insert(player.clone(), o.supremacy);
        }
    }
    for a in view.activity.iter().flatten() {
        if let Some(ts) = states.get_mut(&a.territory) {
            for s in &a.end {
                ts.supremacy.insert(s.player.clone(), s.supremacy);
            }
        }
    }
    let you_mark: BTreeMap<&PlayerId, Mark> = view
        .marks
        .iter()
        .flatten()
        .map(|m| (&m.player, m.you_mark))
        .collect();
    let marks_you: BTreeMap<&PlayerId, Mark> = view
        .marks
        .iter()
        .flatten()
        .map(|m| (&m.player, m.marks_you))
        .collect();
    let any_terr = view
        .territories
        .first()
        .map(|t| t.id.clone())
        .ok_or_else(|| SetupError::Invalid("the view has no map".into()))?;
    let players = view
        .players
        .iter()
        .map(|p| {
            let mut marks = BTreeMap::new();
            if &p.id == player {
                for (o, m) in &you_mark {
                    marks.insert((*o).clone(), *m);
                }
            } else if let Some(m) = marks_you.get(&p.id) {
                marks.insert(player.clone(), *m);
            }
            let mine = &p.id == player;
            (
                p.id.clone(),
                Player {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    status: p.status,
                    // Not in the view and never read by the order checks.
                    start_territory: any_terr.clone(),
                    capital: if mine { view.capital.clone() } else { None },
                    pending_capital: if mine {
                        view.capital_move
                            .as_ref()
                            .map(|c| (c.territory.clone(), c.due))
                    } else {
                        None
                    },
                    marks,
                },
            )
        })
        .collect();
    let chains: Vec<Chain> = view
        .standing_paths
        .iter()
        .flatten()
        .filter(|c| &c.player == player && c.next_step >= 1)
        .map(|c| Chain {
            number: c.number,
            player: c.player.clone(),
            route: c.route.clone(),
            next: c.next_step - 1,
            planned: c.planned,
        })
        .collect();
    let params = Params {
        turn_limit: view.rules.turn_limit,
        troops_home_upkeep: view.rules.troops_home_upkeep,
        troops_away_upkeep: view.rules.troops_away_upkeep,
        troops_recruit_cost: view.rules.troops_recruit_cost,
        ..Params::default()
    };
    Ok(State {
        game_id: view.game.clone(),
        turn: view.turn,
        params,
        world: World::from_parts(view.world.clone(), territories),
        quota: view.quota,
        players,
        territories: states,
        next_chain: chains.iter().map(|c| c.number + 1).max().unwrap_or(1),
        chains,
        log: Vec::new(),
        over: view.over,
        layout: BTreeMap::new(),
        map_borders: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Presence` hands each report only the log events `named` lists for
    /// its player (issue 22 item 5); `told` still decides. The two must
    /// agree: every event `told` shows a player is one `named` gives that
    /// player (or everyone), so reading the index loses nothing. Checked on
    /// every event of bot games with quits, tributes and gifts.
    #[test]
    fn presence_gives_each_player_every_event_told_to_them() {
        use arbitre_core::testkit_props::PropGame;
        let mut checked = 0usize;
        for (players, rules, seed) in [
            (&["p0", "p1", "p2"][..], "world = \"testland\"", 1u64),
            (
                &["p0", "p1", "p2", "p3", "p4", "p5"][..],
                "world = \"hexagone\"",
                3,
            ),
            (
                &["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"][..],
                "world = \"hexagone\"",
                4,
            ),
        ] {
            let game = PropGame {
                engine: Box::new(arbitre_core::Adapter(crate::Scrambled)),
                players,
                rules,
                turns: 12,
            };
            let mut state = game.setup(seed).state;
            for turn in 1..=game.turns {
                let mut orders = game.bot_orders(&state, seed);
                // A quit and tributes, whose messages name their players.
                if let Some(t) = orders.get_mut(&PlayerId::from("p1")).filter(|_| turn == 6) {
                    t.push_str("QUIT\n");
                }
                if let Some(t) = orders
                    .get_mut(&PlayerId::from("p0"))
                    .filter(|_| turn % 3 == 0)
                {
                    t.push_str("TRIBUTE 100 TO p2\n");
                }
                let res = game.engine.resolve(&state, seed, &orders).unwrap();
                state = res.snapshot.state;
                let s: State = serde_json::from_str(&state).unwrap();
                let presence = Presence::new(&s);
                for p in s.players.keys() {
                    let seat = Seat::Player { id: p.clone() };
                    let whole: Vec<usize> = (0..s.log.len())
                        .filter(|&i| told(&s.log[i], &seat))
                        .collect();
                    let indexed: Vec<usize> = presence
                        .told_to(p)
                        .into_iter()
                        .filter(|&i| told(&s.log[i], &seat))
                        .collect();
                    assert_eq!(indexed, whole, "{rules} seed {seed} turn {turn}, {p}");
                    checked += whole.len();
                }
                if res.outcome.is_some() {
                    break;
                }
            }
        }
        assert!(checked > 0, "the games told their players something");
    }
}
