//! Helpers of the web tests (issue 24): requests through the axum router
//! with tower's `oneshot` (no socket), form encoding, and reading the
//! fields and cookies of a page.
#![allow(dead_code)] // each test file uses a part

use arbitre::web::{router, Web};
use axum::body::Body;
use axum::http::{header, HeaderMap, Request, StatusCode};
use std::sync::Arc;
use tower::ServiceExt;

pub struct Resp {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Resp {
    /// The value a `Set-Cookie` of this response gives `name`.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.set_cookie(name)
            .and_then(|c| c.split(';').next().map(str::to_string))
            .and_then(|kv| kv.split_once('=').map(|(_, v)| v.to_string()))
    }

    /// The whole `Set-Cookie` header for `name`.
    pub fn set_cookie(&self, name: &str) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with(&format!("{name}=")))
            .map(str::to_string)
    }

    pub fn location(&self) -> Option<String> {
        self.headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }

    /// The page's text with HTML's escapes undone (tags kept).
    pub fn text(&self) -> String {
        unescape(&self.body)
    }
}

pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// application/x-www-form-urlencoded.
pub fn encode(pairs: &[(&str, &str)]) -> String {
    let enc = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => {
                    (b as char).to_string()
                }
                b' ' => "+".to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

async fn send(web: &Arc<Web>, req: Request<Body>) -> Resp {
    let resp = router(Arc::clone(web)).oneshot(req).await.unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    Resp {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

pub async fn get(web: &Arc<Web>, path: &str, cookie: Option<&str>) -> Resp {
    let mut b = Request::get(path);
    if let Some(c) = cookie {
        b = b.header(header::COOKIE, c);
    }
    send(web, b.body(Body::empty()).unwrap()).await
}

pub async fn post(web: &Arc<Web>, path: &str, cookie: Option<&str>, form: &[(&str, &str)]) -> Resp {
    let mut b =
        Request::post(path).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(c) = cookie {
        b = b.header(header::COOKIE, c);
    }
    send(web, b.body(Body::from(encode(form))).unwrap()).await
}

/// The value of the first form field named `name` in a page.
pub fn field(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\" value=\""))?;
    let rest = &html[at + name.len() + 15..];
    rest.split('"').next().map(unescape)
}

/// Logs in; returns the `Cookie` header of the session.
pub async fn login(web: &Arc<Web>, game: &str, player: &str, password: &str) -> Resp {
    let form = get(web, "/login", None).await;
    let token = form.cookie("arbitre_login").unwrap();
    let cookie = format!("arbitre_login={token}");
    post(
        web,
        "/login",
        Some(&cookie),
        &[
            ("csrf", &token),
            ("game", game),
            ("player", player),
            ("password", password),
        ],
    )
    .await
}

/// The session cookie of a successful login, as a `Cookie` header.
pub async fn session(web: &Arc<Web>, game: &str, player: &str, password: &str) -> String {
    let r = login(web, game, player, password).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    format!("arbitre_session={}", r.cookie("arbitre_session").unwrap())
}
