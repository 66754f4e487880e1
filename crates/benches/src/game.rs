//! One generated game of any ruleset, ready to be measured: its state after
//! setup, the bots' orders for the next turn, and the three costs a turn has
//! (parse, resolve, render every report), each callable on its own.

use arbitre_core::engine::{parse_all, run_turn_with};
use arbitre_core::ruleset::PlayerSetup;
use arbitre_core::{PlayerId, Report, ReportFacts, Rng, Ruleset, SetupConfig, Viewer};
use std::collections::BTreeMap;

pub struct Game<R: Ruleset> {
    pub ruleset: R,
    pub seed: u64,
    pub state: R::State,
}

fn players(n: usize) -> Vec<PlayerSetup> {
    (1..=n)
        .map(|i| PlayerSetup {
            id: PlayerId::new(format!("p{i}")),
            name: format!("Joueur{i}"),
            options: toml::Table::new(),
        })
        .collect()
}

fn config(seed: u64, n: usize, options: toml::Table, files: &[(&str, String)]) -> SetupConfig {
    SetupConfig {
        game_id: format!("bench{seed}"),
        seed,
        players: players(n),
        options,
        files: files
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    }
}

impl<R: Ruleset> Game<R> {
    pub fn new(ruleset: R, c: &SetupConfig) -> Game<R> {
        let mut rng = Rng::for_setup(c.seed);
        let state = ruleset
            .setup(c, &mut rng)
            .unwrap_or_else(|e| panic!("generated setup of {} refused: {e}", ruleset.info().id));
        Game {
            ruleset,
            seed: c.seed,
            state,
        }
    }

    pub fn player_ids(&self) -> Vec<PlayerId> {
        self.ruleset
            .players(&self.state)
            .into_iter()
            .filter(|p| p.active)
            .map(|p| p.id)
            .collect()
    }

    /// What each active player's bot would mail for the next turn.
    pub fn bot_orders(&self) -> BTreeMap<PlayerId, String> {
        let turn = self.ruleset.turn(&self.state) + 1;
        self.player_ids()
            .into_iter()
            .map(|p| {
                let mut rng = Rng::for_phase(self.seed, turn, &format!("bot:{p}"));
                let text = self.ruleset.bot_orders(&self.state, &p, &mut rng);
                (p, text)
            })
            .collect()
    }

    /// Parse every player's orders (the first step of a turn).
    pub fn parse(&self, orders: &BTreeMap<PlayerId, String>) -> usize {
        parse_all(&self.ruleset, &self.state, orders)
            .values()
            .map(|v| v.len())
            .sum()
    }

    /// Resolve one turn on `state` (parse + every phase), with the frozen RNG derivation.
    pub fn resolve(
        &self,
        state: &mut R::State,
        orders: &BTreeMap<PlayerId, String>,
    ) -> Vec<R::Event> {
        let parsed = parse_all(&self.ruleset, state, orders);
        let turn = self.ruleset.turn(state) + 1;
        let seed = self.seed;
        run_turn_with(&self.ruleset, state, &parsed, |k| {
            Rng::for_phase(seed, turn, k)
        })
    }

    /// Every player's report, the spectator's and the game master's.
    pub fn reports(&self, state: &R::State, events: &[R::Event]) -> Vec<Report> {
        let mut viewers: Vec<Viewer> = self
            .ruleset
            .players(state)
            .into_iter()
            .map(|p| Viewer::Player(p.id))
            .collect();
        viewers.extend([Viewer::Spectator, Viewer::GameMaster]);
        // As the engine asks for them (issue 22 item 5): all at once.
        self.ruleset
            .reports_with(state, events, &viewers, &|_| ReportFacts::default())
    }

    /// Play `turns` turns with the bots' orders (to reach a mid-game position).
    pub fn advance(&mut self, turns: u32) {
        for _ in 0..turns {
            let orders = self.bot_orders();
            let mut s = self.state.clone();
            self.resolve(&mut s, &orders);
            self.state = s;
        }
    }
}

impl Game<arbitre_nebulight::Nebulight> {
    pub fn nebulight(worlds: usize, seed: u64) -> Self {
        let text = crate::nebulight::position(worlds, seed);
        Game::new(
            arbitre_nebulight::Nebulight,
            &config(seed, 2, toml::Table::new(), &[("position_file", text)]),
        )
    }
}

impl Game<arbitre_eds::Eds> {
    pub fn eds(stars: usize, rulers: usize, seed: u64) -> Self {
        let (text, per) = crate::eds::scenario(stars, rulers, seed);
        let mut o = toml::Table::new();
        o.insert("stars_per_player".into(), toml::Value::Integer(per as i64));
        let n = rulers.clamp(2, crate::eds::MAX_RULERS);
        Game::new(arbitre_eds::Eds, &config(seed, n, o, &[("map_file", text)]))
    }
}

impl Game<arbitre_scrambled::Scrambled> {
    pub fn scrambled(territories: usize, players: usize, seed: u64) -> Self {
        let text = crate::scrambled::world(territories, seed);
        Game::new(
            arbitre_scrambled::Scrambled,
            &config(seed, players, toml::Table::new(), &[("world_file", text)]),
        )
    }
}

impl Game<arbitre_wwk::Wwk> {
    pub fn wwk(zones: usize, nations: usize, seed: u64) -> Self {
        let text = crate::wwk::scenario(zones, nations, seed);
        let mut c = config(
            seed,
            nations,
            toml::Table::new(),
            &[("scenario_file", text)],
        );
        // Each seat names its nation: WWK refuses a seat that names none.
        for (k, p) in c.players.iter_mut().enumerate() {
            p.options
                .insert("nation".into(), toml::Value::String(crate::wwk::nation(k)));
        }
        Game::new(arbitre_wwk::Wwk, &c)
    }
}
