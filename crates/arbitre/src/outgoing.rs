//! Every mail arbitre sends is built here and queued in the outbox table,
//! inside the caller's transaction.
//!
//! Message-IDs are deterministic per (kind, game, turn, player) — plus the
//! answered mail's hash for replies, since a player may send several mails
//! in one turn — so a queued mail can never be queued twice (the outbox's
//! Message-ID is unique) and a replayed game produces the same IDs.

use crate::config::DaemonConfig;
use crate::error::Result;
use crate::messages::{text, Msg};
use arbitre_core::Lang;
use arbitre_mail::{format_mail, Attachment, OutgoingMail};
use arbitre_store::Connection;
use arbitre_store::{outbox, NewMail};
use chrono::{DateTime, Utc};

/// What a queued mail is: the store's [`arbitre_store::MailKind`]
/// (issue 16 item 2: one enum, stored through ToSql/FromSql).
pub use arbitre_store::MailKind as Kind;

/// RFC 3834: replies are auto-replied, the rest auto-generated.
fn auto_submitted(kind: Kind) -> &'static str {
    match kind {
        Kind::Confirm | Kind::Check | Kind::Error => "auto-replied",
        _ => "auto-generated",
    }
}

/// A mail about to be queued.
#[derive(Clone, Debug)]
pub struct Draft {
    pub kind: Kind,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub game: Option<String>,
    pub turn: Option<u32>,
    pub player: Option<String>,
    /// Distinguishes mails of one kind for one (game, turn, player).
    pub discriminator: Option<String>,
    pub in_reply_to: Option<String>,
    pub attachments: Vec<arbitre_core::Attachment>,
    /// A secret in the body (a generated password, issue 14 item 4): kept
    /// in the outbox only until the mail is sent.
    pub secret: Option<String>,
}

impl Draft {
    pub fn new(kind: Kind, to: &str, subject: String, body: String) -> Draft {
        Draft {
            kind,
            to: to.to_string(),
            subject,
            body,
            game: None,
            turn: None,
            player: None,
            discriminator: None,
            in_reply_to: None,
            attachments: Vec::new(),
            secret: None,
        }
    }

    /// Marks `secret` (found in the body) as to be redacted once sent.
    pub fn secret(mut self, secret: Option<&str>) -> Draft {
        self.secret = secret.filter(|s| !s.is_empty()).map(str::to_string);
        self
    }

    pub fn about(mut self, game: &str, turn: u32, player: Option<&str>) -> Draft {
        self.game = Some(game.to_string());
        self.turn = Some(turn);
        self.player = player.map(str::to_string);
        self
    }

    pub fn discriminator(mut self, d: impl Into<String>) -> Draft {
        self.discriminator = Some(d.into());
        self
    }

    pub fn replying_to(mut self, message_id: Option<&str>) -> Draft {
        self.in_reply_to = message_id
            .filter(|m| valid_message_id(m))
            .map(str::to_string);
        self
    }

    pub fn message_id(&self, domain: &str) -> String {
        self.message_id_salted(domain, None)
    }

    /// With the game's random part (issue 14 item 14) after the game id:
    /// `<kind>.<game>.<salt>.t<turn>...`.
    pub fn message_id_salted(&self, domain: &str, salt: Option<&str>) -> String {
        let mut parts = vec![self.kind.as_str().to_string()];
        if let Some(g) = &self.game {
            parts.push(g.clone());
            if let Some(s) = salt {
                parts.push(s.to_string());
            }
        }
        if let Some(t) = self.turn {
            parts.push(format!("t{t}"));
        }
        if let Some(p) = &self.player {
            parts.push(p.clone());
        }
        if let Some(d) = &self.discriminator {
            parts.push(d.clone());
        }
        let local: String = parts
            .join(".")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.+=".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("{local}@{domain}")
    }
}

pub fn valid_message_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b"<>\"\\".contains(&b))
        && id.matches('@').count() == 1
}

