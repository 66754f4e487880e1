//! # arbitre-nebulight: Nébulight, the light rules of Nébula (version 1.1, 2004)
//!
//! A two-player play-by-email space conquest in 20 turns, refereed as in the
//! rulebook (`shared/seeds/nebulight-rules-fr.txt`) and its English
//! specification (`shared/rules/nebulight.md`). Modules follow the turn's 14
//! phases in rulebook order:
//!
//! | phase | module |
//! |---|---|
//! | 0 bookkeeping | [`turn`] |
//! | 1 overpopulation | [`init`] |
//! | 2 probes | [`probes`] |
//! | 3, 4, 6, 7 construction, research, limits, industries | [`construction`] |
//! | 5 emigration | [`emigration`] |
//! | 8–11 unload, transfers, loads | [`transport`] |
//! | 12 fire, flight, moves, ambushes, black holes | [`combat`] |
//! | 13 captures | [`capture`] |
//! | 14 update, points, discoveries | [`update`] |
//!
//! The report is in [`report`], rendered from the typed [`view`] (which
//! the JSON report sends too, issue 20), what each player sees in [`visibility`], maps
//! and positions in [`map`] and [`setup`], the bot in [`bot`], the SVG map
//! attached to each report in [`svg`], the check of orders against the
//! state when they arrive in [`receipt`].

pub mod bot;
pub mod capture;
pub mod combat;
pub mod construction;
pub mod emigration;
pub mod fast_path;
pub mod grammar;
pub mod init;
pub mod map;
pub mod model;
pub mod orders;
pub mod parse_index;
pub mod parser;
pub mod probes;
pub mod receipt;
pub mod report;
pub mod setup;
pub mod svg;
pub mod tech;
pub mod transport;
pub mod turn;
pub mod update;
pub mod view;
pub mod visibility;

use arbitre_core::{
    Lang, Outcome, ParseIndex, Parsed, Phase, PlayerId, PlayerInfo, Ranked, Report, Rng, Ruleset,
    RulesetInfo, SetupConfig, SetupError, Viewer,
};
pub use model::NebState;
pub use orders::Order;

/// The Nébulight ruleset.
pub struct Nebulight;

impl Ruleset for Nebulight {
    type State = NebState;
    type Order = Order;
    type Scratch = ();
    /// Everything a report needs is kept in the state's turn log
    /// (`NebState::log`), so reports can be rendered again from a stored state.
    type Event = ();

