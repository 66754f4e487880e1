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
use crate::registry::Registry;
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
/// the visitor (it is logged).
#[derive(Debug)]
pub enum WebError {
    NotFound,
    /// A form without the right CSRF token, or a page that needs a login.
    Forbidden,
    BadRequest(String),
    Internal(String),
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
        let (status, text) = match self {
            WebError::NotFound => (StatusCode::NOT_FOUND, "Not found".to_string()),
            WebError::Forbidden => (StatusCode::FORBIDDEN, "Forbidden".to_string()),
            WebError::BadRequest(t) => (StatusCode::BAD_REQUEST, t),
            WebError::Internal(e) => {
                tracing::error!(error = %e, "web page failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "The referee could not serve this page; the error is in its log.".to_string(),
                )
            }
        };
        // An error knows no game and no operator: its few words stay English.
        (
            status,
            html::page(arbitre_core::Lang::En, "arbitre", html::message(&text)),
        )
            .into_response()
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

/// An over-size form gets a page that says so, in the operator's language,
/// rather than axum's bare 413.
async fn too_large(
    axum::extract::State(web): axum::extract::State<Arc<Web>>,
    res: Response,
) -> Response {
    if res.status() != StatusCode::PAYLOAD_TOO_LARGE {
        return res;
    }
    let lang = web.config.language;
    let max = web.config.max_mail_size;
    let text = crate::i18n::tr(lang, "web-too-large", &crate::fl_args![max]);
    let body = maud::html! { p.bad { (text) } };
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        html::page(lang, "arbitre", body),
    )
        .into_response()
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
        .layer(axum::middleware::map_response_with_state(
            Arc::clone(&web),
            too_large,
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
