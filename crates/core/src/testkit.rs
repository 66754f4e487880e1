//! "Tally": a minimal ruleset for testing the daemon and the engine, not a game.
//!
//! Each player sends lines `ADD n` (n in 1..=10, at most 3 lines). The phase
//! `1-add` adds them to the player's score; the phase `2-luck` adds a bonus of
//! 0..=2 drawn from the phase's stream, so RNG derivation shows in reports.
//! The game ends after `turns` turns (option `turns`, default 3).
//! Only compiled with the `testkit` feature (a dev-dependency), never shipped.

use crate::lang::Lang;
use crate::{
    LineParser, Outcome, Parsed, Phase, PlayerId, PlayerInfo, Ranked, Report, Rng, Ruleset,
    RulesetInfo, SetupConfig, SetupError, TurnCtx, Viewer,
};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::collections::BTreeMap;

thread_local! {
    /// How many parse indexes Tally built on this thread: a test of when an
    /// index is built and kept (issue 21) counts them.
    static INDEXES_BUILT: Cell<usize> = const { Cell::new(0) };
}

/// How many [`Ruleset::parse_index`] calls Tally answered on this thread.
pub fn tally_indexes_built() -> usize {
    INDEXES_BUILT.with(Cell::get)
}

pub struct Tally;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TallyState {
    pub turn: u32,
    pub last_turn: u32,
    pub scores: BTreeMap<PlayerId, i64>,
    pub names: BTreeMap<PlayerId, String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TallyOrder {
    Add(i64),
}

#[derive(Clone, Debug, Serialize)]
pub enum TallyEvent {
    Added { player: PlayerId, amount: i64 },
    Luck { player: PlayerId, bonus: i64 },
}

struct TallyParser {
    count: usize,
}

impl LineParser for TallyParser {
    type Order = TallyOrder;
    fn parse_line(&mut self, no: usize, line: &str, out: &mut Parsed<TallyOrder>) {
        let mut it = line.split(' ');
        match (
            it.next().map(|w| w.to_ascii_uppercase()),
            it.next(),
            it.next(),
        ) {
            (Some(w), Some(n), None) if w == "ADD" => match n.parse::<i64>() {
                Ok(v) if (1..=10).contains(&v) => {
                    if self.count >= 3 {
                        out.error(no, line, "at most 3 ADD orders per turn");
                    } else {
                        self.count += 1;
                        out.push(no, line, TallyOrder::Add(v));
                    }
                }
                _ => out.error(no, line, "ADD takes a number from 1 to 10"),
            },
            _ => out.error(no, line, "unknown order"),
        }
    }
}

fn add(ctx: &mut TurnCtx<'_, Tally>) {
    for (p, orders) in ctx.orders {
        for o in orders {
            let TallyOrder::Add(v) = o.order;
            *ctx.state.scores.entry(p.clone()).or_default() += v;
            ctx.events.push(TallyEvent::Added {
                player: p.clone(),
                amount: v,
            });
        }
    }
}

fn luck(ctx: &mut TurnCtx<'_, Tally>) {
    let players: Vec<PlayerId> = ctx.state.scores.keys().cloned().collect();
    for p in players {
        let bonus = ctx.rng.range(0, 2);
        *ctx.state.scores.get_mut(&p).unwrap() += bonus;
        ctx.events.push(TallyEvent::Luck { player: p, bonus });
    }
}

impl Ruleset for Tally {
    type State = TallyState;
    type Order = TallyOrder;
    type Scratch = ();
    type Event = TallyEvent;

    fn outcome_values(&self, events: &[TallyEvent]) -> Option<serde_json::Value> {
        serde_json::to_value(events).ok()
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: "tally",
            name: "Tally",
            lang: Lang::En,
            turn_word: "turn",
        }
    }

