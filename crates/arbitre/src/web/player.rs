//! The players' pages (issue 24 item 3): login, the reports turn by turn
//! with their attachments, the order template, and the order form with its
//! CHECK button, whose submission goes through the mail path (submit.rs).
//! The login page also opens the game master's pages: player `gm` with
//! the game's GM password, as in a GM's mail.

use super::html::{notation, page, signed_in_page};
use super::public::{
    archive, deadline_text, last_released, report_block, tz_form, viewer_zone, TzQuery,
};
use super::session::{self, cookie, random_token, same, set_cookie, Session, Who};
use super::submit::{self, Action, Submission, Submitted};
use super::{Web, WebError, WebResult};
use crate::daemon::GameView;
use crate::i18n::tr;
use crate::services::settings::PressRefusal;
use crate::services::texts::{svc_text, SvcMsg};
use crate::services::welcome::template_of;
use arbitre_core::{Lang, PlayerId, Report, Viewer};
use arbitre_store::{games, journal, orders, outbox, turns, Connection, GameStatus, PlayerRow};
use axum::extract::{Form, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{html, Markup};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize, Default)]
pub struct LoginQuery {
    pub game: Option<String>,
}

fn login_page(lang: Lang, game: &str, csrf: &str, error: Option<String>) -> Markup {
    let body = html! {
        h1 { (tr(lang, "web-login", &[])) }
        @if let Some(e) = error { p.bad { (e) } }
        form method="post" action="/login" {
            input type="hidden" name="csrf" value=(csrf);
            label { (tr(lang, "web-col-game", &[])) input type="text" name="game" value=(game) required autocomplete="off"; }
            label { (tr(lang, "web-player", &[])) input type="text" name="player" required autocomplete="username"; }
            label { (tr(lang, "web-password", &[])) input type="password" name="password" required autocomplete="current-password"; }
            label { (tr(lang, "web-token", &[])) input type="password" name="token" autocomplete="off"; }
            button type="submit" { (tr(lang, "web-login", &[])) }
        }
        p.note { (tr(lang, "web-login-gm-hint", &[])) }
    };
    page(lang, "arbitre", body)
}

/// A login form with a fresh double-submit token (cookie and field).
fn login_response(lang: Lang, game: &str, error: Option<String>, status: StatusCode) -> Response {
    let csrf = random_token();
    let cookie = set_cookie(session::LOGIN_COOKIE, &csrf, "/login", 3600);
    (
        status,
        [(header::SET_COOKIE, cookie)],
        login_page(lang, game, &csrf, error),
    )
        .into_response()
}

/// The login page's language: the game's, when the form names an existing
/// game (as the game's own pages are), else the operator's
/// (`Web::lang_of_game` says why a private game's language is shown).
async fn login_lang(web: &Arc<Web>, game: &str) -> Lang {
    let game = game.trim();
    if game.is_empty() {
        return web.config.language;
    }
    web.lang_of_game(game, false).await.0
}

/// GET /login
pub async fn login_form(State(web): State<Arc<Web>>, Query(q): Query<LoginQuery>) -> Response {
    let game = q.game.as_deref().unwrap_or("");
    login_response(login_lang(&web, game).await, game, None, StatusCode::OK)
}

#[derive(Deserialize)]
pub struct LoginForm {
    pub csrf: String,
    pub game: String,
    pub player: String,
    pub password: String,
    #[serde(default)]
    pub token: String,
}

/// What a login attempt comes to.
enum Login {
    Player {
        game: String,
        seat: PlayerRow,
    },
    GameMaster {
        game: String,
        credential: String,
    },
    /// Unknown game or player, or a wrong password: one answer for all,
    /// so the form tells no one which seats exist.
    Refused,
    /// Too many wrong passwords for this seat this hour.
    Locked,
}

