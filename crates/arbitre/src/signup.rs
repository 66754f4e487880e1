//! Sign-up by mail (issue 17 item 3): `JOIN <game> [name]` / `REJOINDRE` /
//! `BEITRETEN` from any address, for a game whose TOML says
//! `[signup] open = true`.
//!
//! With `approve = "auto"` the seat enters at once, through join.rs's
//! [`decide`](crate::join::decide) and [`write`](crate::join::write) like
//! `arbitre player join`, with a generated password and the welcome mail.
//! With `approve = "gm"` (the default) the request is kept (the `signups`
//! table) and the game master is mailed once; they answer `ACCEPT
//! <address>` or `REFUSE <address> [reason]` in a game master's block, or
//! `arbitre signup accept|refuse` on the CLI — both are [`Command`]s of the
//! request pipeline, handled here.
//!
//! Decisions where the issue is silent:
//! * The seat's address is the mail's From (the address later orders must
//!   come from), its id is made from the name asked for (else the
//!   address's local part), unique in the game and never `gm`.
//! * Before anything is kept or the game master is bothered, the ruleset's
//!   join is tried on the current state: a ruleset with no rule for a
//!   player joining a game in progress (all but Scrambled Nations today,
//!   as for `player join`) answers "already started", with its reason.
//! * One request per address and game, ever: a second JOIN is answered
//!   "already pending" (or "refused") and mails nobody. At most
//!   `max_pending` requests wait per game (default 10); beyond, JOINs are
//!   refused without a notice. With the flood limits of inbound.rs (per
//!   sender, per reply address, per game for strangers), a JOIN flood from
//!   rotating addresses mails the game master at most `max_pending` times.
//! * `max_players` counts every seat of the game, the game file's
//!   included; a pending request holds no seat (ACCEPT checks it again).

use crate::daemon::GameView;
use crate::error::{DaemonError, Result};
use crate::fl_args;
use crate::game_config::Approve;
use crate::i18n::tr;
use crate::join::{self, NewSeat};
use crate::messages::{text, Msg};
use crate::outgoing::{signed, Draft, Kind};
use crate::request::{Ctx, Done, Effects, Write};
use crate::services::welcome::Password;
use arbitre_core::{EngineError, Lang, PlayerId, PlayerSetup};
use arbitre_store::signups::{self, Signup, SignupStatus};
use arbitre_store::{games, turns, GameStatus};

/// A JOIN read from a mail (services/help.rs reads the line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinRequest {
    /// The game as written.
    pub game: String,
    /// The mail's From address.
    pub email: String,
    /// The name asked for, if any.
    pub name: Option<String>,
    /// The language of the answer when the game is unknown: the sender's
    /// game's, else the keyword's (JOIN, REJOINDRE, BEITRETEN).
    pub lang: Lang,
}

fn refuse_with(why: String) -> DaemonError {
    DaemonError::Invalid(why)
}

