//! HELP / AIDE / HILFE and LIST / LISTE by mail (issue 17 item 2): answered
//! without an order block and without a password.
//!
//! A mail whose first line of text (quoted lines and blank lines skipped) is
//! `HELP [game]`, `AIDE [partie]`, `HILFE [Spiel]` is a [`Bare::Help`]; one
//! whose first line is `LIST` / `LISTE` is a [`Bare::List`]. [`bare`] reads
//! them from the mail's text (no database); [`help_text`] and [`list_text`]
//! render the answers from plain facts. inbound.rs reads the facts and
//! queues the answer (a mail of no order block, so it is counted by the
//! flood limit like any stranger's mail).

use crate::fl_args;
use crate::i18n::tr;
use crate::services::welcome::{check_words, header_line, header_words, placeholder};
use arbitre_core::Lang;

/// A request written without an order block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bare {
    /// The keyword's language (AIDE: French...), and the game named after it.
    Help { lang: Lang, game: Option<String> },
    /// `LIST` / `LISTE`: the public games.
    List { lang: Option<Lang> },
    /// `JOIN <game> [name]` / `REJOINDRE` / `BEITRETEN` (issue 17 item 3,
    /// signup.rs): the keyword's language, the game, the name asked for.
    Join {
        lang: Lang,
        game: String,
        name: Option<String>,
    },
}

const HELP: &[(&str, Lang)] = &[("help", Lang::En), ("aide", Lang::Fr), ("hilfe", Lang::De)];
/// The sign-up keyword's language (`JOIN <game> [name]`, issue 17 item 3).
fn join_keyword(word: &str) -> Option<Lang> {
    match word {
        "join" => Some(Lang::En),
        "rejoindre" => Some(Lang::Fr),
        "beitreten" => Some(Lang::De),
        _ => None,
    }
}

/// The request a mail's text opens with, if it is one. Only the first line
/// that holds text counts, so a HELP further down a letter is prose.
pub fn bare(text: &str) -> Option<Bare> {
    let line = text
        .lines()
        .map(str::trim)
        .take_while(|l| *l != "--")
        .find(|l| !l.is_empty() && !l.starts_with('>'))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words
        .first()?
        .trim_end_matches([':', '.', '!', '?'])
        .to_lowercase();
    if let Some((_, lang)) = HELP.iter().find(|(w, _)| *w == first) {
        if words.len() > 2 {
            return None;
        }
        return Some(Bare::Help {
            lang: *lang,
            game: words.get(1).map(|g| g.to_string()),
        });
    }
    if let Some(lang) = join_keyword(&first) {
        let (game, name) = words.get(1..).and_then(|r| r.split_first())?;
        let name = (!name.is_empty()).then(|| name.join(" "));
        return Some(Bare::Join {
            lang,
            game: game.to_string(),
            name,
        });
    }
    if words.len() == 1 {
        match first.as_str() {
            "list" => {
                return Some(Bare::List {
                    lang: Some(Lang::En),
                })
            }
            // French and German both write LISTE.
            "liste" => return Some(Bare::List { lang: None }),
            _ => {}
        }
    }
    None
}

/// What HELP says about a named game.
pub struct GameHelp<'a> {
    pub game: &'a str,
    pub ruleset_name: &'a str,
    pub turn: u32,
    pub deadline: Option<String>,
    pub notes: Option<&'a str>,
}

/// The answer to HELP, in `lang`: the commands, the header line in the
/// three languages, and the named game's facts and notes.
pub fn help_text(lang: Lang, game: Option<&GameHelp<'_>>) -> String {
    let mut parts = vec![tr(lang, "help-intro", &[])];
    let (check, help, end) = check_words(lang);
    let headers: Vec<String> = [Lang::Fr, Lang::De, Lang::En]
        .into_iter()
        .map(|l| {
            format!(
                "    {}",
                header_line(l, "<game>", "<player>", placeholder(l))
                    .replace("<game>", game_word(l))
                    .replace("<player>", player_word(l))
            )
        })
        .collect();
    let headers = headers.join("\n");
    let (g, _, _) = header_words(lang);
    parts.push(tr(lang, "help-header", &fl_args![headers, g, check, end]));
    parts.push(tr(lang, "help-commands", &fl_args![help]));
    // Always named (issue 17 item 3): HELP reads no database, and LIST
    // tells which games have their sign-up open.
    let join = join_word(lang);
    parts.push(tr(lang, "help-join", &fl_args![join]));
    if let Some(h) = game {
        let (game, ruleset, turn) = (h.game, h.ruleset_name, h.turn);
        parts.push(tr(lang, "help-game", &fl_args![game, ruleset, turn]));
        if let Some(when) = &h.deadline {
            parts.push(tr(lang, "help-game-deadline", &fl_args![when]));
        }
        if let Some(notes) = h.notes.map(str::trim).filter(|n| !n.is_empty()) {
            parts.push(notes.to_string());
        }
    }
    parts.join("\n\n")
}

