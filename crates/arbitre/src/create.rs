//! `arbitre game create <game.toml>`: builds turn 0 and mails it.
//!
//! The ruleset builds the initial state from the `[rules]` table (its map or
//! scenario), the players and the seed; the daemon hashes the passwords,
//! stores the game, its players and the turn-0 state, and queues every
//! player's turn-0 report and welcome mail (issue 17 item 1) — all in one
//! transaction.

use crate::daemon::{Daemon, GameView};
use crate::error::{DaemonError, Result};
use crate::game_config::GameToml;
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use crate::services::json_report::{ReportFacts, ViewerKind};
use crate::services::texts::{svc_text, SvcMsg};
use crate::services::welcome::{Occasion, Password, WelcomeFacts};
use arbitre_core::{Lang, PlayerId, Viewer};
use arbitre_store::{games, turns, GameRow, GameStatus, PlayerRow, TurnRow};
use std::path::Path;

impl Daemon {
    /// `arbitre game create`: the game's Message-IDs get a random part
    /// (issue 14 item 14), so a game re-created under the same id after a
    /// dry run never reuses the old game's Message-IDs.
    pub fn create_game_file(&mut self, path: &Path) -> Result<String> {
        self.create_game_file_in(path, self.lang)
    }

    /// [`Self::create_game_file`], the ruleset's refusals in `lang` (the
    /// command line's language, issue 19 item 3).
    pub fn create_game_file_in(&mut self, path: &Path, lang: Lang) -> Result<String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            let (path, error) = (path.display(), e);
            self.invalid("err-cannot-read", &crate::fl_args![path, error])
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        self.check_game_file_in(&text, &path.display().to_string(), base, lang)?;
        let salt = games::new_msgid_salt();
        self.create_game_salted(&text, base, Some(&salt))
    }

    /// Everything `game create` would refuse in the game file `file`
    /// (its text `text`), each error with `file:line:column` where the
    /// value at fault came from the file (issue 19 item 2): the daemon's
    /// checks, then the ruleset's setup. Nothing is written. Returns the
    /// file's warnings (issue 19 item 4), each after its place.
    pub fn check_game_file(&self, text: &str, file: &str, base: &Path) -> Result<Vec<String>> {
        self.check_game_file_in(text, file, base, self.lang)
    }

    /// [`Self::check_game_file`], the ruleset's refusals in `lang` (issue
    /// 19 item 3: a German ruleset's error on an English command line
    /// reads English).
    pub fn check_game_file_in(
        &self,
        text: &str,
        file: &str,
        base: &Path,
        lang: Lang,
    ) -> Result<Vec<String>> {
        use crate::game_config::setup_error_place;
        use crate::setup_text::{game_config_text, warning_text};
        use crate::spans::{keys, FileSpans};
        // Issue 19 item 3: the daemon's own refusals in the CLI's language
        // too, so a French command line speaks French only.
        let refuse = |e: crate::game_config::GameConfigError| {
            DaemonError::GameFile(game_config_text(lang, &e.at(text, file)))
        };
        let g = GameToml::parse(text)
            .and_then(|g| g.require_passwords().map(|()| g))
            .map_err(refuse)?;
        let engine = self.registry.get(&g.ruleset).map_err(|e| {
            let place = FileSpans::new(text).place(file, Some(&keys(&["ruleset"])));
            let (ruleset, known) = (&e.id, e.known.join(", "));
            let error = crate::i18n::tr(
                lang,
                "cfg-unknown-ruleset",
                &crate::fl_args![ruleset, known],
            );
            DaemonError::GameFile(crate::i18n::tr(
                lang,
                "cfg-at",
                &crate::fl_args![place, error],
            ))
        })?;
        let setup = g.setup_config(base).map_err(refuse)?;
        if let Err(e) = engine.setup(&setup) {
            let (place, err) = match &e {
                arbitre_core::EngineError::Setup(se) => (
                    setup_error_place(se, text, file),
                    crate::setup_text::setup_error_text(lang, se),
                ),
                _ => (file.to_string(), crate::error_text::engine_text(lang, &e)),
            };
            let error = scrub_lines(&err, &quoted_lines(&setup.files), lang);
            return Err(DaemonError::GameFile(crate::i18n::tr(
                lang,
                "cfg-at",
                &crate::fl_args![place, error],
            )));
        }
        Ok(g.warnings(text, file, self.now())
            .into_iter()
            .map(|(place, w)| {
                let error = warning_text(lang, &w);
                crate::i18n::tr(lang, "cfg-at", &crate::fl_args![place, error])
            })
            .collect())
    }

    /// Creates a game from its TOML text; `base` resolves `*_file` options.
    /// Message-IDs without a random part: deterministic, as replays,
    /// fixtures and tests need.
    pub fn create_game(&mut self, toml_text: &str, base: &Path) -> Result<String> {
        self.create_game_salted(toml_text, base, None)
    }

    /// Creates a game; `salt` is the random part of its Message-IDs.
    pub fn create_game_salted(
        &mut self,
        toml_text: &str,
        base: &Path,
        salt: Option<&str>,
    ) -> Result<String> {
        let g = GameToml::parse(toml_text)?;
        g.require_passwords()?;
        let engine = self.registry.get(&g.ruleset)?;
        let info = engine.info();
        let setup = g.setup_config(base)?;
        let snap = engine.setup(&setup).map_err(|err| DaemonError::Engine {
            game: g.id.clone(),
            err: Box::new(err),
            hidden: quoted_lines(&setup.files),
        })?;
        let schedule = g.schedule();
        let now = self.now();
        let mut deadline = schedule.next_after(schedule.start.unwrap_or(now));
        if deadline <= now {
            deadline = schedule.next_after(now);
        }
        let mut kept = g.clone();
        if let Some(pw) = g.services.gm_password.as_deref().filter(|p| !p.is_empty()) {
            kept.services.gm_password_hash =
                Some(self.config.hasher.hash(pw, &format!("{}/gm", g.id))?);
        }
        let row = GameRow {
            id: g.id.clone(),
            ruleset: info.id.to_string(),
            seed: g.seed(),
            lang: g.lang(info.lang).code().to_string(),
            config: kept.stored(),
            gm_email: g.gm_email.clone(),
            turn: snap.turn,
            status: GameStatus::Running,
            deadline: Some(deadline.timestamp()),
            created_at: now.timestamp(),
        };
        let mut players = Vec::new();
        // Per-player tokens (issue 10): only their hashes are stored.
        let mut tokens = Vec::new();
        for p in &g.players {
            if let Some(t) = p.token.as_deref() {
                tokens.push((
                    p.id.clone(),
                    self.config
                        .hasher
                        .hash(t, &format!("{}/{}/token", g.id, p.id))?,
                ));
            }
            // A hash given in the file (checked by GameToml::parse) is kept as
            // is: the clear password never reaches the referee.
            let password_hash = match &p.password_hash {
                Some(phc) => phc.clone(),
                None => self.config.hasher.hash(
                    p.password.as_deref().unwrap_or_default(),
                    &format!("{}/{}", g.id, p.id),
                )?,
            };
            players.push(PlayerRow {
                id: p.id.clone(),
                name: p.name.clone().unwrap_or_else(|| p.id.clone()),
                email: p.email.clone(),
                password_hash,
            });
        }
        let Daemon {
            store,
            registry,
            config,
            ..
        } = self;
        store.tx(|tx| -> Result<()> {
            games::insert_game(tx, &row)?;
            if let Some(s) = salt {
                games::set_msgid_salt(tx, &row.id, s)?;
            }
            for p in &players {
                games::insert_player(tx, &row.id, p)?;
            }
            for (player, hash) in &tokens {
                arbitre_store::settings::set_token_hash(tx, &row.id, player, Some(hash))?;
            }
            turns::insert(
                tx,
                &TurnRow {
                    game_id: row.id.clone(),
                    turn: snap.turn,
                    state: snap.state.clone(),
                    resolved_at: now.timestamp(),
                    outcome: None,
                },
            )?;
            let game = GameView::new(registry, row.clone())?;
            let when = game.schedule.show(deadline);
            let footer = text(game.lang, &Msg::Deadline { when: &when });
            // The first deadline, for a report that prints it (issue 17 item 9).
            // No turn ran yet, even when a position starts the game mid-way.
            let facts = arbitre_core::ReportFacts {
                setup_only: true,
                ..crate::services::zone::report_facts(Some(deadline), game.schedule.tz)
            };
            // Turn 0 decoded once for every report (issue 16 item 5).
            let loaded = crate::loaded::Loaded::new();
            let state = loaded.get(&game, &snap.state)?;
            for p in &players {
                // A new game: nobody has chosen a TIMEZONE yet, the game's zone applies.
                let r = state
                    .report_with(&Viewer::Player(PlayerId::new(p.id.clone())), &facts)
                    .map_err(|e| game.engine_err(e))?;
                let body = signed(game.lang, &format!("{}\n\n{footer}", r.body.trim_end()));
                let subject = text(
                    game.lang,
                    &Msg::ReportSubject {
                        game: &row.id,
                        subject: &r.subject,
                    },
                );
                let mut d = Draft::new(Kind::Report, &p.email, subject, body).about(
                    &row.id,
                    snap.turn,
                    Some(&p.id),
                );
                d.attachments = r.attachments.clone();
                d.attachments.extend(turn0_attachments(
                    &game,
                    config,
                    snap.turn,
                    ViewerKind::Player,
                    Some(&p.id),
                    &r,
                    deadline,
                    now,
                ));
                queue(tx, config, now, d)?;
                // Issue 17 item 1: the welcome, with the template of this
                // very report.
                let welcome = crate::services::welcome::compose(&WelcomeFacts {
                    occasion: Occasion::Created,
                    game: &row.id,
                    ruleset: &row.ruleset,
                    ruleset_name: info.name,
                    lang: game.lang,
                    player: &p.id,
                    name: &p.name,
                    email: &p.email,
                    referee: &config.referee,
                    password: Password::FromGameMaster,
                    turn: snap.turn + 1,
                    deadline: Some((deadline, game.schedule.tz)),
                    template: crate::services::welcome::template_of(&r.attachments),
                    domain: config.domain(),
                    stamp: now,
                    tag: None,
                });
                if config.welcome {
                    queue(tx, config, now, welcome)?;
                }
            }
            if let Some(gm) = &row.gm_email {
                let r = state
                    .report_with(&Viewer::GameMaster, &facts)
                    .map_err(|e| game.engine_err(e))?;
                let body = signed(game.lang, &format!("{}\n\n{footer}", r.body.trim_end()));
                let subject = text(
                    game.lang,
                    &Msg::ReportSubject {
                        game: &row.id,
                        subject: &r.subject,
                    },
                );
                let mut d = Draft::new(Kind::Gm, gm, subject, body).about(&row.id, snap.turn, None);
                d.attachments = r.attachments.clone();
                d.attachments.extend(turn0_attachments(
                    &game,
                    config,
                    snap.turn,
                    ViewerKind::GameMaster,
                    None,
                    &r,
                    deadline,
                    now,
                ));
                queue(tx, config, now, d)?;
            }
            // Observers (issue 10) see the spectator's view from turn 0 on.
            if !game.toml.services.observers.is_empty() {
                let r = game
                    .engine
                    .report_with(&snap.state, &Viewer::Spectator, &facts)
                    .map_err(|e| game.engine_err(e))?;
                for (i, to) in game.toml.services.observers.iter().enumerate() {
                    let body = signed(game.lang, &format!("{}\n\n{footer}", r.body.trim_end()));
                    let subject = svc_text(
                        game.lang,
                        &SvcMsg::ObserverSubject {
                            game: &row.id,
                            subject: &r.subject,
                        },
                    );
                    let mut d = Draft::new(Kind::Observer, to, subject, body)
                        .about(&row.id, snap.turn, None)
                        .discriminator(format!("o{i}"));
                    d.attachments = r.attachments.clone();
                    d.attachments.extend(turn0_attachments(
                        &game,
                        config,
                        snap.turn,
                        ViewerKind::Observer,
                        None,
                        &r,
                        deadline,
                        now,
                    ));
                    queue(tx, config, now, d)?;
                }
            }
            Ok(())
        })?;
        tracing::info!(game = %row.id, ruleset = %row.ruleset, players = players.len(), "game created");
        Ok(row.id)
    }
}