/// POST /login
pub async fn login(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(f): Form<LoginForm>,
) -> WebResult<Response> {
    let lang = login_lang(&web, &f.game).await;
    let csrf_ok = cookie(&headers, session::LOGIN_COOKIE).is_some_and(|c| same(&c, &f.csrf));
    if !csrf_ok {
        return Ok(login_response(
            lang,
            &f.game,
            Some(tr(lang, "web-form-expired", &[])),
            StatusCode::FORBIDDEN,
        ));
    }
    let (game, player, password, token) = (
        f.game.trim().to_string(),
        f.player.trim().to_string(),
        f.password.clone(),
        f.token.clone(),
    );
    let result = web
        .db(move |web, store| {
            let now = web.clock.now();
            let Some(row) = games::find_game_nocase(store.conn(), &game)? else {
                return Ok(Login::Refused);
            };
            let g = GameView::new(&web.registry, row)?;
            let gid = g.row.id.clone();
            if player.eq_ignore_ascii_case("gm") {
                if !session::login_allowed(store.conn(), &web.config, &gid, "gm", now)? {
                    return Ok(Login::Locked);
                }
                let hash = g.toml.services.gm_password_hash.as_deref();
                if let Some(h) =
                    hash.filter(|h| arbitre_store::PasswordHasher::verify(&password, h))
                {
                    let credential = session::credential(h);
                    return Ok(Login::GameMaster {
                        game: gid,
                        credential,
                    });
                }
                store.tx(|tx| session::record_wrong(tx, &gid, "gm", None, now))?;
                return Ok(Login::Refused);
            }
            let Some(seat) = games::player_nocase(store.conn(), &gid, &player)? else {
                return Ok(Login::Refused);
            };
            if !session::login_allowed(store.conn(), &web.config, &gid, &seat.id, now)? {
                return Ok(Login::Locked);
            }
            if games::check_password(&seat, &password) {
                // The player's token, if the game master set one, is
                // checked here once: the session then speaks for the seat.
                let given = Some(token.trim()).filter(|t| !t.is_empty());
                return Ok(
                    match crate::services::authenticity::token(store.conn(), &gid, &seat.id, given)?
                    {
                        Ok(_) => Login::Player { game: gid, seat },
                        // The password was right: no wrong-password count.
                        Err(_) => Login::Refused,
                    },
                );
            }
            let turn = g.row.turn + 1;
            store.tx(|tx| session::record_wrong(tx, &gid, &seat.id, Some(turn), now))?;
            Ok(Login::Refused)
        })
        .await?;
    let (game, who, credential, to) = match result {
        Login::Player { game, seat } => {
            let to = format!("/play/{game}");
            let who = Who::Player { player: seat.id };
            (game, who, session::credential(&seat.password_hash), to)
        }
        Login::GameMaster { game, credential } => {
            let to = format!("/gm/{game}");
            (game, Who::GameMaster, credential, to)
        }
        Login::Refused => {
            return Ok(login_response(
                lang,
                &f.game,
                Some(tr(lang, "web-login-refused", &[])),
                StatusCode::UNAUTHORIZED,
            ))
        }
        Login::Locked => {
            return Ok(login_response(
                lang,
                &f.game,
                Some(tr(lang, "web-login-locked", &[])),
                StatusCode::TOO_MANY_REQUESTS,
            ))
        }
    };
    let opened = web
        .db(move |web, store| session::open(store.conn(), &game, who, credential, web.clock.now()))
        .await?;
    let Some((id, _)) = opened else {
        return Err(WebError::Internal("no session could be opened".into()));
    };
    let max_age = session::SESSION_HOURS * 3600;
    Ok((
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, to),
            (
                header::SET_COOKIE,
                set_cookie(session::SESSION_COOKIE, &id, "/", max_age),
            ),
        ],
    )
        .into_response())
}

#[derive(Deserialize)]
pub struct CsrfForm {
    pub csrf: String,
}

/// POST /logout
pub async fn logout(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(f): Form<CsrfForm>,
) -> WebResult<Response> {
    let s = session::of_request(&web, &headers)
        .await?
        .ok_or(WebError::Forbidden)?;
    if !same(&s.csrf, &f.csrf) {
        return Err(WebError::Forbidden);
    }
    session::close(&web, &headers).await?;
    Ok((
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, "/".to_string()),
            (
                header::SET_COOKIE,
                set_cookie(session::SESSION_COOKIE, "", "/", 0),
            ),
        ],
    )
        .into_response())
}

