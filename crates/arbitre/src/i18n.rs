//! The one message catalogue (issue 16 item 3): every text the daemon, its
//! services and the command line show a person is a Fluent message in
//! `locales/{en,fr,de}.ftl`, one file per language that a translator edits
//! without touching Rust. The files are embedded with `include_str!`, so the
//! binary needs no file at run time.
//!
//! Invariants:
//! - Every id exists in every language with the same variables
//!   (tests/catalogue.rs parses the three files and compares them), and every
//!   id the code looks up through [`tr`] exists (the same test walks the
//!   sources for `tr(` calls and the typed catalogues' ids).
//! - Output is byte-identical to the texts the golden fixtures hold: Unicode
//!   isolation marks are off, and every argument is passed as text (numbers
//!   are formatted by Rust before they reach Fluent, so no locale grouping or
//!   plural machinery can change a digit).
//! - A missing id or a bad argument never panics: the lookup logs and falls
//!   back to the id itself, so a mail still goes out.
//!
//! Reports are not here: the rulesets keep their own report notation.

use arbitre_core::Lang;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::sync::OnceLock;

/// The English catalogue (also the command line's default language).
pub const EN_FTL: &str = include_str!("../locales/en.ftl");
/// The French catalogue.
pub const FR_FTL: &str = include_str!("../locales/fr.ftl");
/// The German catalogue.
pub const DE_FTL: &str = include_str!("../locales/de.ftl");

/// Every language and its catalogue source, for the tests and `tr`.
pub const CATALOGUES: [(Lang, &str); 3] =
    [(Lang::En, EN_FTL), (Lang::Fr, FR_FTL), (Lang::De, DE_FTL)];

type Bundle = FluentBundle<FluentResource>;

fn build(lang: Lang, source: &str) -> Bundle {
    let locale = lang.code().parse().unwrap_or_default();
    let mut bundle = Bundle::new_concurrent(vec![locale]);
    // The golden mails hold plain text: no U+2068/U+2069 around arguments.
    bundle.set_use_isolating(false);
    let resource = match FluentResource::try_new(source.to_owned()) {
        Ok(r) => r,
        Err((r, errors)) => {
            // Keep every message that did parse; the catalogue test fails on
            // any syntax error, so this only guards a hand-edited build.
            tracing::error!(
                lang = lang.code(),
                ?errors,
                "message catalogue has syntax errors"
            );
            r
        }
    };
    bundle.add_resource_overriding(resource);
    bundle
}

fn bundle(lang: Lang) -> &'static Bundle {
    static EN: OnceLock<Bundle> = OnceLock::new();
    static FR: OnceLock<Bundle> = OnceLock::new();
    static DE: OnceLock<Bundle> = OnceLock::new();
    match lang {
        Lang::En => EN.get_or_init(|| build(Lang::En, EN_FTL)),
        Lang::Fr => FR.get_or_init(|| build(Lang::Fr, FR_FTL)),
        Lang::De => DE.get_or_init(|| build(Lang::De, DE_FTL)),
    }
}

/// The message `id` in `lang`, its `{ $name }` variables filled from `args`
/// (already formatted by the caller: see the module's invariants).
pub fn tr(lang: Lang, id: &str, args: &[(&str, String)]) -> String {
    let bundle = bundle(lang);
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        tracing::error!(lang = lang.code(), id, "message missing from the catalogue");
        return id.to_owned();
    };
    let mut fargs = FluentArgs::with_capacity(args.len());
    for (name, value) in args {
        fargs.set(*name, FluentValue::from(value.as_str()));
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fargs), &mut errors);
    if !errors.is_empty() {
        tracing::error!(
            lang = lang.code(),
            id,
            ?errors,
            "message formatted with errors"
        );
    }
    text.into_owned()
}

/// A message's arguments: `fl_args![game, turn]` passes each local
/// variable under its own name, formatted with `Display`;
/// `fl_args![game = gid]` passes a value under another name.
#[macro_export]
macro_rules! fl_args {
    ($($name:ident $(= $value:expr)?),* $(,)?) => {{
        // A Vec, so that every arm of a lookup `match` has one type; a
        // direct `tr(…, &fl_args![…])` would do with a slice.
        #[allow(clippy::useless_vec)]
        let args: Vec<(&'static str, String)> =
            vec![$((stringify!($name), $crate::fl_args!(@value $name $(, $value)?).to_string())),*];
        args
    }};
    // `name = value`: a variable named otherwise than the value's binding.
    (@value $name:ident) => {
        $name
    };
    (@value $name:ident, $value:expr) => {
        $value
    };
}

/// A message id and its arguments, ready for [`tr`].
pub type Lookup = (&'static str, Vec<(&'static str, String)>);

/// The command line's language: `--lang` if given, else the locale's
/// (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English.
pub fn cli_lang(flag: Option<&str>, env: impl Fn(&str) -> Option<String>) -> Lang {
    if let Some(l) = flag.and_then(Lang::parse) {
        return l;
    }
    for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        if let Some(v) = env(var).filter(|v| !v.is_empty()) {
            // "fr_FR.UTF-8" → "fr"; "C" and "POSIX" mean the default.
            let code: String = v.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            return Lang::parse(&code).unwrap_or(Lang::En);
        }
    }
    Lang::En
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_lang_follows_flag_then_locale_then_english() {
        let none = |_: &str| None;
        assert_eq!(cli_lang(None, none), Lang::En);
        assert_eq!(cli_lang(Some("de"), none), Lang::De);
        let fr = |v: &str| (v == "LANG").then(|| "fr_FR.UTF-8".to_owned());
        assert_eq!(cli_lang(None, fr), Lang::Fr);
        assert_eq!(cli_lang(Some("en"), fr), Lang::En);
        let c = |v: &str| (v == "LC_ALL").then(|| "C".to_owned());
        assert_eq!(cli_lang(None, c), Lang::En);
    }

    #[test]
    fn missing_id_falls_back_to_the_id() {
        assert_eq!(tr(Lang::Fr, "no-such-message", &[]), "no-such-message");
    }
}
