//! The machine-readable report attached to every report mail
//! (`<game>-turn-<n>.json`), for players' tools and bots. Schema:
//! docs/schemas/report.schema.json (JSON Schema 2020-12), version
//! [`SCHEMA_VERSION`].
//!
//! Version 1 wrapped the ruleset's report text and attachments' names with
//! the daemon's facts (game, ruleset, turn, deadline in UTC and in the
//! player's zone, who the report is for, the outcome when the game is
//! over). Version 2 (issue 20 item 1) keeps every one of those fields as it
//! was, so a version 1 reader goes on working, and adds `view`: the typed
//! view the ruleset rendered the text from ([`arbitre_core::Report::view`],
//! schema docs/schemas/<ruleset>.view.schema.json), absent for a ruleset
//! without one. Where a ruleset attaches its own JSON (WWK's roll log), it
//! is listed among the attachments and sent too. Field order is fixed by
//! the struct, so the bytes are deterministic.

use chrono::{DateTime, Utc};
use serde::Serialize;

pub const SCHEMA_VERSION: u32 = 2;
pub const MIME: &str = "application/json";

pub fn file_name(game: &str, turn: u32) -> String {
    format!("{game}-turn-{turn}.json")
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct JsonReport {
    pub schema: &'static str,
    pub schema_version: u32,
    pub game: String,
    pub ruleset: String,
    pub language: String,
    pub turn: u32,
    /// "player", "observer" or "game-master".
    pub viewer: String,
    /// The player id, for a player's report.
    pub player: Option<String>,
    pub subject: String,
    /// The report exactly as in the mail's text part (without the signature).
    pub text: String,
    pub attachments: Vec<JsonAttachment>,
    pub next_deadline: Option<JsonDeadline>,
    pub over: bool,
    pub outcome: Option<String>,
    pub order_template: Option<String>,
    /// Version 2: the ruleset's typed view of the report (absent without
    /// one), as the JSON text [`arbitre_core::ViewJson`] keeps: written by
    /// [`JsonReport::to_bytes`] as the last field, as serde would write it.
    #[serde(skip)]
    pub view: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct JsonAttachment {
    pub name: String,
    pub mime: String,
    pub bytes: usize,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct JsonDeadline {
    /// RFC 3339 in UTC.
    pub utc: String,
    /// RFC 3339 with the offset of `zone`.
    pub local: String,
    pub zone: String,
}

impl JsonDeadline {
    pub fn new(t: DateTime<Utc>, tz: chrono_tz::Tz) -> JsonDeadline {
        JsonDeadline {
            utc: t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            local: t
                .with_timezone(&tz)
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
            zone: tz.name().to_string(),
        }
    }
}

impl JsonReport {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(self).expect("report serialises");
        if let Some(view) = &self.view {
            // `view` is the struct's last field: it goes where serde would
            // have put it, before the closing brace.
            v.truncate(v.len().saturating_sub(2));
            v.reserve(view.len() + 16);
            v.extend_from_slice(b",\n  \"view\": ");
            v.extend_from_slice(view.as_bytes());
            v.extend_from_slice(b"\n}");
        }
        v.push(b'\n');
        v
    }
}

/// The JSON Schema published in docs/, compiled in so that a test can
/// prove the two agree.
pub const SCHEMA: &str = include_str!("../../../../docs/schemas/report.schema.json");

/// The order template among a ruleset's attachments: every ruleset names it
/// in its own language (`ordres-t05.txt`, `befehlsblatt-J1M5.txt`).
pub fn order_template_name(attachments: &[arbitre_core::Attachment]) -> Option<String> {
    const PREFIXES: &[&str] = &["ordres-", "orders-", "befehlsblatt-", "befehle-"];
    attachments
        .iter()
        .find(|a| {
            a.mime.starts_with("text/plain")
                && PREFIXES
                    .iter()
                    .any(|p| a.name.to_lowercase().starts_with(p))
        })
        .map(|a| a.name.clone())
}

/// Who a report is for, as the JSON names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewerKind {
    Player,
    Observer,
    GameMaster,
}

impl ViewerKind {
    fn as_str(self) -> &'static str {
        match self {
            ViewerKind::Player => "player",
            ViewerKind::Observer => "observer",
            ViewerKind::GameMaster => "game-master",
        }
    }
}

/// The facts the daemon knows about one report mail.
pub struct ReportFacts<'a> {
    pub game: &'a str,
    pub ruleset: &'a str,
    pub lang: arbitre_core::Lang,
    pub turn: u32,
    pub viewer: ViewerKind,
    pub player: Option<&'a str>,
    pub report: &'a arbitre_core::Report,
    /// The next deadline and the zone the reader sees it in.
    pub deadline: Option<(DateTime<Utc>, chrono_tz::Tz)>,
    pub outcome: Option<&'a str>,
}

pub fn build(f: &ReportFacts<'_>) -> JsonReport {
    JsonReport {
        schema: "arbitre-report",
        schema_version: SCHEMA_VERSION,
        game: f.game.to_string(),
        ruleset: f.ruleset.to_string(),
        language: f.lang.code().to_string(),
        turn: f.turn,
        viewer: f.viewer.as_str().to_string(),
        player: f.player.map(str::to_string),
        subject: f.report.subject.clone(),
        text: f.report.body.trim_end().to_string(),
        attachments: f
            .report
            .attachments
            .iter()
            .map(|a| JsonAttachment {
                name: a.name.clone(),
                mime: a.mime.clone(),
                bytes: a.content.len(),
            })
            .collect(),
        next_deadline: f.deadline.map(|(t, tz)| JsonDeadline::new(t, tz)),
        over: f.outcome.is_some(),
        outcome: f.outcome.map(str::to_string),
        order_template: order_template_name(&f.report.attachments),
        view: f.report.view.as_ref().map(arbitre_core::ViewJson::text),
    }
}