/// The JSON report and the first deadline's .ics (issue 10) on the turn-0
/// report mails, as on every later report.
#[allow(clippy::too_many_arguments)]
fn turn0_attachments(
    game: &GameView<'_>,
    config: &crate::config::DaemonConfig,
    turn: u32,
    viewer: ViewerKind,
    player: Option<&str>,
    report: &arbitre_core::Report,
    deadline: chrono::DateTime<chrono::Utc>,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<arbitre_core::Attachment> {
    let facts = ReportFacts {
        game: &game.row.id,
        ruleset: &game.row.ruleset,
        lang: game.lang,
        turn,
        viewer,
        player,
        report,
        deadline: Some((deadline, game.schedule.tz)),
        outcome: None,
    };
    crate::services::report_attachments(&facts, config.domain(), now)
}

/// A setup error with no text of the files the game names (`map_file`,
/// `position_file`, issue 14 item 9). A ruleset's parse error quotes the
/// offending line (the toml crate prints it under a `|` gutter), so a game
/// TOML naming `/etc/shadow` or a secret would print its first line on
/// the GM's terminal and in the logs. Quoted lines are dropped; the
/// position (line, column) and the reason stay.
pub fn scrub_files(err: &str, files: &std::collections::BTreeMap<String, String>) -> String {
    scrub_lines(err, &quoted_lines(files), Lang::En)
}

/// The lines of `files` an error's text must not quote (those of four
/// characters or more, trimmed).
pub fn quoted_lines(files: &std::collections::BTreeMap<String, String>) -> Vec<String> {
    files
        .values()
        .flat_map(|t| t.lines())
        .map(str::trim)
        .filter(|l| l.chars().count() >= 4)
        .map(str::to_string)
        .collect()
}

/// [`scrub_files`] with the lines to hide given, the line it hides
/// worded in `lang`.
pub fn scrub_lines(err: &str, quoted: &[String], lang: Lang) -> String {
    let gutter = |l: &str| {
        let t = l
            .trim_start()
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start();
        t.starts_with('|')
    };
    let mut out = Vec::new();
    for line in err.lines() {
        if gutter(line) {
            continue;
        }
        if quoted.iter().any(|q| line.contains(q.as_str())) {
            out.push(crate::i18n::tr(lang, "err-file-line-hidden", &[]));
        } else {
            out.push(line.to_string());
        }
    }
    out.join("\n")
}
