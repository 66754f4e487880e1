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
}

impl Report {
    pub fn text(subject: impl Into<String>, body: impl Into<String>) -> Report {
        Report {
            subject: subject.into(),
            body: body.into(),
            attachments: Vec::new(),
        }
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
