//! The typed view of the EDS documents (issue 20 items 1-2): exactly what
//! the Spielunterlagen of one month (rulebook "Die Spielunterlagen", spec
//! §6) show one viewer, as data. [`crate::report`] renders the text from it
//! and the daemon sends it as the JSON report's `view` (schema:
//! docs/schemas/eds.view.schema.json), so the two cannot disagree.
//!
//! Fog of war is decided here, once, with the rules of §6.9: a ruler's view
//! holds their own stars and ships, the foreign stars and ships of the
//! Beobachtungen ([`crate::report::observed_stars_in`],
//! [`crate::report::observed_ships_in`]), their own messages and diplomatic
//! mail, and the public facts every ruler receives (Herrscherliste, star
//! directory, transfers, Kampfberichte, Sternenanzeiger). Besides the text
//! it carries the Befehlsblatt's rule facts a checking tool needs (the
//! entry limits, the months per year) and which of the ruler's own ships is
//! the home base. Keys are English; the rulebook's abbreviations (the goods
//! E/U/G, the facilities W/E/U/G/F, the size classes A-Z, the columns
//! Tk, JG, LR, RW, LX, TX, SP) are kept as values or named in the schema.

use crate::events::Event;
use crate::model::{Facility, Good, RulerNr, ShipNr, Spatial, StarNr, State};
use crate::params::Params;
use serde::{Deserialize, Serialize};

/// Who the documents are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewKind {
    Player,
    GameMaster,
    Spectator,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EdsView {
    /// The game's id as the referee knows it.
    pub game: String,
    pub galaxy: String,
    /// The last evaluated month (0 = Spielvorbereitung).
    pub month: u32,
    pub viewer: ViewKind,
    pub width: i32,
    pub height: i32,
    pub game_over: bool,
    /// The next Zugabgabetermin in the reader's own zone (issue 17 item 9),
    /// a fact the referee hands in; absent when none is set (game over,
    /// game paused, a render outside the mail loop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<arbitre_core::LocalDeadline>,
    pub rules: Rules,
    /// The Herrscherliste, in number order.
    pub rulers: Vec<RulerEntry>,
    /// The game master's Hinweise of the month (game master only).
    #[serde(default)]
    pub notes: Vec<Post>,
    /// Each ruler's own documents: the viewer's (player), every ruler's
    /// (game master), none (spectator).
    #[serde(default)]
    pub sheets: Vec<RulerDocs>,
    /// The public part of the Monatsbericht (spectator only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_report: Option<MonthReport>,
    /// The Kampfberichte of the month, every ruler receives all (§6.6).
    #[serde(default)]
    pub battles: Vec<BattleView>,
    pub map: MapView,
    pub anzeiger: Anzeiger,
    /// Every star with every column (game master only).
    #[serde(default)]
    pub all_stars: Vec<StarView>,
}

/// The rule facts of the Befehlsblatt and the Monatsbericht.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub months_per_year: u32,
    /// The Evolutionsstufe that wins.
    pub ev_win: u32,
    /// The entry limits of the order sections 1..18, in section order.
    pub order_limits: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulerEntry {
    pub number: RulerNr,
    pub name: String,
    /// False once the ruler is out of the game ("ausgeschieden").
    pub active: bool,
}

/// A text signed by a ruler (Sternenanzeiger, Diplomatie, Hinweis).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Post {
    pub from: RulerNr,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulerDocs {
    /// The Monatsbericht (absent in the Spielvorbereitung).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub month_report: Option<MonthReport>,
    pub sheet: Sheet,
}

/// One line of the Fehlerprotokoll or the Meldungen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The phase (1..23) that wrote it.
    pub phase: u8,
    /// The order entry it answers, when it answers one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    pub text: String,
}

/// A line of the Meldungen: a message, or the month's jump order (phase 7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Info {
    Message(Message),
    JumpOrder { rulers: Vec<RulerNr> },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transfer {
    pub from: RulerNr,
    pub to: RulerNr,
    /// In WE.
    pub amount: i64,
}

/// The Monatsbericht of one ruler, or its public part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MonthReport {
    /// The ruler it is for; absent for the public part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruler: Option<RulerNr>,
    /// The Fehlerprotokoll.
    #[serde(default)]
    pub errors: Vec<Message>,
    /// The Meldungen.
    #[serde(default)]
    pub infos: Vec<Info>,
    /// Every transfer of the galaxy.
    #[serde(default)]
    pub transfers: Vec<Transfer>,
    /// The diplomatic mail to this ruler.
    #[serde(default)]
    pub diplomacy: Vec<Post>,
    /// The average Evolutionsstufe of all realms, when computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_ev: Option<f64>,
    /// The winners, once the game has ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<RulerNr>>,
}

