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
//! A handle is reused only for the very state it was loaded from. The
//! inbox names that state by its stamp (`turns::state_rev`, migration 11:
//! a number every write of the game's turns changes, never given twice),
//! so a mail whose game is already loaded reads no state at all; other
//! callers pass the state text they just read, and a different text (a
//! JOIN, a rollback, a resolution in between) loads again.

use crate::daemon::GameView;
use crate::error::Result;
use arbitre_core::LoadedGame;
use arbitre_store::settings::{self, PlayerSettings};
use arbitre_store::{games, turns, Connection, GameRow, PlayerRow};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A game's decoded state, shared by the calls of one batch.
pub type Handle<'a> = Rc<dyn LoadedGame + 'a>;

/// What a handle was loaded from: the stamp of the stored state, or the
/// state's text itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateKey {
    Rev(i64),
    Text(String),
}

/// The games loaded so far, by id, with the state each was loaded from.
///
/// [`get`](Loaded::get) takes `&self` (the cache is a `RefCell`), so the
/// request pipeline's [`crate::request::Ctx`] can hold it as a shared
/// reference beside the transaction: a STATUS served in the batch reads
/// readiness from the same handle as the batch's order checks.
#[derive(Default)]
pub struct Loaded<'a> {
    games: RefCell<HashMap<String, (StateKey, Handle<'a>)>>,
    rows: RefCell<Option<Rows>>,
}

/// The game and seat rows an inbox batch has read, kept while nothing can
/// have changed them (issue 22 item 1: the check outside the lock and the
/// decision inside it looked up the same game and seat for every mail,
/// 7 % of the daemon's thread). Keyed by the name as the lookup folds it
/// (`COLLATE NOCASE` folds ASCII letters only), so a hit answers what the
/// query would.
#[derive(Default)]
struct Rows {
    games: HashMap<String, Option<GameRow>>,
    seats: HashMap<(String, String), Option<PlayerRow>>,
    /// A seat's settings (zone, ejection), by game and player id.
    settings: HashMap<(String, String), PlayerSettings>,
    /// Each game's [`stamp`].
    stamps: HashMap<String, StateKey>,
}

impl<'a> Loaded<'a> {
    pub fn new() -> Self {
        Loaded {
            games: RefCell::new(HashMap::new()),
            rows: RefCell::new(None),
        }
    }

    /// From now on, [`game_nocase`](Loaded::game_nocase) and
    /// [`seat_nocase`](Loaded::seat_nocase) keep what they read. Only an
    /// inbox batch asks for it: it knows when a row may have changed
    /// (another connection's commit, a mail of the batch that changes a
    /// game or a seat) and calls [`forget_rows`](Loaded::forget_rows) then.
    pub fn keep_rows(&self) {
        *self.rows.borrow_mut() = Some(Rows::default());
    }

    /// Drops the rows kept so far; they are read again when next asked.
    pub fn forget_rows(&self) {
        if let Some(rows) = self.rows.borrow_mut().as_mut() {
            *rows = Rows::default();
        }
    }

    /// Drops the rows kept and keeps none from now on.
    pub fn stop_rows(&self) {
        *self.rows.borrow_mut() = None;
    }

    /// [`games::find_game_nocase`], kept while [`keep_rows`](Loaded::keep_rows) holds.
    pub fn game_nocase(&self, c: &Connection, name: &str) -> Result<Option<GameRow>> {
        self.kept(
            |r| &mut r.games,
            name.to_ascii_lowercase(),
            || Ok(games::find_game_nocase(c, name)?),
        )
    }

    /// [`games::player_nocase`], kept while [`keep_rows`](Loaded::keep_rows) holds.
    pub fn seat_nocase(
        &self,
        c: &Connection,
        game: &str,
        player: &str,
    ) -> Result<Option<PlayerRow>> {
        self.kept(
            |r| &mut r.seats,
            (game.to_string(), player.to_ascii_lowercase()),
            || Ok(games::player_nocase(c, game, player)?),
        )
    }

