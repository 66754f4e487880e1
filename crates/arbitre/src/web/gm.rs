//! The game master's pages (issue 24 item 4), behind the GM password
//! (login as player `gm`): the game's status, who is missing, the outbox's
//! problems, and the GM commands.
//!
//! A command is written as in a GM's mail (`PAUSE`, `RESUME`, `EXTEND 2d`,
//! `DEADLINE 2026-12-24 18:00`, `PREVIEW`, `RELEASE`, `EJECT p2`,
//! `TAKEOVER p2 new@example.org`…; buttons for the ones without argument),
//! read by `request::parse::block` and handled by `request::handle` then
//! `request::apply` in one transaction, as the CLI's `Daemon::request`
//! does: the same rows change and the same notices go to the players.

use super::html::{notation, signed_in_page};
use super::player::logout_form;
use super::public::{deadline_text, last_released, status_word};
use super::session::{self, same, Session, Who};
use super::{Web, WebError, WebResult};
use crate::daemon::GameView;
use crate::i18n::tr;
use crate::request::{self, Asker, Ctx};
use crate::services::texts::{reason, svc_text, SvcMsg};
use arbitre_core::Lang;
use arbitre_store::{games, orders, outbox, turns, GameStatus};
use axum::extract::{Form, Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{html, Markup};
use serde::Deserialize;
use std::sync::Arc;

/// The game master's session for `game`, else a redirect to the login.
async fn gm_session(
    web: &Arc<Web>,
    headers: &HeaderMap,
    game: &str,
) -> WebResult<Result<Session, Box<Response>>> {
    Ok(match session::of_request(web, headers).await? {
        Some(s) if s.game == game && s.who == Who::GameMaster => Ok(s),
        _ => Err(Box::new(
            Redirect::to(&format!("/login?game={game}")).into_response(),
        )),
    })
}

/// One seat's line on the GM's page.
struct Seat {
    id: String,
    name: String,
    active: bool,
    /// `None`: no orders; `Some(ready)`.
    orders: Option<bool>,
}

/// What the GM's page shows, computed before it is rendered.
struct Status {
    lang: Lang,
    turn: u32,
    status: GameStatus,
    held: Option<u32>,
    deadline: String,
    fault: Option<String>,
    seats: Vec<Seat>,
    /// Failed, pending for over an hour, held.
    outbox: (u32, u32, u32),
    last: u32,
    /// `public = true`: the game has public pages to link to.
    public: bool,
}

fn status_of(web: &Web, c: &arbitre_store::Connection, game: &str) -> WebResult<Status> {
    let g = GameView::new(
        &web.registry,
        games::game(c, game)?.ok_or(WebError::NotFound)?,
    )?;
    let state = turns::latest(c, game)?.state;
    let active: Vec<(String, bool)> = crate::loaded::Loaded::new()
        .get(&g, &state)?
        .players()
        .map_err(|e| g.engine_err(e))?
        .into_iter()
        .map(|p| (p.id.as_str().to_string(), p.active))
        .collect();
    let sent = orders::latest(c, game, g.row.turn + 1)?;
    let seats = games::players(c, game)?
        .into_iter()
        .map(|p| Seat {
            active: active.iter().any(|(id, a)| *id == p.id && *a),
            orders: sent.get(&p.id).filter(|o| !o.by_bot).map(|o| o.ready),
            id: p.id,
            name: p.name,
        })
        .collect();
    let now = web.clock.now().timestamp();
    let problems = outbox::problems(c, now - 3600)?;
    Ok(Status {
        lang: g.lang,
        turn: g.row.turn + 1,
        status: g.row.status,
        held: turns::held(c, game)?,
        deadline: deadline_text(&g, g.schedule.tz),
        fault: arbitre_store::faults::open_fault(c, game)?.map(|f| {
            let (during, turn, message) = (f.during, f.turn, f.message);
            tr(g.lang, "web-fault", &crate::fl_args![during, turn, message])
        }),
        seats,
        outbox: problems
            .get(&Some(game.to_string()))
            .copied()
            .unwrap_or_default(),
        last: last_released(c, &g)?,
        public: g.toml.public,
    })
}

fn gm_page(game: &str, s: &Session, st: &Status, answers: &[String]) -> Markup {
    let lang = st.lang;
    let buttons = ["PAUSE", "RESUME", "PREVIEW", "RELEASE"];
    let (failed, stale, held) = st.outbox;
    let outbox_line = tr(
        lang,
        "web-outbox-problems",
        &crate::fl_args![failed, stale, held],
    );
    let body = html! {
        h1 { (game) " · " (tr(lang, "web-game-master", &[])) }
        p {
            (logout_form(lang, s))
            // A game that is not public has no public page.
            @if st.public { " " a href={ "/games/" (game) } { (tr(lang, "web-public-page", &[])) } }
        }
        @for a in answers { (notation(a)) }
        table {
            tr { th { (tr(lang, "web-col-turn", &[])) } td { (st.turn) } }
            tr { th { (tr(lang, "web-status", &[])) } td {
                (status_word(lang, st.status))
                @if let Some(t) = st.held { " · " (tr(lang, "web-held", &[("turn", t.to_string())])) }
            } }
            tr { th { (tr(lang, "web-col-deadline", &[])) } td { (st.deadline) } }
            tr { th { (tr(lang, "web-outbox", &[])) } td {
                (outbox_line)
            } }
            @if let Some(f) = &st.fault { tr { th { (tr(lang, "web-fault-label", &[])) } td.bad { (f) } } }
        }
        h2 { (tr(lang, "web-seats", &[])) }
        table {
            @for p in &st.seats {
                tr {
                    td { (p.id) } td { (p.name) }
                    td {
                        @match (p.active, p.orders) {
                            (false, _) => { (tr(lang, "web-inactive", &[])) }
                            (true, Some(true)) => { (tr(lang, "web-orders-ready", &[])) }
                            (true, Some(false)) => { (tr(lang, "web-orders-in", &[])) }
                            (true, None) => { strong { (tr(lang, "web-missing", &[])) } }
                        }
                    }
                }
            }
        }
        h2 { (tr(lang, "web-commands", &[])) }
        @for b in buttons {
            form.inline method="post" action={ "/gm/" (game) "/command" } {
                input type="hidden" name="csrf" value=(s.csrf);
                input type="hidden" name="line" value=(b);
                button type="submit" { (b) }
            }
            " "
        }
        form method="post" action={ "/gm/" (game) "/command" } {
            input type="hidden" name="csrf" value=(s.csrf);
            label { (tr(lang, "web-command-line", &[])) input type="text" name="line" size="40" placeholder="EXTEND 2d"; }
            button type="submit" { (tr(lang, "web-do", &[])) }
        }
        p.note { (tr(lang, "web-command-hint", &[])) }
        @if st.public {
            p { a href={ "/games/" (game) "/turns/" (st.last) } { (tr(lang, "web-turn", &[("turn", st.last.to_string())])) } }
        }
    };
    signed_in_page(lang, game, body)
}

/// GET /gm/{game}
pub async fn home(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(game): Path<String>,
) -> WebResult<Response> {
    let s = match gm_session(&web, &headers, &game).await? {
        Ok(s) => s,
        Err(r) => return Ok(*r),
    };
    let page = web
        .db(move |web, store| {
            let st = status_of(web, store.conn(), &game)?;
            Ok(gm_page(&game, &s, &st, &[]))
        })
        .await?;
    Ok(page.into_response())
}

#[derive(Deserialize)]
pub struct CommandForm {
    pub csrf: String,
    pub line: String,
}

/// POST /gm/{game}/command: the command line's requests, each in its own
/// transaction through the request pipeline; the page shows each answer.
pub async fn command(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(game): Path<String>,
    Form(f): Form<CommandForm>,
) -> WebResult<Response> {
    let s = match gm_session(&web, &headers, &game).await? {
        Ok(s) => s,
        Err(_) => return Err(WebError::Forbidden),
    };
    if !same(&s.csrf, &f.csrf) {
        return Err(WebError::Forbidden);
    }
    let page = web
        .db(move |web, store| {
            let lang = status_of(web, store.conn(), &game)?.lang;
            let block = request::parse::block(&game, &Asker::GameMaster, &f.line);
            let mut answers: Vec<String> = block
                .errors
                .iter()
                .map(|e| {
                    let why = reason(lang, &e.reason);
                    svc_text(
                        lang,
                        &SvcMsg::BadCommand {
                            line: e.line,
                            text: &e.text,
                            why,
                        },
                    )
                })
                .collect();
            if block.requests.is_empty() && block.errors.is_empty() {
                answers.push(tr(lang, "web-no-command", &[]));
            }
            let now = web.clock.now();
            for (i, (_, req)) in block.requests.iter().enumerate() {
                let tag = format!("web{}.{i}", now.timestamp_millis());
                let done = store.tx(|tx| {
                    let loaded = crate::loaded::Loaded::new();
                    let ctx = Ctx {
                        tx,
                        registry: &web.registry,
                        loaded: &loaded,
                        config: &web.config,
                        now,
                        tag: &tag,
                    };
                    let e = request::handle(&ctx, req)?;
                    request::apply(&ctx, e)
                });
                match done {
                    Ok((_, answer)) => answers.push(answer),
                    // A refusal is said in the game's language and changes nothing.
                    Err(crate::error::DaemonError::Invalid(why)) => answers.push(why),
                    Err(e) => return Err(e.into()),
                }
            }
            let st = status_of(web, store.conn(), &game)?;
            Ok(gm_page(&game, &s, &st, &answers))
        })
        .await?;
    Ok(page.into_response())
}
