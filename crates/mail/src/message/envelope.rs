//! The order block inside a mail text:
//!
//! ```text
//! Bonjour l'arbitre,                       <- ignored
//! PARTIE neb1 JOUEUR alice MOT-DE-PASSE x  <- header (line 2)
//! F1 M W3                                  <- orders line 1
//! FIN                                      <- end (optional)
//! ```
//!
//! Keywords exist in English, French and German because the four games'
//! players write in those languages; they are case-insensitive and may be
//! mixed. Tokens are separated by any Unicode whitespace, including tabs and
//! the no-break spaces that HTML mail and some word processors insert.
//!
//! Quoted lines (`>`) never count: neither as a header (a reply quoting the
//! referee's previous confirmation must not be taken as new orders) nor as
//! orders. A signature (`-- ` line) and an Outlook-style "Original Message"
//! separator end the text. Lines dropped inside the block stay in `orders` as
//! empty lines, so line N of `orders` is line `header_line + N` of the text and
//! the order parser's diagnostics can name the line the player sees.
//!
//! The game specifications also write headers over several lines, one
//! `KEY value` per line, and players paste them from their templates, so
//! these are recognised too: Scrambled Nations (§6.1: `GAME`, `PLAYER`,
//! `TURN`, optional `PASSWORD`), WWK (§3.1: `WWK ORDERS`, `GAME`, `TURN`,
//! `NATION`, `KEY`) and Evolution der Sterne (§3.4.1):
//!
//! ```text
//! EDS BEFEHLE                <- header (line 1)
//! GALAXIS: ANDROMEDA         <- game        (blanked in `orders`)
//! HERRSCHER: 07              <- player, as written (blanked)
//! KENNWORT: sonne42          <- password    (blanked: never echoed)
//! MONAT: J1/M4               <- kept: the ruleset checks the turn (EDS-15, SCN-53)
//! [3 STATUS]
//! ...
//! ENDE
//! ```
//!
//! A multi-line header needs a title line or a `GAME <id>` line followed by
//! a player line; the password is optional except for EDS (an empty password
//! never matches a stored one, so the daemon still refuses the mail where one
//! is required).
//!
//! A per-player token (issue 10, a game master may give one to each player
//! besides the password) belongs to the header, never to the orders: after
//! the password on the header line (`GAME g PLAYER p PASSWORD x TOKEN t`),
//! on the line right after a one-line header (`TOKEN t`, `JETON t`,
//! `MARKE t`, a colon allowed), or as one more `KEY value` line of a
//! multi-line header. Its line is blanked in `orders` like the password's,
//! so it is never echoed.
//!
//! Choice where the spec is silent: a line whose first word is a block keyword
//! and which also contains a player or password keyword, but is not a
//! well-formed header, is *malformed* (the player tried and needs to know
//! why). A line like "Game on!" is just text. The first well-formed header
//! wins; a malformed one is reported only when no well-formed one exists.

use crate::message::parse::InboundMail;

/// What the block asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// Orders to store for the current turn.
    Orders,
    /// Only check the orders and answer with the diagnostics; store nothing.
    Check,
}

/// A recognised block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    pub kind: BlockKind,
    pub game: String,
    pub player: String,
    pub password: String,
    /// The per-player token, when the block gives one (see the module doc).
    pub token: Option<String>,
    /// 1-based line number of the header within the text.
    pub header_line: usize,
    /// The block's lines after the header, each ending in `\n`, quoted lines
    /// blanked; line N is line `header_line + N` of the text.
    pub orders: String,
    /// Reserved for service commands (line, command); empty for now.
    pub commands: Vec<(usize, String)>,
}

/// Why no block could be taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvelopeError {
    /// No text contains a header line.
    NoBlock,
    /// A header was attempted but is not well formed.
    Malformed {
        line: usize,
        text: String,
        reason: String,
    },
}

impl std::fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EnvelopeError::NoBlock => write!(
                f,
                "no order block found (expected a line GAME <game> PLAYER <player> PASSWORD <password>)"
            ),
            EnvelopeError::Malformed { line, text, reason } => {
                write!(f, "line {line}: {reason}: {text}")
            }
        }
    }
}

impl std::error::Error for EnvelopeError {}

