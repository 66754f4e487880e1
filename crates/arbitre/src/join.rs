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
//!
//! Decide, then apply: [`decide`] computes the rows and mails, [`write`]
//! writes the rows. A sign-up by mail accepted (signup.rs, issue 17 item 3)
//! goes through the same two functions, so a seat enters the same way
//! from the CLI and from a mail.

use crate::config::DaemonConfig;
use crate::daemon::{Daemon, GameView};
use crate::error::{DaemonError, Result};
use crate::game_config::PlayerToml;
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use crate::registry::Registry;
use crate::services::welcome::{Occasion, Password, WelcomeFacts};
use arbitre_core::setup_error::JoinRefusal;
use arbitre_core::{EngineError, Lang, PlayerId, PlayerSetup, SetupError, Viewer};
use arbitre_store::{games, turns, Connection, PlayerRow};
use chrono::{DateTime, Utc};

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
            if games::player_nocase(tx, game, &p.id)?.is_some() {
                let player = &p.id;
                let args = crate::fl_args![game, player];
                return Err(DaemonError::Invalid(crate::i18n::tr(
                    lang,
                    "err-player-exists",
                    &args,
                )));
            }
            let seat = NewSeat {
                id: &p.id,
                name: &name,
                email: &p.email,
                phc: phc.clone(),
                token: token.clone(),
                options: p.rules.clone(),
                password: Password::FromGameMaster,
            };
            let joined = decide(tx, registry, config, game, &seat, now, lang)?;
            write(tx, &joined.rows)?;
            for m in joined.mails {
                queue(tx, config, now, m)?;
            }
            Ok(())
        })?;
        Ok(p.id)
    }
}

/// A seat entering a game in progress: `player join`'s TOML entry, or a
/// sign-up by mail accepted (signup.rs), which generates the password.
pub struct NewSeat<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub email: &'a str,
    /// The password's argon2id hash.
    pub phc: String,
    /// The token's argon2id hash, if the seat has one.
    pub token: Option<String>,
    /// The seat's `[players.rules]`, handed to the ruleset.
    pub options: toml::Table,
    /// As the welcome mail shows it.
    pub password: Password<'a>,
}

/// The rows a join writes ([`write`]), computed by [`decide`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinRows {
    pub game: String,
    /// The last resolved turn, whose stored state the join replaces.
    pub turn: u32,
    pub player: PlayerRow,
    pub token: Option<String>,
    /// The ruleset's state with the newcomer.
    pub state: String,
}

/// What a join causes: its rows, and the newcomer's report and welcome mail.
pub struct Joined {
    pub rows: JoinRows,
    pub mails: Vec<Draft>,
}

/// Decides `seat`'s entry into `game` (nothing written): the ruleset's
/// join on the latest state, from the stream (seed, next turn,
/// "join:<player>"), and the newcomer's mails. The ruleset's refusal (no
/// join rule, game full, game over) is an error, before anything is
/// written, worded in `lang` (the CLI's for `player join`, the game's for
/// a sign-up by mail).
pub fn decide(
    tx: &Connection,
    registry: &Registry,
    config: &DaemonConfig,
    game: &str,
    seat: &NewSeat<'_>,
    now: DateTime<Utc>,
    lang: Lang,
) -> Result<Joined> {
    let row = games::require_game(tx, game)?;
    let view = GameView::new(registry, row)?;
    let latest = turns::latest(tx, game)?;
    let setup = PlayerSetup {
        id: PlayerId::new(seat.id.to_string()),
        name: seat.name.to_string(),
        options: seat.options.clone(),
    };
    let snap =
        view.engine
            .join(&latest.state, view.row.seed, &setup)
            .map_err(|e| match e {
                // The ruleset's refusal, in `lang` (issue 19 item 3).
                EngineError::Setup(SetupError::Join(r)) => {
                    DaemonError::Invalid(crate::setup_text::join_refusal_text(lang, &r))
                }
                EngineError::GameOver => DaemonError::Invalid(
                    crate::setup_text::join_refusal_text(lang, &JoinRefusal::Over),
                ),
                e => view.engine_err(e),
            })?;
    let r = view
        .engine
        .report_with(
            &snap.state,
            &Viewer::Player(setup.id.clone()),
            &report_facts_of(&view),
        )
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
    let mut d = Draft::new(Kind::Report, seat.email, subject, signed(view.lang, &body)).about(
        game,
        latest.turn,
        Some(seat.id),
    );
    d.attachments = r.attachments.clone();
    let mut mails = vec![d];
    // Issue 17 item 1: the welcome mail, with this report's template.
    if config.welcome {
        mails.push(crate::services::welcome::compose(&WelcomeFacts {
            occasion: Occasion::Joined,
            game,
            ruleset: &view.row.ruleset,
            ruleset_name: view.engine.info().name,
            lang: view.lang,
            player: seat.id,
            name: seat.name,
            email: seat.email,
            referee: &config.referee,
            password: seat.password,
            turn: latest.turn + 1,
            deadline: view.deadline().map(|d| (d, view.schedule.tz)),
            template: crate::services::welcome::template_of(&r.attachments),
            domain: config.domain(),
            stamp: now,
            tag: None,
        }));
    }
    Ok(Joined {
        rows: JoinRows {
            game: game.to_string(),
            turn: latest.turn,
            player: PlayerRow {
                id: seat.id.to_string(),
                name: seat.name.to_string(),
                email: seat.email.to_string(),
                password_hash: seat.phc.clone(),
            },
            token: seat.token.clone(),
            state: snap.state,
        },
        mails,
    })
}

/// Writes a join's rows in the caller's transaction: the seat, its token,
/// and the state with the newcomer in place of the last resolved turn's.
pub fn write(tx: &Connection, rows: &JoinRows) -> Result<()> {
    games::insert_player(tx, &rows.game, &rows.player)?;
    if let Some(hash) = &rows.token {
        arbitre_store::settings::set_token_hash(tx, &rows.game, &rows.player.id, Some(hash))?;
    }
    turns::replace_state(tx, &rows.game, rows.turn, &rows.state)?;
    tracing::info!(game = %rows.game, player = %rows.player.id, "player joined a game in progress");
    Ok(())
}

/// The facts a seat's first report prints (issue 17 item 9): the open
/// deadline while the game runs, in the zone the view is read in.
pub(crate) fn report_facts_of(view: &GameView<'_>) -> arbitre_core::ReportFacts {
    let deadline = view
        .deadline()
        .filter(|_| view.row.status == arbitre_store::GameStatus::Running);
    crate::services::zone::report_facts(deadline, view.viewer_tz.unwrap_or(view.schedule.tz))
}
