//! Public pages (issue 24 item 2): the list of public games, a game's page
//! and its archive, for anyone.
//!
//! What a game shows the public is exactly what its ruleset gives the
//! spectator (`Engine::report` for `Viewer::Spectator`, the report the
//! observers are mailed): standings, public map and archive all come from
//! it, so fog of war stays the ruleset's business. Besides it, a page shows
//! the game's schedule and, unless the game is blind (`[services]
//! show_orders_sent = false`), who has sent orders. A game that is not
//! `public = true` has no public page at all (404, as an unknown game).
//! A turn held for the game master's preview is not public before its
//! release. `tests/web_leak.rs` compares every public page of every
//! fixture game with the players' and the spectator's reports.

use super::html::{attachment, file_href, notation, page, page_of};
use super::{Web, WebError, WebResult};
use crate::daemon::GameView;
use crate::i18n::tr;
use crate::services::help::{join_word, ListedSignup};
use crate::services::zone::{parse_zone, show_in};
use arbitre_core::{Lang, Report, Viewer};
use arbitre_store::{games, orders, turns, Connection, GameStatus};
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use chrono_tz::Tz;
use maud::{html, Markup, PreEscaped};
use serde::Deserialize;
use std::sync::Arc;

/// The last turn whose reports are out: a turn held for preview is not.
pub fn last_released(c: &Connection, g: &GameView<'_>) -> WebResult<u32> {
    Ok(match turns::held(c, &g.row.id)? {
        Some(t) if t > 0 => t - 1,
        _ => g.row.turn,
    })
}

/// A game as the public may see it, or 404.
fn public_game<'a>(web: &'a Web, c: &Connection, id: &str) -> WebResult<GameView<'a>> {
    let row = games::game(c, id)?.ok_or(WebError::NotFound)?;
    let g = GameView::new(&web.registry, row)?;
    if !g.toml.public {
        return Err(WebError::NotFound);
    }
    Ok(g)
}

/// The spectator's report after `turn`.
pub fn spectator(c: &Connection, g: &GameView<'_>, turn: u32) -> WebResult<Report> {
    let row = turns::get(c, &g.row.id, turn)?.ok_or(WebError::NotFound)?;
    g.engine
        .report(&row.state, &Viewer::Spectator)
        .map_err(|e| g.engine_err(e).into())
}

pub fn status_word(lang: Lang, s: GameStatus) -> String {
    match s {
        GameStatus::Running => tr(lang, "web-status-running", &[]),
        GameStatus::Paused => tr(lang, "web-status-paused", &[]),
        GameStatus::Over => tr(lang, "web-status-over", &[]),
    }
}

/// The deadline in `tz`, or what stands for it (in the game's language).
pub fn deadline_text(g: &GameView<'_>, tz: Tz) -> String {
    deadline_in(g.lang, g, tz)
}

/// [`deadline_text`] on a page in `lang` (the list, in the operator's).
fn deadline_in(lang: Lang, g: &GameView<'_>, tz: Tz) -> String {
    match g.deadline() {
        Some(d) => show_in(d, tz),
        None => tr(lang, "web-no-deadline", &[]),
    }
}

/// Whether a game takes sign-ups, and its free seats: the same reading as
/// the LIST mail's (services/requests.rs), so page and mail agree. A
/// finished game takes nobody.
pub fn signup_of(c: &Connection, g: &GameView<'_>) -> WebResult<ListedSignup> {
    if !g.toml.signup.open || g.row.status == GameStatus::Over {
        return Ok(ListedSignup::Closed);
    }
    let seats = u32::try_from(games::players(c, &g.row.id)?.len()).unwrap_or(u32::MAX);
    Ok(ListedSignup::Open {
        free: g.toml.signup.max_players.map(|m| m.saturating_sub(seats)),
    })
}

/// The free-seats cell: "—" when the game takes no sign-ups.
fn free_seats_text(lang: Lang, s: ListedSignup) -> String {
    match s {
        ListedSignup::Closed => "—".to_string(),
        ListedSignup::Open { free: Some(n) } => n.to_string(),
        ListedSignup::Open { free: None } => tr(lang, "web-seats-no-limit", &[]),
    }
}

