//! The web face of arbitre (issue 24): public pages of the public games,
//! the players' pages behind a login, the game master's pages behind the
//! GM password; served by `arbitre web` or, with `[web] listen`, by a
//! thread of `arbitre serve`.
//!
//! Server-rendered HTML (axum + maud), one small stylesheet, no script
//! needed (one optional line reports the browser's time zone). The web
//! never has a write path of its own:
//! - an order or CHECK form becomes the order mail it stands for and goes
//!   through `inbound::prepare`, `precheck`, `decide_prepared` and `apply`,
//!   the mail path itself, keyed in the journal by the SHA-256 of the
//!   submission ([`submit`]);
//! - a GM command goes through the request pipeline (`request::handle` and
//!   `request::apply`) as the CLI's and the GM's mail do ([`gm`]).
//!
//! Every database access runs on tokio's blocking pool over the web's own
//! connection (WAL: reading never blocks the daemon; a write is one short
//! IMMEDIATE transaction, as a mail's). Module map: [`html`] (layout, CSS),
//! [`public`] (game list, game page, archive, public maps), [`session`]
//! (cookies, sessions in the store, CSRF, login limits), [`player`] (login, reports, orders),
//! [`submit`] (a form as an order mail), [`gm`] (the GM's pages).

pub mod gm;
pub mod html;
pub mod player;
pub mod public;
pub mod session;
pub mod submit;

use crate::clock::Clock;
use crate::config::DaemonConfig;
use crate::error::DaemonError;
use crate::i18n::tr;
use crate::registry::Registry;
use arbitre_core::Lang;
use arbitre_store::Store;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// The default address of `arbitre web`: loopback only; a reverse proxy
/// adds TLS and the public name (docs/operations.md).
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// Everything a request handler may use.
pub struct Web {
    pub config: DaemonConfig,
    pub registry: Arc<Registry>,
    pub clock: Arc<dyn Clock>,
    /// The web's own connection. A mutex, not a pool: the web is light
    /// traffic, and one connection means one writer from this process.
    store: Mutex<Store>,
}

/// Why a page could not be served. Never shows a database error's text to
/// the visitor (it is logged). The response carries only the status and
/// what went wrong ([`ErrorKind`]); [`error_pages`] writes the page, in the
/// language of the game the address names (see there).
#[derive(Debug)]
pub enum WebError {
    NotFound,
    /// A page that needs a login, or a form without the right CSRF token.
    Forbidden,
    /// A form whose session has ended or that is not this site's: the
    /// page says so and links to the login.
    FormExpired,
    /// A request no page of ours sends (the detail is logged, not shown).
    BadRequest(&'static str),
    Internal(String),
}

/// What an error response stands for: put in the response's extensions by
/// [`WebError`], read by [`error_pages`], which renders the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    NotFound,
    Forbidden,
    FormExpired,
    BadRequest,
    TooLarge,
    Internal,
}

impl ErrorKind {
    /// An error response without a kind (axum's own rejections: an unknown
    /// address, a wrong method, a form missing a field, a body too large).
    fn of_status(status: StatusCode) -> ErrorKind {
        match status {
            StatusCode::NOT_FOUND => ErrorKind::NotFound,
            StatusCode::FORBIDDEN | StatusCode::UNAUTHORIZED => ErrorKind::Forbidden,
            StatusCode::PAYLOAD_TOO_LARGE => ErrorKind::TooLarge,
            s if s.is_server_error() => ErrorKind::Internal,
            _ => ErrorKind::BadRequest,
        }
    }
}

impl From<DaemonError> for WebError {
    fn from(e: DaemonError) -> WebError {
        WebError::Internal(e.to_string())
    }
}

impl From<arbitre_store::StoreError> for WebError {
    fn from(e: arbitre_store::StoreError) -> WebError {
        WebError::Internal(e.to_string())
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let (status, kind) = match self {
            WebError::NotFound => (StatusCode::NOT_FOUND, ErrorKind::NotFound),
            WebError::Forbidden => (StatusCode::FORBIDDEN, ErrorKind::Forbidden),
            WebError::FormExpired => (StatusCode::FORBIDDEN, ErrorKind::FormExpired),
            WebError::BadRequest(why) => {
                tracing::debug!(why, "bad web request");
                (StatusCode::BAD_REQUEST, ErrorKind::BadRequest)
            }
            WebError::Internal(e) => {
                tracing::error!(error = %e, "web page failed");
                (StatusCode::INTERNAL_SERVER_ERROR, ErrorKind::Internal)
            }
        };
        let mut res = status.into_response();
        res.extensions_mut().insert(kind);
        res
    }
}

