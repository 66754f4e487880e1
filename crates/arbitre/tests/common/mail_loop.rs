//! The player's side of the mail loop (review D2): what a mail client
//! shows of the mails the referee wrote into its file outbox, read with
//! mail-parser, never from the database.

use mail_parser::{MessageParser, MimeHeaders};
use std::collections::BTreeMap;
use std::path::Path;

/// A mail as the player's client shows it: text and named attachments.
pub struct Received {
    pub subject: String,
    pub text: String,
    pub attachments: BTreeMap<String, Vec<u8>>,
}

/// Every mail in the file outbox `outbox` addressed to `to`, oldest first
/// (none while the outbox folder does not exist yet).
pub fn inbox_of(outbox: &Path, to: &str) -> Vec<Received> {
    let Ok(dir) = std::fs::read_dir(outbox) else {
        return Vec::new();
    };
    let mut files: Vec<_> = dir.map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let raw = std::fs::read(&f).unwrap();
        let m = MessageParser::default().parse(&raw).unwrap();
        let addressed = m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .is_some_and(|a| a == to);
        if !addressed {
            continue;
        }
        out.push(Received {
            subject: m.subject().unwrap_or("").to_string(),
            text: m.body_text(0).unwrap().to_string(),
            attachments: m
                .attachments()
                .map(|a| {
                    (
                        a.attachment_name().unwrap_or("").to_string(),
                        a.contents().to_vec(),
                    )
                })
                .collect(),
        });
    }
    out
}

/// The order header line a mail's text shows the player (the welcome
/// mail's, with its password or placeholder), found by its keyword in any
/// of the three languages.
pub fn header_of(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| {
            ["PARTIE ", "SPIEL ", "GAME "]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .unwrap_or_else(|| panic!("no header line in {text}"))
        .to_string()
}