/// The logout button (a POST with the session's CSRF token).
pub fn logout_form(lang: Lang, s: &Session) -> Markup {
    html! {
        form.inline method="post" action="/logout" {
            input type="hidden" name="csrf" value=(s.csrf);
            button type="submit" { (tr(lang, "web-logout", &[])) }
        }
    }
}

/// The player's session for `game`, else a redirect to the login.
async fn player_session(
    web: &Arc<Web>,
    headers: &HeaderMap,
    game: &str,
) -> WebResult<Result<(Session, String), Box<Response>>> {
    Ok(match session::of_request(web, headers).await? {
        Some(s) if s.game == game => match &s.who {
            Who::Player { player } => {
                let p = player.clone();
                Ok((s, p))
            }
            Who::GameMaster => Err(Box::new(
                Redirect::to(&format!("/gm/{game}")).into_response(),
            )),
        },
        _ => Err(Box::new(
            Redirect::to(&format!("/login?game={game}")).into_response(),
        )),
    })
}

/// The report of `turn` as the player got it: the mailed text if it was
/// mailed, else rendered again; the attachments the ruleset makes for it.
fn player_report(c: &Connection, g: &GameView<'_>, player: &str, turn: u32) -> WebResult<Report> {
    let row = turns::get(c, &g.row.id, turn)?.ok_or(WebError::NotFound)?;
    let mut r = g
        .engine
        .report(&row.state, &Viewer::Player(PlayerId::new(player)))
        .map_err(|e| g.engine_err(e))?;
    if let Some(mailed) = outbox::report_for(c, &g.row.id, player, turn)? {
        r.subject = mailed.mail.subject;
        r.body = mailed.mail.body;
    }
    Ok(r)
}

/// GET /play/{game}: the player's page.
pub async fn home(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(game): Path<String>,
    Query(q): Query<TzQuery>,
) -> WebResult<Response> {
    let (s, player) = match player_session(&web, &headers, &game).await? {
        Ok(x) => x,
        Err(r) => return Ok(*r),
    };
    let chosen = viewer_zone(&q);
    let page = web
        .db(move |web, store| {
            let c = store.conn();
            let g = GameView::new(
                &web.registry,
                games::game(c, &game)?.ok_or(WebError::NotFound)?,
            )?;
            let lang = g.lang;
            let tz = match chosen {
                Some(z) => z,
                None => {
                    crate::services::timezone::zone_of_player(c, &game, &player, g.schedule.tz)?
                }
            };
            let last = last_released(c, &g)?;
            let report = player_report(c, &g, &player, last)?;
            let template = template_of(&report.attachments);
            let playing = g.row.turn + 1;
            let in_force = orders::latest(c, &game, playing)?
                .remove(&player)
                .filter(|o| !o.by_bot)
                .map(|o| o.text)
                .unwrap_or_default();
            let allowed = shown(c, &g, &player)?;
            let no_orders = forbidden(c, &g, &player, Want::Orders)?;
            let prefix = format!("/play/{game}");
            let others: Vec<(String, String)> = games::players(c, &game)?
                .into_iter()
                .filter(|p| p.id != player)
                .map(|p| (p.id, p.name))
                .collect();
            let body = html! {
                h1 { (game) " · " (player) }
                p {
                    (tr(lang, "web-turn", &[("turn", playing.to_string())])) " · "
                    strong { (tr(lang, "web-deadline-label", &[])) } " " (deadline_text(&g, tz))
                    " " (logout_form(lang, &s))
                }
                (tz_form(lang, &prefix, chosen, tz))
                h2 { (tr(lang, "web-your-orders", &[])) }
                @if let Some(why) = &no_orders {
                    p.note { (why) }
                } @else {
                    (orders_form(lang, &game, &player, &s, &in_force))
                }
                @if let Some(t) = &template {
                    details {
                        summary { (tr(lang, "web-template", &[])) " (" (t.name) ")" }
                        (notation(&template_for_form(&String::from_utf8_lossy(&t.content))))
                    }
                }
                section #commands {
                    h2 { (tr(lang, "web-settings", &[])) }
                    (service_forms(lang, &game, &player, &s, tz, &others, &allowed))
                }
                h2 { (tr(lang, "web-your-report", &[])) }
                (report_block(&report, &format!("{prefix}/turns/{last}/files")))
                (archive(lang, &prefix, last))
            };
            Ok(signed_in_page(lang, &game, body))
        })
        .await?;
    Ok(page.into_response())
}

