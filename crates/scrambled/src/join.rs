//! Joining a game in progress (rulebook parameter "Autoriser les joueurs à
//! rejoindre en cours de partie"; spec §3.13, D32).
//!
//! The core's `Ruleset` trait has no hook for a player joining after setup, so
//! this is a library function the daemon (or a GM tool) can call between two
//! resolutions, with an RNG stream of its own. The newcomer gets a random
//! troop-free neutral land territory, the starting troops, a capital there,
//! the start economy and mutual Ally marks; the quota does not change (D21).

use crate::state::{Mark, Player, State, Status};
use crate::world::TerrId;
use arbitre_core::{PlayerId, Rng};
use std::collections::BTreeMap;

/// Why a newcomer is refused: the core's typed refusal, rendered by the
/// daemon in the game's language (mail) or the command line's (`player
/// join`); issue 19 item 3.
pub use arbitre_core::setup_error::JoinRefusal as JoinError;

pub fn join(
    state: &mut State,
    id: PlayerId,
    name: String,
    rng: &mut Rng,
) -> Result<TerrId, JoinError> {
    if state.over {
        return Err(JoinError::Over);
    }
    if !state.params.allow_join_midgame {
        return Err(JoinError::NotAllowed);
    }
    if state.players.contains_key(&id) {
        return Err(JoinError::NameTaken(id.0));
    }
    if let Some(max) = state.params.max_players {
        if state.players.len() >= max as usize {
            return Err(JoinError::Full);
        }
    }
    let free: Vec<TerrId> = state
        .world
        .land()
        .map(|t| t.id.clone())
        .filter(|t| state.owner(t).is_none() && state.terr(t).troops.is_empty())
        .collect();
    let t = rng.pick(&free).cloned().ok_or(JoinError::NoRoom)?;
    let eco = state.params.start_economy;
    let troops = state.params.starting_troops;
    let ts = state.terr_mut(&t);
    ts.owner = Some(id.clone());
    ts.economy = eco;
    ts.add(&id, troops);
    ts.supremacy.insert(id.clone(), true);
    // Everyone starts allied both ways: drop any stale mark toward this id.
    for p in state.players.values_mut() {
        p.marks.remove(&id);
    }
    state.players.insert(
        id.clone(),
        Player {
            id: id.clone(),
            name,
            status: Status::Active,
            start_territory: t.clone(),
            capital: Some(t.clone()),
            pending_capital: None,
            marks: BTreeMap::<PlayerId, Mark>::new(),
        },
    );
    Ok(t)
}