/// `JOIN <game> [name]`: decides what a stranger's request causes.
pub fn join(ctx: &Ctx<'_, '_>, j: &JoinRequest) -> Result<Effects> {
    let tx = ctx.tx;
    let Some(row) = games::find_game_nocase(tx, &j.game)? else {
        let mut why = text(j.lang, &Msg::UnknownGame { game: &j.game });
        // Only a public game's id is suggested to a stranger.
        let public = crate::services::requests::open_games(tx, None)?;
        if let Some(id) =
            crate::services::refusal::nearest(&j.game, public.iter().map(|g| g.id.as_str()))
        {
            why.push('\n');
            why.push_str(&crate::services::refusal::suggestion(j.lang, id));
        }
        return Err(refuse_with(why));
    };
    let g = GameView::new(ctx.registry, row)?;
    let (gid, lang) = (g.row.id.as_str(), g.lang);
    let signup = &g.toml.signup;
    if !signup.open {
        return Err(refuse_with(tr(
            lang,
            "signup-closed",
            &fl_args![game = gid],
        )));
    }
    let email = j.email.trim().to_string();
    let name = seat_name(j.name.as_deref(), &email);
    seat_free(ctx, &g, &email)?;
    match signups::get(tx, gid, &email)?.map(|s| s.status) {
        Some(SignupStatus::Pending) => {
            return Err(refuse_with(tr(
                lang,
                "signup-already-pending",
                &fl_args![game = gid],
            )))
        }
        Some(SignupStatus::Refused) => {
            return Err(refuse_with(tr(
                lang,
                "signup-refused-before",
                &fl_args![game = gid],
            )))
        }
        Some(SignupStatus::Accepted) | None => {}
    }
    let id = seat_id(ctx, gid, &name, &email)?;
    ruleset_takes(ctx, &g, &id, &name)?;
    let request = Signup {
        game_id: gid.to_string(),
        email: email.clone(),
        name: name.clone(),
        status: SignupStatus::Pending,
        requested_at: ctx.now.timestamp(),
        decided_at: None,
        player: None,
        reason: None,
    };
    match signup.approve {
        Approve::Auto => {
            let mut e = enter(ctx, &g, request)?;
            e.answer = tr(
                lang,
                "signup-joined",
                &fl_args![game = gid, player = id.as_str()],
            );
            Ok(e)
        }
        Approve::Gm => {
            let pending = signups::pending_count(tx, gid)?;
            if pending >= signup.max_pending() {
                tracing::warn!(
                    game = gid,
                    pending,
                    "sign-up refused: too many requests wait for the game master"
                );
                return Err(refuse_with(tr(
                    lang,
                    "signup-too-many-pending",
                    &fl_args![game = gid],
                )));
            }
            let Some(gm) = g.row.gm_email.as_deref() else {
                // game_config.rs refuses approve = "gm" without gm_email.
                return Err(refuse_with(tr(
                    lang,
                    "signup-closed",
                    &fl_args![game = gid],
                )));
            };
            let (address, pending) = (email.as_str(), pending + 1);
            let referee = ctx.config.referee.as_str();
            let body = tr(
                lang,
                "signup-gm-notice",
                &fl_args![game = gid, address, name = name.as_str(), pending, referee],
            );
            let notice = Draft::new(
                Kind::Notice,
                gm,
                tr(lang, "signup-gm-subject", &fl_args![game = gid, address]),
                signed(lang, &body),
            )
            .about(gid, g.row.turn + 1, None)
            .discriminator(format!("signup.{}", address_tag(&email)));
            tracing::info!(game = gid, "sign-up request sent to the game master");
            Ok(Effects {
                writes: vec![Write::Signup(request)],
                mails: vec![notice],
                done: Done::SignupPending,
                answer: tr(
                    lang,
                    "signup-pending",
                    &fl_args![game = gid, name = name.as_str()],
                ),
            })
        }
    }
}

/// `ACCEPT <address>`: the pending (or once refused) request enters.
pub fn accept(ctx: &Ctx<'_, '_>, g: &GameView<'_>, email: &str) -> Result<Effects> {
    let (gid, lang) = (g.row.id.as_str(), g.lang);
    let s = request_of(
        ctx,
        g,
        email,
        &[SignupStatus::Pending, SignupStatus::Refused],
    )?;
    seat_free(ctx, g, &s.email)?;
    let id = seat_id(ctx, gid, &s.name, &s.email)?;
    ruleset_takes(ctx, g, &id, &s.name)?;
    let address = s.email.clone();
    let mut e = enter(ctx, g, s)?;
    e.answer = tr(
        lang,
        "signup-accepted",
        &fl_args![game = gid, address = address.as_str(), player = id.as_str()],
    );
    Ok(e)
}

/// `REFUSE <address> [reason]`: the request is closed and its sender told.
pub fn refuse(
    ctx: &Ctx<'_, '_>,
    g: &GameView<'_>,
    email: &str,
    reason: Option<&str>,
) -> Result<Effects> {
    let (gid, lang) = (g.row.id.as_str(), g.lang);
    let mut s = request_of(ctx, g, email, &[SignupStatus::Pending])?;
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    let mut body = tr(lang, "signup-refusal", &fl_args![game = gid]);
    if let Some(reason) = reason {
        body.push_str("\n\n");
        body.push_str(&tr(lang, "signup-refusal-reason", &fl_args![reason]));
    }
    let told = Draft::new(
        Kind::Notice,
        &s.email,
        tr(lang, "signup-refusal-subject", &fl_args![game = gid]),
        signed(lang, &body),
    )
    .about(gid, g.row.turn + 1, None)
    .discriminator(format!("signup-refused.{}", address_tag(&s.email)));
    let answer = tr(
        lang,
        "signup-refused",
        &fl_args![game = gid, address = s.email.as_str()],
    );
    s.status = SignupStatus::Refused;
    s.decided_at = Some(ctx.now.timestamp());
    s.reason = reason.map(str::to_string);
    tracing::info!(game = gid, "sign-up refused by the game master");
    Ok(Effects {
        writes: vec![Write::Signup(s)],
        mails: vec![told],
        done: Done::SignupRefused,
        answer,
    })
}

