//! `PRESS TO <player>|ALL [ANONYMOUS]` (FR `PRESSE À … ANONYME`, DE
//! `PRESSE AN … ANONYM`): messages between players relayed by the referee
//! (issue 10), as Diplomacy judges have always done.
//!
//! The text is the rest of the block after the `PRESS` line (command.rs
//! keeps it apart: it is never read as orders). The game's `[services]
//! press` policy decides: `none` refuses every press, `open` relays signed
//! press only, `grey` also relays anonymous press. Refused too: an empty
//! text, an unknown recipient (named in the answer), a press to oneself.
//!
//! Decided here ([`relay`] returns a [`Relay`] value), written by the
//! request pipeline (request/handle.rs). Exactly once: the relayed mails,
//! the archive row (`press` table, with the true sender even for anonymous
//! press) and the sender's confirmation are written in the inbound mail's
//! transaction; each relayed mail's
//! Message-ID carries the mail's hash prefix, so the same mail delivered
//! twice relays nothing twice (the journal recognises it; the outbox's
//! unique Message-ID would refuse it anyway).
//!
//! Decisions where the issue is silent:
//! - signature: the sender's name and player id ("Maxtor (maxtor)"), the id
//!   being what a reply's `PRESS TO` needs;
//! - observers receive press to `ALL` (they follow the game's public talk),
//!   never private press; anonymous press stays anonymous for them;
//! - ejected seats (`EJECT`) neither send press nor receive press to `ALL`;
//! - press is allowed while the game is paused or over (table talk after
//!   the end is part of the game).

use super::command::PressTarget;
use super::texts::{svc_text, SvcMsg};
use crate::daemon::GameView;
use crate::error::Result;
use crate::fl_args;
use crate::i18n::tr;
use crate::outgoing::{signed, Draft, Kind};
use arbitre_core::Lang;
use arbitre_store::press::{self, PressRow};
use arbitre_store::Connection;
use arbitre_store::{games, PlayerRow};
use chrono::{DateTime, Utc};

/// The press of one mail.
pub struct Press<'a> {
    pub sender: &'a str,
    pub to: &'a PressTarget,
    pub anonymous: bool,
    /// The rest of the block (None when the parser saw no PRESS).
    pub text: Option<&'a str>,
    /// The full SHA-256 of the mail (archive) — its first 16 digits tag the
    /// relayed mails' Message-IDs.
    pub sha: &'a str,
    pub now: DateTime<Utc>,
}

/// What one press causes: the answer for the sender, the archive row and
/// the relayed mails (none of either when refused). Decided only: the
/// request pipeline writes the row and queues the mails (request/handle.rs).
pub struct Relay {
    pub answer: String,
    pub archive: Option<PressRow>,
    pub mails: Vec<Draft>,
}

impl Relay {
    fn refused(answer: String) -> Relay {
        Relay {
            answer,
            archive: None,
            mails: Vec::new(),
        }
    }
}

