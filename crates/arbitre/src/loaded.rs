//! Each game's state decoded once per inbox batch or resolution (issue 22
//! item 1, issue 16 item 5).
//!
//! Decoding a game's JSON state is the costliest per-mail step after the
//! flood counts: a batch of 64 order mails for one game used to decode it
//! 64 times (once per check). [`Loaded`] keeps the game loaded through
//! [`arbitre_core::Engine::load`] for the length of one batch (or one
//! game's readiness check and resolution) and hands the same handle to
//! every call.
//!
//! A handle is reused only for the very state it was loaded from: the
//! caller passes the state text it just read, and a different text (a
//! JOIN, a rollback, a resolution in between) loads again. Comparing the
//! text costs a memory comparison, far less than a decode, and needs no
//! version column in the store.

use crate::daemon::GameView;
use crate::error::Result;
use arbitre_core::LoadedGame;
use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::rc::Rc;

/// A game's decoded state, shared by the calls of one batch.
pub type Handle<'a> = Rc<dyn LoadedGame + 'a>;

/// The games loaded so far, by id, with the state each was loaded from.
///
/// [`get`](Loaded::get) takes `&self` (the cache is a `RefCell`), so the
/// request pipeline's [`crate::request::Ctx`] can hold it as a shared
/// reference beside the transaction: a STATUS served in the batch reads
/// readiness from the same handle as the batch's order checks.
#[derive(Default)]
pub struct Loaded<'a> {
    games: RefCell<HashMap<String, (String, Handle<'a>)>>,
}

impl<'a> Loaded<'a> {
    pub fn new() -> Self {
        Loaded {
            games: RefCell::new(HashMap::new()),
        }
    }

    /// `game` loaded from `state`: the handle kept since the last call
    /// with the same state, else a new one (kept for the next calls).
    pub fn get(&self, game: &GameView<'a>, state: &str) -> Result<Handle<'a>> {
        let load = || -> Result<Handle<'a>> {
            Ok(Rc::from(
                game.engine.load(state).map_err(|e| game.engine_err(e))?,
            ))
        };
        let mut games = self.games.borrow_mut();
        let slot = match games.entry(game.row.id.clone()) {
            Entry::Occupied(mut o) => {
                if o.get().0 != state {
                    o.insert((state.to_string(), load()?));
                }
                o.into_mut()
            }
            Entry::Vacant(v) => v.insert((state.to_string(), load()?)),
        };
        Ok(Rc::clone(&slot.1))
    }

    /// How many games are held (for tests of the cache itself).
    pub fn len(&self) -> usize {
        self.games.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.borrow().is_empty()
    }
}