/// The request of `email` for the game, in one of `statuses`.
fn request_of(
    ctx: &Ctx<'_, '_>,
    g: &GameView<'_>,
    email: &str,
    statuses: &[SignupStatus],
) -> Result<Signup> {
    let gid = g.row.id.as_str();
    signups::get(ctx.tx, gid, email)?
        .filter(|s| statuses.contains(&s.status))
        .ok_or_else(|| {
            let address = signups::key(email);
            refuse_with(tr(
                g.lang,
                "signup-no-request",
                &fl_args![game = gid, address = address.as_str()],
            ))
        })
}

/// Refuses when the game is over or full, or `email` already plays in it.
fn seat_free(ctx: &Ctx<'_, '_>, g: &GameView<'_>, email: &str) -> Result<()> {
    let (gid, lang) = (g.row.id.as_str(), g.lang);
    if g.row.status == GameStatus::Over {
        return Err(refuse_with(text(lang, &Msg::GameOver { game: gid })));
    }
    let players = games::players(ctx.tx, gid)?;
    if players
        .iter()
        .any(|p| p.email.trim().eq_ignore_ascii_case(email.trim()))
    {
        let address = email.trim();
        return Err(refuse_with(tr(
            lang,
            "signup-already-player",
            &fl_args![game = gid, address],
        )));
    }
    if let Some(max) = g.toml.signup.max_players {
        if players.len() >= max as usize {
            return Err(refuse_with(tr(
                lang,
                "signup-full",
                &fl_args![game = gid, max],
            )));
        }
    }
    Ok(())
}

/// Tries the ruleset's join on the current state (nothing kept): a
/// ruleset with no rule for a newcomer, or whose own limits refuse one,
/// says so before anyone is asked.
fn ruleset_takes(ctx: &Ctx<'_, '_>, g: &GameView<'_>, id: &str, name: &str) -> Result<()> {
    let (gid, lang) = (g.row.id.as_str(), g.lang);
    let state = turns::latest(ctx.tx, gid)?.state;
    let setup = PlayerSetup {
        id: PlayerId::new(id.to_string()),
        name: name.to_string(),
        options: toml::Table::new(),
    };
    match g.engine.join(&state, g.row.seed, &setup) {
        Ok(_) => Ok(()),
        Err(EngineError::GameOver) => Err(refuse_with(text(lang, &Msg::GameOver { game: gid }))),
        Err(EngineError::Setup(e)) => {
            // The ruleset's reason in the game's language, as the rest of
            // the answer (issue 19 item 3).
            let ruleset = g.engine.info().name;
            let reason = crate::setup_text::setup_error_text(lang, &e);
            Err(refuse_with(tr(
                lang,
                "signup-no-newcomer",
                &fl_args![game = gid, ruleset, reason],
            )))
        }
        Err(e) => Err(g.engine_err(e)),
    }
}

/// The seat enters (join.rs, as `player join`) with a generated password;
/// the request is recorded as accepted.
fn enter(ctx: &Ctx<'_, '_>, g: &GameView<'_>, mut s: Signup) -> Result<Effects> {
    let gid = g.row.id.as_str();
    let id = seat_id(ctx, gid, &s.name, &s.email)?;
    let password = crate::gm::seats::new_password(&format!(
        "{gid}/{id}/{}/{}",
        ctx.tag,
        ctx.now.timestamp_nanos_opt().unwrap_or(0)
    ));
    // Salted by the request's tag: a crash before the commit decides again.
    let phc = ctx
        .config
        .hasher
        .hash(&password, &format!("{gid}/{id}/{}", ctx.tag))?;
    let seat = NewSeat {
        id: &id,
        name: &s.name,
        email: &s.email,
        phc,
        token: None,
        options: toml::Table::new(),
        password: Password::Generated(&password),
    };
    let joined = join::decide(
        ctx.tx,
        ctx.registry,
        ctx.config,
        gid,
        &seat,
        ctx.now,
        g.lang,
    )?;
    s.status = SignupStatus::Accepted;
    s.decided_at = Some(ctx.now.timestamp());
    s.player = Some(id.clone());
    Ok(Effects {
        writes: vec![Write::Join(Box::new(joined.rows)), Write::Signup(s)],
        mails: joined.mails,
        done: Done::Joined(id),
        answer: String::new(),
    })
}