/// The order template as the form takes it: the lines between the block's
/// header and its END, read by the mail crate's own block reader. The form
/// writes the header and the END itself; a template pasted whole would put
/// its header line (with its `<password>` placeholder) among the orders,
/// where the ruleset reads it as a wrong order. A template that is no
/// block is shown whole.
fn template_for_form(text: &str) -> String {
    match arbitre_mail::envelope::find_envelope(text) {
        Ok(e) => e.orders.trim_start_matches('\n').to_string(),
        Err(_) => text.to_string(),
    }
}

/// A form of the player's page the game may forbid (TIMEZONE it never does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// Orders or CHECK.
    Orders,
    Absence,
    Press {
        anonymous: bool,
    },
}

/// Why the game does not let `player` use the form `want` now, in the
/// game's language (the mail path's own refusal for the same command), or
/// `None`. The player's page does not show a form this refuses, and a POST
/// of it is refused with this text before the mail path: nothing is stored,
/// journaled or mailed. The rules are the mail path's: orders not after the
/// game's end (said without the mail's "Nothing was stored", as the page
/// shows it too) nor from an ejected seat (request/orders.rs), press only as
/// `[services] press` allows and not from an ejected seat (services/press.rs),
/// absences only with `absence_max_days` and below `absence_max_per_game`
/// (services/absence.rs; the length of one absence is the answer's business).
fn forbidden(
    c: &Connection,
    g: &GameView<'_>,
    player: &str,
    want: Want,
) -> WebResult<Option<String>> {
    let lang = g.lang;
    let gid = g.row.id.as_str();
    let services = &g.toml.services;
    let ejected = || -> WebResult<Option<String>> {
        let out = crate::gm::seats::is_ejected(c, gid, player, g.row.turn + 1)?
            && g.row.status != GameStatus::Over;
        Ok(out.then(|| svc_text(lang, &SvcMsg::EjectedSeat { game: gid, player })))
    };
    Ok(match want {
        Want::Orders => {
            if g.row.status == GameStatus::Over {
                Some(tr(lang, "web-game-over", &crate::fl_args![game = gid]))
            } else {
                ejected()?
            }
        }
        Want::Press { anonymous } => match services.press_allowed(anonymous) {
            Err(PressRefusal::NoPress) => Some(svc_text(lang, &SvcMsg::PressNone)),
            Err(PressRefusal::NoAnonymous) => Some(svc_text(lang, &SvcMsg::PressNoAnonymous)),
            Ok(()) => ejected()?,
        },
        Want::Absence => {
            let taken = arbitre_store::absences::count(c, gid, player)?;
            match services.absence_max_days.unwrap_or(0) {
                0 => Some(svc_text(lang, &SvcMsg::AbsenceNotAllowed)),
                _ => match services.absence_max_per_game {
                    Some(max) if taken >= max => {
                        Some(svc_text(lang, &SvcMsg::AbsenceTooMany { max }))
                    }
                    _ => None,
                },
            }
        }
    })
}

/// Which settings forms the player's page shows (the order form: see
/// `home`, which says why it is not there).
struct Shown {
    absence: bool,
    press: bool,
    anonymous: bool,
}

fn shown(c: &Connection, g: &GameView<'_>, player: &str) -> WebResult<Shown> {
    let allows = |w| Ok::<bool, WebError>(forbidden(c, g, player, w)?.is_none());
    Ok(Shown {
        absence: allows(Want::Absence)?,
        press: allows(Want::Press { anonymous: false })?,
        anonymous: allows(Want::Press { anonymous: true })?,
    })
}

