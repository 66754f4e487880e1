//! Issue 24, the web face's language: every page about a game speaks the
//! game's language, the login and the error pages included; a page that
//! names no game speaks the operator's. A private game's public address
//! answers exactly as an unknown game's.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use crate::web;

use arbitre::web::Web;
use arbitre_core::Lang;
use axum::http::StatusCode;
use common::*;
use std::sync::Arc;
use web::*;

/// A public French game `f1` and a private French game `f2`, on an
/// English-speaking referee; `operator` is the web's language.
fn env_french() -> Env {
    let fr = |id: &str, public: bool| {
        tally_toml(id, "").replace(
            "ruleset = \"tally\"",
            &format!("ruleset = \"tally\"\npublic = {public}\nlanguage = \"fr\""),
        ) + "[services]\ngm_password = \"gm-secret\"\n"
    };
    let mut env = Env::with_game(&fr("f1", true));
    env.daemon
        .create_game(&fr("f2", false), env.dir.path())
        .unwrap();
    env
}

fn web_in(env: &Env, operator: Lang) -> Arc<Web> {
    let mut config = env.daemon.config.clone();
    config.language = operator;
    Web::open(config, Arc::clone(&env.daemon.registry), env.clock.clone()).unwrap()
}

/// The page's `<html lang>`.
fn lang_of(r: &Resp) -> &str {
    let at = r.body.find("<html lang=\"").unwrap() + 12;
    r.body[at..].split('"').next().unwrap()
}