/// A battle of the month: where, between whom, its Kampfbericht and the
/// Monatsbericht's one-line summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleView {
    pub number: u32,
    pub x: i32,
    pub y: i32,
    /// Red and blue.
    pub sides: [RulerNr; 2],
    pub summary: String,
    pub report: String,
}

/// The goods E, U, G.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Goods {
    #[serde(rename = "E")]
    pub e: u32,
    #[serde(rename = "U")]
    pub u: u32,
    #[serde(rename = "G")]
    pub g: u32,
}

impl From<[u32; 3]> for Goods {
    fn from(a: [u32; 3]) -> Goods {
        Goods {
            e: a[0],
            u: a[1],
            g: a[2],
        }
    }
}

impl From<Goods> for [u32; 3] {
    fn from(g: Goods) -> [u32; 3] {
        [g.e, g.u, g.g]
    }
}

/// The weapon systems L, T, N, A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapons {
    #[serde(rename = "L")]
    pub l: u32,
    #[serde(rename = "T")]
    pub t: u32,
    #[serde(rename = "N")]
    pub n: u32,
    #[serde(rename = "A")]
    pub a: u32,
}

impl From<[u32; 4]> for Weapons {
    fn from(a: [u32; 4]) -> Weapons {
        Weapons {
            l: a[0],
            t: a[1],
            n: a[2],
            a: a[3],
        }
    }
}

impl From<Weapons> for [u32; 4] {
    fn from(w: Weapons) -> [u32; 4] {
        [w.l, w.t, w.n, w.a]
    }
}

/// A star line (§6.4.2: Nr. Name Xko Yko BV I Ljg Tjg E U G ErE ErU ErG Bes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StarView {
    pub number: StarNr,
    pub name: String,
    pub x: i32,
    pub y: i32,
    /// BV, the population.
    pub bv: u32,
    /// I, the facility (W, E, U, G, F).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facility: Option<Facility>,
    /// Ljg and Tjg, the fighters stationed on the star.
    pub ljg: u32,
    pub tjg: u32,
    /// E, U, G, the stocks.
    pub stock: Goods,
    /// ErE, ErU, ErG, the yield rates.
    pub rates: Goods,
    /// Bes, the owner; absent for a star without owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<RulerNr>,
}

/// A ship's cargo: one good and its amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cargo {
    pub good: Good,
    pub amount: u32,
}

/// A ship line (§6.4.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShipView {
    pub number: ShipNr,
    pub name: String,
    pub x: i32,
    pub y: i32,
    /// G, the size class A..Z.
    pub class: char,
    /// Tk, JG, LR, RW, LX, TX as the sheet's columns.
    pub tk: u32,
    pub jg: u32,
    pub lr: u32,
    pub rw: u32,
    pub lx: u32,
    pub tx: u32,
    /// Kanonen L, T, N, A.
    pub guns: Weapons,
    /// Schilde L, T, N, A.
    pub shields: Weapons,
    /// T, the hits taken.
    pub hits: u32,
    pub sp: u32,
    pub ljg: u32,
    pub tjg: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cargo: Option<Cargo>,
    pub r: u8,
    /// Bes, the owner.
    pub owner: RulerNr,
    /// The ruler's own home base (never set on a foreign ship).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub home_base: bool,
}

/// One ruler's declared status toward another (STATUS ZU DEN HERRSCHERN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusEntry {
    pub ruler: RulerNr,
    /// 1 friendly, 2 neutral, 3 hostile.
    pub status: u8,
}

/// The Besitztümerblatt of one ruler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sheet {
    pub ruler: RulerNr,
    /// The year of the Stand line and its name.
    pub year: u32,
    pub year_name: String,
    /// Vermögen in WE.
    pub we: i64,
    /// Evolutionsstufe.
    pub ev: u32,
    pub statuses: Vec<StatusEntry>,
    pub stars: Vec<StarView>,
    pub ships: Vec<ShipView>,
    /// The Beobachtungen.
    pub observed_stars: Vec<StarView>,
    pub observed_ships: Vec<ShipView>,
}

/// The Sternenkarte: every star by number and point (the star directory),
/// and the points where the viewer's ships stand. The viewer's own stars
/// are those of their sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapView {
    /// `[number, x, y]` of every star, in number order.
    pub stars: Vec<[i64; 3]>,
    /// `[x, y]` of every own ship (empty for the public map).
    #[serde(default)]
    pub ships: Vec<[i32; 2]>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anzeiger {
    pub announcements: String,
    pub posts: Vec<Post>,
}