/// The order form: a fresh nonce each time it is shown.
fn orders_form(lang: Lang, game: &str, player: &str, s: &Session, orders: &str) -> Markup {
    html! {
        form method="post" action={ "/play/" (game) "/orders" } {
            input type="hidden" name="csrf" value=(s.csrf);
            input type="hidden" name="nonce" value=(random_token());
            input type="hidden" name="player" value=(player);
            textarea name="orders" spellcheck="false" { (orders) }
            button type="submit" name="action" value="orders" { (tr(lang, "web-send-orders", &[])) }
            " "
            button type="submit" name="action" value="check" { (tr(lang, "web-check", &[])) }
        }
        p.note { (tr(lang, "web-orders-hint", &[])) }
    }
}

/// The player's settings as forms: TIMEZONE, ABSENCE, PRESS; each with a
/// fresh nonce, as the order form.
fn service_forms(
    lang: Lang,
    game: &str,
    player: &str,
    s: &Session,
    tz: chrono_tz::Tz,
    others: &[(String, String)],
    allowed: &Shown,
) -> Markup {
    let action = format!("/play/{game}/service");
    let hidden = |service: &'static str| {
        html! {
            input type="hidden" name="csrf" value=(s.csrf);
            input type="hidden" name="nonce" value=(random_token());
            input type="hidden" name="player" value=(player);
            input type="hidden" name="service" value=(service);
        }
    };
    html! {
        form method="post" action=(action) {
            (hidden("timezone"))
            label { (tr(lang, "web-timezone", &[])) " "
                input type="text" name="zone" value=(tz.name()) size="22" required; }
            button type="submit" { (tr(lang, "web-timezone-set", &[])) }
        }
        @if allowed.absence { form method="post" action=(action) {
            (hidden("absence"))
            label { (tr(lang, "web-absence", &[])) " "
                input type="date" name="from" required; " – "
                input type="date" name="to" required; }
            button type="submit" { (tr(lang, "web-absence-declare", &[])) }
        } }
        @if allowed.press { form method="post" action=(action) {
            (hidden("press"))
            label { (tr(lang, "web-press", &[])) " "
                select name="press_to" {
                    option value="ALL" { (tr(lang, "web-press-all", &[])) }
                    @for (id, name) in others { option value=(id) { (name) " (" (id) ")" } }
                }
            }
            @if allowed.anonymous {
                label { input type="checkbox" name="anonymous" value="1"; " " (tr(lang, "web-press-anonymous", &[])) }
            }
            textarea name="text" required {}
            button type="submit" { (tr(lang, "web-press-send", &[])) }
        } }
        p.note { (tr(lang, "web-settings-hint", &[])) }
    }
}

/// GET /play/{game}/turns/{turn}
pub async fn report(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path((game, turn)): Path<(String, u32)>,
) -> WebResult<Response> {
    let (_, player) = match player_session(&web, &headers, &game).await? {
        Ok(x) => x,
        Err(r) => return Ok(*r),
    };
    let page = web
        .db(move |web, store| {
            let c = store.conn();
            let g = GameView::new(
                &web.registry,
                games::game(c, &game)?.ok_or(WebError::NotFound)?,
            )?;
            if turn > last_released(c, &g)? {
                return Err(WebError::NotFound);
            }
            let r = player_report(c, &g, &player, turn)?;
            let body = html! {
                h1 { a href={ "/play/" (game) } { (game) } " · " (player) }
                (report_block(&r, &format!("/play/{game}/turns/{turn}/files")))
            };
            Ok(signed_in_page(g.lang, &game, body))
        })
        .await?;
    Ok(page.into_response())
}

