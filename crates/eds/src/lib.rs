//! # Evolution der Sterne (EDS)
//!
//! The German play-by-mail space strategy game, after the rulebook "EDS Regelwerk
//! Version 2.101" (`../shared/seeds/evolution-der-sterne-rules-de.txt`) and its
//! English specification (`../shared/rules/evolution-der-sterne.md`).
//!
//! One turn is one Monatszug of 23 phases in the rulebook's order; each phase key
//! is the phase number ("3", "7", "13", "21"), which names its RNG stream as the
//! specification prescribes (§5.2). Modules follow the phases:
//! [`naming`] (1–2), [`status`] (3), [`yard`] (4, 12–14), [`logistics`] (5–6,
//! 8–11), [`jump`] (7), [`combat`] (battles of 3 and 7), [`realm`] (15–18),
//! [`automatic`] (19–23); [`parser`] reads the Befehlsblatt, [`report`] writes the
//! documents, [`bot`] plays a ruler, [`setup`] and [`galaxy`] build the start.
//!
//! Tests (`cargo test -p arbitre-eds`): `tests/rules.rs` and
//! `tests/combat_docs.rs` name every checklist item EDS-1…110 of the
//! specification; `tests/examples.rs` and the rule cases of `rulesets/eds/cases/`
//! (run by `tests/cases.rs`, table `docs/rules/eds-cases.md`) reproduce the
//! rulebook's worked examples; `tests/golden.rs` replays a 12-month
//! game of three bots against `tests/golden/bot-game/` (`BLESS=1` rewrites it).

pub mod automatic;
pub mod bot;
mod columns;
pub mod combat;
mod directory;
pub mod events;
pub mod fast_path;
pub mod formulas;
pub mod galaxy;
pub mod grammar;
pub mod jump;
pub mod logistics;
pub mod model;
mod month_reports;
pub mod naming;
pub mod orders;
pub mod params;
pub mod parse_index;
pub mod parser;
pub mod realm;
pub mod report;
pub mod setup;
pub mod status;
mod svg;
pub mod turn;
pub mod view;
pub mod yard;

use arbitre_core::{
    Lang, Outcome, ParseIndex, Parsed, Phase, PlayerId, PlayerInfo, Ranked, Report, ReportFacts,
    Rng, Ruleset, RulesetInfo, SetupConfig, SetupError, Viewer,
};
use events::Event;
use model::State;
use orders::Order;

/// The ruleset, registered as `ruleset = "eds"`.
pub struct Eds;

impl Ruleset for Eds {
    type State = State;
    type Order = Order;
    type Scratch = turn::Scratch;
    type Event = Event;

    /// The month's events as they serialise, for the rule cases' outcome
    /// checks (issue 23): battles, transfers and messages are typed values.
    fn outcome_values(&self, events: &[Event]) -> Option<serde_json::Value> {
        serde_json::to_value(events).ok()
    }