const GAME_WORDS: &[&str] = &["game", "partie", "spiel"];
const CHECK_WORDS: &[&str] = &["check", "verifier", "vérifier", "pruefen", "prüfen"];
const PLAYER_WORDS: &[&str] = &["player", "joueur", "spieler"];
const PASSWORD_WORDS: &[&str] = &["password", "mot-de-passe", "motdepasse", "passwort"];
const END_WORDS: &[&str] = &["end", "fin", "ende"];
const TOKEN_WORDS: &[&str] = &["token", "jeton", "marke"];

/// True when `token` in lower case is one of `words` (lower case). Compared
/// character by character: every line of every mail is looked at, and a
/// lowered copy per token was a share of reading a mail (issue 22 item 1).
/// The same verdict as `words.contains(&token.to_lowercase())`: no word has
/// a Σ, the one letter `str::to_lowercase` treats by its context.
fn is_word(token: &str, words: &[&str]) -> bool {
    words
        .iter()
        .any(|w| token.chars().flat_map(char::to_lowercase).eq(w.chars()))
}

fn tokens(line: &str) -> Vec<&str> {
    line.split(char::is_whitespace)
        .filter(|t| !t.is_empty())
        .collect()
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

fn is_signature(line: &str) -> bool {
    line == "-- " || line.trim_end() == "--"
}

/// Outlook and other clients quote the previous mail below such a line,
/// without `>` prefixes.
fn is_original_message_separator(line: &str) -> bool {
    // Lower-casing keeps blanks and dashes where they are, so the first
    // letter is known before any copy: a line not starting with o, m or u
    // (nearly every line) is no separator.
    let first = line.trim().trim_matches('-').trim().chars().next();
    match first {
        None => return false,
        Some(c) if c.is_ascii() && !matches!(c.to_ascii_lowercase(), 'o' | 'm' | 'u') => {
            return false
        }
        Some(_) => {}
    }
    let t = line.trim().to_lowercase();
    let t = t.trim_matches('-').trim();
    t.starts_with("original message")
        || t.starts_with("message d'origine")
        || t.starts_with("message d’origine")
        || t.starts_with("ursprüngliche nachricht")
        || t.starts_with("ursprungliche nachricht")
}

/// Result of looking at one line as a header candidate.
enum Header {
    None,
    Valid(BlockKind, String, String, String, Option<String>),
    Malformed(String),
}

fn parse_header(line: &str) -> Header {
    if is_quoted(line) {
        return Header::None;
    }
    let t = tokens(line);
    let Some(first) = t.first() else {
        return Header::None;
    };
    let kind = if is_word(first, GAME_WORDS) {
        BlockKind::Orders
    } else if is_word(first, CHECK_WORDS) {
        BlockKind::Check
    } else {
        return Header::None;
    };
    let has_player = t.iter().any(|w| is_word(w, PLAYER_WORDS));
    let has_password = t.iter().any(|w| is_word(w, PASSWORD_WORDS));
    if !has_player && !has_password {
        // "Game on!" or "Check this out": ordinary prose.
        return Header::None;
    }
    if t.len() < 6 || !is_word(t[2], PLAYER_WORDS) || !is_word(t[4], PASSWORD_WORDS) {
        let reason = if !has_player {
            "missing PLAYER <player>"
        } else if !has_password {
            "missing PASSWORD <password>"
        } else if t.len() < 6 {
            "expected GAME <game> PLAYER <player> PASSWORD <password>: a value is missing"
        } else {
            "expected GAME <game> PLAYER <player> PASSWORD <password> in this order"
        };
        return Header::Malformed(reason.to_owned());
    }
    let token = match &t[6..] {
        [] => None,
        [word, value] if is_word(word, TOKEN_WORDS) => Some((*value).to_owned()),
        [word] if is_word(word, TOKEN_WORDS) => {
            return Header::Malformed("TOKEN without a value".to_owned())
        }
        rest => {
            return Header::Malformed(format!(
                "unexpected text after the password: {}",
                rest.join(" ")
            ))
        }
    };
    Header::Valid(
        kind,
        t[1].to_owned(),
        t[3].to_owned(),
        t[5].to_owned(),
        token,
    )
}

/// Title lines that open a multi-line header in the specifications:
/// `EDS BEFEHLE` (EDS §3.4.1) and `WWK ORDERS` (WWK §3.1).
fn is_title(line: &str) -> bool {
    if is_quoted(line) {
        return false;
    }
    let t = tokens(line);
    t.len() == 2
        && ((t[0].eq_ignore_ascii_case("EDS") && t[1].eq_ignore_ascii_case("BEFEHLE"))
            || (t[0].eq_ignore_ascii_case("WWK") && t[1].eq_ignore_ascii_case("ORDERS")))
}

/// Role of one line of a multi-line header.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Game,
    Player,
    Password,
    /// TURN / TOUR / MONAT...: kept in `orders`, the ruleset checks it.
    Turn,
    /// TOKEN / JETON / MARKE: the per-player token (blanked).
    Token,
}

