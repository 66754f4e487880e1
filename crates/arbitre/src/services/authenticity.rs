//! Authenticity beyond passwords (issue 10): the per-player token and the
//! DKIM policy of a game, checked right after the password, and the
//! verdict's line in the confirmation, in the game's language.
//!
//! - Token: a game master may give a player `token = "..."` in the game's
//!   TOML; `game create` stores only its argon2id hash
//!   (`player_settings.token_hash`). A token set for a player is always
//!   required (no separate switch: a game master who hands out tokens wants
//!   them checked), on every mail that speaks for the player — orders,
//!   CHECK and service commands, since `PRESS` and `ABSENCE` act in their
//!   name. The token goes in the header (see arbitre_mail::envelope).
//!   It belongs to the person, not the seat: once a seat was taken over
//!   (a `takeover` row in `seat_changes`), the old holder's token no longer
//!   applies — the newcomer never received it, and tokens are only handed
//!   out by `game create`.
//! - DKIM: `[services] require_dkim = true` asks for a signature that
//!   verifies, is aligned with the From domain (arbitre_mail::dkim), *and*
//!   whose `d=` is the registered player address's domain or a parent of
//!   it: a valid signature of another domain proves nothing about the
//!   player. A mail that cannot be checked now (DNS down: `temperror`) is
//!   refused with a "send it again later" answer rather than kept waiting
//!   in the inbox, so the player learns at once and nothing is stored
//!   silently; the journal keeps the mail's trace either way.
//! - Without `require_dkim` the verdict of a signed mail is still shown in
//!   the confirmation (it costs one lookup and tells the player their
//!   setup works); an unsigned mail in such a game shows nothing, so the
//!   confirmations of games that do not care stay as they were.
//!
//! The texts live here rather than in texts.rs: they are matched
//! exhaustively per language, so a missing translation does not compile.

use crate::daemon::GameView;
use crate::error::Result;
use crate::fl_args;
use crate::i18n::tr;
use crate::messages::{text, Msg};
use crate::outgoing::signed;
use arbitre_core::Lang;
use arbitre_mail::dkim::{aligned, domain_of};
use arbitre_mail::{DkimVerdict, Envelope, FailReason};
use arbitre_store::seats::{self, SeatChangeKind};
use arbitre_store::Connection;
use arbitre_store::{settings, PasswordHasher, PlayerRow};

/// What a mail proved besides the password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authenticity {
    pub dkim: DkimVerdict,
    /// The game requires DKIM (the verdict is then always shown).
    pub dkim_required: bool,
    /// A token is set for the player and the mail gave it.
    pub token_checked: bool,
}

/// Why a mail that had the right password is refused all the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    TokenMissing,
    TokenWrong,
    /// `require_dkim` and no signature at all.
    Unsigned {
        domain: String,
    },
    /// `require_dkim` and the signature failed.
    DkimFailed {
        domain: String,
        reason: FailReason,
    },
    /// `require_dkim`, a valid aligned signature, but not of the player's
    /// registered domain.
    NotPlayersDomain {
        signer: String,
        domain: String,
    },
    /// `require_dkim` and the key could not be looked up now.
    DkimUnavailable {
        reason: String,
    },
}

/// How an order block reached the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Channel {
    /// A mail: its password, token and (under `require_dkim`) signature
    /// are checked.
    Mail,
    /// A web form of a player whose login (issue 24) checked the seat's
    /// password and token: for a block naming that very seat, neither is
    /// asked again, and `require_dkim` does not apply (there is no From to
    /// forge). Any other block of the form is a mail like any other.
    WebLogin { game: String, player: String },
}

impl Channel {
    /// True when the login proved seat `player` of `game` (canonical ids).
    pub fn proves(&self, game: &str, player: &str) -> bool {
        match self {
            Channel::Mail => false,
            Channel::WebLogin { game: g, player: p } => g == game && p == player,
        }
    }
}

