//! The welcome mail (issue 17 item 1): what a new player needs to play from
//! the mailbox alone, sent at `game create`, `player join` and a takeover.
//!
//! It names the game, its ruleset, the seat and the referee's address; gives
//! the exact header line to copy (the password in it only when arbitre
//! generated it, else a placeholder the game master's password replaces);
//! says how to send orders, CHECK, RESEND, STATUS and HELP; gives the
//! deadline in the player's zone with its `.ics`; and attaches the order
//! template of the seat's first report and the ruleset's player guide
//! (docs/<ruleset>.md, embedded at build time).
//!
//! [`compose`] is pure: it turns [`WelcomeFacts`] into a [`Draft`]. The
//! callers (create.rs, join.rs, gm/seats.rs) queue it in their own
//! transaction; its Message-ID is fixed per (game, seat, occasion), so the
//! outbox's unique Message-ID makes it go out exactly once.

use crate::fl_args;
use crate::i18n::tr;
use crate::outgoing::{signed, Draft, Kind};
use crate::services::{deadline_summary, ics, zone};
use arbitre_core::{Attachment, Lang};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// The guide of a ruleset, if arbitre ships one (docs/<ruleset>.md,
/// embedded at build time).
pub fn guide(ruleset: &str) -> Option<&'static str> {
    match ruleset {
        "nebulight" => Some(include_str!("../../../../docs/nebulight.md")),
        "eds" => Some(include_str!("../../../../docs/eds.md")),
        "scrambled" => Some(include_str!("../../../../docs/scrambled.md")),
        "wwk" => Some(include_str!("../../../../docs/wwk.md")),
        _ => None,
    }
}

/// Why the player is welcomed: the first lines differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// `game create`: the game starts.
    Created,
    /// `player join`, or a sign-up by mail accepted: a game in progress.
    Joined,
    /// A takeover: the seat changes hands (`tag` makes each one distinct).
    Takeover,
}

/// The password as the welcome mail may show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Password<'a> {
    /// arbitre generated it: shown once, redacted from the outbox after
    /// sending.
    Generated(&'a str),
    /// The game master chose it and gave it to the player: never known
    /// in clear here, a placeholder stands in the header line.
    FromGameMaster,
}

/// Everything the welcome mail says.
pub struct WelcomeFacts<'a> {
    pub occasion: Occasion,
    pub game: &'a str,
    pub ruleset: &'a str,
    pub ruleset_name: &'a str,
    pub lang: Lang,
    pub player: &'a str,
    pub name: &'a str,
    pub email: &'a str,
    pub referee: &'a str,
    pub password: Password<'a>,
    /// The turn the player's orders are for.
    pub turn: u32,
    /// The deadline and the zone the player reads it in.
    pub deadline: Option<(DateTime<Utc>, Tz)>,
    /// The order template of the seat's latest report, if the ruleset has one.
    pub template: Option<Attachment>,
    /// The referee's mail domain (for the .ics UID).
    pub domain: &'a str,
    /// The time the mail is made (the .ics DTSTAMP).
    pub stamp: DateTime<Utc>,
    /// Distinguishes two takeovers of one seat (the GM mail's hash or the time).
    pub tag: Option<&'a str>,
}

/// The keywords of the one-line header in a language.
pub fn header_words(lang: Lang) -> (&'static str, &'static str, &'static str) {
    match lang {
        Lang::Fr => ("PARTIE", "JOUEUR", "MOT-DE-PASSE"),
        Lang::De => ("SPIEL", "SPIELER", "PASSWORT"),
        Lang::En => ("GAME", "PLAYER", "PASSWORD"),
    }
}

/// The placeholder for a password in the game's language (the templates'
/// own: `<mot-de-passe>`, `<passwort>`, `<password>`).
pub fn placeholder(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => "<mot-de-passe>",
        Lang::De => "<passwort>",
        Lang::En => "<password>",
    }
}

/// The header line a player copies: `PARTIE g JOUEUR p MOT-DE-PASSE x`.
pub fn header_line(lang: Lang, game: &str, player: &str, password: &str) -> String {
    let (g, p, pw) = header_words(lang);
    format!("{g} {game} {p} {player} {pw} {password}")
}

/// The template of a report: its plain-text attachment named like an
/// order sheet (`ordres-…`, `befehlsblatt-…`).
pub fn template_of(attachments: &[Attachment]) -> Option<Attachment> {
    attachments
        .iter()
        .find(|a| {
            let n = a.name.to_lowercase();
            a.mime.starts_with("text/plain")
                && (n.starts_with("ordres") || n.starts_with("befehl") || n.starts_with("orders"))
        })
        .cloned()
}

