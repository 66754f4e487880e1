//! `arbitre game list`, `arbitre status --json` and `arbitre game delete`
//! (issue 19 item 9): what a script needs to know of every game, as values
//! first ([`GameSummary`], [`StatusJson`]), rendered as a table or JSON
//! by the CLI; and a game's removal, archived to a file before anything
//! is deleted.

use crate::daemon::{Daemon, GameView};
use crate::error::Result;
use crate::gm::seats;
use crate::loaded::Loaded;
use arbitre_store::{faults, games, orders, outbox, turns, GameStatus};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// One game as `game list` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    pub id: String,
    pub ruleset: String,
    /// The last resolved turn (0: the game was just created).
    pub turn: u32,
    /// running, paused, over, or faulted (the ruleset failed; see status).
    pub state: String,
    /// A resolved turn held for the game master's preview.
    pub held_turn: Option<u32>,
    /// The next deadline, RFC 3339 in the game's zone; none while paused or over.
    pub deadline: Option<String>,
    pub timezone: String,
}

/// One seat of a game in progress, for `status --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatJson {
    pub id: String,
    /// orders, no-orders, inactive or ejected.
    pub state: &'static str,
    pub lines: usize,
    pub errors: u32,
    pub ready: bool,
}

/// One game of `status --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameStatusJson {
    #[serde(flatten)]
    pub game: GameSummary,
    pub seats: Vec<SeatJson>,
    /// Active seats without ready orders for the turn in progress.
    pub missing: Vec<String>,
    pub outbox_failed: u32,
    pub outbox_stale: u32,
    pub outbox_held: u32,
}

/// `arbitre status --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusJson {
    pub games: Vec<GameStatusJson>,
    pub outbox_pending: usize,
    pub outbox_failed: usize,
    pub sending_paused: Option<String>,
    pub warnings: Vec<String>,
}

/// The outbox problems of every game: [`outbox::problems`].
pub(crate) type Problems = std::collections::BTreeMap<Option<String>, (u32, u32, u32)>;

/// One game as `status` and `status --json` both see it (review D8).
pub(crate) struct StatusRows {
    pub summary: GameSummary,
    pub status: GameStatus,
    /// The ruleset's name as it presents itself.
    pub ruleset_name: String,
    /// The open fault, with its time shown in the game's zone.
    pub fault: Option<(arbitre_store::Fault, String)>,
    /// The next deadline as players are shown it.
    pub deadline: Option<String>,
    /// (failed, stale, held) mails of the game.
    pub outbox: (u32, u32, u32),
    /// A finished game's outcome, in the ruleset's words.
    pub outcome: Option<String>,
    /// A game in progress' seats (none when over or faulted).
    pub seats: Vec<SeatJson>,
    pub missing: Vec<String>,
}

/// What `game delete` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deleted {
    /// Rows deleted, all tables together (the mail journal is kept).
    pub rows: usize,
    /// Mails of the game (outbox rows) among them, now in the archive.
    pub mails: usize,
}

impl Daemon {
    fn summary(&self, g: &GameView<'_>) -> Result<GameSummary> {
        let c = self.store.conn();
        let faulted = faults::open_fault(c, &g.row.id)?.is_some();
        let state = if faulted {
            "faulted".to_string()
        } else {
            g.row.status.as_str().to_string()
        };
        let held_turn = match turns::held(c, &g.row.id)? {
            Some(t) if g.row.status != GameStatus::Over => Some(t),
            _ => None,
        };
        let deadline = g
            .deadline()
            .map(|d| d.with_timezone(&g.schedule.tz).to_rfc3339());
        Ok(GameSummary {
            id: g.row.id.clone(),
            ruleset: g.row.ruleset.clone(),
            turn: g.row.turn,
            state,
            held_turn,
            deadline,
            timezone: g.schedule.tz.name().to_string(),
        })
    }

    /// `arbitre game list`: every game, by id.
    pub fn game_list(&self) -> Result<Vec<GameSummary>> {
        let mut out = Vec::new();
        for row in games::games(self.store.conn())? {
            let g = GameView::new(&self.registry, row)?;
            out.push(self.summary(&g)?);
        }
        Ok(out)
    }

    /// The games `status` and `status --json` show: one, or all.
    pub(crate) fn status_games(&self, game: Option<&str>) -> Result<Vec<arbitre_store::GameRow>> {
        let c = self.store.conn();
        Ok(match game {
            Some(id) => vec![games::require_game(c, id)?],
            None => games::games(c)?,
        })
    }