/// GET /play/{game}/turns/{turn}/files/{name}: an attachment of the
/// player's report (the map as an image).
pub async fn file(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path((game, turn, name)): Path<(String, u32, String)>,
) -> WebResult<Response> {
    let (_, player) = match player_session(&web, &headers, &game).await? {
        Ok(x) => x,
        Err(r) => return Ok(*r),
    };
    web.db(move |web, store| {
        let c = store.conn();
        let g = GameView::new(
            &web.registry,
            games::game(c, &game)?.ok_or(WebError::NotFound)?,
        )?;
        if turn > last_released(c, &g)? {
            return Err(WebError::NotFound);
        }
        let r = player_report(c, &g, &player, turn)?;
        let a = r
            .attachments
            .into_iter()
            .find(|a| a.name == name)
            .ok_or(WebError::NotFound)?;
        Ok(super::public::file_response(&a.name, &a.mime, a.content))
    })
    .await
}

#[derive(Deserialize)]
pub struct OrdersForm {
    pub csrf: String,
    pub nonce: String,
    pub player: String,
    pub action: String,
    #[serde(default)]
    pub orders: String,
}

/// POST /play/{game}/orders: orders or CHECK, through the mail path.
pub async fn orders(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(game): Path<String>,
    Form(f): Form<OrdersForm>,
) -> WebResult<Response> {
    let action = match f.action.as_str() {
        "check" => Action::Check,
        "orders" => Action::Orders,
        _ => return Err(WebError::BadRequest("unknown action")),
    };
    send(web, headers, game, f, action, Some(Want::Orders)).await
}

#[derive(Deserialize)]
pub struct ServiceForm {
    pub csrf: String,
    pub nonce: String,
    pub player: String,
    /// `timezone`, `absence` or `press`.
    pub service: String,
    #[serde(default)]
    pub zone: String,
    #[serde(default)]
    pub from: String,
    #[serde(default)]
    pub to: String,
    #[serde(default)]
    pub press_to: String,
    #[serde(default)]
    pub anonymous: Option<String>,
    #[serde(default)]
    pub text: String,
}

/// One word of a form's field, for a command line: its first word only,
/// so that a field can never add a line or an argument of its own.
fn word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

/// The command lines a settings form stands for, as a player writes them
/// in a mail (services/command.rs reads them; a bad value is refused
/// there, with the mail's reason).
fn service_lines(f: &ServiceForm) -> Option<String> {
    Some(match f.service.as_str() {
        "timezone" => format!("TIMEZONE {}", word(&f.zone)),
        "absence" => format!("ABSENCE {} {}", word(&f.from), word(&f.to)),
        "press" => format!(
            "PRESS TO {}{}\n{}",
            word(&f.press_to),
            if f.anonymous.is_some() {
                " ANONYMOUS"
            } else {
                ""
            },
            f.text
        ),
        _ => return None,
    })
}

/// POST /play/{game}/service: TIMEZONE, ABSENCE or PRESS from the player's
/// page, as the same command in an order mail: through the mail path,
/// hence the request pipeline (`request::player::serve`: `handle` then
/// `apply`), keyed in the journal like an order form, answered on the page
/// and by mail.
pub async fn service(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(game): Path<String>,
    Form(f): Form<ServiceForm>,
) -> WebResult<Response> {
    let lines = service_lines(&f).ok_or(WebError::BadRequest("unknown form"))?;
    let want = match f.service.as_str() {
        "absence" => Some(Want::Absence),
        "press" => Some(Want::Press {
            anonymous: f.anonymous.is_some(),
        }),
        _ => None,
    };
    let form = OrdersForm {
        csrf: f.csrf,
        nonce: f.nonce,
        player: f.player,
        action: f.service,
        orders: lines,
    };
    send(web, headers, game, form, Action::Service, want).await
}

