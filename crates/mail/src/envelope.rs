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
//! The Evolution der Sterne specification (§3.4.1) proposes its own mail
//! header, which players get pre-filled in their template, so it is
//! recognised too:
//!
//! ```text
//! EDS BEFEHLE                <- header (line 1)
//! GALAXIS: ANDROMEDA         <- game
//! HERRSCHER: 07              <- player (the ruler number, as written)
//! KENNWORT: sonne42          <- password (blanked in `orders`)
//! MONAT: J1/M4               <- kept: the EDS parser checks it (EDS-15)
//! [3 STATUS]
//! ...
//! ENDE
//! ```
//!
//! Choice where the spec is silent: a line whose first word is a block keyword
//! and which also contains a player or password keyword, but is not a
//! well-formed header, is *malformed* (the player tried and needs to know
//! why). A line like "Game on!" is just text. The first well-formed header
//! wins; a malformed one is reported only when no well-formed one exists.

use crate::parse::InboundMail;

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

fn is_word(token: &str, words: &[&str]) -> bool {
    let lower = token.to_lowercase();
    words.contains(&lower.as_str())
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
    Valid(BlockKind, String, String, String),
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
    if t.len() > 6 {
        return Header::Malformed(format!(
            "unexpected text after the password: {}",
            t[6..].join(" ")
        ));
    }
    Header::Valid(kind, t[1].to_owned(), t[3].to_owned(), t[5].to_owned())
}

/// `EDS BEFEHLE` (spec §3.4.1), case-insensitive, any whitespace between.
fn is_eds_header(line: &str) -> bool {
    if is_quoted(line) {
        return false;
    }
    let t = tokens(line);
    t.len() == 2 && t[0].eq_ignore_ascii_case("EDS") && t[1].eq_ignore_ascii_case("BEFEHLE")
}

/// `KEY: value` with a case-insensitive key; returns the trimmed value.
fn key_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let (k, v) = line.split_once(':')?;
    k.trim().eq_ignore_ascii_case(key).then(|| v.trim())
}

/// The EDS form: GALAXIS / HERRSCHER / KENNWORT lines after `EDS BEFEHLE`,
/// before the first section. The KENNWORT line is blanked in `orders` so the
/// password is never echoed; the other header lines stay for the EDS parser.
fn eds_header(lines: &[&str], idx: usize) -> Header {
    let (mut game, mut player, mut password) = (None, None, None);
    for line in &lines[idx + 1..] {
        let t = line.trim();
        if t.starts_with('[') || is_end(line) || is_signature(line) {
            break;
        }
        if let Some(v) = key_value(t, "GALAXIS") {
            game = Some(v.to_owned());
        } else if let Some(v) = key_value(t, "HERRSCHER") {
            player = Some(v.to_owned());
        } else if let Some(v) = key_value(t, "KENNWORT") {
            password = Some(v.to_owned());
        }
    }
    let missing: Vec<&str> = [
        ("GALAXIS:", &game),
        ("HERRSCHER:", &player),
        ("KENNWORT:", &password),
    ]
    .iter()
    .filter(|(_, v)| v.as_deref().is_none_or(str::is_empty))
    .map(|(k, _)| *k)
    .collect();
    if !missing.is_empty() {
        return Header::Malformed(format!("EDS BEFEHLE without {}", missing.join(" ")));
    }
    Header::Valid(
        BlockKind::Orders,
        game.unwrap_or_default(),
        player.unwrap_or_default(),
        password.unwrap_or_default(),
    )
}

fn is_end(line: &str) -> bool {
    let t = tokens(line);
    t.len() == 1 && is_word(t[0], END_WORDS) && !is_quoted(line)
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
        let eds = is_eds_header(line);
        let header = if eds {
            eds_header(&lines, idx)
        } else {
            parse_header(line)
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
            Header::Valid(kind, game, player, password) => {
                let mut orders = block_body(&lines[idx + 1..]);
                if eds {
                    orders = blank_password_lines(&orders);
                }
                return Ok(Envelope {
                    kind,
                    game,
                    player,
                    password,
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
    let mut orders = String::new();
    for line in kept {
        orders.push_str(line);
        orders.push('\n');
    }
    orders
}

fn blank_password_lines(orders: &str) -> String {
    let mut out = String::with_capacity(orders.len());
    for line in orders.lines() {
        if key_value(line.trim(), "KENNWORT").is_none() {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
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
