//! Several blocks in one mail (issue 17 item 6): a player in several games
//! sends one mail with one block per game (or a CHECK block beside an
//! order block), each block after the END of the one before
//! (`arbitre_mail::find_envelopes`).
//!
//! Each block is decided as the one block of a mail would be (inbound.rs
//! `decide_block`: its game, seat, password, flood limits, commands, the
//! ruleset's check), then the decisions become the mail's one
//! ([`merge`]): one journal row, every stored block's orders, the other
//! mails of every block, and ONE answer with a section per block, each
//! section in its block's game language. It is all written in the mail's
//! transaction, so exactly once holds per block as it does per mail: a
//! crash before the commit handles every block again from scratch, a crash
//! after it none.
//!
//! Decisions where the issue is silent: a block's service commands are
//! answered by their own mail, as in a one-block mail; a block for a
//! faulted game makes the whole mail wait in the inbox (as a one-block mail
//! for it does) until `arbitre resume`; each block counts as one mail
//! toward the flood limits, since each is a request of its own.

use crate::config::DaemonConfig;
use crate::error::Result;
use crate::inbound::{decide_block, Decision, Disposition, Prepared};
use crate::messages::{text, Msg};
use crate::outgoing::{Draft, Kind};
use crate::registry::Registry;
use arbitre_core::Lang;
use arbitre_mail::InboundMail;
use arbitre_store::Connection;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

/// Decides a mail of several blocks: each block, then the mail.
pub(crate) fn decide_blocks<'a>(
    c: &Connection,
    registry: &'a Registry,
    config: &DaemonConfig,
    p: Prepared,
    sha: &str,
    now: DateTime<Utc>,
    loaded: &crate::loaded::Loaded<'a>,
) -> Result<Decision> {
    let Some(mail) = p.mail().cloned() else {
        return decide_block(c, registry, config, p, sha, now, loaded);
    };
    let blocks = p.split_blocks();
    let mut parts = Vec::with_capacity(blocks.len());
    for (i, b) in blocks.into_iter().enumerate() {
        let tag = block_sha(sha, i);
        parts.push(decide_block(c, registry, config, b, &tag, now, loaded)?);
    }
    Ok(merge(parts, sha, &mail))
}

/// The key a block's mails are named by: the mail's SHA-256 for the first
/// block (so a first block's answer keeps the Message-ID a one-block mail
/// gets), one derived from it for the others, so that two blocks' mails
/// never share a Message-ID.
fn block_sha(sha: &str, i: usize) -> String {
    if i == 0 {
        return sha.to_string();
    }
    hex::encode(Sha256::digest(format!("{sha}/block/{}", i + 1).as_bytes()))
}

/// The mail's decision from its blocks' (in block order).
pub(crate) fn merge(parts: Vec<Decision>, sha: &str, mail: &InboundMail) -> Decision {
    // The journal's outcome: the most that happened to any block.
    let outcome = [
        Disposition::Stored,
        Disposition::Checked,
        Disposition::Service,
        Disposition::Rejected,
    ]
    .into_iter()
    .find(|o| parts.iter().any(|p| p.journal.outcome == *o))
    .unwrap_or_else(|| {
        parts
            .first()
            .map_or(Disposition::Ignored, |p| p.journal.outcome)
    });
    let detail = parts
        .iter()
        .enumerate()
        .map(|(i, p)| format!("block {}: {}", i + 1, p.journal.detail))
        .collect::<Vec<_>>()
        .join("; ");
    let game = parts.iter().find_map(|p| p.journal.game_id.clone());
    let journal = Decision::base(sha, Some(mail), outcome, detail, game);
    let mut orders = Vec::new();
    let mut extra = Vec::new();
    let mut replies = Vec::new();
    for p in parts {
        orders.extend(p.orders);
        extra.extend(p.extra);
        replies.extend(p.reply);
    }
    Decision {
        journal,
        orders,
        reply: one_answer(replies),
        extra,
    }
}

/// The blocks' answers as one mail: a section per block, in block order,
/// each in its own language, signed once at the end. Its kind is the most
/// that happened (a confirmation if any block was stored); it is named
/// (game, turn, player, Message-ID) after the first section.
fn one_answer(replies: Vec<Draft>) -> Option<Draft> {
    if replies.len() < 2 {
        return replies.into_iter().next();
    }
    let n = replies.len();
    let kind = [Kind::Confirm, Kind::Check]
        .into_iter()
        .find(|k| replies.iter().any(|r| r.kind == *k))
        .unwrap_or(replies[0].kind);
    let subject = replies
        .iter()
        .map(|r| r.subject.as_str())
        .collect::<Vec<_>>()
        .join(" | ");
    let mut body = String::new();
    let mut attachments = Vec::new();
    for (i, r) in replies.iter().enumerate() {
        let last = i + 1 == n;
        let section = if last {
            r.body.as_str()
        } else {
            unsigned(&r.body)
        };
        if i > 0 {
            body.push('\n');
        }
        body.push_str(&format!("==== {}/{n} ====\n\n", i + 1));
        body.push_str(section.trim_end());
        body.push('\n');
        attachments.extend(r.attachments.iter().cloned());
    }
    let mut first = replies.into_iter().next()?;
    first.kind = kind;
    first.subject = subject;
    first.body = body;
    first.attachments = attachments;
    Some(first)
}

/// `body` without the signature `signed` appended, whatever its language:
/// a mail client hides everything after a `-- ` line, so only the last
/// section keeps it.
fn unsigned(body: &str) -> &str {
    for lang in [Lang::En, Lang::Fr, Lang::De] {
        let sig = format!("\n\n{}\n", text(lang, &Msg::Signature));
        if let Some(b) = body.strip_suffix(&sig) {
            return b;
        }
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outgoing::signed;

    #[test]
    fn one_answer_has_a_section_per_block_signed_once() {
        let a = Draft::new(
            Kind::Error,
            "p@x.org",
            "A".into(),
            signed(Lang::Fr, "mauvais mot de passe"),
        );
        let b = Draft::new(Kind::Confirm, "p@x.org", "B".into(), signed(Lang::De, "ok"));
        let one = one_answer(vec![a, b]).unwrap();
        assert_eq!(one.kind, Kind::Confirm);
        assert_eq!(one.subject, "A | B");
        assert!(one
            .body
            .starts_with("==== 1/2 ====\n\nmauvais mot de passe\n"));
        assert!(one.body.contains("==== 2/2 ====\n\nok"));
        assert_eq!(one.body.matches("\n-- ").count(), 1, "{}", one.body);
    }

    #[test]
    fn block_keys_differ_but_the_first_is_the_mails() {
        assert_eq!(block_sha("ab", 0), "ab");
        assert_ne!(block_sha("ab", 1), block_sha("ab", 2));
        assert_eq!(block_sha("ab", 1).len(), 64);
    }
}