/// The player's token (issue 10), if the game master set one: `Ok(true)`
/// when it was given and is right, `Ok(false)` when none is set.
pub fn token(
    c: &Connection,
    game: &str,
    player: &str,
    given: Option<&str>,
) -> Result<std::result::Result<bool, Refusal>> {
    let mut token_hash = settings::get(c, game, player)?.token_hash;
    if token_hash.is_some() && taken_over(c, game, player)? {
        token_hash = None;
    }
    Ok(match (&token_hash, given) {
        (None, _) => Ok(false),
        (Some(_), None) => Err(Refusal::TokenMissing),
        // The token itself never reaches a log line or a reply.
        (Some(h), Some(t)) if PasswordHasher::verify(t, h) => Ok(true),
        (Some(_), Some(_)) => Err(Refusal::TokenWrong),
    })
}

/// The token, then the DKIM policy, for `player`'s mail `raw` whose
/// password was right. `Ok(Err(_))`: refuse the mail, store nothing.
pub fn check(
    c: &Connection,
    game: &GameView<'_>,
    player: &PlayerRow,
    env: &Envelope,
    // Verified from the raw mail before the write lock (inbound.rs `prepare`).
    dkim: DkimVerdict,
    channel: &Channel,
) -> Result<std::result::Result<Authenticity, Refusal>> {
    // A web login checked the token already (web/player.rs), and proved
    // the sender: no DKIM policy for it either.
    let by_login = channel.proves(&game.row.id, &player.id);
    let token_checked = if by_login {
        false
    } else {
        match token(c, &game.row.id, &player.id, env.token.as_deref())? {
            Ok(checked) => checked,
            Err(r) => return Ok(Err(r)),
        }
    };
    if dkim != DkimVerdict::None {
        tracing::info!(game = %game.row.id, player = %player.id, dkim = %dkim.summary(), "DKIM verdict");
    }
    let required = game.toml.services.require_dkim && !by_login;
    if required {
        if let Err(r) = policy(&dkim, &player.email) {
            return Ok(Err(r));
        }
    }
    Ok(Ok(Authenticity {
        dkim,
        dkim_required: required,
        token_checked,
    }))
}

/// True when the seat changed hands since `game create`.
fn taken_over(c: &Connection, game: &str, player: &str) -> Result<bool> {
    Ok(seats::changes(c, game)?
        .iter()
        .any(|ch| ch.player == player && ch.kind == SeatChangeKind::Takeover))
}

/// `require_dkim`: a pass whose signer is the registered address's domain
/// or a parent of it.
pub fn policy(dkim: &DkimVerdict, registered: &str) -> std::result::Result<(), Refusal> {
    let domain = domain_of(registered).unwrap_or_default();
    match dkim {
        DkimVerdict::Pass { domain: signer } if aligned(signer, &domain) => Ok(()),
        DkimVerdict::Pass { domain: signer } => Err(Refusal::NotPlayersDomain {
            signer: signer.clone(),
            domain,
        }),
        DkimVerdict::None => Err(Refusal::Unsigned { domain }),
        DkimVerdict::Fail(reason) => Err(Refusal::DkimFailed {
            domain,
            reason: reason.clone(),
        }),
        DkimVerdict::TempError { reason } => Err(Refusal::DkimUnavailable {
            reason: reason.clone(),
        }),
    }
}

impl Refusal {
    /// For the journal and logs (English, never the token).
    pub fn detail(&self, player: &str) -> String {
        match self {
            Refusal::TokenMissing => format!("token missing for player '{player}'"),
            Refusal::TokenWrong => format!("wrong token for player '{player}'"),
            Refusal::Unsigned { .. } => {
                format!("DKIM required, mail of player '{player}' unsigned")
            }
            Refusal::DkimFailed { reason, .. } => {
                format!("DKIM required, signature of player '{player}' failed: {reason:?}")
            }
            Refusal::NotPlayersDomain { signer, domain } => {
                format!("DKIM required, player '{player}' signed by {signer}, registered domain {domain}")
            }
            Refusal::DkimUnavailable { reason } => {
                format!("DKIM required, cannot check now: {reason}")
            }
        }
    }