pub type WebResult<T> = std::result::Result<T, WebError>;

impl Web {
    /// Opens the daemon's database (WAL) with a connection of the web's own.
    pub fn open(
        config: DaemonConfig,
        registry: Arc<Registry>,
        clock: Arc<dyn Clock>,
    ) -> crate::error::Result<Arc<Web>> {
        let store = Store::open(&config.database)?;
        Ok(Arc::new(Web {
            config,
            registry,
            clock,
            store: Mutex::new(store),
        }))
    }

    /// Runs `f` over the web's connection on the blocking pool: SQLite and
    /// the rulesets are synchronous, and must not hold up the async workers.
    pub async fn db<T, F>(self: &Arc<Self>, f: F) -> WebResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Web, &mut Store) -> WebResult<T> + Send + 'static,
    {
        let web = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut store = web
                .store
                .lock()
                .map_err(|_| WebError::Internal("the web's database lock is poisoned".into()))?;
            f(&web, &mut store)
        })
        .await
        .map_err(|e| WebError::Internal(e.to_string()))?
    }
}

/// The largest request body the web reads: a form carrying a mail of
/// `[limits] max_mail_size` bytes, URL-encoded (up to three bytes for
/// one), and the form's other fields. The mail path then applies
/// `max_mail_size` to the order mail the form becomes, as to any mail, so
/// a form accepts what a mail accepts (axum's own default is 2 MB).
pub fn body_limit(config: &DaemonConfig) -> usize {
    config
        .max_mail_size
        .saturating_mul(3)
        .saturating_add(64 * 1024)
}

/// The game an address names, if any, and whether the game's language
/// may be shown for it whatever the game is.
struct NamedGame {
    id: String,
    /// `/games/...` is public: a game that is not public must answer there
    /// exactly as an unknown game does, so its language is not shown.
    public_only: bool,
}

impl NamedGame {
    /// `/games/<g>…`, `/play/<g>…`, `/gm/<g>…`, `/login?game=<g>`.
    fn of(uri: &axum::http::Uri) -> Option<NamedGame> {
        let path = uri.path();
        let mut parts = path.trim_start_matches('/').split('/');
        let first = parts.next()?;
        let named = |id: &str, public_only| {
            Some(id)
                .filter(|id| !id.is_empty() && id.len() <= 64)
                .map(|id| NamedGame {
                    id: id.to_string(),
                    public_only,
                })
        };
        match first {
            "games" => named(parts.next()?, true),
            "play" | "gm" => named(parts.next()?, false),
            "login" => {
                let q = axum::extract::Query::<player::LoginQuery>::try_from_uri(uri).ok()?;
                named(q.0.game?.trim(), false)
            }
            _ => None,
        }
    }
}

impl Web {
    /// The language of the pages about `game` (and its stored id, when the
    /// game exists): the game's own, as on the game's pages; else the
    /// operator's (`[web]`'s config language, `--lang`).
    ///
    /// A game that is not public keeps the operator's language on the
    /// public addresses (its 404 is an unknown game's, byte for byte). On
    /// the login and the players' and GM's addresses any game speaks its
    /// own language: a player of a private French game logs in in French.
    /// That tells a visitor that the game exists, which a mail to the
    /// referee tells too (an unknown game is answered "no game 'x'"), but
    /// never which seats it has.
    pub async fn lang_of_game(
        self: &Arc<Self>,
        game: &str,
        public_only: bool,
    ) -> (Lang, Option<String>) {
        let operator = self.config.language;
        let game = game.to_string();
        let found = self
            .db(move |web, store| {
                let Some(row) = arbitre_store::games::find_game_nocase(store.conn(), &game)? else {
                    return Ok(None);
                };
                let g = crate::daemon::GameView::new(&web.registry, row)?;
                if public_only && (!g.toml.public || g.row.id != game) {
                    return Ok(None);
                }
                Ok(Some((g.lang, g.row.id.clone())))
            })
            .await;
        match found {
            Ok(Some((lang, id))) => (lang, Some(id)),
            _ => (operator, None),
        }
    }
}