pub fn star_view(s: &crate::model::Star) -> StarView {
    StarView {
        number: s.number,
        name: s.name.clone(),
        x: s.x,
        y: s.y,
        bv: s.bv,
        facility: s.facility,
        ljg: s.ljg,
        tjg: s.tjg,
        stock: s.stock.into(),
        rates: s.rate.into(),
        owner: s.owner,
    }
}

pub fn ship_view(s: &crate::model::Ship, own: bool) -> ShipView {
    ShipView {
        number: s.number,
        name: s.name.clone(),
        x: s.x,
        y: s.y,
        class: s.class_letter(),
        tk: s.tk,
        jg: s.jg,
        lr: s.lr,
        rw: s.rw,
        lx: s.lx,
        tx: s.tx,
        guns: s.guns.into(),
        shields: s.shields.into(),
        hits: s.hits,
        sp: s.sp,
        ljg: s.ljg,
        tjg: s.tjg,
        cargo: s.cargo.map(|(good, amount)| Cargo { good, amount }),
        r: s.r,
        owner: s.owner,
        home_base: own && s.home_base,
    }
}

fn rules(p: &Params) -> Rules {
    Rules {
        months_per_year: p.months_per_year,
        ev_win: p.ev_win,
        order_limits: p.order_limits.to_vec(),
    }
}

fn rulers(state: &State) -> Vec<RulerEntry> {
    state
        .rulers
        .iter()
        .map(|r| RulerEntry {
            number: r.number,
            name: r.name.clone(),
            active: r.active,
        })
        .collect()
}

/// The Besitztümerblatt of ruler `r`, with the caller's [`Spatial`] index
/// (a [`crate::report::ship_spots`] index is enough).
pub fn sheet(state: &State, sp: &Spatial, r: RulerNr) -> Sheet {
    use crate::report::{observed_ships_in, observed_stars_in, ships_sorted};
    let (year, _) = crate::formulas::year_month(&state.params, state.month.max(1));
    let (we, ev) = state.ruler(r).map_or((0, 0), |x| (x.we, x.ev));
    Sheet {
        ruler: r,
        year,
        year_name: crate::formulas::year_name(&state.params, year),
        we,
        ev,
        statuses: state
            .rulers
            .iter()
            .filter(|o| o.number != r)
            .map(|o| StatusEntry {
                ruler: o.number,
                status: state.st(r, o.number),
            })
            .collect(),
        stars: state
            .stars
            .values()
            .filter(|x| x.owner == Some(r))
            .map(star_view)
            .collect(),
        ships: ships_sorted(state.ships.values().filter(|x| x.owner == r))
            .into_iter()
            .map(|s| ship_view(s, true))
            .collect(),
        observed_stars: observed_stars_in(state, sp, r)
            .into_iter()
            .map(star_view)
            .collect(),
        observed_ships: observed_ships_in(state, sp, r)
            .into_iter()
            .map(|s| ship_view(s, false))
            .collect(),
    }
}

/// The Monatsbericht of ruler `r` (None: its public part) from the month's events.
pub fn month_report(state: &State, events: &[Event], r: Option<RulerNr>) -> MonthReport {
    let mut m = MonthReport {
        ruler: r,
        errors: Vec::new(),
        infos: Vec::new(),
        transfers: Vec::new(),
        diplomacy: Vec::new(),
        average_ev: None,
        winners: None,
    };
    let mut end = None;
    for e in events {
        match e {
            Event::Msg(x) if Some(x.ruler) == r => {
                let line = Message {
                    phase: x.phase,
                    entry: x.entry.clone(),
                    text: x.text.clone(),
                };
                if x.error {
                    m.errors.push(line)
                } else {
                    m.infos.push(Info::Message(line))
                }
            }
            Event::JumpOrder(v) if r.is_some() => {
                m.infos.push(Info::JumpOrder { rulers: v.clone() })
            }
            Event::Transfer { from, to, amount } => m.transfers.push(Transfer {
                from: *from,
                to: *to,
                amount: *amount,
            }),
            Event::Diplomacy { from, to, text } if Some(*to) == r => m.diplomacy.push(Post {
                from: *from,
                text: text.clone(),
            }),
            Event::AverageEv(v) => m.average_ev = Some(*v),
            Event::GameEnd(w) => end = Some(w.clone()),
            _ => {}
        }
    }
    m.winners = end.or_else(|| state.game_over.then(|| state.winners.clone()));
    m
}

