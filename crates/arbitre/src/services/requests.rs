//! The database side of issue 17 items 2 and 5: the hooks inbound.rs calls
//! for a HELP or LIST without a block and for a header written almost
//! right. Each reads what its pure core (services/help.rs,
//! services/refusal.rs) needs, and returns the [`Decision`] to write.

use crate::config::DaemonConfig;
use crate::daemon::GameView;
use crate::error::{DaemonError, Result};
use crate::i18n::tr;
use crate::inbound::{capped, Decision, Disposition};
use crate::messages::{text, Msg};
use crate::outgoing::{signed, Draft, Kind};
use crate::registry::Registry;
use crate::request::{self, Ctx, Done, Request};
use crate::services::help::{help_text, list_text, Bare, GameHelp, Listed, ListedSignup};
use crate::services::refusal::{near_miss, near_miss_text};
use crate::signup::JoinRequest;
use arbitre_core::Lang;
use arbitre_mail::{DkimVerdict, InboundMail};
use arbitre_store::{games, Connection, GameRow, GameStatus};
use chrono::{DateTime, Utc};

/// The games whose ids may be shown to the sender: the public ones and
/// those the sender's address plays in (a secret game's id is never
/// suggested to a stranger).
pub fn open_games(c: &Connection, from: Option<&str>) -> Result<Vec<GameRow>> {
    let mut out = Vec::new();
    for row in games::games(c)? {
        let public = crate::daemon::parsed_config(&row.config).is_ok_and(|t| t.public);
        let plays = match from {
            Some(f) => games::players(c, &row.id)?
                .iter()
                .any(|p| p.email.trim().eq_ignore_ascii_case(f)),
            None => false,
        };
        if public || plays {
            out.push(row);
        }
    }
    Ok(out)
}

/// HELP [game] or LIST, answered without a password. `known` is the
/// language of the game the sender's address plays in.
#[allow(clippy::too_many_arguments)]
pub fn bare_request(
    c: &Connection,
    registry: &Registry,
    config: &DaemonConfig,
    bare: Option<Bare>,
    known: Option<Lang>,
    mail: &InboundMail,
    sha: &str,
    to: &str,
) -> Result<Decision> {
    let (subject, body, detail) = match bare {
        Some(Bare::Help { lang, game }) => {
            let row = match &game {
                Some(g) => games::find_game_nocase(c, g)?,
                None => None,
            };
            let view = row.and_then(|r| GameView::new(registry, r).ok());
            // The named game's language, else the sender's game's, else
            // the keyword's.
            let lang = view.as_ref().map(|v| v.lang).or(known).unwrap_or(lang);
            let notes = view.as_ref().and_then(|v| v.toml.notes.clone());
            let facts = view.as_ref().map(|v| GameHelp {
                game: &v.row.id,
                ruleset_name: v.engine.info().name,
                turn: v.row.turn + 1,
                deadline: v.show_deadline(),
                notes: notes.as_deref(),
            });
            let mut body = help_text(lang, facts.as_ref());
            if let (Some(g), None) = (&game, &view) {
                body.push_str("\n\n");
                body.push_str(&text(lang, &Msg::UnknownGame { game: g }));
            }
            let detail = match &view {
                Some(v) => format!("HELP for game {}", v.row.id),
                None => "HELP".to_string(),
            };
            (tr(lang, "help-subject", &[]), (lang, body), detail)
        }
        Some(Bare::List { lang }) => {
            let lang = known.or(lang).unwrap_or(config.language);
            let mut listed = Vec::new();
            for row in games::games(c)? {
                let Ok(view) = GameView::new(registry, row) else {
                    continue;
                };
                if !view.toml.public || view.row.status == GameStatus::Over {
                    continue;
                }
                let signup = if view.toml.signup.open {
                    let seats = games::players(c, &view.row.id)?.len() as u32;
                    ListedSignup::Open {
                        free: view
                            .toml
                            .signup
                            .max_players
                            .map(|m| m.saturating_sub(seats)),
                    }
                } else {
                    ListedSignup::Closed
                };
                listed.push(Listed {
                    game: view.row.id.clone(),
                    ruleset_name: view.engine.info().name.to_string(),
                    turn: view.row.turn + 1,
                    deadline: view.show_deadline(),
                    signup,
                });
            }
            let detail = format!("LIST: {} public game(s)", listed.len());
            (
                tr(lang, "list-subject", &[]),
                (lang, list_text(lang, &listed)),
                detail,
            )
        }
        // A JOIN is answered by join_mail (inbound.rs routes it there).
        Some(Bare::Join { .. }) | None => {
            let lang = known.unwrap_or(config.language);
            (
                text(lang, &Msg::ErrorSubject),
                (lang, text(lang, &Msg::NoBlock)),
                "no order block".to_string(),
            )
        }
    };
    let (lang, body) = body;
    tracing::info!(%detail, "request without a block answered");
    let reply = Draft::new(Kind::Confirm, to, subject, signed(lang, &body))
        .replying_to(mail.message_id.as_deref())
        .discriminator(format!("req.{}", &sha[..16]));
    Ok(Decision {
        journal: Decision::base(sha, Some(mail), Disposition::Service, detail, None),
        orders: Vec::new(),
        reply: Some(reply),
        extra: Vec::new(),
    })
}

