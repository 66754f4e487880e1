//! Resolving a turn (issue 2 item 5) — atomically.
//!
//! One transaction (or, in [`Daemon::resolve_due`], one savepoint of a
//! transaction shared by a batch of games) holds: the new state (a `turns` row, whose primary key
//! `(game, turn)` makes a second resolution of the same turn impossible), the
//! game's new turn number and deadline, and every report in the outbox. The
//! orders resolved are the latest accepted mail of each player for that turn;
//! they stay in the `orders` table as the turn's archive. A player without
//! orders does nothing (NMR): the ruleset receives no text for them —
//! unless the game's `[services] nmr = "bot"` policy hands the seat to the
//! ruleset's bot after `nmr_bot_after` missed turns ([`bot_orders`]).
//! Observers (`[services] observers`) get the spectator report.
//!
//! A game is due when its deadline has passed, or — with `early = true` —
//! when every active player's latest orders are ready.

use crate::daemon::{Daemon, GameView};
use crate::error::{DaemonError, Result};
use crate::failpoint;
use crate::loaded::Loaded;
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use crate::registry::Registry;
use crate::services::json_report::{ReportFacts, ViewerKind};
use crate::services::settings::NmrPolicy;
use crate::services::texts::{svc_text, SvcMsg};
use arbitre_core::PlayerId;
use arbitre_store::Connection;
use arbitre_store::{games, orders, turns, GameStatus, TurnRow};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

impl Daemon {
    /// Resolves every game whose turn is due. Returns (game, new turn)
    /// pairs. Only the games whose due instant has come are read
    /// (crate::due, issue 22 item 2).
    ///
    /// The due games are taken [`GAMES_PER_COMMIT`] at a time, in ONE
    /// transaction each under its own savepoint (issue 22 item 4): the
    /// games of a batch share one commit, one fsync of the WAL, where a
    /// commit per game paid one each (on the capacity simulation's disk,
    /// resolve cost 11–19 ms a game-turn against 7 ms without a disk).
    /// Each game still stands alone: a game whose ruleset panics is rolled
    /// back to its savepoint and faulted in the same transaction (issue 14
    /// item 7), a game that fails for a reason of its own is rolled back
    /// and logged, and the others of the batch commit. A database error
    /// rolls the whole batch back: nothing of it was mailed (reports leave
    /// only once committed), and the next cycle resolves those games again
    /// from the same state and seed.
    pub fn resolve_due(&mut self) -> Result<Vec<(String, u32)>> {
        let now = self.now();
        let mut done = Vec::new();
        let Daemon {
            store,
            registry,
            config,
            ..
        } = self;
        let registry = &*registry;
        let due: Vec<String> = games::due_games(store.conn(), now.timestamp())?
            .into_iter()
            .filter(|row| row.status == GameStatus::Running)
            .map(|row| row.id)
            .collect();
        for batch in due.chunks(GAMES_PER_COMMIT) {
            let resolved = store.tx(|tx| -> Result<Vec<(String, u32)>> {
                let mut resolved = Vec::new();
                for id in batch {
                    let step = arbitre_store::Savepoint::begin(tx)?;
                    match resolve_if_due(tx, registry, config, id, now) {
                        Ok(t) => {
                            step.release()?;
                            resolved.extend(t.map(|t| (id.clone(), t)));
                        }
                        Err(e @ DaemonError::Store(_)) => return Err(e),
                        // The resolution is undone; the game stops, the
                        // others go on (issue 14 item 7).
                        Err(DaemonError::Panicked {
                            game,
                            during,
                            message,
                        }) => {
                            step.roll_back()?;
                            crate::fault::record_in(tx, config, &game, during, &message, now)?;
                        }
                        Err(e) => {
                            step.roll_back()?;
                            tracing::error!(game = %id, error = %e, "turn not resolved");
                        }
                    }
                }
                failpoint::hit("before-resolve-commit");
                Ok(resolved)
            })?;
            failpoint::hit("after-resolve-commit");
            done.extend(resolved);
        }
        Ok(done)
    }