/// Decides one press.
pub fn relay(c: &Connection, game: &GameView<'_>, p: &Press<'_>) -> Result<Relay> {
    let mut mails = Vec::new();
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let services = &game.toml.services;
    if let Err(refusal) = services.press_allowed(p.anonymous) {
        return Ok(Relay::refused(match refusal {
            super::settings::PressRefusal::NoPress => svc_text(lang, &SvcMsg::PressNone),
            super::settings::PressRefusal::NoAnonymous => svc_text(lang, &SvcMsg::PressNoAnonymous),
        }));
    }
    let body = p.text.map(str::trim).unwrap_or("");
    if body.is_empty() {
        return Ok(Relay::refused(text(lang, &PressMsg::Empty)));
    }
    let turn = game.row.turn + 1;
    let players = games::players(c, gid)?;
    let Some(sender) = players.iter().find(|x| x.id == p.sender) else {
        return Ok(Relay::refused(svc_text(
            lang,
            &SvcMsg::PressUnknownPlayer { player: p.sender },
        )));
    };
    let out = |x: &PlayerRow| crate::gm::seats::is_ejected(c, gid, &x.id, turn);
    if out(sender)? {
        return Ok(Relay::refused(text(lang, &PressMsg::SenderOut)));
    }
    let (recipients, logged): (Vec<&PlayerRow>, String) = match p.to {
        PressTarget::All => {
            let mut v = Vec::new();
            for x in players.iter().filter(|x| x.id != sender.id) {
                if !out(x)? {
                    v.push(x);
                }
            }
            (v, press::ALL.to_string())
        }
        PressTarget::Player(name) => {
            let found = players
                .iter()
                .find(|x| x.id.eq_ignore_ascii_case(name))
                .or_else(|| players.iter().find(|x| x.name.eq_ignore_ascii_case(name)));
            match found {
                None => {
                    return Ok(Relay::refused(svc_text(
                        lang,
                        &SvcMsg::PressUnknownPlayer { player: name },
                    )))
                }
                Some(x) if x.id == sender.id => {
                    return Ok(Relay::refused(text(lang, &PressMsg::ToSelf)))
                }
                Some(x) => (vec![x], x.id.clone()),
            }
        }
    };
    let archive = PressRow {
        game_id: gid.to_string(),
        turn,
        sender: sender.id.clone(),
        recipients: logged,
        anonymous: p.anonymous,
        body: body.to_string(),
        mail_sha256: Some(p.sha.to_string()),
        sent_at: p.now.timestamp(),
    };
    let from = if p.anonymous {
        svc_text(lang, &SvcMsg::PressAnonymousFrom)
    } else {
        format!("{} ({})", sender.name, sender.id)
    };
    let subject = svc_text(
        lang,
        &SvcMsg::PressSubject {
            game: gid,
            from: &from,
        },
    );
    let all = matches!(p.to, PressTarget::All);
    let reply_to = (!p.anonymous).then_some(sender.id.as_str());
    let tag = format!("press.{}", &p.sha[..16.min(p.sha.len())]);
    for r in &recipients {
        let head = text(
            lang,
            &PressMsg::Head {
                game: gid,
                turn,
                from: &from,
                all,
            },
        );
        let mail = signed(
            lang,
            &format!(
                "{head}\n\n{body}\n\n{}",
                text(lang, &PressMsg::Foot { reply_to })
            ),
        );
        mails.push(
            Draft::new(Kind::Notice, &r.email, subject.clone(), mail)
                .about(gid, turn, Some(&r.id))
                .discriminator(tag.clone()),
        );
    }
    let mut observers = 0;
    if all {
        for (i, to) in services.observers.iter().enumerate() {
            let head = text(
                lang,
                &PressMsg::Head {
                    game: gid,
                    turn,
                    from: &from,
                    all,
                },
            );
            let mail = signed(lang, &format!("{head}\n\n{body}"));
            mails.push(
                Draft::new(Kind::Notice, to, subject.clone(), mail)
                    .about(gid, turn, None)
                    .discriminator(format!("{tag}.o{i}")),
            );
            observers += 1;
        }
    }
    tracing::info!(game = gid, sender = %sender.id, recipients = recipients.len(), observers, anonymous = p.anonymous, "press relayed");
    let mut names: Vec<String> = recipients.iter().map(|r| r.id.clone()).collect();
    if names.is_empty() {
        names.push("-".into());
    }
    let mut answer = svc_text(
        lang,
        &SvcMsg::PressRelayed {
            to: &names.join(", "),
        },
    );
    if observers > 0 {
        answer.push('\n');
        answer.push_str(&text(lang, &PressMsg::Observers { n: observers }));
    }
    Ok(Relay {
        answer,
        archive: Some(archive),
        mails,
    })
}

/// The press messages not in texts.rs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PressMsg<'a> {
    Empty,
    ToSelf,
    /// The sender's seat was ejected by the game master.
    SenderOut,
    /// The first lines of a relayed press.
    Head {
        game: &'a str,
        turn: u32,
        from: &'a str,
        all: bool,
    },
    /// How to answer (signed press) or that the sender stays unknown.
    Foot {
        reply_to: Option<&'a str>,
    },
    Observers {
        n: usize,
    },
}

pub fn text(lang: Lang, m: &PressMsg<'_>) -> String {
    use PressMsg::*;
    let (id, args) = match *m {
        Empty => ("press-empty", vec![]),
        ToSelf => ("press-to-self", vec![]),
        SenderOut => ("press-sender-out", vec![]),
        Head {
            game,
            turn,
            from,
            all,
        } => {
            // The catalogue selects on it: yes (to every player) or no.
            let all = if all { "yes" } else { "no" };
            ("press-head", fl_args![game, turn, from, all])
        }
        Foot { reply_to: Some(id) } => ("press-foot-reply", fl_args![id]),
        Foot { reply_to: None } => ("press-foot-anonymous", vec![]),
        Observers { n } => ("press-observers", fl_args![n]),
    };
    tr(lang, id, &args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_press_message_exists_in_each_language_and_differs() {
        let all = [
            PressMsg::Empty,
            PressMsg::ToSelf,
            PressMsg::SenderOut,
            PressMsg::Head {
                game: "g",
                turn: 2,
                from: "Anna (p1)",
                all: true,
            },
            PressMsg::Foot {
                reply_to: Some("p1"),
            },
            PressMsg::Foot { reply_to: None },
            PressMsg::Observers { n: 1 },
        ];
        for m in &all {
            let (en, fr, de) = (text(Lang::En, m), text(Lang::Fr, m), text(Lang::De, m));
            assert!(en != fr && fr != de && en != de, "{m:?}");
        }
        assert!(text(
            Lang::De,
            &PressMsg::Foot {
                reply_to: Some("p1")
            }
        )
        .ends_with("PRESSE AN p1"));
    }
}