/// A header written almost right that names a known game: refused in the
/// game's language with the keyword expected. `None` when the line names
/// no known game (the generic refusal then applies). A registered player's
/// address is answered every time (its second mistake in an hour too);
/// strangers stay under the hourly refusal cap.
#[allow(clippy::too_many_arguments)]
pub fn near_miss_refusal(
    c: &Connection,
    registry: &Registry,
    config: &DaemonConfig,
    written: &str,
    reason: &str,
    from: Option<&str>,
    mail: &InboundMail,
    sha: &str,
    to: &str,
    now: DateTime<Utc>,
) -> Result<Option<Decision>> {
    let Some(miss) = near_miss(written) else {
        return Ok(None);
    };
    let Some(row) = games::find_game_nocase(c, &miss.game)? else {
        return Ok(None);
    };
    let Ok(game) = GameView::new(registry, row) else {
        return Ok(None);
    };
    let gid = game.row.id.clone();
    let seat = match &miss.player {
        Some(p) => games::player_nocase(c, &gid, p)?,
        None => None,
    };
    let registered = games::players(c, &gid)?.iter().any(|p| {
        from.is_some_and(|f| p.email.trim().eq_ignore_ascii_case(f))
            && p.email.trim().eq_ignore_ascii_case(to.trim())
    });
    let player = seat
        .as_ref()
        .map(|p| p.id.as_str())
        .or(miss.player.as_deref());
    let body = near_miss_text(game.lang, &gid, player);
    let reply = Draft::new(
        Kind::Error,
        to,
        text(game.lang, &Msg::ErrorSubject),
        signed(game.lang, &body),
    )
    .about(&gid, game.row.turn + 1, None);
    let d = Decision::reject(
        sha,
        Some(mail),
        format!("header almost right for game {gid}: {reason}"),
        Some(gid),
        reply,
    );
    Ok(Some(if registered {
        d
    } else {
        capped(c, config, to, now, d)?
    }))
}

/// `JOIN <game> [name]` without a block (issue 17 item 3): handled by the
/// request pipeline (signup.rs) in the mail's transaction. The sender is
/// answered in the game's language (the keyword's when the game is
/// unknown); a refusal is capped like any stranger's refusal.
#[allow(clippy::too_many_arguments)]
pub fn join_mail(
    c: &Connection,
    registry: &Registry,
    config: &DaemonConfig,
    j: JoinRequest,
    mail: &InboundMail,
    sha: &str,
    to: &str,
    now: DateTime<Utc>,
    dkim: &DkimVerdict,
) -> Result<Decision> {
    let tag = format!("join.{}", &sha[..16]);
    // A JOIN reads no game state through the cache; the pipeline's
    // context wants one all the same.
    let loaded = crate::loaded::Loaded::new();
    let ctx = Ctx {
        tx: c,
        registry,
        loaded: &loaded,
        config,
        now,
        tag: &tag,
    };
    let view = games::find_game_nocase(c, &j.game)?.and_then(|r| GameView::new(registry, r).ok());
    let require_dkim = view.as_ref().is_some_and(|g| g.toml.services.require_dkim);
    let game = view.map(|g| (g.row.id.clone(), g.lang, g.row.turn + 1));
    let lang = game.as_ref().map_or(j.lang, |g| g.1);
    // A forged From would sign up someone else's address: a game that
    // wants its players' mails signed wants the sign-up signed too, by the
    // domain of the address that becomes the seat's.
    let decided = match crate::services::authenticity::policy(dkim, &j.email) {
        Err(r) if require_dkim => {
            let gid = game.as_ref().map_or(j.game.as_str(), |g| g.0.as_str());
            Err(DaemonError::Invalid(r.text(lang, gid, "")))
        }
        _ => request::handle(&ctx, &Request::Join(j.clone())),
    };
    match decided {
        Ok(mut e) => {
            // The mails travel in the decision, like every mail's answers.
            let mails = std::mem::take(&mut e.mails);
            let (done, answer) = request::apply(&ctx, e)?;
            let (gid, _, turn) = game.unwrap_or((j.game.clone(), lang, 0));
            let detail = match &done {
                Done::Joined(id) => format!("JOIN {gid}: joined as {id}"),
                _ => format!("JOIN {gid}: request sent to the game master"),
            };
            tracing::info!(%detail, "sign-up by mail");
            let reply = Draft::new(
                Kind::Confirm,
                to,
                tr(
                    lang,
                    "signup-subject",
                    &crate::fl_args![game = gid.as_str()],
                ),
                signed(lang, &answer),
            )
            .about(&gid, turn, None)
            .replying_to(mail.message_id.as_deref())
            .discriminator(tag.clone());
            Ok(Decision {
                journal: Decision::base(sha, Some(mail), Disposition::Service, detail, Some(gid)),
                orders: Vec::new(),
                reply: Some(reply),
                extra: mails,
            })
        }
        Err(DaemonError::Invalid(why)) => {
            let gid = game.as_ref().map(|g| g.0.clone());
            let detail = format!(
                "JOIN {}: refused: {}",
                j.game,
                why.lines().next().unwrap_or_default()
            );
            let mut reply = Draft::new(
                Kind::Error,
                to,
                text(lang, &Msg::ErrorSubject),
                signed(lang, &why),
            );
            if let Some((gid, _, turn)) = &game {
                reply = reply.about(gid, *turn, None);
            }
            capped(
                c,
                config,
                to,
                now,
                Decision::reject(sha, Some(mail), detail, gid, reply),
            )
        }
        Err(e) => Err(e),
    }
}