    fn setup(&self, config: &SetupConfig, _rng: &mut Rng) -> Result<TallyState, SetupError> {
        if config.players.is_empty() {
            return Err(SetupError::PlayerCount {
                got: 0,
                min: 1,
                max: None,
                known: String::new(),
            });
        }
        let last_turn = match config.options.get("turns") {
            None => 3,
            Some(v) => v
                .as_integer()
                .filter(|n| *n >= 1)
                .ok_or_else(|| SetupError::Invalid("turns must be a positive integer".into()))?
                as u32,
        };
        Ok(TallyState {
            turn: 0,
            last_turn,
            scores: config.players.iter().map(|p| (p.id.clone(), 0)).collect(),
            names: config
                .players
                .iter()
                .map(|p| (p.id.clone(), p.name.clone()))
                .collect(),
        })
    }

    fn turn(&self, s: &TallyState) -> u32 {
        s.turn
    }
    fn set_turn(&self, s: &mut TallyState, turn: u32) {
        s.turn = turn;
    }

    fn players(&self, s: &TallyState) -> Vec<PlayerInfo> {
        s.names
            .iter()
            .map(|(id, name)| PlayerInfo {
                id: id.clone(),
                name: name.clone(),
                active: true,
            })
            .collect()
    }

    fn parse_orders(&self, _s: &TallyState, _p: &PlayerId, text: &str) -> Parsed<TallyOrder> {
        crate::parse_lines(&mut TallyParser { count: 0 }, text)
    }

    /// The state's turn, counted: Tally's parser needs nothing of the
    /// state, but the engine's tests see when an index is built and that
    /// the parser gets the one of its state.
    fn parse_index(&self, s: &TallyState) -> Option<crate::ParseIndex> {
        INDEXES_BUILT.with(|n| n.set(n.get() + 1));
        Some(Box::new(s.turn))
    }

    fn parse_orders_indexed(
        &self,
        s: &TallyState,
        index: Option<&crate::ParseIndex>,
        p: &PlayerId,
        text: &str,
    ) -> Parsed<TallyOrder> {
        let of = index.and_then(|i| i.downcast_ref::<u32>());
        assert!(
            of.is_none_or(|t| *t == s.turn),
            "an index of turn {of:?} used to parse against turn {}",
            s.turn
        );
        self.parse_orders(s, p, text)
    }

    fn phases(&self) -> Vec<Phase<Self>> {
        vec![
            Phase {
                key: "1-add",
                run: add,
            },
            Phase {
                key: "2-luck",
                run: luck,
            },
        ]
    }

    fn report(&self, s: &TallyState, events: &[TallyEvent], viewer: &Viewer) -> Report {
        let mut body = format!("Tally, turn {}\n", s.turn);
        for e in events {
            let (who, line) = match e {
                TallyEvent::Added { player, amount } => {
                    (player, format!("{player} added {amount}"))
                }
                TallyEvent::Luck { player, bonus } => (player, format!("{player} luck +{bonus}")),
            };
            if matches!(viewer, Viewer::Player(p) if p == who)
                || !matches!(viewer, Viewer::Player(_))
            {
                body.push_str(&line);
                body.push('\n');
            }
        }
        for (p, score) in &s.scores {
            body.push_str(&format!("score {p} = {score}\n"));
        }
        Report::text(format!("turn {}", s.turn), body)
    }