/// The sign-up cell: the JOIN line to mail (in the game's language, as the
/// referee reads it) while seats are free.
fn signup_cell(lang: Lang, g: &GameView<'_>, s: ListedSignup, referee: &str) -> Markup {
    match s {
        ListedSignup::Open { free: Some(0) } => html! { (tr(lang, "web-signup-full", &[])) },
        ListedSignup::Open { .. } => {
            let line = format!(
                "{} {} [{}]",
                join_word(g.lang),
                g.row.id,
                tr(g.lang, "web-signup-name", &[])
            );
            html! {
                (tr(lang, "web-signup-open", &[])) ": "
                code { (line) } " → " code { (referee) }
            }
        }
        ListedSignup::Closed => html! { "—" },
    }
}

/// GET /: every public game.
pub async fn list(State(web): State<Arc<Web>>) -> WebResult<Markup> {
    web.db(|web, store| {
        let c = store.conn();
        let mut rows = Vec::new();
        for row in games::games(c)? {
            let Ok(g) = GameView::new(&web.registry, row) else {
                continue;
            };
            if g.toml.public {
                let signup = signup_of(c, &g)?;
                rows.push((g, signup));
            }
        }
        let lang = web.config.language;
        let body = html! {
            h1 { (tr(lang, "web-public-games", &[])) }
            @if rows.is_empty() {
                p { (tr(lang, "web-no-public-game", &[])) }
            } @else {
                table {
                    tr {
                        th { (tr(lang, "web-col-game", &[])) }
                        th { (tr(lang, "web-col-ruleset", &[])) }
                        th { (tr(lang, "web-col-turn", &[])) }
                        th { (tr(lang, "web-col-deadline", &[])) }
                        th { (tr(lang, "web-col-free-seats", &[])) }
                        th { (tr(lang, "web-col-signup", &[])) }
                    }
                    @for (g, signup) in &rows {
                        tr {
                            td { a href={ "/games/" (g.row.id) } { (g.row.id) } }
                            td { (g.engine.info().name) }
                            td { (g.row.turn + 1) " · " (status_word(lang, g.row.status)) }
                            td { (deadline_in(lang, g, g.schedule.tz)) }
                            td { (free_seats_text(lang, *signup)) }
                            td { (signup_cell(lang, g, *signup, &web.config.referee)) }
                        }
                    }
                }
            }
            p.note { (tr(lang, "web-login-hint", &[])) " " a href="/login" { (tr(lang, "web-login", &[])) } }
        };
        Ok(page(lang, "arbitre", body))
    })
    .await
}

#[derive(Deserialize)]
pub struct TzQuery {
    pub tz: Option<String>,
}

/// The zone the viewer asked for (`?tz=`), if it is a real one.
pub fn viewer_zone(q: &TzQuery) -> Option<Tz> {
    q.tz.as_deref().and_then(parse_zone)
}

/// The time-zone chooser: a plain GET form, and a one-line script that
/// fills in the browser's zone when the visitor has not chosen one.
pub fn tz_form(lang: Lang, action: &str, chosen: Option<Tz>, shown: Tz) -> Markup {
    html! {
        form method="get" action=(action) {
            label {
                (tr(lang, "web-your-zone", &[])) " "
                input type="text" name="tz" value=(shown.name()) size="22";
                " " button type="submit" { (tr(lang, "web-show", &[])) }
            }
        }
        @if chosen.is_none() {
            script {
                (PreEscaped("try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&location.search.indexOf('tz=')<0){location.replace(location.pathname+'?tz='+encodeURIComponent(z));}}catch(e){}"))
            }
        }
    }
}

/// The turns of the archive, newest first, as links under `prefix`.
pub fn archive(lang: Lang, prefix: &str, last: u32) -> Markup {
    html! {
        h2 { (tr(lang, "web-archive", &[])) }
        ul {
            @for t in (0..=last).rev() {
                li { a href={ (prefix) "/turns/" (t) } { (tr(lang, "web-turn", &[("turn", t.to_string())])) } }
            }
        }
    }
}

/// A report with its attachments, the files linked under `files`.
pub fn report_block(r: &Report, files: &str) -> Markup {
    html! {
        h3 { (r.subject) }
        (notation(&r.body))
        @for a in &r.attachments {
            (attachment(&file_href(files, &a.name), &a.name, &a.mime))
        }
    }
}