const MULTI_GAME: &[&str] = &["game", "partie", "spiel", "galaxis"];
const MULTI_PLAYER: &[&str] = &["player", "joueur", "spieler", "nation", "herrscher"];
const MULTI_PASSWORD: &[&str] = &[
    "password",
    "mot-de-passe",
    "motdepasse",
    "passwort",
    "key",
    "kennwort",
];
const MULTI_TURN: &[&str] = &["turn", "tour", "zug", "monat"];

/// `KEY value` or `KEY: value` with a known key; returns the field and the
/// value (one token, except after a colon where the rest of the line counts).
fn header_field(line: &str) -> Option<(Field, String)> {
    if is_quoted(line) {
        return None;
    }
    // Borrowed until the key is known: most lines of a mail are not
    // header lines, and copying every line's words was a share of reading
    // a mail (issue 22 item 1).
    let (key, value) = match line.split_once(':') {
        Some((k, v)) if tokens(k).len() == 1 => (k.trim(), v.trim()),
        _ => {
            let mut t = line.split(char::is_whitespace).filter(|t| !t.is_empty());
            match (t.next(), t.next(), t.next()) {
                (Some(k), Some(v), None) => (k, v),
                _ => return None,
            }
        }
    };
    let field = if is_word(key, MULTI_GAME) {
        Field::Game
    } else if is_word(key, MULTI_PLAYER) {
        Field::Player
    } else if is_word(key, MULTI_PASSWORD) {
        Field::Password
    } else if is_word(key, MULTI_TURN) {
        Field::Turn
    } else if is_word(key, TOKEN_WORDS) {
        Field::Token
    } else {
        return None;
    };
    Some((field, value.to_owned()))
}

/// A multi-line header starting at `idx` (a title line, or a `GAME <id>`
/// line), as the SCN (§6.1), WWK (§3.1) and EDS (§3.4.1) specifications
/// write them: one `KEY value` per line, in any order, up to the first other
/// line. Returns the header and the number of lines it spans after `idx`.
fn multi_line_header(lines: &[&str], idx: usize) -> Option<(Header, usize)> {
    let titled = is_title(lines[idx]);
    if !titled && !matches!(header_field(lines[idx]), Some((Field::Game, _))) {
        return None;
    }
    let (mut game, mut player, mut password, mut token) = (None, None, None, None);
    let start = if titled { idx + 1 } else { idx };
    let mut end = start;
    while end < lines.len() {
        match header_field(lines[end]) {
            Some((Field::Game, v)) => game = Some(v),
            Some((Field::Player, v)) => player = Some(v),
            Some((Field::Password, v)) => password = Some(v),
            Some((Field::Turn, _)) => {}
            Some((Field::Token, v)) => token = Some(v),
            None => break,
        }
        end += 1;
    }
    if !titled && player.is_none() {
        // "Game on" style prose, or a lone GAME line: not a header.
        return None;
    }
    let eds = titled && tokens(lines[idx])[0].eq_ignore_ascii_case("EDS");
    let mut missing = Vec::new();
    if game.as_deref().is_none_or(str::is_empty) {
        missing.push(if eds { "GALAXIS:" } else { "GAME" });
    }
    if player.as_deref().is_none_or(str::is_empty) {
        missing.push(if eds { "HERRSCHER:" } else { "PLAYER" });
    }
    // EDS requires its KENNWORT; SCN and WWK make the password optional
    // (an empty password never matches a stored one).
    if eds && password.as_deref().is_none_or(str::is_empty) {
        missing.push("KENNWORT:");
    }
    let header = if missing.is_empty() {
        Header::Valid(
            BlockKind::Orders,
            game.unwrap_or_default(),
            player.unwrap_or_default(),
            password.unwrap_or_default(),
            token.filter(|t| !t.is_empty()),
        )
    } else {
        Header::Malformed(format!("header without {}", missing.join(" ")))
    };
    Some((header, end.saturating_sub(idx + 1)))
}

