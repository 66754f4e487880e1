//! Scoring (rulebook "Calcul du score"; spec §8): the start territory's area
//! is lent, so the score is the area held minus that area; quitting or being
//! wiped out gives minus the start area. Ranking: score, then area, then name
//! (players all join at the start in mail games, so "earlier join" is the TOML
//! order, which the ids do not keep; the name decides instead).

use crate::state::{State, Status};
use arbitre_core::{Outcome, PlayerId, Ranked};

pub fn score(state: &State, p: &PlayerId) -> i64 {
    score_with_area(state, p, state.area_owned(p))
}

/// [`score`] when the area `p` holds is already known (see `State::holdings`).
pub fn score_with_area(state: &State, p: &PlayerId, area_owned: u64) -> i64 {
    let Some(pl) = state.players.get(p) else {
        return 0;
    };
    let start = state.world.area(&pl.start_territory) as i64;
    match pl.status {
        Status::Active => area_owned as i64 - start,
        Status::Quit(_) | Status::Eliminated(_) => -start,
    }
}

pub fn ranking(state: &State) -> Vec<Ranked> {
    let held = state.holdings();
    let mut v: Vec<(PlayerId, i64, u64, String)> = state
        .players
        .values()
        .map(|pl| {
            let area = held.get(&pl.id).map(|h| h.1).unwrap_or(0);
            (
                pl.id.clone(),
                score_with_area(state, &pl.id, area),
                area,
                pl.name.clone(),
            )
        })
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.3.cmp(&b.3)));
    v.iter()
        .map(|(p, s, _, _)| Ranked {
            player: p.clone(),
            score: *s,
            rank: 1 + v.iter().filter(|x| x.1 > *s).count() as u32,
        })
        .collect()
}

pub fn outcome(state: &State) -> Option<Outcome> {
    if !state.over {
        return None;
    }
    let ranking = ranking(state);
    let summary = match ranking.first() {
        Some(r) => format!(
            "{} gagne avec un score de {} km² après {} tours",
            state.player_name(&r.player),
            r.score,
            state.turn
        ),
        None => "partie terminée sans joueur".to_string(),
    };
    Some(Outcome { ranking, summary })
}
