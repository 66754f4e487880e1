//! `EJECT` and takeovers (issue 10): who plays a seat.
//!
//! A seat keeps its id and everything the ruleset knows of it; the store's
//! `player_settings.ejected_turn` says from which turn it no longer plays,
//! `seat_changes` records every change. Decisions where the issue is silent:
//!
//! * An ejected seat is out from the turn being played (the next one to
//!   resolve): orders it already sent for that turn no longer count, its
//!   new mails are refused with a clear message (service commands such as
//!   RESEND still work), it is not waited for (early resolution) nor
//!   reminded. The ruleset gets no orders for it (NMR) — unless the game's
//!   NMR policy is `bot`: then the bot plays it from that turn on, without
//!   waiting for `nmr_bot_after` missed turns, since nobody will send orders.
//! * A takeover gives the seat a new name, address and password; an
//!   ejected seat comes back. The password is generated when not given and
//!   then mailed to the new player, with the last report of the seat. The
//!   deadline moves back by `[services] takeover_extend` (default: not).

use crate::daemon::GameView;
use crate::error::{DaemonError, Result};
use crate::messages::{text, Msg};
use crate::outgoing::{signed, Draft, Kind};
use crate::registry::Registry;
use crate::request::{Decided, Write};
use crate::services::command::Command;
use crate::services::command::Reason;
use crate::services::texts::{reason, svc_text, SvcMsg};
use arbitre_store::seats::SeatChangeKind;
use arbitre_store::Connection;
use arbitre_store::{games, settings, GameStatus};
use chrono::{DateTime, Utc};

impl crate::daemon::Daemon {
    /// `arbitre player eject <game> <player>`. Returns the seat's id.
    pub fn eject(&mut self, game: &str, player: &str) -> Result<String> {
        let cmd = crate::services::command::Command::Eject(player.to_string());
        match self.request(&crate::request::Request::gm(game, cmd))? {
            crate::request::Done::Ejected(id) => Ok(id),
            _ => Ok(String::new()),
        }
    }

    /// `arbitre player replace <game> <player> --email --name [--password]`:
    /// the TAKEOVER request, with the game master's password if given.
    /// Returns the password when it was generated (also mailed).
    pub fn replace_player(
        &mut self,
        game: &str,
        player: &str,
        email: &str,
        name: Option<&str>,
        password: Option<&str>,
    ) -> Result<Option<String>> {
        let cmd = Command::Takeover {
            player: player.to_string(),
            email: email.to_string(),
            name: name.map(str::to_string),
            password: password.map(|p| crate::services::command::Secret(p.to_string())),
        };
        match self.request(&crate::request::Request::gm(game, cmd))? {
            crate::request::Done::TakenOver(generated) => Ok(generated.map(|p| p.0)),
            _ => Ok(None),
        }
    }
}

/// True when `player` no longer plays `turn` of `game` (ejected, not taken over).
pub fn is_ejected(c: &Connection, game: &str, player: &str, turn: u32) -> Result<bool> {
    Ok(ejected_by(&settings::get(c, game, player)?, turn))
}

/// [`is_ejected`], from the seat's settings already read.
pub fn ejected_by(s: &settings::PlayerSettings, turn: u32) -> bool {
    s.ejected_turn.is_some_and(|t| t <= turn)
}

/// EJECT decided: the seat's rows and the players' notices; returns the
/// seat's id. Writes nothing.
pub(crate) fn eject(
    tx: &Connection,
    registry: &Registry,
    game: &str,
    player: &str,
    now: DateTime<Utc>,
) -> Result<Decided<String>> {
    let g = GameView::new(registry, games::require_game(tx, game)?)?;
    let (gid, lang) = (g.row.id.as_str(), g.lang);
    if g.row.status == GameStatus::Over {
        return Err(DaemonError::Invalid(text(
            lang,
            &Msg::GameOver { game: gid },
        )));
    }
    let Some(p) = games::player_nocase(tx, gid, player)? else {
        return Err(DaemonError::Invalid(svc_text(
            lang,
            &SvcMsg::NoSuchSeat { player },
        )));
    };
    let turn = g.row.turn + 1;
    if is_ejected(tx, gid, &p.id, turn)? {
        return Err(DaemonError::Invalid(svc_text(
            lang,
            &SvcMsg::AlreadyEjected { player: &p.id },
        )));
    }
    let writes = vec![
        Write::Ejected {
            game: gid.to_string(),
            player: p.id.clone(),
            from_turn: Some(turn),
        },
        Write::SeatChange {
            game: gid.to_string(),
            player: p.id.clone(),
            turn,
            kind: SeatChangeKind::Eject,
            before: Some((p.name.clone(), p.email.clone())),
            after: None,
            at: now.timestamp(),
        },
    ];
    let subject = svc_text(lang, &SvcMsg::EjectedSubject { game: gid });
    let body = signed(
        lang,
        &svc_text(
            lang,
            &SvcMsg::Ejected {
                game: gid,
                player: &p.id,
            },
        ),
    );
    let mails = games::players(tx, gid)?
        .into_iter()
        .map(|q| {
            Draft::new(Kind::Notice, &q.email, subject.clone(), body.clone())
                .about(gid, turn, Some(&q.id))
                .discriminator(format!("eject.{}.{}", p.id, now.timestamp()))
        })
        .collect();
    tracing::info!(game = gid, player = %p.id, turn, "seat ejected by the game master");
    Ok(Decided {
        writes,
        mails,
        value: p.id,
    })
}

