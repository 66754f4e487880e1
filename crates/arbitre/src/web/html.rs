//! The pages' frame (issue 24 item 1): one layout, one small stylesheet
//! readable on a phone, no script needed. maud escapes every text it is
//! given, so a player's name or a report line can never become markup.

use crate::i18n::tr;
use arbitre_core::Lang;
use axum::http::header;
use axum::response::IntoResponse;
use maud::{html, Markup, DOCTYPE};

/// One stylesheet for every page: a readable column on a phone, reports in
/// a monospaced block that scrolls sideways rather than wrapping columns.
pub const CSS: &str = "\
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:.5rem 1rem;line-height:1.4;color:#1b1b1b;background:#fdfdfb}\
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:baseline;border-bottom:1px solid #ccc;margin-bottom:1rem}\
header a{font-weight:bold;text-decoration:none;color:#234}\
pre{background:#f3f3ef;padding:.5rem;overflow-x:auto;font-size:.85rem;line-height:1.25}\
table{border-collapse:collapse;width:100%;font-size:.95rem}\
td,th{border-bottom:1px solid #ddd;padding:.25rem .4rem;text-align:left;vertical-align:top}\
textarea{width:100%;min-height:14rem;font-family:monospace;font-size:.9rem;box-sizing:border-box}\
input,button,select{font-size:1rem;margin:.2rem 0}\
label{display:block;margin-top:.4rem}\
img.map{max-width:100%;height:auto;border:1px solid #ccc;background:#fff}\
.note{color:#555;font-size:.9rem}\
.ok{background:#e9f6e9;padding:.5rem;border-left:4px solid #3a3}\
.bad{background:#fbeaea;padding:.5rem;border-left:4px solid #c33}\
form.inline{display:inline}\
";

/// GET /style.css
pub async fn stylesheet() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "max-age=3600"),
        ],
        CSS,
    )
}

/// A whole page around `body`, its chrome (the `<html lang>`, the header's
/// links) in `lang`: the game's language on a game's pages, the operator's
/// (`Daemon::lang`, `--lang`) elsewhere.
pub fn page(lang: Lang, title: &str, body: Markup) -> Markup {
    page_of(lang, title, None, body)
}

/// [`page`] for the pages of one game: the header's login link names the
/// game, so the login form comes filled in and in the game's language.
pub fn page_of(lang: Lang, title: &str, game: Option<&str>, body: Markup) -> Markup {
    let login = match game {
        Some(g) => format!("/login?game={}", url_part(g)),
        None => "/login".to_string(),
    };
    frame(lang, title, Some(&login), body)
}

/// [`page_of`] for a page behind a login (a player's or the game master's):
/// its header offers no "log in" link to someone who is logged in; the
/// page's own logout button ends the session.
pub fn signed_in_page(lang: Lang, title: &str, body: Markup) -> Markup {
    frame(lang, title, None, body)
}

fn frame(lang: Lang, title: &str, login: Option<&str>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href="/style.css";
            }
            body {
                header {
                    a href="/" { "arbitre" }
                    @if let Some(login) = login {
                        a href=(login) { (tr(lang, "web-login", &[])) }
                    }
                }
                main { (body) }
            }
        }
    }
}

/// A page that only says `text`.
pub fn message(text: &str) -> Markup {
    html! { p { (text) } }
}

/// A report or a confirmation: text in its original notation.
pub fn notation(text: &str) -> Markup {
    html! { pre { (text) } }
}

/// An attachment as the page shows it: an image for a map (SVG, PNG), a
/// link for anything else.
pub fn attachment(href: &str, name: &str, mime: &str) -> Markup {
    html! {
        @if mime.starts_with("image/") {
            figure {
                img.map src=(href) alt=(name);
                figcaption.note { a href=(href) { (name) } }
            }
        } @else {
            p { a href=(href) { (name) } " (" (mime) ")" }
        }
    }
}

/// A file name safe to put in a URL path segment.
pub fn file_href(prefix: &str, name: &str) -> String {
    format!("{prefix}/{}", url_part(name))
}

/// `s` percent-encoded for a URL's path segment or query value.
pub fn url_part(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_escapes_report_text() {
        let p = notation("<script>alert(1)</script> & co");
        let s = p.into_string();
        assert!(!s.contains("<script>"), "{s}");
        assert!(s.contains("&lt;script&gt;"), "{s}");
    }

    #[test]
    fn file_href_encodes_odd_names() {
        assert_eq!(file_href("/x", "carte-t3.svg"), "/x/carte-t3.svg");
        assert_eq!(file_href("/x", "a b/c"), "/x/a%20b%2Fc");
    }
}