    /// What `read` gives, kept under `key` in the table `table` picks
    /// while [`keep_rows`](Loaded::keep_rows) holds.
    fn kept<K, V>(
        &self,
        table: fn(&mut Rows) -> &mut HashMap<K, V>,
        key: K,
        read: impl FnOnce() -> Result<V>,
    ) -> Result<V>
    where
        K: Eq + std::hash::Hash,
        V: Clone,
    {
        if let Some(v) = self
            .rows
            .borrow_mut()
            .as_mut()
            .and_then(|r| table(r).get(&key))
        {
            return Ok(v.clone());
        }
        let v = read()?;
        if let Some(rows) = self.rows.borrow_mut().as_mut() {
            table(rows).insert(key, v.clone());
        }
        Ok(v)
    }

    /// `game` loaded from `state`: the handle kept since the last call
    /// with the same state, else a new one (kept for the next calls).
    pub fn get(&self, game: &GameView<'a>, state: &str) -> Result<Handle<'a>> {
        let mut games = self.games.borrow_mut();
        if let Some((StateKey::Text(t), h)) = games.get(&game.row.id) {
            if t == state {
                return Ok(Rc::clone(h));
            }
        }
        let h = load(game, state)?;
        games.insert(
            game.row.id.clone(),
            (StateKey::Text(state.to_string()), Rc::clone(&h)),
        );
        Ok(h)
    }

    /// `game` loaded from its latest stored state, named by `key` (read
    /// with [`stamp`]): the handle kept under that key, else the state read
    /// and loaded. Returns the key of the state the handle holds, which is
    /// a newer one than `key` when a turn was written in between.
    pub fn latest(
        &self,
        c: &Connection,
        game: &GameView<'a>,
        key: &StateKey,
    ) -> Result<(StateKey, Handle<'a>)> {
        match key {
            StateKey::Text(t) => Ok((key.clone(), self.get(game, t)?)),
            StateKey::Rev(rev) => {
                if let Some((StateKey::Rev(r), h)) = self.games.borrow().get(&game.row.id) {
                    if r == rev {
                        return Ok((key.clone(), Rc::clone(h)));
                    }
                }
                let (state, rev) = turns::latest_stamped(c, &game.row.id)?;
                let Some(rev) = rev else {
                    return Ok((StateKey::Text(state.clone()), self.get(game, &state)?));
                };
                let h = load(game, &state)?;
                self.games
                    .borrow_mut()
                    .insert(game.row.id.clone(), (StateKey::Rev(rev), Rc::clone(&h)));
                Ok((StateKey::Rev(rev), h))
            }
        }
    }

    /// `game` loaded from its latest stored state, found by its stamp: the
    /// way every reader of the latest state shares one decoding with the
    /// inbox's checks (a STATUS's readiness, an ABSENCE's seats).
    pub fn current(&self, c: &Connection, game: &GameView<'a>) -> Result<Handle<'a>> {
        Ok(self.latest(c, game, &stamp(c, &game.row.id)?)?.1)
    }

    /// [`settings::get`], kept while [`keep_rows`](Loaded::keep_rows) holds.
    pub fn settings(&self, c: &Connection, game: &str, player: &str) -> Result<PlayerSettings> {
        self.kept(
            |r| &mut r.settings,
            (game.to_string(), player.to_string()),
            || Ok(settings::get(c, game, player)?),
        )
    }

    /// [`stamp`], kept while [`keep_rows`](Loaded::keep_rows) holds: a
    /// turn written (a resolution, a rollback, a JOIN) is another
    /// connection's commit or a mail that does not keep the rows.
    pub fn stamp_of(&self, c: &Connection, game: &str) -> Result<StateKey> {
        self.kept(|r| &mut r.stamps, game.to_string(), || stamp(c, game))
    }

    /// How many games are held (for tests of the cache itself).
    pub fn len(&self) -> usize {
        self.games.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.borrow().is_empty()
    }

    /// Forgets every game: an inbox pass over many games keeps at most so
    /// many decoded states in memory.
    pub fn clear(&self) {
        self.games.borrow_mut().clear();
        self.forget_rows();
    }
}

/// What names `game`'s latest stored state: its stamp (migration 11), or
/// its text for a game the stamps do not know yet.
pub fn stamp(c: &Connection, game: &str) -> Result<StateKey> {
    Ok(match turns::state_rev(c, game)? {
        Some(rev) => StateKey::Rev(rev),
        None => StateKey::Text(turns::latest(c, game)?.state),
    })
}

fn load<'a>(game: &GameView<'a>, state: &str) -> Result<Handle<'a>> {
    Ok(Rc::from(
        game.engine.load(state).map_err(|e| game.engine_err(e))?,
    ))
}
