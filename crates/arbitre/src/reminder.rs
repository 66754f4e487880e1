//! Reminder mails before the deadline (issue 2 item 5), to active players
//! who have sent no orders for the turn (ejected seats excluded, issue 10). Each rule ("24h", "2h") fires once
//! per player and turn (the `reminders` table). After downtime, when several
//! windows are open at once, only the nearest-deadline reminder is mailed;
//! the others are recorded as passed. The deadline is written in each
//! player's own zone (`TIMEZONE`, issue 10).

use crate::daemon::{Daemon, GameView};
use crate::error::Result;
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use arbitre_store::{games, orders, reminders, turns, GameStatus};

impl Daemon {
    pub fn send_reminders(&mut self) -> Result<usize> {
        let now = self.now();
        let mut sent = 0;
        let Daemon {
            store,
            registry,
            config,
            ..
        } = self;
        // Only the games whose due instant has come (crate::due): a
        // reminder's instant is one of them.
        for row in games::due_games(store.conn(), now.timestamp())? {
            if row.status != GameStatus::Running || row.deadline.is_none() {
                continue;
            }
            // No reminder for a game stopped by a fault (fault.rs).
            if arbitre_store::faults::open_fault(store.conn(), &row.id)?.is_some() {
                continue;
            }
            let Ok(game) = GameView::new(registry, row) else {
                continue;
            };
            let Some(deadline) = game.deadline() else {
                continue;
            };
            if now >= deadline || game.schedule.reminders.is_empty() {
                continue;
            }
            let open: Vec<&String> = game
                .schedule
                .reminders
                .iter()
                .filter(|(_, before)| now >= deadline - *before)
                .map(|(label, _)| label)
                .collect();
            let Some(nearest) = open.last().copied() else {
                continue;
            };
            let reminded = store.tx(|tx| -> Result<usize> {
                let gid = game.row.id.as_str();
                let turn = game.row.turn + 1;
                let state = turns::latest(tx, gid)?;
                let active = crate::loaded::Loaded::new()
                    .get(&game, &state.state)?
                    .players()
                    .map_err(|e| game.engine_err(e))?;
                let have = orders::latest_meta(tx, gid, turn)?;
                let addresses = games::players(tx, gid)?;
                let zones = crate::services::timezone::player_zones(tx, gid)?;
                let mut n = 0;
                for p in active
                    .iter()
                    .filter(|p| p.active && !have.contains_key(p.id.as_str()))
                {
                    // An ejected seat (EJECT) plays no more: nothing to remind.
                    if crate::gm::seats::is_ejected(tx, gid, p.id.as_str(), turn)? {
                        continue;
                    }
                    let Some(addr) = addresses.iter().find(|a| a.id == p.id.as_str()) else {
                        continue;
                    };
                    let mail_it = !reminders::sent(tx, gid, turn, &addr.id, nearest)?;
                    for label in &open {
                        reminders::record(tx, gid, turn, &addr.id, label, now.timestamp())?;
                    }
                    if mail_it {
                        // In the zone the player chose with TIMEZONE (issue 10).
                        let zone =
                            crate::services::timezone::zone_of(&zones, &addr.id, game.schedule.tz);
                        let when = crate::services::zone::show_in(deadline, zone);
                        let body = text(
                            game.lang,
                            &Msg::Reminder {
                                game: gid,
                                turn,
                                player: &p.name,
                                when: &when,
                            },
                        );
                        let subject = text(game.lang, &Msg::ReminderSubject { game: gid, turn });
                        let d = Draft::new(
                            Kind::Reminder,
                            &addr.email,
                            subject,
                            signed(game.lang, &body),
                        )
                        .about(gid, turn, Some(&addr.id))
                        .discriminator(nearest.clone());
                        queue(tx, config, now, d)?;
                        n += 1;
                    }
                }
                Ok(n)
            });
            sent += match reminded {
                Ok(n) => n,
                Err(crate::error::DaemonError::Panicked {
                    game,
                    during,
                    message,
                }) => {
                    store.tx(|tx| {
                        crate::fault::record_in(tx, config, &game, during, &message, now)
                    })?;
                    0
                }
                Err(e) => return Err(e),
            };
        }
        Ok(sent)
    }
}