    /// Issue 19 item 6: the state as a position (docs/nebulight.md §5).
    fn export_position(&self, s: &NebState) -> Result<String, SetupError> {
        map::export(s)
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: "nebulight",
            name: "Nébulight",
            lang: Lang::Fr,
            turn_word: "tour",
        }
    }

    fn setup(&self, config: &SetupConfig, rng: &mut Rng) -> Result<NebState, SetupError> {
        setup::setup(config, rng)
    }

    fn turn(&self, s: &NebState) -> u32 {
        s.turn
    }

    fn set_turn(&self, s: &mut NebState, turn: u32) {
        s.turn = turn;
    }

    fn players(&self, s: &NebState) -> Vec<PlayerInfo> {
        s.players
            .iter()
            .map(|p| PlayerInfo {
                id: PlayerId::new(p.id.clone()),
                name: p.name.clone(),
                active: true,
            })
            .collect()
    }

    fn parse_orders(&self, s: &NebState, p: &PlayerId, text: &str) -> Parsed<Order> {
        let mut parsed = parser::parse_for_turn(text, s.turn + 1);
        if let (Some(slot), false) = (s.slot_of(p.as_str()), parsed.refused) {
            receipt::check(s, slot, &mut parsed);
        }
        parsed
    }

    fn parse_index(&self, s: &NebState) -> Option<ParseIndex> {
        Some(Box::new(parse_index::Index::build(s)))
    }

    fn parse_orders_indexed(
        &self,
        s: &NebState,
        index: Option<&ParseIndex>,
        p: &PlayerId,
        text: &str,
    ) -> Parsed<Order> {
        let Some(ix) = index.and_then(|i| i.downcast_ref::<parse_index::Index>()) else {
            return self.parse_orders(s, p, text);
        };
        let mut parsed = parser::parse_for_turn(text, s.turn + 1);
        if let (Some(slot), false) = (s.slot_of(p.as_str()), parsed.refused) {
            receipt::check_with(s, ix, slot, &mut parsed);
        }
        parsed
    }

    fn phases(&self) -> Vec<Phase<Self>> {
        vec![
            Phase {
                key: "0-preparation",
                run: turn::prepare,
            },
            Phase {
                key: "1-initialisation",
                run: init::overpopulation,
            },
            Phase {
                key: "2-sondes",
                run: probes::probes,
            },
            Phase {
                key: "3-construction",
                run: construction::ships_and_research,
            },
            Phase {
                key: "4-limites",
                run: construction::limits,
            },
            Phase {
                key: "5-emigration",
                run: emigration::emigration,
            },
            Phase {
                key: "6-industries",
                run: construction::industries,
            },
            Phase {
                key: "7-conversion",
                run: construction::convert,
            },
            Phase {
                key: "8-dechargement",
                run: transport::unload_mp,
            },
            Phase {
                key: "9-transferts",
                run: transport::transfers,
            },
            Phase {
                key: "10-chargement-mp",
                run: transport::load_mp,
            },
            Phase {
                key: "11-chargement-n",
                run: transport::load_pop,
            },
            Phase {
                key: "12-combat",
                run: combat::combat,
            },
            Phase {
                key: "13-captures",
                run: capture::captures,
            },
            Phase {
                key: "14-mise-au-point",
                run: update::update,
            },
            Phase {
                key: "15-points",
                run: update::scoring,
            },
            Phase {
                key: "16-decouvertes",
                run: update::discovery,
            },
        ]
    }

    fn report(&self, s: &NebState, _events: &[()], viewer: &Viewer) -> Report {
        let subject = format!("Tour {} - compte rendu", s.turn);
        match viewer {
            Viewer::Player(p) => match s.slot_of(p.as_str()) {
                Some(slot) => {
                    let v = view::player_view(s, slot);
                    let template = bot::order_template(s, slot);
                    let mut r = Report::text(subject, report::render(&v))
                        .with_view(&v)
                        .with_attachment(
                            &format!("ordres-tour-{}.txt", s.turn + 1),
                            "text/plain",
                            template.into_bytes(),
                        );
                    if let Some(map) = svg::player_map(s, slot) {
                        r = r.with_attachment(
                            &format!("carte-tour-{}.svg", s.turn),
                            "image/svg+xml",
                            map.into_bytes(),
                        );
                    }
                    r
                }
                None => Report::text(subject, format!("Joueur inconnu : {p}\n")),
            },
            Viewer::Spectator => {
                let v = view::spectator_view(s);
                Report::text(subject, report::render(&v)).with_view(&v)
            }
            Viewer::GameMaster => {
                let v = view::master_view(s);
                Report::text(subject, report::render(&v)).with_view(&v)
            }
        }
    }

    fn state_from_view(
        &self,
        v: &serde_json::Value,
        player: &PlayerId,
    ) -> Result<NebState, SetupError> {
        let v: view::NebView = serde_json::from_value(v.clone())
            .map_err(|e| SetupError::Invalid(format!("not a Nébulight report view: {e}")))?;
        view::state_from_view(&v, player)
    }

    fn outcome(&self, s: &NebState) -> Option<Outcome> {
        if s.turn < s.max_turns {
            return None;
        }
        let mut v: Vec<(usize, i64)> = s
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (i, p.score_total))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let ranking = v
            .iter()
            .map(|(i, score)| Ranked {
                player: PlayerId::new(s.players[*i].id.clone()),
                score: *score,
                rank: 1 + v.iter().filter(|(_, s2)| s2 > score).count() as u32,
            })
            .collect();
        let summary = if v.len() >= 2 && v[0].1 == v[1].1 {
            format!("Match nul : {} points partout", v[0].1)
        } else {
            format!(
                "{} gagne par {} points à {}",
                s.players[v[0].0].name,
                v[0].1,
                v.get(1).map_or(0, |x| x.1)
            )
        };
        Some(Outcome { ranking, summary })
    }

    fn bot_orders(&self, s: &NebState, p: &PlayerId, rng: &mut Rng) -> String {
        match s.slot_of(p.as_str()) {
            Some(slot) => bot::orders(s, slot, rng),
            None => String::new(),
        }
    }
}