    /// The answer to the player, in the game's language.
    pub fn text(&self, lang: Lang, game: &str, player: &str) -> String {
        let (id, args) = match self {
            Refusal::TokenMissing => ("refusal-token-missing", fl_args![game, player]),
            Refusal::TokenWrong => ("refusal-token-wrong", fl_args![game, player]),
            Refusal::Unsigned { domain } => ("refusal-unsigned", fl_args![game, domain]),
            Refusal::DkimFailed { domain, reason } => {
                let reason = reason_text(lang, reason);
                ("refusal-dkim-failed", fl_args![game, domain, reason])
            }
            Refusal::NotPlayersDomain { signer, domain } => {
                ("refusal-not-players-domain", fl_args![game, signer, domain])
            }
            Refusal::DkimUnavailable { reason } => {
                ("refusal-dkim-unavailable", fl_args![game, reason])
            }
        };
        let why = tr(lang, id, &args);
        tr(lang, "refusal", &fl_args![why])
    }
}

/// Why a signature failed, in the game's language.
pub fn reason_text(lang: Lang, r: &FailReason) -> String {
    let (id, args) = match r {
        FailReason::BodyChanged => ("dkim-body-changed", vec![]),
        FailReason::BadSignature => ("dkim-bad-signature", vec![]),
        FailReason::Expired => ("dkim-expired", vec![]),
        FailReason::NoKey { domain } => ("dkim-no-key", fl_args![domain]),
        FailReason::Misaligned { signer, from } => ("dkim-misaligned", fl_args![signer, from]),
        FailReason::Unusable(error) => ("dkim-unusable", fl_args![error]),
    };
    tr(lang, id, &args)
}

/// The verdict's line, e.g. "DKIM : signature valide (example.org)".
pub fn verdict_line(lang: Lang, v: &DkimVerdict) -> String {
    match (lang, v) {
        (Lang::En, DkimVerdict::Pass { domain }) => format!("DKIM: valid signature ({domain})"),
        (Lang::Fr, DkimVerdict::Pass { domain }) => format!("DKIM : signature valide ({domain})"),
        (Lang::De, DkimVerdict::Pass { domain }) => format!("DKIM: gültige Signatur ({domain})"),
        (Lang::En, DkimVerdict::None) => "DKIM: no signature".into(),
        (Lang::Fr, DkimVerdict::None) => "DKIM : pas de signature".into(),
        (Lang::De, DkimVerdict::None) => "DKIM: keine Signatur".into(),
        (Lang::En, DkimVerdict::Fail(r)) => {
            format!("DKIM: invalid signature: {}", reason_text(lang, r))
        }
        (Lang::Fr, DkimVerdict::Fail(r)) => {
            format!("DKIM : signature invalide : {}", reason_text(lang, r))
        }
        (Lang::De, DkimVerdict::Fail(r)) => {
            format!("DKIM: ungültige Signatur: {}", reason_text(lang, r))
        }
        (Lang::En, DkimVerdict::TempError { reason }) => {
            format!("DKIM: cannot be checked at the moment ({reason})")
        }
        (Lang::Fr, DkimVerdict::TempError { reason }) => {
            format!("DKIM : vérification impossible pour l'instant ({reason})")
        }
        (Lang::De, DkimVerdict::TempError { reason }) => {
            format!("DKIM: derzeit nicht prüfbar ({reason})")
        }
    }
}

fn token_line(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Token: correct",
        Lang::Fr => "Jeton : correct",
        Lang::De => "Marke: korrekt",
    }
}

impl Authenticity {
    /// The lines the confirmation shows: the DKIM verdict when the game
    /// requires it or the mail is signed, the token when one was checked.
    pub fn lines(&self, lang: Lang) -> Vec<String> {
        let mut out = Vec::new();
        if self.dkim_required || self.dkim != DkimVerdict::None {
            out.push(verdict_line(lang, &self.dkim));
        }
        if self.token_checked {
            out.push(token_line(lang).to_string());
        }
        out
    }

