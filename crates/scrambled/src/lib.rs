//! # Scrambled Nations by mail
//!
//! The ruleset of the rulebook "Scrambled Nations [Beta ouverte]", version
//! "Brouillard de guerre" (`../shared/seeds/scrambled-nations-rules-fr.txt`),
//! as specified in `../shared/rules/scrambled-nations.md`. Where the rulebook
//! is silent, the specification's decisions (D1…D39) apply; docs/scrambled.md
//! lists them.
//!
//! Modules follow the turn (spec §3.0): [`parser`] reads the orders (with
//! the territories found once per state, [`parse_index`]), [`turn`]
//! lists the steps R0…R11: [`freeze`] (R0), [`quit`] (R1), [`movement`] (R2,
//! R3), [`combat`] (R4), [`capture`] (R5, R9b), [`territory_gift`] (R6),
//! [`revenue`] with the formulas of [`economy`] (R7–R9), [`capital`] (R10),
//! [`housekeeping`] (R11). [`report`] and [`svg`] render what each player sees,
//! [`bot`] writes orders, [`score`] ranks; [`setup`] and [`position`] read and
//! write worlds and positions; [`join`] adds a player to a running game.

pub mod bot;
pub mod capital;
pub mod capture;
pub mod combat;
pub mod economy;
pub mod events;
pub mod fast_path;
pub mod freeze;
pub mod grammar;
pub mod housekeeping;
pub mod join;
mod line_scan;
pub mod movement;
pub mod orders;
pub mod params;
pub mod parse_index;
pub mod parser;
pub mod position;
pub mod public;
pub mod quit;
pub mod report;
pub mod revenue;
pub mod score;
pub mod setup;
pub mod state;
pub mod svg;
pub mod table;
pub mod territory_gift;
pub mod turn;
pub mod view;
pub mod world;

use arbitre_core::lang::Lang;
use arbitre_core::{
    Outcome, ParseIndex, Parsed, Phase, PlayerId, PlayerInfo, Report, Rng, Ruleset, RulesetInfo,
    SetupConfig, SetupError, Viewer,
};

pub use events::Event;
pub use orders::Order;
pub use state::State;

/// The Scrambled Nations ruleset (`ruleset = "scrambled"`).
pub struct Scrambled;

impl Ruleset for Scrambled {
    type State = State;
    type Order = Order;
    type Scratch = turn::Scratch;
    type Event = Event;

    /// The turn's events as they serialise, for the rule cases' outcome
    /// checks (issue 23): battles, surprise attacks and captures are typed values.
    fn outcome_values(&self, events: &[Event]) -> Option<serde_json::Value> {
        serde_json::to_value(events).ok()
    }

    /// Issue 19 item 6: the position format of `position_file` (docs/scrambled.md §5).
    fn export_position(&self, state: &State) -> Result<String, SetupError> {
        Ok(position::to_toml(state))
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: "scrambled",
            name: "Scrambled Nations",
            lang: Lang::Fr,
            turn_word: "tour",
        }
    }

    fn setup(&self, config: &SetupConfig, rng: &mut Rng) -> Result<State, SetupError> {
        setup::setup(config, rng)
    }

    fn turn(&self, state: &State) -> u32 {
        state.turn
    }

    fn set_turn(&self, state: &mut State, turn: u32) {
        state.turn = turn;
    }

    fn players(&self, state: &State) -> Vec<PlayerInfo> {
        state
            .players
            .values()
            .map(|p| PlayerInfo {
                id: p.id.clone(),
                name: p.name.clone(),
                active: p.active() && !state.over,
            })
            .collect()
    }

    fn parse_orders(&self, state: &State, player: &PlayerId, text: &str) -> Parsed<Order> {
        parser::parse(state, player, text)
    }

    fn parse_index(&self, state: &State) -> Option<ParseIndex> {
        parse_index::Index::build(state).map(|ix| Box::new(ix) as ParseIndex)
    }

    fn parse_orders_indexed(
        &self,
        state: &State,
        index: Option<&ParseIndex>,
        player: &PlayerId,
        text: &str,
    ) -> Parsed<Order> {
        match index.and_then(|i| i.downcast_ref::<parse_index::Index>()) {
            Some(ix) => parser::parse_indexed(state, ix, player, text),
            None => parser::parse(state, player, text),
        }
    }

    fn phases(&self) -> Vec<Phase<Self>> {
        turn::phases()
    }

    fn report(&self, state: &State, _events: &[Event], viewer: &Viewer) -> Report {
        // The log of the last resolution is kept in the state, so a report
        // rendered again later is identical to the first one.
        report::render(state, viewer)
    }

    /// Issue 22 item 5: what every report shows alike is rendered once.
    fn reports_with(
        &self,
        state: &State,
        _events: &[Event],
        viewers: &[Viewer],
        _facts: &dyn Fn(&Viewer) -> arbitre_core::ReportFacts,
    ) -> Vec<Report> {
        report::render_all(state, viewers)
    }

    fn state_from_view(
        &self,
        view: &serde_json::Value,
        player: &PlayerId,
    ) -> Result<State, SetupError> {
        view::state_from_view(view, player)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        score::outcome(state)
    }

    fn join(
        &self,
        state: &mut State,
        player: &arbitre_core::PlayerSetup,
        rng: &mut Rng,
    ) -> Result<(), arbitre_core::SetupError> {
        join::join(state, player.id.clone(), player.name.clone(), rng)
            .map(|_| ())
            .map_err(arbitre_core::SetupError::Join)
    }

    fn bot_orders(&self, state: &State, player: &PlayerId, rng: &mut Rng) -> String {
        bot::orders(state, player, rng)
    }
}
