//! An order or CHECK form, through the mail path (issue 24 item 3).
//!
//! A submission becomes the order mail it stands for: From the seat's
//! registered address, the block `GAME <game> PLAYER <player> PASSWORD
//! web-login` (or `CHECK …`), the orders, `END`, marked as coming from the
//! login (`inbound::Channel::WebLogin`): the login checked the password
//! and token, so the block carries none, and a `require_dkim` game takes
//! it (no From to forge). That mail goes through
//! `inbound::prepare` and `precheck` (outside the write lock), then
//! `decide_prepared` and `apply` in one IMMEDIATE transaction, exactly as
//! a mail of the inbox: the same parse and check, the same rate limits, the
//! same orders row, the same confirmation queued in the outbox (so it is
//! mailed to the player too), the same journal row.
//!
//! Exactly once: the journal key is the SHA-256 of the submission (game,
//! player, the form's random nonce, CHECK or not, the orders; not the
//! password), not of the mail's bytes. A form sent twice (a double click,
//! the browser resending it after a lost answer or a restart) has the same
//! nonce, so the second finds the journal row and only shows the
//! confirmation already queued; a new form has a new nonce. A crash before
//! the commit leaves nothing (the player sends the form again); after it,
//! the retry is recognised. The failpoints `before-commit` and
//! `after-commit-before-move` (here: committed, page not yet sent) are the
//! mail path's, so the same crash tests reach them
//! (`tests/web_http.rs` `web_sigkill_during_submission`).

use crate::config::DaemonConfig;
use crate::error::Result;
use crate::failpoint;
use crate::inbound::{apply, decide_prepared, precheck, prepare, Disposition};
use crate::outgoing::message_id_in;
use crate::registry::Registry;
use arbitre_store::{journal, outbox, PlayerRow, Store};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

/// What the form asks: store orders, or only check them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Orders,
    Check,
    /// A settings form (TIMEZONE, ABSENCE, PRESS): its command lines in an
    /// order mail's block, as a player writes them.
    Service,
}

/// One form as sent.
pub struct Submission<'a> {
    pub game: &'a str,
    pub player: &'a str,
    /// The form's random id (one per form shown).
    pub nonce: &'a str,
    pub action: Action,
    pub orders: &'a str,
}

impl Submission<'_> {
    /// The journal key: SHA-256 of the submission (never of the password).
    pub fn key(&self) -> String {
        let mut h = Sha256::new();
        h.update(b"arbitre-web-submission\0");
        for part in [self.game, self.player, self.nonce] {
            h.update(part.as_bytes());
            h.update([0]);
        }
        h.update(match self.action {
            Action::Orders => b"orders\0",
            Action::Check => b"check\0\0",
            Action::Service => b"svc\0\0\0\0",
        });
        h.update(normalise(self.orders).as_bytes());
        hex::encode(h.finalize())
    }

    /// The order mail this submission stands for. Its block carries no
    /// secret: the login proved the seat ([`WEB_LOGIN`] stands where a
    /// mail's password goes, and the mail is marked as the login's).
    pub fn mail(&self, seat: &PlayerRow, config: &DaemonConfig, now: DateTime<Utc>) -> Vec<u8> {
        let keyword = match self.action {
            Action::Orders | Action::Service => "GAME",
            Action::Check => "CHECK",
        };
        let orders = normalise(self.orders);
        let body = format!(
            "{keyword} {} PLAYER {} PASSWORD {WEB_LOGIN}\n{}\nEND\n",
            self.game,
            seat.id,
            orders.trim_end()
        );
        // A display name is quoted, and nothing of it can end the header.
        let name: String = seat
            .name
            .chars()
            .filter(|c| !c.is_control() && *c != '"' && *c != '\\')
            .collect();
        format!(
            "From: \"{name}\" <{}>\r\nTo: {}\r\nSubject: orders (web)\r\nDate: {}\r\n\
             Message-ID: <web.{}@{}>\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
            seat.email,
            config.referee,
            now.to_rfc2822(),
            &self.key()[..32],
            config.domain(),
            body.replace('\n', "\r\n")
        )
        .into_bytes()
    }
}