fn is_end(line: &str) -> bool {
    // One token: the trimmed line, when no blank is left inside it.
    let t = line.trim();
    !t.is_empty() && !t.contains(char::is_whitespace) && is_word(t, END_WORDS) && !is_quoted(line)
}

/// Finds the order block in one text.
pub fn find_envelope(text: &str) -> Result<Envelope, EnvelopeError> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut first_malformed: Option<EnvelopeError> = None;
    for (idx, line) in lines.iter().enumerate() {
        if is_signature(line) || is_original_message_separator(line) {
            break;
        }
        let (header, header_rest) = match parse_header(line) {
            Header::None => multi_line_header(&lines, idx).unwrap_or((Header::None, 0)),
            Header::Valid(kind, game, player, password, None) => {
                match lines.get(idx + 1).and_then(|l| header_field(l)) {
                    // `TOKEN t` on the line right after a one-line header.
                    Some((Field::Token, t)) if !t.is_empty() => {
                        (Header::Valid(kind, game, player, password, Some(t)), 1)
                    }
                    _ => (Header::Valid(kind, game, player, password, None), 0),
                }
            }
            single => (single, 0),
        };
        match header {
            Header::None => {}
            Header::Malformed(reason) => {
                if first_malformed.is_none() {
                    first_malformed = Some(EnvelopeError::Malformed {
                        line: idx + 1,
                        text: line.trim().to_owned(),
                        reason,
                    });
                }
            }
            Header::Valid(kind, game, player, password, token) => {
                let mut orders = block_body(&lines[idx + 1..]);
                if header_rest > 0 {
                    orders = blank_header_lines(&orders, header_rest);
                    while orders.ends_with("\n\n") || orders == "\n" {
                        orders.pop();
                    }
                }
                return Ok(Envelope {
                    kind,
                    game,
                    player,
                    password,
                    token,
                    header_line: idx + 1,
                    orders,
                    commands: Vec::new(),
                });
            }
        }
    }
    Err(first_malformed.unwrap_or(EnvelopeError::NoBlock))
}

/// The lines after the header up to END (or the signature, or the end of the
/// text), with quoted lines blanked to keep the numbering.
fn block_body(lines: &[&str]) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for line in lines {
        if is_signature(line) || is_original_message_separator(line) {
            break;
        }
        if is_end(line) {
            break;
        }
        kept.push(if is_quoted(line) { "" } else { line });
    }
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    // Sized at once: grown by doubling, a 10 MiB block could hold 16 MiB.
    let mut orders = String::with_capacity(kept.iter().map(|l| l.len() + 1).sum());
    for line in kept {
        orders.push_str(line);
        orders.push('\n');
    }
    orders
}

