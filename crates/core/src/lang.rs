//! The language a game speaks: its reports, its order diagnostics and the
//! daemon's system messages (confirmations, reminders) for that game.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Fr,
    De,
    En,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::Fr => "fr",
            Lang::De => "de",
            Lang::En => "en",
        }
    }

    pub fn parse(s: &str) -> Option<Lang> {
        match s.to_ascii_lowercase().as_str() {
            "fr" | "french" | "francais" | "français" => Some(Lang::Fr),
            "de" | "german" | "deutsch" => Some(Lang::De),
            "en" | "english" => Some(Lang::En),
            _ => None,
        }
    }
}