/// The Message-ID `d` is queued under: with its game's random part, if
/// the game has one.
pub fn message_id_in(c: &Connection, config: &DaemonConfig, d: &Draft) -> Result<String> {
    let salt = match &d.game {
        Some(g) => arbitre_store::games::msgid_salt(c, g)?,
        None => None,
    };
    Ok(d.message_id_salted(config.domain(), salt.as_deref()))
}

/// Formats the draft and queues it in the outbox, in the caller's transaction.
pub fn queue(
    c: &Connection,
    config: &DaemonConfig,
    now: DateTime<Utc>,
    d: Draft,
) -> Result<String> {
    let message_id = message_id_in(c, config, &d)?;
    // The body is moved into the mail to format and taken back after, not
    // copied: a confirmation may be megabytes (issue 14 item 1).
    let mail = OutgoingMail {
        from: config.referee.clone(),
        to: d.to.clone(),
        subject: d.subject.clone(),
        body: d.body,
        message_id: message_id.clone(),
        in_reply_to: d.in_reply_to.clone(),
        auto_submitted: auto_submitted(d.kind),
        date: now.to_rfc2822(),
        // Every SVG map gets its PNG twin here, the one place every mail
        // passes through (issue 18 item 7, png_map.rs).
        // (`png_maps = false` in arbitre.toml: SVG only.)
        attachments: crate::png_map::with_png_twins_if(config.png_maps, d.attachments)
            .into_iter()
            .map(|a| Attachment {
                name: a.name,
                mime: a.mime,
                content: a.content,
            })
            .collect(),
    };
    // A mail with attachments is kept in parts, its base64 attachments as
    // their content (issue 22 item 4, arbitre_store::RawPart); the store
    // gives the same bytes back when it is read to be sent.
    let (raw, parts) = if mail.attachments.is_empty() {
        (format_mail(&mail)?, None)
    } else {
        let parts = arbitre_mail::format_mail_parts(&mail)?
            .into_iter()
            .map(|p| match p {
                arbitre_mail::MailPart::Bytes(b) => arbitre_store::RawPart::Bytes(b),
                arbitre_mail::MailPart::Base64(b) => arbitre_store::RawPart::Base64(b),
            })
            .collect();
        (Vec::new(), Some(parts))
    };
    let mut mail = mail;
    let body = std::mem::take(&mut mail.body);
    // The copy kept once sent: the same mail with the secret blanked.
    let redacted = match &d.secret {
        Some(secret) => {
            let redacted = body.replace(secret.as_str(), REDACTED);
            let raw = format_mail(&OutgoingMail {
                body: redacted.clone(),
                ..mail
            })?;
            Some((redacted, raw))
        }
        None => None,
    };
    let row = NewMail {
        message_id: message_id.clone(),
        game_id: d.game,
        turn: d.turn,
        player: d.player,
        kind: d.kind,
        recipient: d.to,
        subject: d.subject,
        body,
        raw,
    };
    let id = match parts {
        Some(parts) => outbox::queue_parts(c, row, parts, now.timestamp())?,
        None => outbox::queue_owned(c, row, now.timestamp())?,
    };
    if let Some((body, raw)) = redacted {
        outbox::set_redacted(c, id, &body, &raw)?;
    }
    Ok(message_id)
}

/// What replaces a secret in the outbox once its mail is sent.
pub const REDACTED: &str = "[removed after sending]";