    /// `body` (a signed confirmation) with the lines added before the
    /// signature; unchanged when there is nothing to say.
    pub fn annotate(&self, lang: Lang, body: String) -> String {
        let lines = self.lines(lang);
        if lines.is_empty() {
            return body;
        }
        let tail = format!("\n\n{}\n", text(lang, &Msg::Signature));
        let main = body.strip_suffix(&tail).unwrap_or(&body).trim_end();
        signed(lang, &format!("{main}\n\n{}", lines.join("\n")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(d: &str) -> DkimVerdict {
        DkimVerdict::Pass { domain: d.into() }
    }

    #[test]
    fn the_policy_wants_the_registered_domain_or_a_parent() {
        assert_eq!(policy(&pass("example.org"), "alice@example.org"), Ok(()));
        assert_eq!(
            policy(&pass("example.org"), "alice@mail.example.org"),
            Ok(())
        );
        assert_eq!(
            policy(&pass("evil.example"), "alice@example.org"),
            Err(Refusal::NotPlayersDomain {
                signer: "evil.example".into(),
                domain: "example.org".into()
            })
        );
        assert_eq!(
            policy(&DkimVerdict::None, "alice@example.org"),
            Err(Refusal::Unsigned {
                domain: "example.org".into()
            })
        );
        assert!(matches!(
            policy(&DkimVerdict::TempError { reason: "x".into() }, "a@b.c"),
            Err(Refusal::DkimUnavailable { .. })
        ));
        assert!(matches!(
            policy(&DkimVerdict::Fail(FailReason::BodyChanged), "a@b.c"),
            Err(Refusal::DkimFailed { .. })
        ));
    }

    #[test]
    fn verdicts_read_in_three_languages() {
        assert_eq!(
            verdict_line(Lang::Fr, &pass("example.org")),
            "DKIM : signature valide (example.org)"
        );
        assert_eq!(
            verdict_line(Lang::De, &pass("example.org")),
            "DKIM: gültige Signatur (example.org)"
        );
        assert_eq!(
            verdict_line(Lang::En, &DkimVerdict::None),
            "DKIM: no signature"
        );
        assert_eq!(
            verdict_line(Lang::Fr, &DkimVerdict::Fail(FailReason::BodyChanged)),
            "DKIM : signature invalide : le texte a été modifié après la signature"
        );
    }

    #[test]
    fn annotate_puts_the_lines_before_the_signature_and_only_when_needed() {
        let body = signed(Lang::En, "Orders received.");
        let quiet = Authenticity {
            dkim: DkimVerdict::None,
            dkim_required: false,
            token_checked: false,
        };
        assert_eq!(quiet.annotate(Lang::En, body.clone()), body);
        let a = Authenticity {
            dkim: pass("example.org"),
            dkim_required: false,
            token_checked: true,
        };
        let out = a.annotate(Lang::En, body);
        assert_eq!(
            out,
            signed(
                Lang::En,
                "Orders received.\n\nDKIM: valid signature (example.org)\nToken: correct"
            )
        );
    }

    #[test]
    fn refusals_name_the_reason_and_never_the_token() {
        let r = Refusal::DkimFailed {
            domain: "example.org".into(),
            reason: FailReason::BodyChanged,
        };
        let t = r.text(Lang::De, "eds-001", "p1");
        assert!(
            t.contains("ungültig: der Text wurde nach dem Signieren verändert")
                && t.contains("nichts gespeichert"),
            "{t}"
        );
        let t = Refusal::TokenMissing.text(Lang::Fr, "neb-001", "maxtor");
        assert!(
            t.contains("JETON") && t.starts_with("Votre courrier est refusé"),
            "{t}"
        );
        assert_eq!(
            Refusal::TokenWrong.detail("bob"),
            "wrong token for player 'bob'"
        );
    }
}
