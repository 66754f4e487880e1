//! `arbitre check <ruleset> <orders-file>`: validate orders offline, like
//! Eressea's echeck. The orders are judged against a fresh game: the one a
//! game TOML describes (`--game`), or else the ruleset's default setup with
//! placeholder players `p1`, `p2`, … (the smallest count the ruleset
//! accepts). An order block header (GAME … END) in the file is honoured, so
//! a player can check the very mail they are about to send.
//!
//! `arbitre check --report <my-last-report.json> <orders.txt>` (issue 20
//! item 4, [`check_report`]) needs no game file: the JSON report (version
//! 2) names the ruleset and the player, and its `view` rebuilds the
//! player's game ([`arbitre_core::Engine::load_view`]). The orders are then
//! judged by the same [`arbitre_core::LoadedGame::check`] the referee runs
//! on a mailed block (item 5: one implementation), and printed in the shape
//! editors and CI tools parse, `orders.txt:LINE: error|warning: reason`
//! ([`diagnostics`]).

use crate::error::{DaemonError, Result};
use crate::game_config::GameToml;
use crate::i18n::tr;
use crate::messages::{text, Msg};
use crate::registry::Registry;
use arbitre_core::{Checked, Lang, PlayerId, PlayerSetup, SetupConfig, Verdict};
use serde::Deserialize;
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
    cli: Lang,
) -> Result<OfflineCheck> {
    let invalid = |id: &str, args: &[(&str, String)]| DaemonError::Invalid(tr(cli, id, args));
    let engine = registry.get(ruleset)?;
    let info = engine.info();
    let bad = |e: arbitre_core::EngineError| DaemonError::engine("offline check", e);
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
                    let ruleset = info.id;
                    invalid("err-check-needs-game", &crate::fl_args![ruleset])
                })?;
            (cfg(n), info.lang)
        }
    };
    let snap = engine.setup(&setup).map_err(|err| DaemonError::Engine {
        game: setup.game_id.clone(),
        err: Box::new(err),
        hidden: crate::create::quoted_lines(&setup.files),
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
        .ok_or_else(|| invalid("err-check-no-players", &[]))?;
    let pid = setup
        .players
        .iter()
        .find(|p| p.id.as_str().eq_ignore_ascii_case(&pid))
        .map(|p| p.id.clone())
        .ok_or_else(|| {
            let player = &pid;
            invalid("err-check-no-player", &crate::fl_args![player])
        })?;
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

/// The fields of a JSON report (schema version 2) the offline check reads.
#[derive(Debug, Deserialize)]
pub struct ReportIn {
    pub schema: String,
    pub schema_version: u32,
    pub game: String,
    pub ruleset: String,
    pub turn: u32,
    pub player: Option<String>,
    #[serde(default)]
    pub view: Option<serde_json::Value>,
}

impl ReportIn {
    /// Reads a JSON report, refusing what is not one a player can check
    /// against (a version 1 report has no view; an observer has no orders),
    /// saying why in `lang` (the CLI's).
    pub fn parse(json: &str, lang: Lang) -> Result<ReportIn> {
        let invalid = |id: &str, args: &[(&str, String)]| DaemonError::Invalid(tr(lang, id, args));
        let r: ReportIn = serde_json::from_str(json)
            .map_err(|error| invalid("err-report-not-json", &crate::fl_args![error]))?;
        if r.schema != "arbitre-report" {
            let schema = &r.schema;
            return Err(invalid("err-report-schema", &crate::fl_args![schema]));
        }
        if r.schema_version < 2 || r.view.is_none() {
            let version = r.schema_version;
            return Err(invalid("err-report-no-view", &crate::fl_args![version]));
        }
        if r.player.is_none() {
            return Err(invalid("err-report-no-player", &[]));
        }
        Ok(r)
    }
}

/// The verdicts of a check against a report.
pub struct ReportCheck {
    pub checked: Checked,
    pub game: String,
    pub player: String,
    /// The turn the orders are for (the report's turn + 1).
    pub turn: u32,
}

/// Judges `orders` against the player's game that `report_json` (their
/// last JSON report) shows. An order block header in `orders` is honoured
/// (its orders are checked), but the player is always the report's.
pub fn check_report(
    registry: &Registry,
    report_json: &str,
    orders: &str,
    lang: Lang,
) -> Result<ReportCheck> {
    let r = ReportIn::parse(report_json, lang)?;
    let engine = registry.get(&r.ruleset)?;
    let player = PlayerId::new(r.player.clone().unwrap_or_default());
    let view = r.view.unwrap_or_default();
    let bad = |e: arbitre_core::EngineError| DaemonError::engine(r.game.clone(), e);
    let game = engine.load_view(&view, &player).map_err(bad)?;
    // The orders of a mailed block: its header and END stay out of the
    // verdicts, but the line numbers stay the file's (line N of the block is
    // line header_line + N of the text).
    let orders = match arbitre_mail::find_envelope(orders) {
        Ok(env) => format!("{}{}", "\n".repeat(env.header_line), env.orders),
        Err(_) => orders.to_string(),
    };
    let checked = game.check(&player, &orders).map_err(bad)?;
    Ok(ReportCheck {
        checked,
        game: r.game,
        player: player.to_string(),
        turn: r.turn + 1,
    })
}

/// The verdicts as `file:LINE: error|warning: reason`, one a line (the
/// shape compilers print, which editors and CI tools parse); lines
/// accepted without remark are not listed.
pub fn diagnostics(file: &str, checked: &Checked) -> String {
    let mut out = String::new();
    for v in &checked.verdicts {
        let (kind, reason) = match &v.verdict {
            Verdict::Ok => continue,
            Verdict::Warning(r) => ("warning", r),
            Verdict::Error(r) => ("error", r),
        };
        out.push_str(&format!("{file}:{}: {kind}: {reason}\n", v.line));
    }
    out
}