/// Body text followed by the signature in the game's language.
pub fn signed(lang: Lang, body: &str) -> String {
    let mut s = body.trim_end().to_string();
    s.push_str("\n\n");
    s.push_str(&text(lang, &Msg::Signature));
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 22 item 4: a mail given to the store in parts (the base64
    /// attachments as their content) reads back as the bytes
    /// `format_mail` writes, for the kinds kept in parts and the others,
    /// attachments of every length around a base64 line's 57 bytes.
    #[test]
    fn raw_parts_read_back_as_the_formatted_mail() {
        use arbitre_mail::{format_mail_parts, Attachment, MailPart, OutgoingMail};
        use arbitre_store::{MailKind, RawPart};
        let store = arbitre_store::Store::in_memory().unwrap();
        let c = store.conn();
        let mut x: u64 = 0x5eed_0a11;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut in_parts, mut n) = (0, 0);
        for i in 0..300usize {
            let len = match i % 3 {
                0 => i,
                1 => 57 * (i % 7),
                _ => (next() % 200_000) as usize,
            };
            // Compressible like a map (a few symbols), or noise.
            let content: Vec<u8> = (0..len)
                .map(|k| {
                    if i % 4 == 0 {
                        next() as u8
                    } else {
                        b"<path d=\"M 10 20\"/>"[(k + (next() % 3) as usize) % 19]
                    }
                })
                .collect();
            let mail = OutgoingMail {
                from: "Arbitre <arbitre@example.org>".into(),
                to: "joueur@example.org".into(),
                subject: format!("Tour {i}"),
                body: format!("Compte rendu {i}\nFlotte 3 : é ß\n").repeat(i % 50 + 1),
                message_id: format!("report.g.t{i}.p1@example.org"),
                in_reply_to: None,
                auto_submitted: "auto-generated",
                date: "Fri, 4 Dec 2026 14:00:00 +0000".into(),
                attachments: vec![
                    Attachment {
                        name: "carte.svg".into(),
                        mime: "image/svg+xml".into(),
                        content: content.clone(),
                    },
                    Attachment {
                        name: "ordres.txt".into(),
                        mime: "text/plain".into(),
                        content: b"A 1\nB 2\n".to_vec(),
                    },
                    Attachment {
                        name: "vue.json".into(),
                        mime: "application/json".into(),
                        content: content.iter().rev().copied().collect(),
                    },
                ],
            };
            let want = arbitre_mail::format_mail(&mail).unwrap();
            let parts: Vec<RawPart> = format_mail_parts(&mail)
                .unwrap()
                .into_iter()
                .map(|p| match p {
                    MailPart::Bytes(b) => RawPart::Bytes(b),
                    MailPart::Base64(b) => RawPart::Base64(b),
                })
                .collect();
            let kind = if i % 5 == 0 {
                MailKind::Confirm
            } else {
                MailKind::Report
            };
            let row = NewMail {
                message_id: mail.message_id.clone(),
                game_id: Some("g".into()),
                turn: Some(1),
                player: Some("p1".into()),
                kind,
                recipient: mail.to.clone(),
                subject: mail.subject.clone(),
                body: mail.body.clone(),
                raw: Vec::new(),
            };
            in_parts += usize::from(parts.iter().any(|p| matches!(p, RawPart::Base64(_))));
            // How the store keeps each kind is its own test (migration_16).
            let id = outbox::queue_parts(c, row, parts, 1_000).unwrap();
            let back = outbox::get(c, id).unwrap().unwrap();
            assert!(
                back.mail.raw == want,
                "mail {i}: the bytes read back differ"
            );
            let due = outbox::due_row(c, id, 2_000).unwrap().unwrap();
            assert!(due.raw == want, "mail {i}: the bytes to send differ");
            n += 1;
        }
        assert!(
            n == 300 && in_parts == 300,
            "{n} mails, {in_parts} in parts"
        );
    }

    #[test]
    fn message_ids_are_deterministic_and_valid() {
        let d = Draft::new(Kind::Report, "a@x", "s".into(), "b".into()).about(
            "neb-001",
            3,
            Some("maxtor"),
        );
        assert_eq!(
            d.message_id("ref.example"),
            "report.neb-001.t3.maxtor@ref.example"
        );
        let r = Draft::new(Kind::Confirm, "a@x", "s".into(), "b".into())
            .about("g", 1, Some("p q"))
            .discriminator("ab12");
        assert_eq!(r.message_id("d"), "confirm.g.t1.p_q.ab12@d");
        assert_eq!(
            r.message_id_salted("d", Some("5f0c2a9e11b3")),
            "confirm.g.5f0c2a9e11b3.t1.p_q.ab12@d"
        );
        assert!(valid_message_id(&r.message_id("d")));
        assert!(!valid_message_id("<a@b>"));
        assert!(!valid_message_id("a b@c"));
    }
}
