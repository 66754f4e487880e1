//! Refusals that teach (issue 17 item 5): a refusal names what the referee
//! expected, in the game's language when the game is identifiable.
//!
//! - A header written almost right (`Mot de passe x`, `KENNWORT x`,
//!   `PASS x`, `MOT DE PASSE` without hyphens): [`near_miss`] reads the game
//!   and player it names out of the refused line, and [`near_miss_text`]
//!   shows the header line to write, with the expected keyword.
//! - An unknown game or player: [`nearest`] finds an id within edit
//!   distance 2, which the refusal suggests when the game is not secret
//!   (inbound.rs decides that: a public game, or one the sender plays in).
//! - A template's password placeholder sent back unchanged
//!   (`<mot-de-passe>`): [`is_placeholder`]; answered on its own, and never
//!   counted as a wrong-password attempt.
//!
//! All pure: inbound.rs reads the games and queues the answers.

use crate::fl_args;
use crate::i18n::tr;
use crate::services::welcome::{header_line, header_words, placeholder};
use arbitre_core::Lang;

/// The game and player a refused header line names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearMiss {
    pub game: String,
    pub player: Option<String>,
}

const GAME: &[&str] = &[
    "game",
    "partie",
    "spiel",
    "check",
    "verifier",
    "vérifier",
    "pruefen",
    "prüfen",
];
const PLAYER: &[&str] = &["player", "joueur", "spieler"];

/// The game (second word) and the player (the word after a player keyword)
/// of a header line the envelope refused.
pub fn near_miss(line: &str) -> Option<NearMiss> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words.first()?.to_lowercase();
    if !GAME.contains(&first.as_str()) {
        return None;
    }
    let game = words.get(1)?.to_string();
    let player = words
        .iter()
        .position(|w| PLAYER.contains(&w.to_lowercase().as_str()))
        .and_then(|i| words.get(i + 1))
        .map(|p| p.to_string());
    Some(NearMiss { game, player })
}

/// The answer to a near-miss header in the game's language: the keyword
/// expected and the line to write. The envelope's reason is English and
/// only goes to the journal.
pub fn near_miss_text(lang: Lang, game: &str, player: Option<&str>) -> String {
    let (_, player_word, keyword) = header_words(lang);
    let who = player.unwrap_or(match lang {
        Lang::Fr => "<joueur>",
        Lang::De => "<spieler>",
        Lang::En => "<player>",
    });
    let line = header_line(lang, game, who, placeholder(lang));
    tr(
        lang,
        "near-miss",
        &fl_args![game, keyword, player_word, line],
    )
}

/// True for a password that is a template's placeholder (`<mot-de-passe>`,
/// `<passwort>`, `<password>`, or any `<...>`): no real password is written
/// in angle brackets.
pub fn is_placeholder(password: &str) -> bool {
    let p = password.trim();
    p.len() >= 2 && p.starts_with('<') && p.ends_with('>')
}

/// The answer to a placeholder password.
pub fn placeholder_text(lang: Lang, game: &str, player: &str, written: &str) -> String {
    tr(
        lang,
        "placeholder-password",
        &fl_args![game, player, written],
    )
}

/// The id among `candidates` nearest to `wanted` (case-insensitive), when
/// within edit distance 2 and not `wanted` itself; ties go to the first.
pub fn nearest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w = wanted.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (distance(&w, &c.to_lowercase()), c))
        .filter(|(d, _)| (1..=2).contains(d))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The suggestion line appended to an unknown-game or unknown-player refusal.
pub fn suggestion(lang: Lang, id: &str) -> String {
    tr(lang, "did-you-mean", &fl_args![id])
}

/// Levenshtein distance on characters (ids are at most 40 of them).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_miss_reads_game_and_player() {
        assert_eq!(
            near_miss("SPIEL eds-001 SPIELER p2 KENNWORT x"),
            Some(NearMiss {
                game: "eds-001".into(),
                player: Some("p2".into())
            })
        );
        assert_eq!(
            near_miss("PARTIE neb JOUEUR ali Mot de passe x")
                .and_then(|n| n.player)
                .as_deref(),
            Some("ali")
        );
        assert_eq!(near_miss("Bonjour"), None);
    }

    #[test]
    fn nearest_id_within_two_edits() {
        let ids = ["neb-001", "eds-001", "wwk-7"];
        assert_eq!(nearest("neb-01", ids), Some("neb-001"));
        assert_eq!(nearest("NEB-002", ids), Some("neb-001"));
        assert_eq!(nearest("zzz", ids), None);
        assert_eq!(nearest("neb-001", ["neb-001"]), None);
        assert!(is_placeholder("<mot-de-passe>") && !is_placeholder("x<y>"));
    }
}