/// The welcome mail.
pub fn compose(f: &WelcomeFacts<'_>) -> Draft {
    let lang = f.lang;
    let (game, player, name, ruleset, referee) =
        (f.game, f.player, f.name, f.ruleset_name, f.referee);
    let mut parts = Vec::new();
    parts.push(match f.occasion {
        Occasion::Created => tr(
            lang,
            "welcome-created",
            &fl_args![name, player, game, ruleset],
        ),
        Occasion::Joined => tr(
            lang,
            "welcome-joined",
            &fl_args![name, player, game, ruleset],
        ),
        Occasion::Takeover => tr(
            lang,
            "welcome-takeover",
            &fl_args![name, player, game, ruleset],
        ),
    });
    parts.push(tr(lang, "welcome-referee", &fl_args![referee]));
    let shown = match f.password {
        Password::Generated(pw) => pw,
        Password::FromGameMaster => placeholder(lang),
    };
    let header = header_line(lang, game, player, shown);
    let password_line = match f.password {
        Password::Generated(_) => tr(lang, "welcome-password-generated", &[]),
        Password::FromGameMaster => {
            let placeholder = placeholder(lang);
            tr(lang, "welcome-password-gm", &fl_args![placeholder])
        }
    };
    parts.push(format!(
        "{}\n\n    {header}\n\n{password_line}",
        tr(lang, "welcome-header", &[])
    ));
    let (check, _, _) = check_words(lang);
    parts.push(tr(lang, "welcome-how", &fl_args![check]));
    let mut attachments = Vec::new();
    let turn = f.turn;
    if let Some((deadline, tz)) = f.deadline {
        let when = zone::show_in(deadline, tz);
        let file = ics::file_name(game, turn);
        parts.push(tr(lang, "welcome-deadline", &fl_args![turn, when, file]));
        let summary = deadline_summary(lang, game, turn);
        let description = tr(lang, "welcome-deadline-ics", &fl_args![when]);
        attachments.push(Attachment {
            name: file,
            mime: ics::MIME.to_string(),
            content: ics::render(&ics::DeadlineEvent {
                game,
                turn,
                deadline,
                domain: f.domain,
                summary: &summary,
                description: &description,
                stamp: f.stamp,
            })
            .into_bytes(),
        });
    }
    if let Some(t) = &f.template {
        let file = t.name.as_str();
        parts.push(tr(lang, "welcome-template", &fl_args![file]));
        attachments.push(t.clone());
    }
    if let Some(text) = guide(f.ruleset) {
        let file = format!("{}.md", f.ruleset);
        parts.push(tr(lang, "welcome-guide", &fl_args![file, ruleset]));
        attachments.push(Attachment {
            name: file,
            mime: "text/markdown; charset=utf-8".to_string(),
            content: text.as_bytes().to_vec(),
        });
    }
    let subject = tr(lang, "welcome-subject", &fl_args![game, ruleset]);
    let secret = match f.password {
        Password::Generated(pw) => Some(pw),
        Password::FromGameMaster => None,
    };
    let discriminator = match (f.occasion, f.tag) {
        (Occasion::Takeover, Some(tag)) => format!("welcome.{tag}"),
        _ => "welcome".to_string(),
    };
    let mut d = Draft::new(
        Kind::Welcome,
        f.email,
        subject,
        signed(lang, &parts.join("\n\n")),
    )
    .about(game, turn, Some(player))
    .discriminator(discriminator)
    .secret(secret);
    d.attachments = attachments;
    d
}

/// The block keywords a mail may start with, in a language: the check
/// header's first word, the commands' and the end word.
pub fn check_words(lang: Lang) -> (&'static str, &'static str, &'static str) {
    match lang {
        Lang::Fr => ("VÉRIFIER", "AIDE", "FIN"),
        Lang::De => ("PRÜFEN", "HILFE", "ENDE"),
        Lang::En => ("CHECK", "HELP", "END"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(lang: Lang, password: Password<'static>) -> WelcomeFacts<'static> {
        WelcomeFacts {
            occasion: Occasion::Created,
            game: "g1",
            ruleset: "nebulight",
            ruleset_name: "Nébulight",
            lang,
            player: "ali",
            name: "Ali",
            email: "ali@example.org",
            referee: "referee@arbitre.test",
            password,
            turn: 1,
            deadline: Some((
                DateTime::from_timestamp(1_796_000_000, 0).unwrap_or_default(),
                chrono_tz::Europe::Paris,
            )),
            template: Some(Attachment {
                name: "ordres-tour-1.txt".into(),
                mime: "text/plain".into(),
                content: b"# F1\n".to_vec(),
            }),
            domain: "arbitre.test",
            stamp: DateTime::from_timestamp(1_795_000_000, 0).unwrap_or_default(),
            tag: None,
        }
    }

    #[test]
    fn welcome_header_line_shows_a_generated_password_only() {
        let d = compose(&facts(Lang::Fr, Password::Generated("s3cret")));
        assert!(
            d.body
                .contains("    PARTIE g1 JOUEUR ali MOT-DE-PASSE s3cret\n"),
            "{}",
            d.body
        );
        assert_eq!(d.secret.as_deref(), Some("s3cret"));
        let d = compose(&facts(Lang::De, Password::FromGameMaster));
        assert!(
            d.body
                .contains("    SPIEL g1 SPIELER ali PASSWORT <passwort>\n"),
            "{}",
            d.body
        );
        assert!(d.secret.is_none());
        let names: Vec<&str> = d.attachments.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(
            names,
            ["g1-turn-1.ics", "ordres-tour-1.txt", "nebulight.md"]
        );
        assert_eq!(d.kind, Kind::Welcome);
    }
}
