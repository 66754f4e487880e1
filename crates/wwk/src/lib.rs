//! # arbitre-wwk: the WWK ruleset (French, play by e-mail)
//!
//! Implements `../shared/rules/wwk.md` (English specification) over the
//! original rulebook `../shared/seeds/wwk-rules-fr.txt`. Modules follow the
//! turn's phases (§4): `intake` (0), `admin` (1), `intel` (2), `military` and
//! `combat` (3), `control` (4), `economy` (5), then `report`. Static data:
//! `catalog` (unit tables), `map` (graph and distances), `setup` (scenarios
//! and positions), `parser` (order notation).
//!
//! Simplifications, on purpose and documented in `docs/wwk.md`: infantry
//! carried by land vehicles travels beside them (only units at sea are in a
//! transport's hold, `@<id>`); aircraft on the ground defend by defensive
//! bombardment, not in the land round; the roll log records step, sequence,
//! die, result and the step's catalogue purpose, not the subject ids.

pub mod admin;
pub mod bot;
pub mod catalog;
pub mod combat;
pub mod control;
pub mod economy;
pub mod fast_path;
pub mod grammar;
pub mod intake;
pub mod intel;
pub mod map;
pub mod military;
pub mod model;
pub mod orders;
pub mod parse_index;
pub mod parser;
pub mod report;
pub mod report_index;
pub mod report_view;
pub mod setup;
pub mod svg;
pub mod turn;
pub mod view;

use arbitre_core::{
    Lang, Outcome, ParseIndex, Parsed, Phase, PlayerId, PlayerInfo, Ranked, Report, ReportFacts,
    Rng, Ruleset, RulesetInfo, SetupConfig, SetupError, Viewer,
};
use std::borrow::Cow;
use std::cell::OnceCell;

pub use model::State;
pub use orders::Order;
pub use turn::{Event, Scratch};

pub struct Wwk;

/// `viewer`'s report from the turn's index; `frame` is the map's frame,
/// built by the first nation's report and shared by the next ones.
fn report_for(ix: &report_index::Index, frame: &OnceCell<svg::Frame>, viewer: &Viewer) -> Report {
    let s = ix.st;
    let (nation, gm) = match viewer {
        Viewer::Player(p) => (
            s.nation_of_player(p.as_str()).map(|n| n.code.clone()),
            false,
        ),
        Viewer::Spectator => (None, false),
        Viewer::GameMaster => (None, true),
    };
    let view = report_view::build_with(ix, nation.as_deref(), gm);
    let mut rep = Report::text(format!("WWK tour {}", s.turn), report::text(&view));
    if let (Some(n), Viewer::Player(p)) = (&nation, viewer) {
        // The map of the world as this nation sees it (issue 18 item 1).
        let rows = match &view.map {
            Some(rows) => Cow::Borrowed(rows),
            None => Cow::Owned(view::rows_with(ix, Some(n), false)),
        };
        let frame = frame.get_or_init(|| svg::Frame::new(s, &rows));
        let title = format!("WWK {} tour {} : carte vue par {n}", s.game_id, s.turn);
        rep = rep.with_attachment(
            &format!("carte-t{:02}.svg", s.turn),
            "image/svg+xml",
            svg::render_in(frame, s, &rows, n, &title),
        );
        if !s.ended {
            rep = rep.with_attachment(
                &format!("ordres-t{:02}.txt", s.turn + 1),
                "text/plain",
                report::order_template(s, n, p.as_str()),
            );
        }
    } else if gm && !s.roll_log.is_empty() {
        rep = rep.with_attachment(
            &format!("jets-t{:02}.json", s.turn),
            "application/json",
            serde_json::to_string_pretty(&s.roll_log).unwrap_or_default(),
        );
    }
    rep.with_view(&view)
}

/// The verdict of a block from a player who plays no nation of the game.
fn unknown_player(text: &str) -> Parsed<Order> {
    let mut p = Parsed::new();
    p.error(
        1,
        text.lines().next().unwrap_or(""),
        "joueur inconnu dans cette partie",
    );
    p
}

