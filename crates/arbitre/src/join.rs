//! `arbitre player join <game> <player.toml>`: a player joins a game in
//! progress, between two turns.
//!
//! Only rulesets with such a rule accept it (Scrambled Nations' "autoriser
//! les joueurs à rejoindre en cours de partie", spec §3.13); the others
//! refuse through `Ruleset::join`'s default. The ruleset's draw comes from
//! the stream (seed, next turn, "join:<player>"), so a replay is exact. The
//! new state replaces the stored state of the last resolved turn, the player
//! row is added and the newcomer's report and welcome mail (issue 17 item 1)
//! are queued — in one transaction, so
//! a crash leaves either the old game or the joined one, never half of it.

use crate::daemon::{Daemon, GameView};
use crate::error::{DaemonError, Result};
use crate::game_config::PlayerToml;
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use crate::services::welcome::{Occasion, Password, WelcomeFacts};
use arbitre_core::{PlayerId, PlayerSetup, Viewer};
use arbitre_store::{games, turns, PlayerRow};

impl Daemon {
    /// `player_toml` is one player as in a game's `[[players]]` entry
    /// (id, name, email, password, optional `[rules]`).
    pub fn join_player(&mut self, game: &str, player_toml: &str) -> Result<String> {
        let p: PlayerToml = toml::from_str(player_toml)
            .map_err(|error| self.invalid("err-player-toml", &crate::fl_args![error]))?;
        let password = p.password.as_deref().unwrap_or_default();
        if password.trim().is_empty() || password.contains(char::is_whitespace) {
            let player = &p.id;
            return Err(self.invalid("err-join-password", &crate::fl_args![player]));
        }
        let now = self.now();
        let phc = self
            .config
            .hasher
            .hash(password, &format!("{game}/{}", p.id))?;
        // A token given for the joiner is kept like one of `game create`:
        // its argon2id hash only (issue 10).
        if p.token.as_deref().is_some_and(|t| {
            t.is_empty() || t.chars().count() > 100 || t.contains(char::is_whitespace)
        }) {
            let player = &p.id;
            return Err(self.invalid("err-join-token", &crate::fl_args![player]));
        }
        let token = p
            .token
            .as_deref()
            .map(|t| {
                self.config
                    .hasher
                    .hash(t, &format!("{game}/{}/token", p.id))
            })
            .transpose()?;
        let name = p.name.clone().unwrap_or_else(|| p.id.clone());
        let lang = self.lang;
        let Daemon {
            store,
            registry,
            config,
            ..
        } = self;
        store.tx(|tx| -> Result<()> {
            let row = games::require_game(tx, game)?;
            if games::player_nocase(tx, game, &p.id)?.is_some() {
                let player = &p.id;
                let args = crate::fl_args![game, player];
                return Err(DaemonError::Invalid(crate::i18n::tr(
                    lang,
                    "err-player-exists",
                    &args,
                )));
            }
            let view = GameView::new(registry, row.clone())?;
            let latest = turns::latest(tx, game)?;
            let setup = PlayerSetup {
                id: PlayerId::new(p.id.clone()),
                name: name.clone(),
                options: p.rules.clone(),
            };
            let snap = view
                .engine
                .join(&latest.state, row.seed, &setup)
                .map_err(|e| view.engine_err(e))?;
            games::insert_player(
                tx,
                game,
                &PlayerRow {
                    id: p.id.clone(),
                    name: name.clone(),
                    email: p.email.clone(),
                    password_hash: phc.clone(),
                },
            )?;
            if let Some(hash) = &token {
                arbitre_store::settings::set_token_hash(tx, game, &p.id, Some(hash))?;
            }
            turns::replace_state(tx, game, latest.turn, &snap.state)?;
            let r = view
                .engine
                .report(&snap.state, &Viewer::Player(setup.id.clone()))
                .map_err(|e| view.engine_err(e))?;
            let mut body = r.body.trim_end().to_string();
            if let Some(when) = view.show_deadline() {
                body.push_str("\n\n");
                body.push_str(&text(view.lang, &Msg::Deadline { when: &when }));
            }
            let subject = text(
                view.lang,
                &Msg::ReportSubject {
                    game,
                    subject: &r.subject,
                },
            );
            let mut d = Draft::new(Kind::Report, &p.email, subject, signed(view.lang, &body))
                .about(game, latest.turn, Some(&p.id));
            d.attachments = r.attachments.clone();
            queue(tx, config, now, d)?;
            // Issue 17 item 1: the welcome mail, with this report's template.
            let welcome = crate::services::welcome::compose(&WelcomeFacts {
                occasion: Occasion::Joined,
                game,
                ruleset: &view.row.ruleset,
                ruleset_name: view.engine.info().name,
                lang: view.lang,
                player: &p.id,
                name: &name,
                email: &p.email,
                referee: &config.referee,
                password: Password::FromGameMaster,
                turn: latest.turn + 1,
                deadline: view.deadline().map(|d| (d, view.schedule.tz)),
                template: crate::services::welcome::template_of(&r.attachments),
                domain: config.domain(),
                stamp: now,
                tag: None,
            });
            if config.welcome {
                queue(tx, config, now, welcome)?;
            }
            Ok(())
        })?;
        tracing::info!(game, player = %p.id, "player joined a game in progress");
        Ok(p.id)
    }
}