    /// One game's status (review D8): the rows `status` prints and
    /// `status --json` returns, selected here once for both. `problems` is
    /// [`outbox::problems`] of the moment, read once for all games. The
    /// seats come from the game loaded through `loaded` (issue 16 item 5),
    /// the load step every reading of a game's state goes through.
    pub(crate) fn status_rows<'a>(
        &'a self,
        g: &GameView<'a>,
        loaded: &Loaded<'a>,
        problems: &Problems,
    ) -> Result<StatusRows> {
        let c = self.store.conn();
        let summary = self.summary(g)?;
        let gid = g.row.id.as_str();
        let fault = faults::open_fault(c, gid)?;
        let fault_at = fault.as_ref().map(|f| {
            chrono::DateTime::from_timestamp(f.at, 0)
                .map(|t| g.show_time(t))
                .unwrap_or_default()
        });
        let outbox = problems
            .get(&Some(gid.to_string()))
            .copied()
            .unwrap_or_default();
        let over = g.row.status == GameStatus::Over;
        let outcome = if over && fault.is_none() {
            turns::latest(c, gid)?
                .outcome
                .and_then(|o| serde_json::from_str::<arbitre_core::Outcome>(&o).ok())
                .map(|o| o.summary)
        } else {
            None
        };
        let mut seats_out = Vec::new();
        let mut missing = Vec::new();
        if !over && fault.is_none() {
            let turn = g.row.turn + 1;
            let sent = orders::latest(c, gid, turn)?;
            let state = turns::latest(c, gid)?;
            for p in loaded
                .get(g, &state.state)?
                .players()
                .map_err(|e| g.engine_err(e))?
            {
                let ejected = seats::is_ejected(c, gid, p.id.as_str(), turn)?;
                let o = sent.get(p.id.as_str());
                let what = match o {
                    _ if ejected => "ejected",
                    None if !p.active => "inactive",
                    None => "no-orders",
                    Some(_) => "orders",
                };
                if p.active && !ejected && !o.is_some_and(|o| o.ready) {
                    missing.push(p.id.to_string());
                }
                seats_out.push(SeatJson {
                    id: p.id.to_string(),
                    state: what,
                    lines: o.map_or(0, |o| o.verdicts.len()),
                    errors: o.map_or(0, |o| o.errors),
                    ready: o.is_some_and(|o| o.ready),
                });
            }
        }
        Ok(StatusRows {
            summary,
            status: g.row.status,
            ruleset_name: g.engine.info().name.to_string(),
            fault: fault.zip(fault_at),
            deadline: g.show_deadline(),
            outbox,
            outcome,
            seats: seats_out,
            missing,
        })
    }

    /// `arbitre status --json [<game>]`: what `status` prints, as values.
    pub fn status_json(&self, game: Option<&str>) -> Result<StatusJson> {
        let c = self.store.conn();
        let problems = outbox::problems(c, self.now().timestamp() - 3600)?;
        let mut list = Vec::new();
        let loaded = Loaded::new();
        for row in self.status_games(game)? {
            let g = GameView::new(&self.registry, row)?;
            let r = self.status_rows(&g, &loaded, &problems)?;
            let (outbox_failed, outbox_stale, outbox_held) = r.outbox;
            list.push(GameStatusJson {
                game: r.summary,
                seats: r.seats,
                missing: r.missing,
                outbox_failed,
                outbox_stale,
                outbox_held,
            });
        }
        let (outbox_pending, outbox_failed) = outbox::pending_and_failed(c)?;
        Ok(StatusJson {
            games: list,
            outbox_pending,
            outbox_failed,
            sending_paused: faults::sending_pause(c)?.map(|p| p.reason),
            warnings: self.id_collisions()?,
        })
    }

    /// `arbitre game delete <game>`: writes every row of the game (its
    /// players, turns, orders, mails, settings...) as JSON to `archive`,
    /// synced to disk, and only then deletes them in one transaction. The
    /// archive file must not exist yet: an older archive is never
    /// overwritten. The mail journal is kept (see
    /// [`arbitre_store::games::delete_game`]).
    pub fn delete_game(&mut self, game: &str, archive: &Path) -> Result<Deleted> {
        use std::io::Write as _;
        let id = games::require_game(self.store.conn(), game)?.id;
        let rows = games::game_rows(self.store.conn(), &id)?;
        let json = serde_json::to_string_pretty(&serde_json::json!({
            "format": "arbitre-game-archive-1",
            "game": id,
            "archived_at": self.now().to_rfc3339(),
            "tables": rows,
        }))
        .map_err(|error| self.invalid("err-archive", &crate::fl_args![id, error]))?;
        let io = |error: std::io::Error| {
            let path = archive.display();
            self.invalid("err-archive-write", &crate::fl_args![path, error])
        };
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(archive)
            .map_err(io)?;
        f.write_all(json.as_bytes()).map_err(io)?;
        f.write_all(b"\n").map_err(io)?;
        f.sync_all().map_err(io)?;
        let deleted = self
            .store
            .tx(|tx| -> Result<_> { Ok(games::delete_game(tx, &id)?) })?;
        tracing::info!(game = %id, archive = %archive.display(), "game deleted");
        Ok(Deleted {
            rows: deleted.values().sum(),
            mails: deleted.get("outbox").copied().unwrap_or(0),
        })
    }
}

/// `game list` as a table: one line per game.
pub fn render_list(list: &[GameSummary]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<20} {:<10} {:>5}  {:<9} NEXT DEADLINE",
        "GAME", "RULESET", "TURN", "STATE"
    );
    for g in list {
        let state = match g.held_turn {
            Some(t) => format!("{} (turn {t} held)", g.state),
            None => g.state.clone(),
        };
        let deadline = g.deadline.as_deref().unwrap_or("-");
        let _ = writeln!(
            out,
            "{:<20} {:<10} {:>5}  {:<9} {deadline}",
            g.id, g.ruleset, g.turn, state
        );
    }
    out
}