/// The name a sign-up plays under: the one asked for (one line, at most
/// 40 characters), else the address's local part.
pub fn seat_name(asked: Option<&str>, email: &str) -> String {
    let asked: String = asked
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .take(40)
        .collect();
    if asked.is_empty() {
        email.split('@').next().unwrap_or(email).trim().to_string()
    } else {
        asked
    }
}

/// A player id for `name`: its letters and digits (lower case, `-` for the
/// rest), made unique in the game (`-2`, `-3`…); never `gm`, which names
/// the game master in a block's header.
fn seat_id(ctx: &Ctx<'_, '_>, gid: &str, name: &str, email: &str) -> Result<String> {
    let taken: Vec<String> = games::players(ctx.tx, gid)?
        .into_iter()
        .map(|p| p.id.to_lowercase())
        .collect();
    Ok(unique_id(
        &[name, email.split('@').next().unwrap_or("")],
        &taken,
    ))
}

/// [`seat_id`]'s rule, pure: the first of `candidates` with letters or
/// digits, slugged, and suffixed until not `taken` (lower case).
pub fn unique_id(candidates: &[&str], taken: &[String]) -> String {
    let slug = |s: &str| -> String {
        let mut out = String::new();
        for c in s.chars().flat_map(char::to_lowercase) {
            if let Some(plain) = arbitre_core::text::unaccented(c) {
                out.push_str(plain);
            } else if c.is_ascii_alphanumeric() {
                out.push(c);
            } else if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
        }
        out.trim_end_matches('-').chars().take(30).collect()
    };
    let base = candidates
        .iter()
        .map(|c| slug(c))
        .find(|s| !s.is_empty())
        .unwrap_or_else(|| "player".to_string());
    let free = |id: &str| id != "gm" && !taken.iter().any(|t| t == id);
    if free(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| free(id))
        .unwrap_or(base)
}

/// A Message-ID part for an address: its hash, since `@` and the local
/// part's characters have no place there.
fn address_tag(email: &str) -> String {
    format!(
        "{:016x}",
        arbitre_core::rng::fnv1a64(signups::key(email).as_bytes())
    )
}

impl crate::daemon::Daemon {
    /// `arbitre signup list <game>`: the requests waiting, one line each,
    /// in `lang` (the CLI's).
    pub fn signup_requests(&self, game: &str, lang: Lang) -> Result<Vec<String>> {
        pending_lines(self.store.conn(), &self.registry, game, lang)
    }
}

fn pending_lines(
    c: &arbitre_store::Connection,
    registry: &crate::registry::Registry,
    game: &str,
    lang: Lang,
) -> Result<Vec<String>> {
    let g = GameView::new(registry, games::require_game(c, game)?)?;
    Ok(signups::with_status(c, &g.row.id, SignupStatus::Pending)?
        .into_iter()
        .map(|s| {
            let when = chrono::DateTime::from_timestamp(s.requested_at, 0)
                .map(|t| g.show_time(t))
                .unwrap_or_default();
            let (address, name) = (s.email.as_str(), s.name.as_str());
            tr(lang, "cli-signup-row", &fl_args![address, name, when])
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signup_ids_are_slugs_unique_and_never_gm() {
        let taken = vec!["p1".to_string(), "dora".to_string()];
        assert_eq!(unique_id(&["Dora", "d"], &taken), "dora-2");
        assert_eq!(
            unique_id(&["Jean-Émile Noël", "x"], &taken),
            "jean-emile-noel"
        );
        assert_eq!(unique_id(&["GM", "x"], &taken), "gm-2");
        assert_eq!(unique_id(&["!!!", "eve.w"], &taken), "eve-w");
        assert_eq!(unique_id(&["", ""], &taken), "player");
    }

    #[test]
    fn signup_name_is_one_short_line_or_the_local_part() {
        assert_eq!(
            seat_name(Some("  Dora \t la  Grande "), "d@x.org"),
            "Dora la Grande"
        );
        assert_eq!(seat_name(None, "eve@x.org"), "eve");
        assert_eq!(seat_name(Some(&"x".repeat(90)), "e@x").len(), 40);
    }
}
