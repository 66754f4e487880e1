//! `arbitre check <ruleset> <orders-file>`: validate orders offline, like
//! Eressea's echeck. The orders are judged against a fresh game: the one a
//! game TOML describes (`--game`), or else the ruleset's default setup with
//! placeholder players `p1`, `p2`, … (the smallest count the ruleset
//! accepts). An order block header (GAME … END) in the file is honoured, so
//! a player can check the very mail they are about to send.

use crate::error::{DaemonError, Result};
use crate::game_config::GameToml;
use crate::messages::{text, Msg};
use crate::registry::Registry;
use arbitre_core::{PlayerId, PlayerSetup, SetupConfig, Verdict};
use std::path::Path;

pub struct OfflineCheck {
    pub report: String,
    pub errors: usize,
}

pub fn check(
    registry: &Registry,
    ruleset: &str,
    orders: &str,
    game: Option<&Path>,
    player: Option<&str>,
) -> Result<OfflineCheck> {
    let engine = registry.get(ruleset)?;
    let info = engine.info();
    let bad = |e: arbitre_core::EngineError| DaemonError::Engine {
        game: "offline check".into(),
        err: e.to_string(),
    };
    let (setup, lang) = match game {
        Some(path) => {
            let g = GameToml::load(path)?;
            let base = path.parent().unwrap_or(Path::new("."));
            (g.setup_config(base)?, g.lang(info.lang))
        }
        None => {
            let cfg = |n: usize| SetupConfig {
                game_id: "check".into(),
                seed: 1,
                players: (1..=n)
                    .map(|i| PlayerSetup {
                        id: PlayerId::new(format!("p{i}")),
                        name: format!("p{i}"),
                        options: Default::default(),
                    })
                    .collect(),
                ..Default::default()
            };
            let n = (1..=16)
                .find(|n| engine.setup(&cfg(*n)).is_ok())
                .ok_or_else(|| {
                    DaemonError::Invalid(format!(
                        "ruleset {} needs a game TOML (--game) to check orders",
                        info.id
                    ))
                })?;
            (cfg(n), info.lang)
        }
    };
    let snap = engine.setup(&setup).map_err(|e| DaemonError::Engine {
        game: setup.game_id.clone(),
        err: crate::create::scrub_files(&e.to_string(), &setup.files),
    })?;
    let (orders, header_player) = match arbitre_mail::find_envelope(orders) {
        Ok(env) => (env.orders, Some(env.player)),
        Err(_) => (orders.to_string(), None),
    };
    let pid = player
        .map(str::to_string)
        .or(header_player.filter(|p| {
            setup
                .players
                .iter()
                .any(|s| s.id.as_str().eq_ignore_ascii_case(p))
        }))
        .or_else(|| setup.players.first().map(|p| p.id.to_string()))
        .ok_or_else(|| DaemonError::Invalid("the game has no players".into()))?;
    let pid = setup
        .players
        .iter()
        .find(|p| p.id.as_str().eq_ignore_ascii_case(&pid))
        .map(|p| p.id.clone())
        .ok_or_else(|| DaemonError::Invalid(format!("no player '{pid}' in this game")))?;
    let c = engine.check(&snap.state, &pid, &orders).map_err(bad)?;
    let mut out = String::new();
    for v in &c.verdicts {
        let line = match &v.verdict {
            Verdict::Ok => format!("{:>4}  {}  {}", v.line, text(lang, &Msg::Ok), v.text),
            Verdict::Warning(r) => format!(
                "{:>4}  {}  {}  -> {r}",
                v.line,
                text(lang, &Msg::Warning),
                v.text
            ),
            Verdict::Error(r) => format!(
                "{:>4}  {}  {}  -> {r}",
                v.line,
                text(lang, &Msg::Error),
                v.text
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&text(
        lang,
        &Msg::Summary {
            orders: c.orders,
            errors: c.errors,
            warnings: c.warnings,
        },
    ));
    out.push('\n');
    Ok(OfflineCheck {
        report: out,
        errors: c.errors,
    })
}