pub fn battles(events: &[Event]) -> Vec<BattleView> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Battle(b) => Some(BattleView {
                number: b.number,
                x: b.x,
                y: b.y,
                sides: b.sides,
                summary: b.short.clone(),
                report: b.text.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// The Sternenkarte of `viewer` (None: the public map).
pub fn map(state: &State, viewer: Option<RulerNr>) -> MapView {
    MapView {
        stars: state
            .stars
            .values()
            .map(|s| [i64::from(s.number), i64::from(s.x), i64::from(s.y)])
            .collect(),
        ships: match viewer {
            Some(r) => own_ships(state, r),
            None => Vec::new(),
        },
    }
}

/// The points of ruler `r`'s ships, the part of the map only they see.
fn own_ships(state: &State, r: RulerNr) -> Vec<[i32; 2]> {
    state
        .ships
        .values()
        .filter(|s| s.owner == r)
        .map(|s| [s.x, s.y])
        .collect()
}

pub fn anzeiger(state: &State) -> Anzeiger {
    Anzeiger {
        announcements: state.announcements.clone(),
        posts: state
            .anzeiger
            .iter()
            .map(|(from, text)| Post {
                from: *from,
                text: text.clone(),
            })
            .collect(),
    }
}

/// The public frame of a month's views (the spectators' view without its
/// Monatsbericht): what every viewer's view starts from, so that a month's
/// reports build it once and each view is a copy of it.
pub fn public_frame(state: &State, events: &[Event]) -> EdsView {
    EdsView {
        game: state.game_id.clone(),
        galaxy: state.galaxy.clone(),
        month: state.month,
        viewer: ViewKind::Spectator,
        width: state.width,
        height: state.height,
        game_over: state.game_over,
        deadline: None,
        rules: rules(&state.params),
        rulers: rulers(state),
        notes: Vec::new(),
        sheets: Vec::new(),
        public_report: None,
        battles: if state.month > 0 {
            battles(events)
        } else {
            Vec::new()
        },
        map: map(state, None),
        anzeiger: anzeiger(state),
        all_stars: Vec::new(),
    }
}

fn docs(state: &State, events: &[Event], sp: &Spatial, r: RulerNr) -> RulerDocs {
    RulerDocs {
        month_report: (state.month > 0).then(|| month_report(state, events, Some(r))),
        sheet: sheet(state, sp, r),
    }
}

/// Ruler `r`'s view: their own documents and the public ones.
pub fn player_view(state: &State, events: &[Event], r: RulerNr) -> EdsView {
    let sp = crate::report::ship_spots(state);
    player_view_from(state, events, &sp, public_frame(state, events), r)
}

/// [`player_view`] from the month's [`public_frame`] and [`Spatial`] index.
pub fn player_view_from(
    state: &State,
    events: &[Event],
    sp: &Spatial,
    frame: EdsView,
    r: RulerNr,
) -> EdsView {
    let mut v = frame;
    v.viewer = ViewKind::Player;
    v.map.ships = own_ships(state, r);
    v.sheets.push(docs(state, events, sp, r));
    v
}

/// The spectators' view: the public documents only.
pub fn spectator_view(state: &State, events: &[Event]) -> EdsView {
    spectator_view_from(state, events, public_frame(state, events))
}

/// [`spectator_view`] from the month's [`public_frame`].
pub fn spectator_view_from(state: &State, events: &[Event], frame: EdsView) -> EdsView {
    let mut v = frame;
    v.public_report = (state.month > 0).then(|| month_report(state, events, None));
    v
}

/// The Hinweise an die Spielleitung of the month.
pub fn notes(events: &[Event]) -> Vec<Post> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Note { from, text } => Some(Post {
                from: *from,
                text: text.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// The game master's view: every ruler's documents, the Hinweise, every star.
pub fn master_view(state: &State, events: &[Event]) -> EdsView {
    let sp = crate::report::ship_spots(state);
    master_view_from(state, events, &sp, public_frame(state, events))
}

/// [`master_view`] from the month's [`public_frame`] and [`Spatial`] index.
pub fn master_view_from(state: &State, events: &[Event], sp: &Spatial, frame: EdsView) -> EdsView {
    let mut v = frame;
    v.viewer = ViewKind::GameMaster;
    v.notes = notes(events);
    v.sheets = state
        .rulers
        .iter()
        .map(|r| docs(state, events, sp, r.number))
        .collect();
    v.all_stars = state.stars.values().map(star_view).collect();
    v
}

/// echeck (issue 20 item 4): the state a ruler's own view describes, for
/// judging their orders. The parser's errors need the entry limits, the
/// month, the map's size and the ruler's own ships (owner, home base); all
/// are in the view. Foreign rulers get a handle no order can use, stars
/// outside the Beobachtungen no owner and no columns, the rule constants
/// the view does not carry the rulebook's defaults (they only feed the
/// Zug-Planer's warnings, never an error).
pub fn state_from_view(
    v: &EdsView,
    player: &arbitre_core::PlayerId,
) -> Result<State, arbitre_core::SetupError> {
    use crate::model::{Ruler, Ship, Star};
    use arbitre_core::SetupError;
    if v.viewer != ViewKind::Player {
        return Err(SetupError::Invalid(
            "only a ruler's own report can rebuild that ruler's game".into(),
        ));
    }
    let own = v
        .sheets
        .first()
        .ok_or_else(|| SetupError::Invalid("the report has no Besitztümerblatt".into()))?
        .sheet
        .clone();
    if v.rules.order_limits.len() != 18 {
        return Err(SetupError::Invalid(format!(
            "the report lists {} entry limits, not 18",
            v.rules.order_limits.len()
        )));
    }
    let mut params = Params {
        months_per_year: v.rules.months_per_year.max(1),
        ev_win: v.rules.ev_win,
        ..Params::default()
    };
    params.order_limits.copy_from_slice(&v.rules.order_limits);
    let rulers = v
        .rulers
        .iter()
        .map(|r| {
            let me = r.number == own.ruler;
            Ruler {
                number: r.number,
                id: if me {
                    player.clone()
                } else {
                    // Not the other ruler's handle (the report does not show
                    // it): a name no order can use.
                    arbitre_core::PlayerId::new(format!("?{}", r.name))
                },
                name: r.name.clone(),
                we: if me { own.we } else { 0 },
                ev: if me { own.ev } else { 0 },
                status: if me {
                    own.statuses.iter().map(|s| (s.ruler, s.status)).collect()
                } else {
                    Default::default()
                },
                home_star: 0,
                active: r.active,
            }
        })
        .collect();
    let mut stars: std::collections::BTreeMap<StarNr, Star> = v
        .map
        .stars
        .iter()
        .filter_map(|&[n, x, y]| {
            Some(Star {
                number: u32::try_from(n).ok()?,
                x: i32::try_from(x).ok()?,
                y: i32::try_from(y).ok()?,
                name: String::new(),
                owner: None,
                bv: 0,
                facility: None,
                ljg: 0,
                tjg: 0,
                stock: [0; 3],
                rate: [0; 3],
            })
        })
        .map(|s| (s.number, s))
        .collect();
    for s in own.stars.iter().chain(&own.observed_stars) {
        stars.insert(
            s.number,
            Star {
                number: s.number,
                x: s.x,
                y: s.y,
                name: s.name.clone(),
                owner: s.owner,
                bv: s.bv,
                facility: s.facility,
                ljg: s.ljg,
                tjg: s.tjg,
                stock: s.stock.into(),
                rate: s.rates.into(),
            },
        );
    }
    let ships = own
        .ships
        .iter()
        .chain(&own.observed_ships)
        .map(|s| {
            let typ = u32::from(s.class).saturating_sub(u32::from('A')) + 1;
            (
                s.number,
                Ship {
                    number: s.number,
                    name: s.name.clone(),
                    owner: s.owner,
                    typ: typ.clamp(1, 26),
                    tk: s.tk,
                    jg: s.jg,
                    guns: s.guns.into(),
                    shields: s.shields.into(),
                    lr: s.lr,
                    rw: s.rw,
                    lx: s.lx,
                    tx: s.tx,
                    x: s.x,
                    y: s.y,
                    hits: s.hits,
                    sp: s.sp,
                    ljg: s.ljg,
                    tjg: s.tjg,
                    cargo: s.cargo.map(|c| (c.good, c.amount)),
                    r: s.r,
                    home_base: s.home_base,
                },
            )
        })
        .collect();
    Ok(State {
        game_id: v.game.clone(),
        galaxy: v.galaxy.clone(),
        width: v.width,
        height: v.height,
        month: v.month,
        params,
        rulers,
        stars,
        ships,
        scrap_yards_prev: Default::default(),
        winners: Vec::new(),
        game_over: v.game_over,
        anzeiger: Vec::new(),
        announcements: String::new(),
        last_events: Vec::new(),
    })
}