    /// Resolves the next turn of `game` now (also `arbitre turn`). Returns the new turn number.
    pub fn resolve(&mut self, game: &str) -> Result<u32> {
        let now = self.now();
        let Daemon {
            store,
            registry,
            config,
            ..
        } = self;
        resolve_tx(store, registry, config, game, now, &Loaded::new())
    }
}

/// One resolution in its own transaction, the game loaded through `loaded`.
fn resolve_tx<'a>(
    store: &mut arbitre_store::Store,
    registry: &'a Registry,
    config: &crate::config::DaemonConfig,
    game: &str,
    now: DateTime<Utc>,
    loaded: &Loaded<'a>,
) -> Result<u32> {
    let turn = store.tx(|tx| -> Result<u32> {
        let t = resolve_in(tx, registry, config, game, now, loaded)?;
        failpoint::hit("before-resolve-commit");
        Ok(t)
    })?;
    failpoint::hit("after-resolve-commit");
    Ok(turn)
}

/// Games resolved per commit by [`Daemon::resolve_due`]: a game-turn
/// writes about 0.3 MB (state, reports, their mails), so a batch's
/// transaction stays a few MB, and the reports of a batch wait for at
/// most this many resolutions before they may be sent.
pub const GAMES_PER_COMMIT: usize = 32;

/// Resolves game `id` inside the caller's transaction if its turn is due
/// now; `None` if it is not (or waits: faulted, held, a game that cannot
/// be loaded is skipped with a log line). The game's row is read again
/// here, under the write lock, so a game another process changed since
/// the due list was read is seen as it is now.
fn resolve_if_due(
    c: &Connection,
    registry: &Registry,
    config: &crate::config::DaemonConfig,
    id: &str,
    now: DateTime<Utc>,
) -> Result<Option<u32>> {
    let Some(row) = games::game(c, id)? else {
        return Ok(None);
    };
    if row.status != GameStatus::Running {
        return Ok(None);
    }
    // A faulted game waits for `arbitre resume` (fault.rs).
    if arbitre_store::faults::open_fault(c, id)?.is_some() {
        return Ok(None);
    }
    let game = match GameView::new(registry, row) {
        Ok(g) => g,
        Err(e) => {
            tracing::error!(game = %id, error = %e, "game skipped");
            return Ok(None);
        }
    };
    // A turn held for the GM's preview stops the game until RELEASE
    // (gm/preview.rs); `[services] grace` delays the deadline's
    // resolution, `change_delay` the early one (issue 10).
    if turns::held(c, id)?.is_some() {
        return Ok(None);
    }
    // The readiness check and the resolution share one decoding of the
    // state (issue 22 item 1).
    let loaded = Loaded::new();
    let services = &game.toml.services;
    let deadline_passed = game.deadline().is_some_and(|d| d + services.grace() <= now);
    // Asked only when it matters (it loads the state).
    let ready = !deadline_passed && game.schedule.early && all_ready(c, &game, &loaded)?;
    let due = deadline_passed || (ready && early_allowed(c, &game, services.change_delay(), now)?);
    if !due {
        return Ok(None);
    }
    let why = if deadline_passed {
        "deadline"
    } else {
        "all players ready"
    };
    tracing::info!(game = %id, turn = game.row.turn + 1, why, "resolving");
    resolve_in(c, registry, config, id, now, &loaded).map(Some)
}

/// Where the seats in play stand for early resolution, by player id in the
/// ruleset's order. STATUS shows it (request/player.rs) and
/// [`all_ready`] decides from it, so what a player reads is what decides
/// (issue 17 item 9).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Readiness {
    /// Seats with orders in force for the open turn, ready or not.
    pub sent: Vec<String>,
    /// Of those, the seats whose orders do not declare them ready
    /// (Scrambled Nations without `READY`).
    pub not_ready: Vec<String>,
    /// Seats with no orders in force.
    pub missing: Vec<String>,
}

impl Readiness {
    /// Every seat in play is ready (and there is one).
    pub fn all_ready(&self) -> bool {
        !self.sent.is_empty() && self.not_ready.is_empty() && self.missing.is_empty()
    }
}