/// GET /games/{game}: the game's page.
pub async fn game(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    Query(q): Query<TzQuery>,
) -> WebResult<Markup> {
    let chosen = viewer_zone(&q);
    web.db(move |web, store| {
        let c = store.conn();
        let g = public_game(web, c, &id)?;
        let lang = g.lang;
        let gid = g.row.id.clone();
        let tz = chosen.unwrap_or(g.schedule.tz);
        let last = last_released(c, &g)?;
        let report = spectator(c, &g, last)?;
        let playing = g.row.turn + 1;
        let players = games::players(c, &gid)?;
        let sent = orders::latest(c, &gid, playing)?;
        let blind = !g.toml.services.show_orders_sent();
        let body = html! {
            h1 { (gid) }
            p {
                (g.engine.info().name) " · "
                (tr(lang, "web-turn", &[("turn", playing.to_string())])) " · "
                (status_word(lang, g.row.status))
            }
            p { strong { (tr(lang, "web-deadline-label", &[])) } " " (deadline_text(&g, tz)) }
            (tz_form(lang, &format!("/games/{gid}"), chosen, tz))
            @if g.row.status != GameStatus::Over {
                h2 { (tr(lang, "web-orders-sent", &[])) }
                @if blind {
                    p.note { (tr(lang, "web-blind", &[])) }
                } @else {
                    ul {
                        @for p in &players {
                            li {
                                (p.name) " — "
                                @match sent.get(&p.id).filter(|o| !o.by_bot) {
                                    Some(o) if o.ready => { (tr(lang, "web-orders-ready", &[])) }
                                    Some(_) => { (tr(lang, "web-orders-in", &[])) }
                                    None => { (tr(lang, "web-orders-none", &[])) }
                                }
                            }
                        }
                    }
                }
            }
            h2 { (tr(lang, "web-public-report", &[])) }
            (report_block(&report, &format!("/games/{gid}/turns/{last}/files")))
            (archive(lang, &format!("/games/{gid}"), last))
        };
        Ok(page_of(lang, &gid, Some(&gid), body))
    })
    .await
}

/// GET /games/{game}/turns/{turn}: the public report of one past turn.
pub async fn turn(
    State(web): State<Arc<Web>>,
    Path((id, turn)): Path<(String, u32)>,
) -> WebResult<Markup> {
    web.db(move |web, store| {
        let c = store.conn();
        let g = public_game(web, c, &id)?;
        if turn > last_released(c, &g)? {
            return Err(WebError::NotFound);
        }
        let r = spectator(c, &g, turn)?;
        let gid = &g.row.id;
        let body = html! {
            h1 { a href={ "/games/" (gid) } { (gid) } }
            (report_block(&r, &format!("/games/{gid}/turns/{turn}/files")))
        };
        Ok(page_of(g.lang, gid, Some(gid), body))
    })
    .await
}

/// An attachment as a response. SVG and anything else a browser could run
/// gets a policy that forbids scripts, and no type sniffing.
pub fn file_response(name: &str, mime: &str, content: Vec<u8>) -> Response {
    let disposition = if mime.starts_with("image/") {
        "inline".to_string()
    } else {
        format!(
            "attachment; filename=\"{}\"",
            name.replace(|c: char| !c.is_ascii_graphic() || c == '"', "_")
        )
    };
    (
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; img-src data:".to_string(),
            ),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
        ],
        content,
    )
        .into_response()
}

/// GET /games/{game}/turns/{turn}/files/{name}: the public map.
pub async fn file(
    State(web): State<Arc<Web>>,
    Path((id, turn, name)): Path<(String, u32, String)>,
) -> WebResult<Response> {
    web.db(move |web, store| {
        let c = store.conn();
        let g = public_game(web, c, &id)?;
        if turn > last_released(c, &g)? {
            return Err(WebError::NotFound);
        }
        let r = spectator(c, &g, turn)?;
        let a = r
            .attachments
            .into_iter()
            .find(|a| a.name == name)
            .ok_or(WebError::NotFound)?;
        Ok(file_response(&a.name, &a.mime, a.content))
    })
    .await
}
