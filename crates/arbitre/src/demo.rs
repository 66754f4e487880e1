//! `arbitre demo`: a whole game loop on the embedded defaults.
//!
//! Creates a game of the first registered ruleset under `./var/` (Maildir
//! `./var/inbox`, database `./var/arbitre.db`, file outbox `./var/outbox`),
//! then plays a few turns: each player's bot orders become a real order mail
//! dropped into the Maildir, and the real serve cycle answers, resolves and
//! sends. The game's TOML is `docs/examples/<ruleset>/game.toml` when it exists
//! (run from the repository root), else two generated players.

use crate::clock::SystemClock;
use crate::config::DaemonConfig;
use crate::daemon::Daemon;
use crate::error::{DaemonError, Result};
use crate::fixture::order_mail;
use crate::fl_args;
use crate::game_config::GameToml;
use crate::i18n::tr;
use crate::registry::Registry;
use crate::services::settings::PressPolicy;
use arbitre_core::{Engine, Lang};
use arbitre_store::{games, turns, GameStatus, PasswordHasher};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// The demo game's GM password, for the game master's web pages.
pub const DEMO_GM_PASSWORD: &str = "demo-gm";

/// The demo game's longest absence (`[services] absence_max_days`).
const DEMO_ABSENCE_DAYS: u32 = 14;

fn demo_toml(engine: &dyn Engine, id: &str) -> String {
    let ruleset = engine.info().id;
    let example = Path::new("docs/examples").join(ruleset).join("game.toml");
    if let Ok(text) = std::fs::read_to_string(&example) {
        if let Ok(mut g) = GameToml::parse(&text) {
            g.id = id.to_string();
            g.gm_email = Some("gm@demo.invalid".into());
            g.schedule.start = None;
            // Shown by `arbitre web` (issue 24): the README's first look.
            g.public = true;
            if g.services.gm_password.is_none() && g.services.gm_password_hash.is_none() {
                g.services.gm_password = Some(DEMO_GM_PASSWORD.into());
            }
            // Press and absences on, so that the web's PRESS and ABSENCE
            // forms show (a game that forbids them hides them).
            if g.services.press == PressPolicy::None {
                g.services.press = PressPolicy::Grey;
            }
            g.services.absence_max_days.get_or_insert(DEMO_ABSENCE_DAYS);
            if let Ok(t) = toml::to_string(&g) {
                return t;
            }
        }
    }
    format!(
        "id = \"{id}\"\nruleset = \"{ruleset}\"\npublic = true\ngm_email = \"gm@demo.invalid\"\n[schedule]\ninterval = \"7d\"\n\n\
         [services]\ngm_password = \"{DEMO_GM_PASSWORD}\"\npress = \"grey\"\nabsence_max_days = {DEMO_ABSENCE_DAYS}\n\n\
         [[players]]\nid = \"alice\"\nname = \"Alice\"\nemail = \"alice@demo.invalid\"\npassword = \"demo-alice\"\n\n\
         [[players]]\nid = \"bruno\"\nname = \"Bruno\"\nemail = \"bruno@demo.invalid\"\npassword = \"demo-bruno\"\n"
    )
}

/// Plays the demo under `base`; what it prints is in `lang` (the CLI's).
pub fn run(
    base: &Path,
    registry: Registry,
    turns_to_play: u32,
    lang: Lang,
    out: &mut dyn Write,
) -> Result<()> {
    let engine = registry
        .first()
        .ok_or_else(|| DaemonError::Invalid(tr(lang, "demo-no-ruleset", &[])))?;
    let ruleset = engine.info().id;
    let mut config = DaemonConfig::under(base);
    config.referee = "arbitre@demo.invalid".into();
    config.hasher = PasswordHasher::fast();
    let mut daemon = Daemon::open(config, registry, Arc::new(SystemClock))?;
    daemon.lang = lang;
    let _lock = daemon.lock()?;
    let mut n = 1;
    let id = loop {
        let id = format!("demo-{ruleset}-{n}");
        if games::game(daemon.store.conn(), &id)?.is_none() {
            break id;
        }
        n += 1;
    };
    let toml_text = demo_toml(daemon.registry.get(ruleset)?, &id);
    let g = GameToml::parse(&toml_text)?;
    daemon.create_game(
        &toml_text,
        Path::new("docs/examples").join(ruleset).as_path(),
    )?;
    daemon.send_outbox()?;
    let players = g.players.len();
    let args = fl_args![id, ruleset, players];
    let _ = writeln!(out, "{}", tr(lang, "demo-created", &args));
    for t in 1..=turns_to_play {
        let row = games::require_game(daemon.store.conn(), &id)?;
        if row.status == GameStatus::Over {
            break;
        }
        let engine = daemon.registry.get(ruleset)?;
        let state = turns::latest(daemon.store.conn(), &id)?;
        let players = engine
            .players(&state.state)
            .map_err(|e| DaemonError::engine(id.clone(), e))?;
        for p in players.iter().filter(|p| p.active) {
            let orders = engine
                .bot_orders(&state.state, row.seed, &p.id)
                .map_err(|e| DaemonError::engine(id.clone(), e))?;
            let Some(cfg) = g.players.iter().find(|x| x.id == p.id.as_str()) else {
                continue;
            };
            let header = format!(
                "GAME {id} PLAYER {} PASSWORD {}",
                cfg.id,
                cfg.password.as_deref().unwrap_or("")
            );
            let mail = order_mail(
                &p.name,
                &cfg.email,
                &daemon.config.referee,
                daemon.now(),
                &format!("{id}.t{t}.{}@players.invalid", cfg.id),
                &header,
                &orders,
            );
            daemon.deliver(&mail)?;
        }
        let report = daemon.cycle()?;
        if !report.resolved.iter().any(|(g, _)| g == &id) {
            // Not every player was ready: resolve as the GM would.
            daemon.resolve(&id)?;
            daemon.send_outbox()?;
        }
        let (turn, mails) = (t, report.mails);
        let _ = writeln!(out, "{}", tr(lang, "demo-turn", &fl_args![turn, mails]));
    }
    let outbox_dir = match &daemon.config.transport {
        arbitre_mail::Transport::File { dir } => dir.display().to_string(),
        _ => tr(lang, "demo-not-a-file-outbox", &[]),
    };
    let database = daemon.config.database.display();
    let _ = writeln!(out, "\n{}", tr(lang, "demo-database", &fl_args![database]));
    let dir = outbox_dir;
    let _ = writeln!(out, "{}", tr(lang, "demo-outbox", &fl_args![dir]));
    let _ = writeln!(out, "{}\n", tr(lang, "demo-print-report", &fl_args![id]));
    let password = DEMO_GM_PASSWORD;
    let _ = writeln!(out, "{}\n", tr(lang, "demo-web", &fl_args![id, password]));
    let _ = write!(out, "{}", daemon.status(Some(&id))?);
    Ok(())
}