/// Every error page of the web face: a [`WebError`], and axum's own
/// rejections (an unknown address, a wrong method, a form missing a field,
/// a body over [`body_limit`]) that would otherwise be a bare English line.
/// Written in the language of the game the address names
/// ([`Web::lang_of_game`]), else the operator's: a player who follows a
/// link of a French game's pages and lands on an error reads French, as
/// the page they came from was; an address that names no game gets the
/// operator's language, as the list of games does. Pages of our own
/// (HTML already, e.g. a refused login) pass untouched.
async fn error_pages(
    axum::extract::State(web): axum::extract::State<Arc<Web>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let named = NamedGame::of(req.uri());
    let res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let html = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if html {
        return res;
    }
    let kind = res
        .extensions()
        .get::<ErrorKind>()
        .copied()
        .unwrap_or_else(|| ErrorKind::of_status(status));
    let (lang, game) = match named {
        Some(n) => web.lang_of_game(&n.id, n.public_only).await,
        None => (web.config.language, None),
    };
    let text = match kind {
        ErrorKind::NotFound => tr(lang, "web-not-found", &[]),
        ErrorKind::Forbidden => tr(lang, "web-forbidden", &[]),
        ErrorKind::FormExpired => tr(lang, "web-form-expired", &[]),
        ErrorKind::BadRequest => tr(lang, "web-bad-request", &[]),
        ErrorKind::Internal => tr(lang, "web-internal", &[]),
        ErrorKind::TooLarge => {
            let max = web.config.max_mail_size;
            tr(lang, "web-too-large", &crate::fl_args![max])
        }
    };
    let login = match &game {
        Some(g) => format!("/login?game={}", html::url_part(g)),
        None => "/login".to_string(),
    };
    let offer_login = matches!(kind, ErrorKind::Forbidden | ErrorKind::FormExpired);
    let body = maud::html! {
        p.bad { (text) }
        @if offer_login {
            p { a href=(login) { (tr(lang, "web-login", &[])) } }
        } @else {
            p { a href="/" { (tr(lang, "web-home", &[])) } }
        }
    };
    let title = game.as_deref().unwrap_or("arbitre");
    let mut page = (status, html::page_of(lang, title, game.as_deref(), body)).into_response();
    page.extensions_mut().insert(kind);
    page
}

/// Every page of the web face.
pub fn router(web: Arc<Web>) -> Router {
    let limit = body_limit(&web.config);
    Router::new()
        .route("/", get(public::list))
        .route("/style.css", get(html::stylesheet))
        .route("/games/{game}", get(public::game))
        .route("/games/{game}/turns/{turn}", get(public::turn))
        .route("/games/{game}/turns/{turn}/files/{name}", get(public::file))
        .route("/login", get(player::login_form).post(player::login))
        .route("/logout", post(player::logout))
        .route("/play/{game}", get(player::home))
        .route("/play/{game}/turns/{turn}", get(player::report))
        .route("/play/{game}/turns/{turn}/files/{name}", get(player::file))
        .route("/play/{game}/orders", post(player::orders))
        .route("/play/{game}/service", post(player::service))
        .route("/gm/{game}", get(gm::home))
        .route("/gm/{game}/command", post(gm::command))
        .layer(axum::extract::DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&web),
            error_pages,
        ))
        .with_state(web)
}

/// Serves `web` on `listen` until `stop` is set (checked every half
/// second): the body of `arbitre web` and of `serve`'s web thread.
pub fn run_blocking(
    web: Arc<Web>,
    listen: SocketAddr,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .thread_name("arbitre-web")
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        tracing::info!(%listen, "web pages served");
        axum::serve(listener, router(web))
            .with_graceful_shutdown(async move {
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                }
            })
            .await
    })
}

/// Starts the web server on a thread of its own, beside the (synchronous)
/// serve loop: `[web] listen` in arbitre.toml. The bind happens on that
/// thread; a failure to bind is logged, and the daemon goes on with mail.
pub fn spawn(
    web: Arc<Web>,
    listen: SocketAddr,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("arbitre-web".into())
        .spawn(move || {
            if let Err(e) = run_blocking(web, listen, stop) {
                tracing::error!(%listen, error = %e, "the web server stopped");
            }
        })
}