/// The [`Readiness`] of the open turn. Inactive (eliminated) and ejected
/// seats are not waited for (gm/seats.rs).
pub fn readiness<'a>(
    c: &Connection,
    game: &GameView<'a>,
    loaded: &Loaded<'a>,
) -> Result<Readiness> {
    let players = loaded
        .current(c, game)?
        .players()
        .map_err(|e| game.engine_err(e))?;
    let turn = game.row.turn + 1;
    let sent = orders::latest_meta(c, &game.row.id, turn)?;
    let mut r = Readiness::default();
    for p in players.iter().filter(|p| p.active) {
        let id = p.id.as_str();
        if crate::gm::seats::is_ejected(c, &game.row.id, id, turn)? {
            continue;
        }
        match sent.get(id) {
            Some(o) => {
                r.sent.push(id.to_string());
                if !o.ready {
                    r.not_ready.push(id.to_string());
                }
            }
            None => r.missing.push(id.to_string()),
        }
    }
    Ok(r)
}

/// True when every active player has sent orders marked ready. An ejected
/// seat is not waited for (gm/seats.rs).
pub fn all_ready<'a>(c: &Connection, game: &GameView<'a>, loaded: &Loaded<'a>) -> Result<bool> {
    Ok(readiness(c, game, loaded)?.all_ready())
}

/// Early resolution, every player being ready: `change_delay` has passed
/// since the latest orders in force arrived, and — after a ROLLBACK of
/// this turn — an order mail came after it (the orders kept would only
/// give the same turn again; the deadline or `arbitre turn` still resolve).
fn early_allowed(
    c: &Connection,
    game: &GameView<'_>,
    delay: chrono::Duration,
    now: DateTime<Utc>,
) -> Result<bool> {
    let turn = game.row.turn + 1;
    let sent = orders::latest_meta(c, &game.row.id, turn)?;
    let Some(last) = sent.values().map(|o| o.received_at).max() else {
        return Ok(true);
    };
    if turns::rolled_back_at(c, &game.row.id, turn)?.is_some_and(|at| at >= last) {
        return Ok(false);
    }
    Ok(DateTime::from_timestamp(last, 0).is_none_or(|t| t + delay <= now))
}