/// Blanks the first `n` lines of `orders` except TURN-like ones: the rest of
/// a multi-line header (game, player, password) is not orders, and the
/// password must never be echoed in a confirmation.
fn blank_header_lines(orders: &str, n: usize) -> String {
    let mut out = String::with_capacity(orders.len());
    for (i, line) in orders.lines().enumerate() {
        let keep = i >= n || matches!(header_field(line), Some((Field::Turn, _)));
        if keep {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Every block of one text, in order (issue 17 item 6: a player in
/// several games sends one mail with one block per game). The first is
/// [`find_envelope`]'s; a further block is looked for only after the END
/// line that closes the one before — a block without END runs to the end
/// of the text, as it always did, so a mail of one block reads as before.
/// Each block's `header_line` counts from the text's first line. After the
/// first block, a text without a further well-formed header (or with a
/// malformed one) ends the list: those lines are the mail's prose.
pub fn find_envelopes(text: &str) -> Result<Vec<Envelope>, EnvelopeError> {
    let mut out = vec![find_envelope(text)?];
    // Byte offset and line number (0-based) where the text still to read starts.
    let (mut from, mut line0) = (0usize, 0usize);
    while let Some(last) = out.last() {
        // The END closing `last`: the first END line after its header.
        let mut offset = from;
        let mut end = None;
        for (i, raw) in text[from..].split_inclusive('\n').enumerate() {
            let n = line0 + i;
            let line = raw.strip_suffix('\n').unwrap_or(raw);
            let line = line.strip_suffix('\r').unwrap_or(line);
            offset += raw.len();
            if n < last.header_line {
                continue;
            }
            if is_signature(line) || is_original_message_separator(line) {
                break;
            }
            if is_end(line) {
                end = Some(n);
                break;
            }
        }
        let Some(end) = end else {
            break;
        };
        (from, line0) = (offset, end + 1);
        match find_envelope(&text[from..]) {
            Ok(mut env) => {
                env.header_line += line0;
                out.push(env);
            }
            Err(_) => break,
        }
    }
    Ok(out)
}

/// The block of the first text of `mail` that has one. If none has a valid
/// block, the first malformed header found is reported, else `NoBlock`.
pub fn find_in_mail(mail: &InboundMail) -> Result<Envelope, EnvelopeError> {
    let mut first_error = EnvelopeError::NoBlock;
    for text in &mail.texts {
        match find_envelope(text) {
            Ok(env) => return Ok(env),
            Err(err @ EnvelopeError::Malformed { .. }) => {
                if first_error == EnvelopeError::NoBlock {
                    first_error = err;
                }
            }
            Err(EnvelopeError::NoBlock) => {}
        }
    }
    Err(first_error)
}

#[cfg(test)]
mod token_tests {
    //! The per-player token's places in the header (issue 10); the rest of
    //! the envelope is tested in tests/envelope.rs.
    use super::*;

    #[test]
    fn several_blocks_each_after_the_end_of_the_one_before() {
        let text = "Hi,\nGAME a PLAYER p PASSWORD x\nF1 M W3\nEND\nand\nPARTIE b JOUEUR p MOT-DE-PASSE y\nO1\nFIN\nCHECK c PLAYER q PASSWORD z\nO2\n-- \nGAME d PLAYER p PASSWORD x\n";
        let all = find_envelopes(text).unwrap();
        let heads: Vec<_> = all
            .iter()
            .map(|e| (e.game.as_str(), e.header_line, e.kind, e.orders.as_str()))
            .collect();
        assert_eq!(
            heads,
            vec![
                ("a", 2, BlockKind::Orders, "F1 M W3\n"),
                ("b", 6, BlockKind::Orders, "O1\n"),
                ("c", 9, BlockKind::Check, "O2\n"),
            ]
        );
        // Without END the first block runs to the end: one block, as before.
        let text = "GAME a PLAYER p PASSWORD x\nF1\nGAME b PLAYER p PASSWORD x\n";
        let one = find_envelopes(text).unwrap();
        assert_eq!(one, vec![find_envelope(text).unwrap()]);
    }

    #[test]
    fn token_after_the_password_on_the_header_line() {
        let e =
            find_envelope("GAME g1 PLAYER alice PASSWORD x TOKEN t-42\nF1 M W3\nEND\n").unwrap();
        assert_eq!(e.token.as_deref(), Some("t-42"));
        assert_eq!(e.password, "x");
        assert_eq!(e.orders, "F1 M W3\n");
        let e =
            find_envelope("PARTIE g1 JOUEUR alice MOT-DE-PASSE x JETON abc\nF1 M W3\n").unwrap();
        assert_eq!(e.token.as_deref(), Some("abc"));
    }

    #[test]
    fn token_on_the_line_after_the_header_is_blanked() {
        let e = find_envelope("Hi\nSPIEL g1 SPIELER p1 PASSWORT x\nMARKE: zz9\nF1 M W3\nENDE\n")
            .unwrap();
        assert_eq!(e.token.as_deref(), Some("zz9"));
        // Line numbers kept, the token never echoed.
        assert_eq!(e.orders, "\nF1 M W3\n");
        let e = find_envelope("GAME g1 PLAYER alice PASSWORD x\nF1 M W3\n").unwrap();
        assert_eq!(e.token, None);
        // Only right after the header: further down it is an order line.
        let e = find_envelope("GAME g1 PLAYER alice PASSWORD x\nF1 M W3\nTOKEN late\n").unwrap();
        assert_eq!(e.token, None);
        assert!(e.orders.contains("TOKEN late"));
    }

    #[test]
    fn token_in_a_multi_line_header() {
        let text = "EDS BEFEHLE\nGALAXIS: ANDROMEDA\nHERRSCHER: 07\nKENNWORT: sonne42\nMARKE: k-1\nMONAT: J1/M4\n[3 STATUS]\nENDE\n";
        let e = find_envelope(text).unwrap();
        assert_eq!(e.token.as_deref(), Some("k-1"));
        assert!(
            !e.orders.contains("k-1") && e.orders.contains("MONAT: J1/M4"),
            "{:?}",
            e.orders
        );
    }

    #[test]
    fn a_token_word_without_value_or_with_more_is_malformed() {
        assert!(matches!(
            find_envelope("GAME g PLAYER p PASSWORD x TOKEN\n"),
            Err(EnvelopeError::Malformed { .. })
        ));
        assert!(matches!(
            find_envelope("GAME g PLAYER p PASSWORD x TOKEN a b\n"),
            Err(EnvelopeError::Malformed { .. })
        ));
        assert!(matches!(
            find_envelope("GAME g PLAYER p PASSWORD x extra\n"),
            Err(EnvelopeError::Malformed { .. })
        ));
    }
}

#[cfg(test)]
mod same_verdicts {
    //! The allocation-free line tests (issue 22 item 1) against the copying
    //! ones they replaced, on seeded pseudo-random lines over the letters
    //! that matter: the keywords' own, their accents and capitals, blanks
    //! (Unicode ones too), dashes, colons, the quote mark and Σ.
    use super::*;

    fn is_word_copying(token: &str, words: &[&str]) -> bool {
        let lower = token.to_lowercase();
        words.contains(&lower.as_str())
    }

    fn is_end_copying(line: &str) -> bool {
        let t = tokens(line);
        t.len() == 1 && is_word_copying(t[0], END_WORDS) && !is_quoted(line)
    }

    fn separator_copying(line: &str) -> bool {
        let t = line.trim().to_lowercase();
        let t = t.trim_matches('-').trim();
        t.starts_with("original message")
            || t.starts_with("message d'origine")
            || t.starts_with("message d’origine")
            || t.starts_with("ursprüngliche nachricht")
            || t.starts_with("ursprungliche nachricht")
    }

    fn header_field_copying(line: &str) -> Option<(Field, String)> {
        if is_quoted(line) {
            return None;
        }
        let (key, value) = match line.split_once(':') {
            Some((k, v)) if tokens(k).len() == 1 => (k.trim().to_owned(), v.trim().to_owned()),
            _ => {
                let t = tokens(line);
                if t.len() != 2 {
                    return None;
                }
                (t[0].to_owned(), t[1].to_owned())
            }
        };
        let words: [(&[&str], Field); 5] = [
            (MULTI_GAME, Field::Game),
            (MULTI_PLAYER, Field::Player),
            (MULTI_PASSWORD, Field::Password),
            (MULTI_TURN, Field::Turn),
            (TOKEN_WORDS, Field::Token),
        ];
        words
            .iter()
            .find(|(w, _)| is_word_copying(&key, w))
            .map(|(_, f)| (*f, value))
    }

    #[test]
    fn line_tests_agree_with_the_copying_ones() {
        let pieces = [
            "end",
            "END",
            "Ende",
            "fin",
            "FİN",
            "ＥＮＤ",
            "game",
            "GAME",
            "Spiel",
            "player",
            "Joueur",
            "mot-de-passe",
            "Passwort",
            "key",
            "Kennwort",
            "turn",
            "MONAT",
            "token",
            "Marke",
            "original message",
            "Original Message",
            "message d’origine",
            "Ursprüngliche Nachricht",
            "URSPRÜNGLICHE NACHRICHT",
            "Message d'origine",
            "Σ",
            "ς",
            "ü",
            "é",
            "K",
            "-",
            "--",
            ":",
            ">",
            " ",
            "  ",
            "\t",
            "\u{a0}",
            "\u{3000}",
            "x",
            "g1",
            "M_12",
        ];
        let mut seed: u64 = 22;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..200_000 {
            let len = 1 + next(6);
            let line: String = (0..len).map(|_| pieces[next(pieces.len())]).collect();
            let l = line.as_str();
            assert_eq!(is_end(l), is_end_copying(l), "is_end {l:?}");
            assert_eq!(
                is_original_message_separator(l),
                separator_copying(l),
                "separator {l:?}"
            );
            assert_eq!(
                header_field(l).map(|(f, v)| (f as u8, v)),
                header_field_copying(l).map(|(f, v)| (f as u8, v)),
                "header_field {l:?}"
            );
            for words in [END_WORDS, GAME_WORDS, CHECK_WORDS, MULTI_PASSWORD] {
                assert_eq!(
                    is_word(l, words),
                    is_word_copying(l, words),
                    "is_word {l:?}"
                );
            }
        }
    }
}