#[tokio::test]
async fn web_error_pages_speak_the_games_language() {
    let env = env_french();
    let web = web_in(&env, Lang::En);
    // A page of a French game that does not exist: French.
    let r = get(&web, "/games/f1/turns/99", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(lang_of(&r), "fr", "{}", r.body);
    assert!(r.text().contains("Cette page n'existe pas."), "{}", r.body);
    assert!(!r.body.contains("Not found"), "{}", r.body);
    // axum's own rejection (a turn that is not a number) gets a page too.
    let r = get(&web, "/games/f1/turns/abc", None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(lang_of(&r), "fr", "{}", r.body);
    assert!(r.text().contains("L'arbitre n'a pas pu lire"), "{}", r.body);
    // A form posted without a session: French, with the game's login.
    let nonce = "0123456789abcdef0123456789abcdef";
    let form = [
        ("csrf", "x"),
        ("nonce", nonce),
        ("player", "alice"),
        ("action", "orders"),
        ("orders", "ADD 1"),
    ];
    let r = post(&web, "/play/f1/orders", None, &form).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(lang_of(&r), "fr", "{}", r.body);
    assert!(r.text().contains("Ce formulaire a expiré"), "{}", r.body);
    assert!(r.body.contains("href=\"/login?game=f1\""), "{}", r.body);
    // A form no page of ours sends (no such action): French.
    let bad = [("action", "launch")];
    let r = post(&web, "/play/f1/orders", None, &bad).await;
    assert!(r.status.is_client_error(), "{}", r.status);
    assert_eq!(lang_of(&r), "fr", "{}", r.body);
    // The GM's command without a GM session: French.
    let r = post(
        &web,
        "/gm/f1/command",
        None,
        &[("csrf", "x"), ("line", "PAUSE")],
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(lang_of(&r), "fr", "{}", r.body);
    assert!(r.text().contains("Connectez-vous"), "{}", r.body);
    // No game named: the operator's language.
    let r = get(&web, "/nowhere", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(lang_of(&r), "en", "{}", r.body);
    assert!(r.text().contains("This page does not exist."), "{}", r.body);
    let de = web_in(&env, Lang::De);
    let r = get(&de, "/nowhere", None).await;
    assert_eq!(lang_of(&r), "de", "{}", r.body);
    assert!(
        r.text().contains("Diese Seite gibt es nicht."),
        "{}",
        r.body
    );
    // The public address of a private game answers as an unknown game's,
    // to the byte: not even its language shows.
    let private = get(&web, "/games/f2", None).await;
    let unknown = get(&web, "/games/zz", None).await;
    assert_eq!(private.status, StatusCode::NOT_FOUND);
    assert_eq!(private.body, unknown.body);
    assert_eq!(lang_of(&private), "en");
}

#[tokio::test]
async fn web_login_page_speaks_the_games_language() {
    let env = env_french();
    let web = web_in(&env, Lang::En);
    for game in ["f1", "f2", "F1"] {
        let r = get(&web, &format!("/login?game={game}"), None).await;
        assert_eq!(r.status, StatusCode::OK);
        assert_eq!(lang_of(&r), "fr", "{game}: {}", r.body);
        let text = r.text();
        assert!(text.contains("Mot de passe"), "{text}");
        assert!(text.contains("le meneur de jeu"), "{text}");
        assert!(!text.contains("Password"), "{text}");
    }
    // No game, or an unknown one: the operator's language.
    for path in ["/login", "/login?game=zz", "/login?game="] {
        let r = get(&web, path, None).await;
        assert_eq!(lang_of(&r), "en", "{path}");
        assert!(r.body.contains("Password"), "{path}");
    }
    // A refused login answers in the language of the game it names.
    let form = get(&web, "/login?game=f1", None).await;
    let token = form.cookie("arbitre_login").unwrap();
    let cookie = format!("arbitre_login={token}");
    let r = post(
        &web,
        "/login",
        Some(&cookie),
        &[
            ("csrf", &token),
            ("game", "f1"),
            ("player", "alice"),
            ("password", "wrong"),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(lang_of(&r), "fr", "{}", r.body);
    assert!(r.text().contains("mot de passe erroné"), "{}", r.body);
    // The GM's login too, and the GM's page.
    let gm = session(&web, "f1", "gm", "gm-secret").await;
    let page = get(&web, "/gm/f1", Some(&gm)).await;
    assert_eq!(lang_of(&page), "fr", "{}", page.body);
    assert!(page.text().contains("en cours"), "{}", page.body);
    // A page behind the login offers no "log in" link to the one logged in
    // (its logout button is on the page).
    assert!(!page.body.contains("href=\"/login"), "{}", page.body);
    assert!(page.body.contains("action=\"/logout\""), "{}", page.body);
    let alice = session(&web, "f1", "alice", "wonderland").await;
    let home = get(&web, "/play/f1", Some(&alice)).await;
    assert_eq!(home.status, StatusCode::OK, "{}", home.body);
    assert!(!home.body.contains("href=\"/login"), "{}", home.body);
    assert!(home.body.contains("action=\"/logout\""), "{}", home.body);
    // A game's pages send its players to its own login.
    let public = get(&web, "/games/f1", None).await;
    assert!(
        public.body.contains("href=\"/login?game=f1\""),
        "{}",
        public.body
    );
}

#[tokio::test]
async fn web_list_speaks_one_language_and_private_gm_page_links_no_public_page() {
    let env = env_french();
    let web = web_in(&env, Lang::En);
    // The list is the operator's page: its words are all English, a
    // French game's state word included.
    let list = get(&web, "/", None).await;
    assert_eq!(lang_of(&list), "en");
    assert!(list.text().contains("running"), "{}", list.body);
    assert!(!list.text().contains("en cours"), "{}", list.body);
    // The GM of a private game gets no link to public pages it has not.
    let gm = session(&web, "f2", "gm", "gm-secret").await;
    let page = get(&web, "/gm/f2", Some(&gm)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(!page.body.contains("href=\"/games/f2"), "{}", page.body);
    let gm = session(&web, "f1", "gm", "gm-secret").await;
    let page = get(&web, "/gm/f1", Some(&gm)).await;
    assert!(page.body.contains("href=\"/games/f1\""), "{}", page.body);
}