    fn outcome(&self, s: &TallyState) -> Option<Outcome> {
        if s.turn < s.last_turn {
            return None;
        }
        let mut v: Vec<(PlayerId, i64)> = s.scores.iter().map(|(p, v)| (p.clone(), *v)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let ranking = v
            .iter()
            .map(|(p, score)| Ranked {
                player: p.clone(),
                score: *score,
                rank: 1 + v.iter().filter(|(_, s2)| s2 > score).count() as u32,
            })
            .collect();
        Some(Outcome {
            ranking,
            summary: format!("{} wins", v[0].0),
        })
    }

    fn bot_orders(&self, _s: &TallyState, _p: &PlayerId, rng: &mut Rng) -> String {
        format!("ADD {}\n", rng.range(1, 10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Engine;

    fn setup() -> (crate::engine::Adapter<Tally>, String) {
        let cfg = SetupConfig {
            game_id: "t1".into(),
            seed: 7,
            players: vec![
                crate::PlayerSetup {
                    id: "a".into(),
                    name: "Alice".into(),
                    options: Default::default(),
                },
                crate::PlayerSetup {
                    id: "b".into(),
                    name: "Bob".into(),
                    options: Default::default(),
                },
            ],
            ..Default::default()
        };
        let t = crate::engine::Adapter(Tally);
        let snap = t.setup(&cfg).unwrap();
        (t, snap.state)
    }

    #[test]
    fn same_seed_and_orders_give_identical_reports() {
        let (t, s) = setup();
        let orders: BTreeMap<PlayerId, String> = [("a".into(), "ADD 3\nADD 4".to_string())].into();
        let r1 = t.resolve(&s, 7, &orders).unwrap();
        let r2 = t.resolve(&s, 7, &orders).unwrap();
        assert_eq!(r1.snapshot, r2.snapshot);
        assert_eq!(r1.reports, r2.reports);
        assert!(r1.reports[&PlayerId::from("a")]
            .body
            .contains("a added 3\na added 4\n"));
        assert!(!r1.reports[&PlayerId::from("b")].body.contains("a added"));
    }

    #[test]
    fn a_loaded_game_builds_one_parse_index_for_its_checks_and_its_turn() {
        let (t, s) = setup();
        let orders: BTreeMap<PlayerId, String> = [("a".into(), "ADD 3".to_string())].into();
        let before = tally_indexes_built();
        let loaded = t.load(&s).unwrap();
        assert_eq!(tally_indexes_built(), before, "none before a parse");
        loaded.check(&"a".into(), "ADD 3").unwrap();
        loaded.check(&"b".into(), "ADD 1").unwrap();
        assert_eq!(tally_indexes_built(), before + 1, "one for both checks");
        let via_checks = loaded.resolve(7, &orders).unwrap();
        assert_eq!(tally_indexes_built(), before + 1, "the turn reads it again");
        // Without checks first, the turn builds its own, once; the result
        // is the same whichever built it.
        let fresh = t.load(&s).unwrap().resolve(7, &orders).unwrap();
        assert_eq!(tally_indexes_built(), before + 2);
        assert_eq!(fresh.snapshot, via_checks.snapshot);
        assert_eq!(fresh.reports, via_checks.reports);
    }

    #[test]
    fn check_echoes_every_line() {
        let (t, s) = setup();
        let c = t.check(&s, &"a".into(), "ADD 3\nFLY\nADD 99").unwrap();
        assert_eq!(c.orders, 1);
        assert_eq!(c.errors, 2);
        assert_eq!(c.verdicts.len(), 3);
    }

    #[test]
    fn game_ends_and_refuses_more_turns() {
        let (t, mut s) = setup();
        for _ in 0..3 {
            s = t.resolve(&s, 7, &BTreeMap::new()).unwrap().snapshot.state;
        }
        assert!(t.outcome(&s).unwrap().is_some());
        assert!(matches!(
            t.resolve(&s, 7, &BTreeMap::new()),
            Err(crate::EngineError::GameOver)
        ));
    }
}

#[cfg(test)]
mod join_tests {
    use super::*;
    use crate::{Adapter, Engine, PlayerSetup};

    #[test]
    fn a_ruleset_without_a_join_rule_refuses_a_newcomer() {
        let e = Adapter(Tally);
        let cfg = SetupConfig {
            players: vec![PlayerSetup {
                id: "a".into(),
                name: "A".into(),
                options: Default::default(),
            }],
            ..Default::default()
        };
        let s = e.setup(&cfg).unwrap().state;
        let newcomer = PlayerSetup {
            id: "b".into(),
            name: "B".into(),
            options: Default::default(),
        };
        let err = e.join(&s, 1, &newcomer).unwrap_err();
        assert!(
            err.to_string().contains("does not let players join"),
            "{err}"
        );
    }
}
