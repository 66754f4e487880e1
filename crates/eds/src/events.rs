//! What a month produces for the reports: messages to one ruler (Fehlerprotokoll
//! and Meldungen), public facts (jump order, transfers, battles) and the texts of
//! the free sections. Battles are rendered once, when fought, because every ruler
//! receives the same Kampfbericht (§6.6).

use crate::model::RulerNr;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Msg {
    pub ruler: RulerNr,
    pub phase: u8,
    /// An error-log line (E:) or an information line (I:).
    pub error: bool,
    /// The original entry, when the message answers an order.
    pub entry: Option<String>,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Battle {
    pub number: u32,
    /// The full Kampfbericht.
    pub text: String,
    /// The one-line summary for the Monatsbericht.
    pub short: String,
    pub x: i32,
    pub y: i32,
    pub sides: [RulerNr; 2],
    /// The battle as computed (who was hit, destroyed or fled each round,
    /// where the fighters went), which the text above renders; rule cases
    /// assert on it (issue 23). `None` in a state stored before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Box<crate::combat::BattleOutcome>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    Msg(Msg),
    /// The phase-7 ruler order, printed in every Monatsbericht.
    JumpOrder(Vec<RulerNr>),
    Battle(Battle),
    Transfer {
        from: RulerNr,
        to: RulerNr,
        amount: i64,
    },
    Diplomacy {
        from: RulerNr,
        to: RulerNr,
        text: String,
    },
    Note {
        from: RulerNr,
        text: String,
    },
    AverageEv(f64),
    GameEnd(Vec<RulerNr>),
}

pub fn msg(
    events: &mut Vec<Event>,
    ruler: RulerNr,
    phase: u8,
    error: bool,
    entry: Option<&str>,
    text: impl Into<String>,
) {
    events.push(Event::Msg(Msg {
        ruler,
        phase,
        error,
        entry: entry.map(|s| s.to_string()),
        text: text.into(),
    }));
}

/// M-01, the rulebook's own wording.
pub fn money_text(need: i64, have: i64) -> String {
    format!("{need} WE benötigt, nur {have} WE vorhanden – Befehl verworfen")
}