fn resolve_in<'a>(
    c: &Connection,
    registry: &'a Registry,
    config: &crate::config::DaemonConfig,
    game_id: &str,
    now: DateTime<Utc>,
    cache: &Loaded<'a>,
) -> Result<u32> {
    let game = GameView::new(registry, games::require_game(c, game_id)?)?;
    if game.row.status == GameStatus::Over {
        return Err(DaemonError::GameOver(game_id.to_string()));
    }
    if let Some(t) = turns::held(c, game_id)? {
        return Err(DaemonError::Held {
            game: game_id.to_string(),
            turn: t,
        });
    }
    let last = turns::latest(c, game_id)?;
    // Decoded once for the whole resolution (issue 16 item 5): players,
    // the bots' orders and the turn itself ask this handle.
    let loaded = cache.get(&game, &last.state)?;
    let turn = game.row.turn + 1;
    // Orders of ejected seats no longer count; orders the bot wrote for
    // this turn before a ROLLBACK are played again as the bot's.
    let mut orders: BTreeMap<PlayerId, String> = BTreeMap::new();
    let mut replayed_bots: BTreeMap<PlayerId, String> = BTreeMap::new();
    let mut ejected = std::collections::BTreeSet::new();
    for (p, o) in orders::latest(c, game_id, turn)? {
        if crate::gm::seats::is_ejected(c, game_id, &p, turn)? {
            continue;
        }
        if o.by_bot {
            replayed_bots.insert(PlayerId::new(p), o.text);
        } else {
            orders.insert(PlayerId::new(p), o.text);
        }
    }
    for p in games::players(c, game_id)? {
        if crate::gm::seats::is_ejected(c, game_id, &p.id, turn)? {
            ejected.insert(PlayerId::new(p.id));
        }
    }
    let bots = bot_orders(
        c,
        &game,
        &*loaded,
        turn,
        &orders,
        &Seats {
            ejected: &ejected,
            replayed: &replayed_bots,
        },
        now,
    )?;
    for (p, (text, _)) in &bots {
        orders.insert(p.clone(), text.clone());
    }
    // The seats in play that no orders played: their report says so
    // (issue 17 item 9). A seat the bot played is told by its own note.
    let without_orders: std::collections::BTreeSet<PlayerId> = loaded
        .players()
        .map_err(|e| game.engine_err(e))?
        .into_iter()
        .filter(|p| p.active && !orders.contains_key(&p.id) && !ejected.contains(&p.id))
        .map(|p| p.id)
        .collect();
    // The next deadline is decided before the turn runs, so that the
    // reports can print it (issue 17 item 9, the EDS Zugabgabetermin); a
    // turn that ends the game drops it below.
    let continuing = match game.row.status {
        GameStatus::Paused => None,
        _ => Some(game.schedule.following(game.deadline(), now)),
    };
    // A deadline on a day an active player declared absent moves past the
    // absence (issue 10, services/absence.rs).
    let continuing = match continuing {
        Some(d) => Some(crate::services::absence::move_deadline(
            c,
            config,
            cache,
            &game,
            turn + 1,
            d,
            now,
        )?),
        None => None,
    };
    let zones = crate::services::timezone::player_zones(c, game_id)?;
    let facts = |viewer: &arbitre_core::Viewer| {
        let zone = match viewer {
            arbitre_core::Viewer::Player(p) => {
                crate::services::timezone::zone_of(&zones, p.as_str(), game.schedule.tz)
            }
            _ => game.schedule.tz,
        };
        crate::services::zone::report_facts(continuing, zone)
    };
    let resolved = loaded
        .resolve_with(game.row.seed, &orders, &facts)
        .map_err(|e| game.engine_err(e))?;
    if resolved.snapshot.turn != turn {
        return Err(DaemonError::WrongTurn {
            game: game.row.id.clone(),
            got: resolved.snapshot.turn,
            expected: turn,
        });
    }
    turns::insert(
        c,
        &TurnRow {
            game_id: game_id.to_string(),
            turn,
            state: resolved.snapshot.state.clone(),
            resolved_at: now.timestamp(),
            outcome: resolved
                .outcome
                .as_ref()
                .map(|o| serde_json::to_string(o).expect("outcome serialises")),
        },
    )?;
    let next = match resolved.outcome {
        Some(_) => None,
        None => continuing,
    };
    games::set_turn(c, game_id, turn, next.map(|d| d.timestamp()))?;
    // Retention (issue 22 item 4): the sent mails of turns older than the
    // last `keep_sent_mail_turns` keep their text and lose their raw copy
    // (maps, PNG twins, JSON), which made the database grow by about 1 MB
    // a game-turn; a RESEND draws those attachments again from the state.
    if let Some(up_to) = turn
        .checked_sub(config.keep_sent_mail_turns)
        .filter(|_| config.keep_sent_mail_turns > 0)
    {
        arbitre_store::outbox::prune_sent(c, game_id, up_to, now.timestamp())?;
    }
    if resolved.outcome.is_some() {
        games::set_status(c, game_id, GameStatus::Over, None)?;
    }
    let lang = game.lang;
    let footer = match (&resolved.outcome, next) {
        (Some(o), _) => text(
            lang,
            &Msg::GameEnded {
                summary: &o.summary,
            },
        ),
        (None, Some(d)) => text(
            lang,
            &Msg::Deadline {
                when: &game.schedule.show(d),
            },
        ),
        (None, None) => String::new(),
    };
    let players = games::players(c, game_id)?;
    // A turn resolved again after a ROLLBACK: its mails need new Message-IDs.
    let redo = turns::times_rolled_back(c, game_id, turn)?;
    let again = |d: Draft, tag: Option<String>| match (redo, tag) {
        (0, None) => d,
        (0, Some(t)) => d.discriminator(t),
        (n, t) => d.discriminator(format!("{}redo{n}", t.unwrap_or_default())),
    };
    for (pid, report) in &resolved.reports {
        let Some(p) = players.iter().find(|p| p.id == pid.as_str()) else {
            tracing::warn!(game = game_id, player = %pid, "report for a player with no address");
            continue;
        };
        let tried = wrong_password_attempts(c, game_id, turn, &p.id)?;
        let mut warning = String::new();
        if without_orders.contains(pid) {
            let line = svc_text(lang, &SvcMsg::NoOrdersReceived { turn });
            warning.push_str(&format!("\n\n{line}"));
        }
        if tried > 0 {
            warning.push_str(&format!("\n\n{}", wrong_password_notice(lang, tried)));
        }
        if let Some((_, missed)) = bots.get(pid) {
            warning.push_str(&format!(
                "\n\n{}",
                svc_text(lang, &SvcMsg::BotPlayed { missed: *missed })
            ));
        }
        // The deadline in the zone the player chose (TIMEZONE, issue 10).
        let footer = match (&resolved.outcome, next) {
            (None, Some(d)) => {
                let zone = crate::services::timezone::zone_of(&zones, &p.id, game.schedule.tz);
                text(
                    lang,
                    &Msg::Deadline {
                        when: &crate::services::zone::show_in(d, zone),
                    },
                )
            }
            _ => footer.clone(),
        };
        let body = signed(
            lang,
            &format!("{}{warning}\n\n{footer}", report.body.trim_end()),
        );
        let subject = text(
            lang,
            &Msg::ReportSubject {
                game: game_id,
                subject: &report.subject,
            },
        );
        let mut d = again(
            Draft::new(Kind::Report, &p.email, subject, body).about(game_id, turn, Some(&p.id)),
            None,
        );
        d.attachments = report.attachments.clone();
        d.attachments.extend(service_attachments(
            &game,
            config,
            turn,
            ViewerKind::Player,
            Some(&p.id),
            report,
            next,
            crate::services::timezone::zone_of(&zones, &p.id, game.schedule.tz),
            &resolved.outcome,
            now,
        ));
        queue(c, config, now, d)?;
    }
    if let Some(gm) = &game.toml.gm_email {
        let r = &resolved.game_master;
        let body = signed(lang, &format!("{}\n\n{footer}", r.body.trim_end()));
        let subject = text(
            lang,
            &Msg::ReportSubject {
                game: game_id,
                subject: &r.subject,
            },
        );
        let mut d = again(
            Draft::new(Kind::Gm, gm, subject, body).about(game_id, turn, None),
            None,
        );
        d.attachments = r.attachments.clone();
        d.attachments.extend(service_attachments(
            &game,
            config,
            turn,
            ViewerKind::GameMaster,
            None,
            r,
            next,
            game.schedule.tz,
            &resolved.outcome,
            now,
        ));
        queue(c, config, now, d)?;
    }
    let r = &resolved.spectator;
    for (i, to) in game.toml.services.observers.iter().enumerate() {
        let body = signed(lang, &format!("{}\n\n{footer}", r.body.trim_end()));
        let subject = svc_text(
            lang,
            &SvcMsg::ObserverSubject {
                game: game_id,
                subject: &r.subject,
            },
        );
        // One Message-ID per observer: the address's rank in the TOML.
        let mut d = again(
            Draft::new(Kind::Observer, to, subject, body).about(game_id, turn, None),
            Some(format!("o{i}")),
        );
        d.attachments = r.attachments.clone();
        d.attachments.extend(service_attachments(
            &game,
            config,
            turn,
            ViewerKind::Observer,
            None,
            r,
            next,
            game.schedule.tz,
            &resolved.outcome,
            now,
        ));
        queue(c, config, now, d)?;
    }
    crate::gm::preview::hold_if_previewed(c, config, &game, turn, now)?;
    tracing::info!(
        game = game_id,
        turn,
        orders = orders.len(),
        bots = bots.len(),
        over = resolved.outcome.is_some(),
        "turn resolved"
    );
    Ok(turn)
}