/// A takeover as the GM asked for it.
pub struct Takeover<'a> {
    pub player: &'a str,
    pub email: &'a str,
    pub name: Option<&'a str>,
    pub password: Option<&'a str>,
    /// Makes the mails' Message-IDs unique (the GM mail's hash, or the time).
    pub tag: &'a str,
}

/// TAKEOVER decided: the seat's rows, the deadline's extension and the
/// mails (the new player's notice, welcome and last report; the others'
/// notices); returns the password when it was generated. Writes nothing.
pub(crate) fn takeover(
    tx: &Connection,
    registry: &Registry,
    config: &crate::config::DaemonConfig,
    game: &str,
    t: &Takeover<'_>,
    now: DateTime<Utc>,
) -> Result<Decided<Option<String>>> {
    let g = GameView::new(registry, games::require_game(tx, game)?)?;
    let (gid, lang) = (g.row.id.clone(), g.lang);
    let gid = gid.as_str();
    if g.row.status == GameStatus::Over {
        return Err(DaemonError::Invalid(text(
            lang,
            &Msg::GameOver { game: gid },
        )));
    }
    let Some(old) = games::player_nocase(tx, gid, t.player)? else {
        return Err(DaemonError::Invalid(svc_text(
            lang,
            &SvcMsg::NoSuchSeat { player: t.player },
        )));
    };
    let email = t.email.trim();
    if !email.contains('@')
        || email.contains(char::is_whitespace)
        || email.contains(['<', '>', '"'])
    {
        return Err(DaemonError::Invalid(reason(
            lang,
            &Reason::BadEmail(email.to_string()),
        )));
    }
    let generated = match t.password {
        Some(p) if p.trim().is_empty() || p.contains(char::is_whitespace) => {
            return Err(DaemonError::Invalid(crate::i18n::tr(
                lang,
                "cli-password-one-word",
                &[],
            )))
        }
        Some(_) => None,
        None => Some(new_password(&format!(
            "{gid}/{}/{}/{}",
            old.id,
            t.tag,
            now.timestamp_nanos_opt().unwrap_or(0)
        ))),
    };
    let password = t
        .password
        .map(str::to_string)
        .or_else(|| generated.clone())
        .unwrap_or_default();
    let phc = config.hasher.hash(
        &password,
        &format!(
            "{gid}/{}/{}",
            old.id,
            now.timestamp_nanos_opt().unwrap_or(0)
        ),
    )?;
    let name = t
        .name
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or(old.id.as_str())
        .to_string();
    let turn = g.row.turn + 1;
    let mut writes = vec![
        Write::Occupant {
            game: gid.to_string(),
            player: old.id.clone(),
            name: name.clone(),
            email: email.to_string(),
            phc,
        },
        Write::Ejected {
            game: gid.to_string(),
            player: old.id.clone(),
            from_turn: None,
        },
        Write::SeatChange {
            game: gid.to_string(),
            player: old.id.clone(),
            turn,
            kind: SeatChangeKind::Takeover,
            before: Some((old.name.clone(), old.email.clone())),
            after: Some((name.clone(), email.to_string())),
            at: now.timestamp(),
        },
    ];
    let by = g.toml.services.takeover_extend();
    let mut row = g.row.clone();
    if g.row.status == GameStatus::Running && by > chrono::Duration::zero() {
        if let Some(d) = g.deadline() {
            let deadline = Some((d.max(now) + by).timestamp());
            writes.push(Write::Deadline {
                game: gid.to_string(),
                deadline,
            });
            row.deadline = deadline;
        }
    }
    // The game as it will be: the mails show the new deadline.
    let g = GameView::new(registry, row)?;
    let mut mails = Vec::new();
    let when = g.show_deadline().unwrap_or_default();
    let subject = svc_text(lang, &SvcMsg::TakeoverSubject { game: gid });
    let welcome = svc_text(
        lang,
        &SvcMsg::TakeoverWelcome {
            game: gid,
            player: &old.id,
            name: &name,
            password: generated.as_deref(),
            when: &when,
        },
    );
    let d = Draft::new(Kind::Notice, email, subject.clone(), signed(lang, &welcome))
        .about(gid, turn, Some(&old.id))
        .discriminator(format!("takeover.{}", t.tag))
        .secret(generated.as_deref());
    mails.push(d);
    // Issue 17 item 1: the welcome mail, with the seat's order template.
    let state = arbitre_store::turns::latest(tx, gid)?.state;
    let zone = settings::get(tx, gid, &old.id)?
        .timezone
        .as_deref()
        .and_then(crate::services::zone::parse_zone)
        .unwrap_or(g.schedule.tz);
    let report = g
        .engine
        .report_with(
            &state,
            &arbitre_core::Viewer::Player(arbitre_core::PlayerId::new(old.id.clone())),
            &crate::services::zone::report_facts(
                g.deadline().filter(|_| g.row.status == GameStatus::Running),
                zone,
            ),
        )
        .map_err(|e| g.engine_err(e))?;
    drop(state);
    let welcome = crate::services::welcome::compose(&crate::services::welcome::WelcomeFacts {
        occasion: crate::services::welcome::Occasion::Takeover,
        game: gid,
        ruleset: &g.row.ruleset,
        ruleset_name: g.engine.info().name,
        lang,
        player: &old.id,
        name: &name,
        email,
        referee: &config.referee,
        password: match generated.as_deref() {
            Some(pw) => crate::services::welcome::Password::Generated(pw),
            None => crate::services::welcome::Password::FromGameMaster,
        },
        turn,
        deadline: g.deadline().map(|d| (d, zone)),
        template: crate::services::welcome::template_of(&report.attachments),
        domain: config.domain(),
        stamp: now,
        tag: Some(t.tag),
    });
    if config.welcome {
        mails.push(welcome);
    }
    // The last report, as RESEND mails it (request/player.rs).
    let tag = format!("takeover.{}", t.tag);
    let loaded = crate::loaded::Loaded::new();
    let ctx = crate::request::Ctx {
        tx,
        registry,
        loaded: &loaded,
        config,
        now,
        tag: &tag,
    };
    let resend = crate::request::Request::Service {
        game: gid.to_string(),
        player: old.id.clone(),
        command: Command::Resend { turn: None },
        mail: crate::request::ServiceMail {
            reply_to: email.to_string(),
            sha: tag.clone(),
            press_text: None,
        },
    };
    // Decided, not queued: `request::apply` writes these with the rest.
    mails.extend(crate::request::handle(&ctx, &resend)?.mails);
    let told = signed(
        lang,
        &svc_text(
            lang,
            &SvcMsg::TakenOver {
                game: gid,
                player: &old.id,
                name: &name,
            },
        ),
    );
    for q in games::players(tx, gid)?
        .into_iter()
        .filter(|q| q.id != old.id)
    {
        let d = Draft::new(Kind::Notice, &q.email, subject.clone(), told.clone())
            .about(gid, turn, Some(&q.id))
            .discriminator(format!("takeover.{}.{}", old.id, t.tag));
        mails.push(d);
    }
    tracing::info!(game = gid, player = %old.id, "seat taken over");
    Ok(Decided {
        writes,
        mails,
        value: generated,
    })
}

/// A password for a new player: 12 letters and digits from the system's
/// random source (never the game's RNG, which must stay reproducible),
/// mixed with `seed` so a missing /dev/urandom still gives distinct ones.
pub(crate) fn new_password(seed: &str) -> String {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let mut noise = [0u8; 32];
    if let Ok(mut f) = std::fs::File::open("/dev/urandom") {
        let _ = f.read_exact(&mut noise);
    }
    let mut h = Sha256::new();
    h.update(noise);
    h.update(seed.as_bytes());
    h.update(std::process::id().to_le_bytes());
    // No 0/o, 1/l/i: read aloud or copied from a phone without mistakes.
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let pw: String = h
        .finalize()
        .iter()
        .take(12)
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect();
    format!("{}-{}-{}", &pw[..4], &pw[4..8], &pw[8..])
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_passwords_are_one_word_and_differ() {
        let a = super::new_password("g/p/1");
        let b = super::new_password("g/p/1");
        assert_eq!(a.len(), 14);
        assert!(!a.contains(char::is_whitespace));
        assert_ne!(a, b, "the system's random source makes each one new");
    }
}