impl Ruleset for Wwk {
    type State = State;
    type Order = Order;
    type Scratch = Scratch;
    type Event = Event;

    /// Issue 19 item 6: the state as a position (docs/wwk.md).
    fn export_position(&self, s: &State) -> Result<String, SetupError> {
        setup::export_position(s)
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: "wwk",
            name: "WWK",
            lang: Lang::Fr,
            turn_word: "tour",
        }
    }

    fn setup(&self, config: &SetupConfig, _rng: &mut Rng) -> Result<State, SetupError> {
        setup::setup(config)
    }

    fn turn(&self, s: &State) -> u32 {
        s.turn
    }

    fn set_turn(&self, s: &mut State, turn: u32) {
        s.turn = turn;
    }

    fn players(&self, s: &State) -> Vec<PlayerInfo> {
        s.nations
            .values()
            .map(|n| PlayerInfo {
                id: PlayerId::new(n.player.clone()),
                name: n.name.clone(),
                active: n.active,
            })
            .collect()
    }

    fn parse_orders(&self, s: &State, player: &PlayerId, text: &str) -> Parsed<Order> {
        match s.nation_of_player(player.as_str()) {
            Some(n) => parser::parse(s, &n.code.clone(), text),
            None => unknown_player(text),
        }
    }

    fn parse_index(&self, s: &State) -> Option<ParseIndex> {
        Some(Box::new(parse_index::Index::build(s)))
    }

    fn parse_orders_indexed(
        &self,
        s: &State,
        index: Option<&ParseIndex>,
        player: &PlayerId,
        text: &str,
    ) -> Parsed<Order> {
        let Some(ix) = index.and_then(|i| i.downcast_ref::<parse_index::Index>()) else {
            return self.parse_orders(s, player, text);
        };
        match ix.nation_of(player.as_str()) {
            Some(n) => parser::parse_indexed(s, ix, n, text),
            None => unknown_player(text),
        }
    }

    fn phases(&self) -> Vec<Phase<Self>> {
        turn::phases()
    }

    fn report(&self, s: &State, events: &[Event], viewer: &Viewer) -> Report {
        report_for(
            &report_index::Index::new(s, events),
            &OnceCell::new(),
            viewer,
        )
    }

    /// The turn's [`report_index::Index`] and map frame built once for all
    /// the readers. WWK's `report_with` is the default (the facts are not
    /// printed), so each report is `report`'s.
    fn reports_with(
        &self,
        s: &State,
        events: &[Event],
        viewers: &[Viewer],
        _facts: &dyn Fn(&Viewer) -> ReportFacts,
    ) -> Vec<Report> {
        let ix = report_index::Index::new(s, events);
        let frame = OnceCell::new();
        viewers.iter().map(|v| report_for(&ix, &frame, v)).collect()
    }

    fn state_from_view(
        &self,
        view: &serde_json::Value,
        player: &PlayerId,
    ) -> Result<State, SetupError> {
        report_view::state_from_view(view, player)
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        if !s.ended {
            return None;
        }
        let mut v: Vec<(String, i64, String)> = s
            .nations
            .values()
            .map(|n| (n.player.clone(), n.vp, n.code.clone()))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
        let winners = s.winner.clone().unwrap_or_default();
        let ranking = v
            .iter()
            .map(|(p, vp, code)| Ranked {
                player: PlayerId::new(p.clone()),
                score: *vp,
                rank: if winners.contains(code) {
                    1
                } else {
                    1 + v
                        .iter()
                        .filter(|x| x.1 > *vp || winners.contains(&x.2))
                        .count() as u32
                },
            })
            .collect();
        let summary = format!(
            "{} gagne(nt) avec {} PV",
            winners.join(", "),
            v.first().map(|x| x.1).unwrap_or(0)
        );
        Some(Outcome { ranking, summary })
    }

    fn bot_orders(&self, s: &State, player: &PlayerId, rng: &mut Rng) -> String {
        match s.nation_of_player(player.as_str()) {
            Some(n) => bot::orders(s, &n.code.clone(), rng),
            None => String::new(),
        }
    }
}