/// What stands for the password in a web form's order block.
pub const WEB_LOGIN: &str = "web-login";

/// A textarea's text: CRLF as LF, no NUL.
fn normalise(s: &str) -> String {
    s.replace("\r\n", "\n").replace(['\r', '\0'], "\n")
}

/// What became of a submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submitted {
    /// The journal's verdict (accepted, rejected, rate-limited…).
    pub outcome: Option<Disposition>,
    /// The answer mail's body, as queued (shown on the page).
    pub confirmation: Option<String>,
    /// True when this form had been received before: nothing new stored.
    pub repeated: bool,
}

/// The answer already queued for the submission `key`, if any.
pub fn earlier(c: &arbitre_store::Connection, key: &str) -> Result<Submitted> {
    let row = outbox::reply_tagged(c, &key[..16])?;
    Ok(Submitted {
        outcome: None,
        confirmation: row.map(|r| r.mail.body),
        repeated: true,
    })
}

/// Sends `s` through the mail path; see the module's documentation.
pub fn submit(
    store: &mut Store,
    registry: &Registry,
    config: &DaemonConfig,
    s: &Submission<'_>,
    seat: &PlayerRow,
    now: DateTime<Utc>,
) -> Result<Submitted> {
    let key = s.key();
    if journal::seen(store.conn(), &key)? {
        return earlier(store.conn(), &key);
    }
    let raw = s.mail(seat, config, now);
    // The login proved the sender: no DKIM policy for this mail (issue 24).
    let mut p = prepare(&raw, config).from_web_login(s.game, &seat.id);
    drop(raw);
    // One submission is a batch of one mail: its game is loaded once for
    // the check outside the lock and the decision inside it.
    let loaded = crate::loaded::Loaded::new();
    precheck(store.conn(), registry, config, &mut p, &loaded)?;
    let done = store.tx(|tx| -> Result<Option<Submitted>> {
        // Another request with the same form may have won the lock first.
        if journal::seen(tx, &key)? {
            return Ok(None);
        }
        let d = decide_prepared(tx, registry, config, p, &key, now, &loaded)?;
        let outcome = d.journal.outcome;
        // The answer: the orders' confirmation, or for a block of
        // commands only, the answer to the commands (the first extra).
        let answer = d.reply.as_ref().or(d.extra.first());
        let confirmation = answer.map(|r| r.body.clone());
        if let Some(r) = answer {
            // The id `apply` queues it under, so a repeat finds it.
            message_id_in(tx, config, r)?;
        }
        apply(tx, config, now, d)?;
        failpoint::hit("before-commit");
        Ok(Some(Submitted {
            outcome: Some(outcome),
            confirmation,
            repeated: false,
        }))
    });
    match done {
        Ok(Some(s)) => {
            failpoint::hit("after-commit-before-move");
            Ok(s)
        }
        Ok(None) => earlier(store.conn(), &key),
        Err(e) => {
            // A ruleset's panic faults its game, as for a mail.
            store.tx(|tx| crate::fault::record_if_panic(tx, config, &e, now))?;
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub<'a>(nonce: &'a str, orders: &'a str, action: Action) -> Submission<'a> {
        Submission {
            game: "g",
            player: "alice",
            nonce,
            action,
            orders,
        }
    }

    #[test]
    fn the_key_depends_on_nonce_action_and_orders_not_line_ends() {
        let a = sub("n1", "A\nB\n", Action::Orders).key();
        assert_eq!(a, sub("n1", "A\r\nB\r\n", Action::Orders).key());
        assert_ne!(a, sub("n2", "A\nB\n", Action::Orders).key());
        assert_ne!(a, sub("n1", "A\nB\n", Action::Check).key());
        assert_ne!(a, sub("n1", "A\nC\n", Action::Orders).key());
    }
}