/// The sign-up keyword in `lang`.
pub fn join_word(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => "REJOINDRE",
        Lang::De => "BEITRETEN",
        Lang::En => "JOIN",
    }
}

fn game_word(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => "<partie>",
        Lang::De => "<spiel>",
        Lang::En => "<game>",
    }
}

fn player_word(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => "<joueur>",
        Lang::De => "<spieler>",
        Lang::En => "<player>",
    }
}

/// One public game as LIST shows it.
pub struct Listed {
    pub game: String,
    pub ruleset_name: String,
    pub turn: u32,
    pub deadline: Option<String>,
    /// Whether the game takes sign-ups by mail (issue 17 item 3).
    pub signup: ListedSignup,
}

/// A listed game's sign-up by mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListedSignup {
    Closed,
    /// `JOIN` is open; the seats left under `max_players`, if it is set.
    Open {
        free: Option<u32>,
    },
}

/// The answer to LIST.
pub fn list_text(lang: Lang, games: &[Listed]) -> String {
    if games.is_empty() {
        return tr(lang, "list-empty", &[]);
    }
    let mut out = tr(lang, "list-intro", &[]);
    for g in games {
        let (game, ruleset, turn) = (&g.game, &g.ruleset_name, g.turn);
        let when = g.deadline.clone().unwrap_or_else(|| "-".into());
        let seats = match g.signup {
            ListedSignup::Open { free } => {
                let join = join_word(lang);
                let mut s = tr(lang, "list-signup-open", &fl_args![join, game]);
                if let Some(free) = free {
                    s.push_str(", ");
                    s.push_str(&tr(lang, "list-free-seats", &fl_args![free]));
                }
                s
            }
            ListedSignup::Closed => tr(lang, "list-no-signup", &[]),
        };
        out.push('\n');
        out.push_str(&tr(
            lang,
            "list-game",
            &fl_args![game, ruleset, turn, when, seats],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_and_list_are_read_from_the_first_line_only() {
        assert_eq!(
            bare("\n  AIDE neb-001\n"),
            Some(Bare::Help {
                lang: Lang::Fr,
                game: Some("neb-001".into())
            })
        );
        assert_eq!(
            bare("Hilfe!\n"),
            Some(Bare::Help {
                lang: Lang::De,
                game: None
            })
        );
        assert_eq!(bare("> HELP\nLISTE\n"), Some(Bare::List { lang: None }));
        assert_eq!(bare("Hello,\nHELP\n"), None);
        assert_eq!(bare("help me with my fleet please\n"), None);
        assert_eq!(
            bare("REJOINDRE scn-001 Dora la Grande\n"),
            Some(Bare::Join {
                lang: Lang::Fr,
                game: "scn-001".into(),
                name: Some("Dora la Grande".into())
            })
        );
        assert_eq!(
            bare("beitreten eds-001\n"),
            Some(Bare::Join {
                lang: Lang::De,
                game: "eds-001".into(),
                name: None
            })
        );
        assert_eq!(bare("Join\n"), None, "JOIN names a game");
    }

    #[test]
    fn help_gives_the_header_in_three_languages() {
        let t = help_text(Lang::De, None);
        for h in [
            "PARTIE <partie> JOUEUR <joueur> MOT-DE-PASSE <mot-de-passe>",
            "SPIEL <spiel> SPIELER <spieler> PASSWORT <passwort>",
            "GAME <game> PLAYER <player> PASSWORD <password>",
        ] {
            assert!(t.contains(h), "{t}");
        }
    }
}