/// NMR policy "bot" (issue 10): the seats the ruleset's bot plays this
/// turn, with their orders and how many turns in a row they missed.
///
/// A seat has missed this turn (it has no orders in force) plus every
/// earlier turn since the last one it sent orders for by mail; orders the
/// bot wrote do not count as sent. So with `nmr_bot_after = 2` the bot
/// first plays the second turn in a row without orders. The bot's orders
/// are stored in the orders table like a player's (marked `by_bot`), so
/// the archive shows what was played for whom. Inactive
/// seats (eliminated) are never played. Policy "nothing": empty, nothing stored.
/// An ejected seat is played from its first turn out (nobody will send
/// orders for it); the bot's orders stored before a ROLLBACK are played
/// again as they are, not stored twice.
fn bot_orders(
    c: &Connection,
    game: &GameView<'_>,
    loaded: &dyn arbitre_core::LoadedGame,
    turn: u32,
    given: &BTreeMap<PlayerId, String>,
    seats: &Seats<'_>,
    now: DateTime<Utc>,
) -> Result<BTreeMap<PlayerId, (String, u32)>> {
    let mut out = BTreeMap::new();
    let services = &game.toml.services;
    if services.nmr != NmrPolicy::Bot {
        return Ok(out);
    }
    let gid = game.row.id.as_str();
    for p in loaded.players().map_err(|e| game.engine_err(e))? {
        if !p.active || given.contains_key(&p.id) {
            continue;
        }
        let last_sent = orders::last_sent_by_mail(c, gid, p.id.as_str(), turn)?;
        let missed = turn - last_sent.unwrap_or(0);
        if !services.bot_plays(missed) && !seats.ejected.contains(&p.id) {
            continue;
        }
        if let Some(text) = seats.replayed.get(&p.id) {
            out.insert(p.id.clone(), (text.clone(), missed));
            continue;
        }
        let text = loaded
            .bot_orders(game.row.seed, &p.id)
            .map_err(|e| game.engine_err(e))?;
        orders::insert_bot(c, gid, turn, p.id.as_str(), &text, now.timestamp())?;
        tracing::info!(game = gid, turn, player = %p.id, missed, "bot plays the seat");
        out.insert(p.id.clone(), (text, missed));
    }
    Ok(out)
}