/// A form through the mail path, once per form (its nonce).
async fn send(
    web: Arc<Web>,
    headers: HeaderMap,
    game: String,
    f: OrdersForm,
    action: Action,
    want: Option<Want>,
) -> WebResult<Response> {
    if f.nonce.len() != 32 || !f.nonce.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(WebError::BadRequest("bad form"));
    }
    let session = session::of_request(&web, &headers).await?;
    let result = web
        .db(move |web, store| {
            let sub = Submission {
                game: &game,
                player: &f.player,
                nonce: &f.nonce,
                action,
                orders: &f.orders,
            };
            // A form already handled is recognised before anything else,
            // even after a restart that ended its session: its random
            // nonce is the capability to see its own answer again.
            let key = sub.key();
            let view = games::game(store.conn(), &game)?
                .and_then(|row| GameView::new(&web.registry, row).ok());
            let lang = view.as_ref().map_or(web.config.language, |g| g.lang);
            if journal::seen(store.conn(), &key)? {
                return Ok((lang, game.clone(), Ok(submit::earlier(store.conn(), &key)?)));
            }
            let s = session.ok_or(WebError::Forbidden)?;
            let Who::Player { player } = &s.who else {
                return Err(WebError::Forbidden);
            };
            if s.game != game || *player != f.player || !same(&s.csrf, &f.csrf) {
                return Err(WebError::Forbidden);
            }
            let seat =
                games::player_nocase(store.conn(), &game, player)?.ok_or(WebError::Forbidden)?;
            // A form the page does not show (the game forbids it) is
            // refused here, before the mail path: nothing is stored.
            if let (Some(want), Some(g)) = (want, &view) {
                if let Some(why) = forbidden(store.conn(), g, &seat.id, want)? {
                    return Ok((lang, game.clone(), Err(why)));
                }
            }
            drop(view);
            let now = web.clock.now();
            let done = submit::submit(store, &web.registry, &web.config, &sub, &seat, now)?;
            Ok((lang, game.clone(), Ok(done)))
        })
        .await;
    let (lang, game, done) = match result {
        Ok(x) => x,
        // The page says so in the game's language, with a link to its login.
        Err(WebError::Forbidden) => return Err(WebError::FormExpired),
        Err(e) => return Err(e),
    };
    Ok(match done {
        Ok(done) => result_page(lang, &game, &done).into_response(),
        Err(why) => (StatusCode::FORBIDDEN, refused_page(lang, &game, &why)).into_response(),
    })
}

/// The page of a form the game does not allow: why, and that nothing was
/// stored.
fn refused_page(lang: Lang, game: &str, why: &str) -> Markup {
    let body = html! {
        h1 { (game) }
        p.bad { (why) " " (tr(lang, "web-nothing-stored", &[])) }
        p { a href={ "/play/" (game) } { (tr(lang, "web-back", &[])) } }
    };
    signed_in_page(lang, game, body)
}

/// The page after a submission: the confirmation, as mailed.
fn result_page(lang: Lang, game: &str, done: &Submitted) -> Markup {
    let accepted = matches!(
        done.outcome,
        Some(
            arbitre_store::JournalOutcome::Stored
                | arbitre_store::JournalOutcome::Checked
                | arbitre_store::JournalOutcome::Service
        )
    );
    let body = html! {
        h1 { (game) }
        @if done.repeated {
            p.ok { (tr(lang, "web-repeated", &[])) }
        } @else if accepted {
            p.ok { (tr(lang, "web-received", &[])) }
        } @else {
            p.bad { (tr(lang, "web-not-stored", &[])) }
        }
        @if let Some(c) = &done.confirmation {
            h2 { (tr(lang, "web-confirmation", &[])) }
            (notation(c))
        }
        p { a href={ "/play/" (game) } { (tr(lang, "web-back", &[])) } }
    };
    signed_in_page(lang, game, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_loses_its_header_and_end_lines_for_the_form() {
        let t = "PARTIE g JOUEUR maxtor MOT-DE-PASSE <mot-de-passe>\nTOUR 4\n# M_1 : 2 UP\nFIN\n";
        assert_eq!(template_for_form(t), "TOUR 4\n# M_1 : 2 UP\n");
        let multi = "GAME g\nPLAYER p\nPASSWORD <password>\nTURN 2\nA 1\nEND\n";
        let form = template_for_form(multi);
        assert!(
            form.contains("TURN 2\nA 1") && !form.contains("PASSWORD"),
            "{form:?}"
        );
        assert_eq!(template_for_form("# no block\nA 1\n"), "# no block\nA 1\n");
    }
}