    /// Issue 19 item 6: the `eds-position-1` format (docs/eds.md §12).
    fn export_position(&self, state: &State) -> Result<String, SetupError> {
        setup::export_position(state)
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: "eds",
            name: "Evolution der Sterne",
            lang: Lang::De,
            turn_word: "Monat",
        }
    }

    fn setup(&self, config: &SetupConfig, rng: &mut Rng) -> Result<State, SetupError> {
        setup::setup(config, rng)
    }

    fn turn(&self, state: &State) -> u32 {
        state.month
    }

    fn set_turn(&self, state: &mut State, turn: u32) {
        state.month = turn;
    }

    fn players(&self, state: &State) -> Vec<PlayerInfo> {
        state
            .rulers
            .iter()
            .map(|r| PlayerInfo {
                id: r.id.clone(),
                name: r.name.clone(),
                active: r.active && !state.game_over,
            })
            .collect()
    }

    fn parse_orders(&self, state: &State, player: &PlayerId, text: &str) -> Parsed<Order> {
        let mut parsed = parser::parse(state, text);
        if let Some(r) = state.ruler_by_id(player) {
            parser::receipt(state, r.number, &mut parsed);
            parser::planner(state, r.number, &mut parsed);
        }
        parsed
    }

    fn parse_index(&self, state: &State) -> Option<ParseIndex> {
        Some(Box::new(parse_index::Index::build(state)))
    }

    fn parse_orders_indexed(
        &self,
        state: &State,
        index: Option<&ParseIndex>,
        player: &PlayerId,
        text: &str,
    ) -> Parsed<Order> {
        let Some(ix) = index.and_then(|i| i.downcast_ref::<parse_index::Index>()) else {
            return self.parse_orders(state, player, text);
        };
        let mut parsed = parser::parse_for(state, ix.month(), text);
        if let Some(r) = ix.ruler(player.as_str()) {
            parser::receipt_with(state, r, &mut parsed, |n| ix.ship(n));
            parser::planner(state, r, &mut parsed);
        }
        parsed
    }

    fn phases(&self) -> Vec<Phase<Self>> {
        vec![
            Phase {
                key: "1",
                run: naming::phase1_star_names,
            },
            Phase {
                key: "2",
                run: naming::phase2_ship_names,
            },
            Phase {
                key: "3",
                run: status::phase3_status,
            },
            Phase {
                key: "4",
                run: yard::phase4_repair,
            },
            Phase {
                key: "5",
                run: logistics::phase5_refuel,
            },
            Phase {
                key: "6",
                run: logistics::phase6_retreat,
            },
            Phase {
                key: "7",
                run: jump::phase7_jumps,
            },
            Phase {
                key: "8",
                run: logistics::phase8_unload,
            },
            Phase {
                key: "9",
                run: logistics::phase9_load,
            },
            Phase {
                key: "10",
                run: logistics::phase10_fighters_out,
            },
            Phase {
                key: "11",
                run: logistics::phase11_fighters_in,
            },
            Phase {
                key: "12",
                run: yard::phase12_fighters,
            },
            Phase {
                key: "13",
                run: yard::phase13_build,
            },
            Phase {
                key: "14",
                run: yard::phase14_scrap,
            },
            Phase {
                key: "15",
                run: realm::phase15_industry,
            },
            Phase {
                key: "16",
                run: realm::phase16_colonise,
            },
            Phase {
                key: "17",
                run: realm::phase17_transfer,
            },
            Phase {
                key: "18",
                run: realm::phase18_handover,
            },
            Phase {
                key: "19",
                run: automatic::phase19_occupy,
            },
            Phase {
                key: "20",
                run: automatic::phase20_production,
            },
            Phase {
                key: "21",
                run: automatic::phase21_research,
            },
            Phase {
                key: "22",
                run: automatic::phase22_grain,
            },
            Phase {
                key: "23",
                run: automatic::phase23_taxes,
            },
        ]
    }

    fn report(&self, state: &State, events: &[Event], viewer: &Viewer) -> Report {
        self.report_with(state, events, viewer, &ReportFacts::default())
    }

    /// The Besitztümerblatt prints the next Zugabgabetermin the referee
    /// hands in, in the reader's zone (issue 17 item 9); a finished game
    /// has none.
    fn report_with(
        &self,
        state: &State,
        events: &[Event],
        viewer: &Viewer,
        facts: &ReportFacts,
    ) -> Report {
        month_reports::MonthReports::new(state, events, false).report(viewer, facts)
    }

    /// Issue 22 item 5: what every report of the month shows alike is
    /// built once ([`month_reports::MonthReports`]).
    fn reports_with(
        &self,
        state: &State,
        events: &[Event],
        viewers: &[Viewer],
        facts: &dyn Fn(&Viewer) -> ReportFacts,
    ) -> Vec<Report> {
        let month = month_reports::MonthReports::new(state, events, viewers.len() > 1);
        viewers.iter().map(|v| month.report(v, &facts(v))).collect()
    }

    /// echeck (issue 20 item 4): a ruler's own report view rebuilt as a
    /// state ([`view::state_from_view`]).
    fn state_from_view(
        &self,
        v: &serde_json::Value,
        player: &PlayerId,
    ) -> Result<State, SetupError> {
        let v: view::EdsView = serde_json::from_value(v.clone())
            .map_err(|e| SetupError::Invalid(format!("not an EDS report view: {e}")))?;
        view::state_from_view(&v, player)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        if !state.game_over {
            return None;
        }
        let mut v: Vec<(PlayerId, i64)> = state
            .rulers
            .iter()
            .map(|r| (r.id.clone(), r.ev as i64))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let ranking = v
            .iter()
            .map(|(p, s)| Ranked {
                player: p.clone(),
                score: *s,
                rank: 1 + v.iter().filter(|(_, o)| o > s).count() as u32,
            })
            .collect();
        let names: Vec<String> = state
            .winners
            .iter()
            .map(|n| format!("{:02} {}", n, state.name_of(*n)))
            .collect();
        Some(Outcome {
            ranking,
            summary: format!(
                "Evolutionsstufe {} erreicht – Sieg für {}",
                state.params.ev_win,
                names.join(" und ")
            ),
        })
    }

    fn bot_orders(&self, state: &State, player: &PlayerId, rng: &mut Rng) -> String {
        bot::orders(state, player, rng)
    }
}
