//! Reports: what the referee mails to each player after a turn.
//!
//! The body is plain text in the ruleset's own notation and language (the
//! Nébula *compte rendu*, the EDS *Besitztümerblatt*). Attachments carry what
//! text cannot: an SVG map, a machine-readable JSON report, an order template.

use crate::ids::PlayerId;
use serde::{Deserialize, Serialize};

/// Who a report is written for. Fog of war is the ruleset's job: it decides what
/// each viewer may see.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Viewer {
    Player(PlayerId),
    /// An observer: sees what a spectator may see (by default: the public facts).
    Spectator,
    /// The game master: sees everything.
    GameMaster,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// File name as the player will see it (`carte-t3.svg`).
    pub name: String,
    /// MIME type (`image/svg+xml`, `application/json`, `text/plain`).
    pub mime: String,
    pub content: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Report {
    /// Subject line, without the game prefix the daemon adds.
    pub subject: String,
    pub body: String,
    pub attachments: Vec<Attachment>,
    /// The player's view of the game as typed data (issue 20): the same
    /// structure the ruleset renders `body` from, serialised with English
    /// keys. The daemon puts it into the JSON report (schema version 2)
    /// under `view`; its shape is the ruleset's JSON Schema in
    /// docs/schemas/<ruleset>.view.schema.json. `None` for rulesets or
    /// viewers that have no view yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<serde_json::Value>,
}

impl Report {
    pub fn text(subject: impl Into<String>, body: impl Into<String>) -> Report {
        Report {
            subject: subject.into(),
            body: body.into(),
            attachments: Vec::new(),
            view: None,
        }
    }

    /// Attaches the typed view the body was rendered from. A view that does
    /// not serialise (a map with non-string keys, say) is a ruleset bug
    /// that a schema test catches; the report is still sent without it.
    pub fn with_view<T: Serialize>(mut self, view: &T) -> Report {
        self.view = serde_json::to_value(view).ok();
        self
    }

    pub fn with_attachment(
        mut self,
        name: &str,
        mime: &str,
        content: impl Into<Vec<u8>>,
    ) -> Report {
        self.attachments.push(Attachment {
            name: name.to_string(),
            mime: mime.to_string(),
            content: content.into(),
        });
        self
    }
}