/// Seats the bot may play beyond the missed-turns rule.
struct Seats<'a> {
    ejected: &'a std::collections::BTreeSet<PlayerId>,
    replayed: &'a BTreeMap<PlayerId, String>,
}

/// How many mails for `turn` carried `player`'s name with a wrong password
/// (issue 8: the real player learns in their next report that someone
/// tried), answered or not: their own record since issue 16 item 2.
fn wrong_password_attempts(c: &Connection, game: &str, turn: u32, player: &str) -> Result<i64> {
    Ok(i64::from(arbitre_store::wrong_passwords::count(
        c, game, turn, player,
    )?))
}

fn wrong_password_notice(lang: arbitre_core::Lang, n: i64) -> String {
    crate::i18n::tr(lang, "wrong-password-notice", &crate::fl_args![n])
}

/// The JSON report and the next deadline's .ics (issue 10), appended to the
/// ruleset's own attachments on every report mail.
#[allow(clippy::too_many_arguments)]
fn service_attachments(
    game: &GameView<'_>,
    config: &crate::config::DaemonConfig,
    turn: u32,
    viewer: ViewerKind,
    player: Option<&str>,
    report: &arbitre_core::Report,
    next: Option<DateTime<Utc>>,
    zone: chrono_tz::Tz,
    outcome: &Option<arbitre_core::Outcome>,
    now: DateTime<Utc>,
) -> Vec<arbitre_core::Attachment> {
    let facts = ReportFacts {
        game: &game.row.id,
        ruleset: &game.row.ruleset,
        lang: game.lang,
        turn,
        viewer,
        player,
        report,
        // The reader's zone (TIMEZONE, issue 10): the JSON's local time and
        // the .ics description; the .ics times stay UTC.
        deadline: next.map(|d| (d, zone)),
        outcome: outcome.as_ref().map(|o| o.summary.as_str()),
    };
    crate::services::report_attachments(&facts, config.domain(), now)
}
