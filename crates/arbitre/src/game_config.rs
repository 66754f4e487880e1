//! A game's TOML (documented in docs/game-master.md).
//!
//! The daemon reads what it needs (id, ruleset, seed, language, schedule,
//! players' addresses and passwords) and hands `[rules]` and each player's
//! `[players.rules]` to the ruleset untouched. String options whose key ends
//! in `_file` name a file relative to the game.toml; the daemon reads it,
//! because a ruleset does no I/O. The copy kept in the database has the
//! passwords removed: only their argon2id hashes are stored.

use crate::schedule::{Schedule, ScheduleError, ScheduleToml};
use crate::services::settings::ServicesToml;
use crate::spans::{keys, FileSpans, Seg};
use arbitre_core::{rng::fnv1a64, Lang, PlayerId, PlayerSetup, SetupConfig};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameToml {
    pub id: String,
    pub ruleset: String,
    pub seed: Option<u64>,
    pub language: Option<String>,
    pub gm_email: Option<String>,
    #[serde(default)]
    pub schedule: ScheduleToml,
    #[serde(default)]
    pub rules: toml::Table,
    #[serde(default)]
    pub players: Vec<PlayerToml>,
    /// Issue 17 item 2: listed by `LIST` to anyone, and its ids may be
    /// suggested to a stranger who misspells them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub public: bool,
    /// Issue 17 item 2: the game master's notes, quoted by `HELP <game>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Issue 10: press, NMR, absences, observers... (services/settings.rs).
    #[serde(default, skip_serializing_if = "ServicesToml::is_default")]
    pub services: ServicesToml,
    /// Issue 17 item 3: sign-up by mail (`JOIN <game>`), signup.rs.
    #[serde(default, skip_serializing_if = "SignupToml::is_default")]
    pub signup: SignupToml,
}

/// The `[signup]` table (issue 17 item 3): whether strangers may ask to
/// join by mail, and who lets them in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignupToml {
    #[serde(default)]
    pub open: bool,
    #[serde(default)]
    pub approve: Approve,
    /// Seats the game may hold, the players of the game file included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_players: Option<u32>,
    /// Requests waiting for the game master at most (default
    /// [`SignupToml::DEFAULT_MAX_PENDING`]): a flood of JOINs from rotating
    /// addresses stops there and never mails the game master more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pending: Option<u32>,
}

/// Who lets a sign-up in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Approve {
    /// The game master answers ACCEPT or REFUSE (the default).
    #[default]
    Gm,
    /// The seat enters at once.
    Auto,
}

impl SignupToml {
    pub const DEFAULT_MAX_PENDING: u32 = 10;

    pub fn is_default(&self) -> bool {
        *self == SignupToml::default()
    }

    pub fn max_pending(&self) -> u32 {
        self.max_pending.unwrap_or(Self::DEFAULT_MAX_PENDING)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerToml {
    pub id: String,
    pub name: Option<String>,
    pub email: String,
    /// Required in the file given to `game create` (or `password_hash`);
    /// absent in the stored copy.
    pub password: Option<String>,
    /// Instead of `password` (issue 14 item 15): an argon2id PHC string
    /// (`$argon2id$v=19$...`, from `arbitre password hash`), so the game's
    /// file need not hold a clear password. Absent in the stored copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_hash: Option<String>,
    /// Optional per-player token (issue 10), required in every mail of the
    /// player once set; `game create` stores only its argon2id hash
    /// (player_settings), never the token: absent in the stored copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    #[serde(default)]
    pub rules: toml::Table,
}

/// Why the daemon refuses a game file (issue 19 items 2 and 3): kinds with
/// their data, never a sentence. `setup_text::game_config_text` renders
/// them through the message catalogue in the command line's language; the
/// `Display` is that rendering in English, for logs and `DaemonError`.
#[derive(Debug)]
pub enum GameConfigError {
    Read(String, std::io::Error),
    /// The file is not TOML, or not the shape of a game file.
    Toml(TomlError),
    BadId(String),
    BadPlayerId(String),
    DuplicatePlayer(String),
    NoPassword(String),
    BothPasswords(String),
    /// The player, and the store's reason (English, kept for the log).
    BadPasswordHash(String, String),
    BadEmail(String, String),
    BadToken(String),
    BadLanguage(String),
    Schedule(ScheduleError),
    SignupNeedsGm,
    SignupNoSeat,
    File {
        key: String,
        path: String,
        err: std::io::Error,
    },
    /// One of the errors above, with the file and, where the value came
    /// from the file, its line and column (issue 19 item 2).
    At {
        place: String,
        err: Box<GameConfigError>,
    },
}

impl From<ScheduleError> for GameConfigError {
    fn from(e: ScheduleError) -> Self {
        GameConfigError::Schedule(e)
    }
}

impl std::fmt::Display for GameConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::setup_text::game_config_text(Lang::En, self))
    }
}

impl std::error::Error for GameConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameConfigError::Read(_, e) | GameConfigError::File { err: e, .. } => Some(e),
            GameConfigError::At { err, .. } => Some(err.as_ref()),
            _ => None,
        }
    }
}

/// A TOML parser's refusal as data: what is wrong, and where (the byte
/// range the parser gives, turned into `file:line:column` by
/// [`GameConfigError::at`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TomlError {
    pub kind: TomlKind,
    pub span: Option<std::ops::Range<usize>>,
}

/// The kinds of refusal of the TOML parser and of serde's shape checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TomlKind {
    /// A key the table does not take, and the keys it does take.
    UnknownField {
        key: String,
        valid: Vec<String>,
    },
    MissingField(String),
    /// A value of the wrong type: what was found, what was expected.
    WrongType {
        found: ValueType,
        expected: ValueType,
    },
    DuplicateKey(String),
    /// A syntax error in a value or key of this kind.
    Syntax(SyntaxItem),
    /// A refusal not classified above: the parser's own (English) words.
    Other(String),
}

/// The type of a TOML value, as a wrong-type error names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueType {
    Text(Option<String>),
    Integer(Option<String>),
    Float,
    Bool,
    List,
    Table,
    DateTime,
    /// Serde's own word, when it is none of the above.
    Other(String),
}

/// What the parser was reading when the syntax broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxItem {
    String,
    Key,
    TableHeader,
    Array,
    InlineTable,
    Number,
    DateTime,
    /// A line that is neither `key = value` nor a table header.
    Line,
}

impl TomlError {
    /// Classifies the message of `toml`'s error (serde's wording for the
    /// shape, toml_edit's for the syntax).
    pub fn from_toml(e: &toml::de::Error) -> TomlError {
        TomlError {
            kind: TomlKind::classify(e.message()),
            span: e.span(),
        }
    }
}

/// The text between the first pair of backquotes of `s`.
fn quoted(s: &str) -> Option<String> {
    let rest = s.split_once('`')?.1;
    Some(rest.split_once('`')?.0.to_string())
}

impl TomlKind {
    fn classify(message: &str) -> TomlKind {
        let first = message.lines().next().unwrap_or("").trim();
        if let Some(rest) = first.strip_prefix("unknown field ") {
            if let Some(key) = quoted(rest) {
                let after = rest.splitn(3, '`').nth(2).unwrap_or("");
                let valid = after
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_string)
                    .collect();
                return TomlKind::UnknownField { key, valid };
            }
        }
        if let Some(key) = first.strip_prefix("missing field ").and_then(quoted) {
            return TomlKind::MissingField(key);
        }
        if let Some(key) = first.strip_prefix("duplicate key ").and_then(quoted) {
            return TomlKind::DuplicateKey(key);
        }
        if let Some((found, expected)) = first
            .strip_prefix("invalid type: ")
            .and_then(|r| r.split_once(", expected "))
        {
            return TomlKind::WrongType {
                found: ValueType::from_serde(found),
                expected: ValueType::from_serde(expected),
            };
        }
        if let Some(item) = first
            .strip_prefix("invalid ")
            .and_then(SyntaxItem::from_label)
        {
            return TomlKind::Syntax(item);
        }
        if first.starts_with("expected `.`, `=`") || first.starts_with("key with no value") {
            return TomlKind::Syntax(SyntaxItem::Line);
        }
        TomlKind::Other(first.to_string())
    }
}

impl SyntaxItem {
    /// toml_edit's context labels (`invalid basic string`, ...).
    fn from_label(label: &str) -> Option<SyntaxItem> {
        Some(match label {
            "basic string"
            | "literal string"
            | "multiline basic string"
            | "multiline literal string"
            | "string"
            | "escape sequence"
            | "unicode 4-digit hex code"
            | "unicode 8-digit hex code" => SyntaxItem::String,
            "key" => SyntaxItem::Key,
            "table header" => SyntaxItem::TableHeader,
            "array" => SyntaxItem::Array,
            "inline table" => SyntaxItem::InlineTable,
            "integer"
            | "binary integer"
            | "octal integer"
            | "hexadecimal integer"
            | "floating-point number" => SyntaxItem::Number,
            "date-time" | "time" | "time offset" => SyntaxItem::DateTime,
            _ => return None,
        })
    }
}

impl ValueType {
    /// Serde's `Unexpected` (`string "42"`, `integer `7``) or `expected`
    /// (`u64`, `a string`) wording.
    fn from_serde(s: &str) -> ValueType {
        let s = s.trim();
        let value = |rest: &str| {
            let v = rest.trim().trim_matches('"').trim_matches('`');
            (!v.is_empty()).then(|| v.to_string())
        };
        if let Some(rest) = s.strip_prefix("string") {
            return ValueType::Text(value(rest));
        }
        if let Some(rest) = s.strip_prefix("integer") {
            return ValueType::Integer(value(rest));
        }
        match s {
            "a string" | "a borrowed string" | "str" | "String" | "a character" => {
                ValueType::Text(None)
            }
            "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize"
            | "an integer" => ValueType::Integer(None),
            "f32" | "f64" | "a float" => ValueType::Float,
            "a boolean" | "bool" => ValueType::Bool,
            "a sequence" | "sequence" | "an array" | "array" => ValueType::List,
            "a map" | "map" | "a table" | "table" => ValueType::Table,
            "a datetime" | "datetime" => ValueType::DateTime,
            _ if s.starts_with("floating point") => ValueType::Float,
            _ if s.starts_with("boolean") => ValueType::Bool,
            _ if s.starts_with("struct ") => ValueType::Table,
            _ => ValueType::Other(s.to_string()),
        }
    }
}

impl GameConfigError {
    /// Where in the file the value at fault is, as a path of keys.
    fn path(&self, spans: &FileSpans<'_>) -> Option<Vec<Seg>> {
        use GameConfigError as E;
        let player = |id: &str, last: bool, key: Option<&str>| {
            let found = spans.players_with_id(id);
            let i = if last { found.last() } else { found.first() };
            i.map(|i| {
                let mut p = vec![Seg::Key("players".into()), Seg::Index(*i)];
                p.extend(key.map(|k| Seg::Key(k.into())));
                p
            })
        };
        match self {
            E::BadId(_) => Some(keys(&["id"])),
            E::BadLanguage(_) => Some(keys(&["language"])),
            E::BadPlayerId(id) => player(id, false, Some("id")),
            E::DuplicatePlayer(id) => player(id, true, Some("id")),
            E::NoPassword(id) => player(id, false, Some("id")),
            E::BothPasswords(id) | E::BadPasswordHash(id, _) => {
                player(id, false, Some("password_hash"))
            }
            E::BadEmail(id, _) => player(id, false, Some("email")),
            E::BadToken(id) => player(id, false, Some("token")),
            E::Schedule(e) => Some(match e {
                ScheduleError::Zone(_) => keys(&["schedule", "timezone"]),
                ScheduleError::Weekday(_) => keys(&["schedule", "weekday"]),
                ScheduleError::Time(_) => keys(&["schedule", "time"]),
                ScheduleError::Start(_) => keys(&["schedule", "start"]),
                ScheduleError::Duration(d) => spans
                    .find_str(&keys(&["schedule"]), d)
                    .unwrap_or_else(|| keys(&["schedule"])),
                ScheduleError::TimeNeedsDays(_) => keys(&["schedule", "interval"]),
                ScheduleError::Both | ScheduleError::Half => keys(&["schedule"]),
            }),
            E::SignupNeedsGm if spans.has_key(&keys(&["signup"]), "approve") => {
                Some(keys(&["signup", "approve"]))
            }
            E::SignupNeedsGm => Some(keys(&["signup", "open"])),
            E::SignupNoSeat => Some(keys(&["signup", "max_players"])),
            E::File { key, .. } => rules_key(spans, key),
            E::Read(..) | E::Toml(_) | E::At { .. } => None,
        }
    }

    /// This error as `file:line:column: error` (`file: error` when no
    /// value of the file is at fault).
    pub fn at(self, text: &str, file: &str) -> GameConfigError {
        if matches!(self, GameConfigError::At { .. } | GameConfigError::Read(..)) {
            return self;
        }
        let spans = FileSpans::new(text);
        let place = match &self {
            GameConfigError::Toml(TomlError { span: Some(r), .. }) => {
                let (line, col) = crate::spans::line_col(text, r.start);
                format!("{file}:{line}:{col}")
            }
            _ => spans.place(file, self.path(&spans).as_deref()),
        };
        GameConfigError::At {
            place,
            err: Box::new(self),
        }
    }
}

/// `[rules]`'s `key`, or the first player's `[players.rules]` holding it.
fn rules_key(spans: &FileSpans<'_>, key: &str) -> Option<Vec<Seg>> {
    if spans.has_key(&keys(&["rules"]), key) {
        return Some(keys(&["rules", key]));
    }
    (0..spans.player_count()).find_map(|i| {
        let p = vec![
            Seg::Key("players".into()),
            Seg::Index(i),
            Seg::Key("rules".into()),
        ];
        spans.has_key(&p, key).then(|| {
            let mut p = p;
            p.push(Seg::Key(key.into()));
            p
        })
    })
}

/// `file:line:column` of what a ruleset's setup error is about (issue 19
/// item 2): the unknown key, the unknown map's name, the players.
pub fn setup_error_place(err: &arbitre_core::SetupError, text: &str, file: &str) -> String {
    use arbitre_core::SetupError as S;
    let spans = FileSpans::new(text);
    let path = match err {
        S::UnknownKey { key, .. } => rules_key(&spans, key),
        S::UnknownMap { name, .. } => spans.find_str(&keys(&["rules"]), name),
        S::PlayerCount { .. } => Some(keys(&["players"])),
        _ => None,
    };
    spans.place(file, path.as_deref())
}

/// Things a game file allows but that are most likely mistakes (issue 19
/// item 4): printed by `game create`, never fatal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// Two seats with one address: mail from it reaches only one of them
    /// without a PLAYER line, and both get every report.
    SharedAddress {
        email: String,
        first: String,
        second: String,
    },
    /// `start` is already past: the first deadline is counted from now.
    StartInPast(String),
    /// A zone such as `CET` is a fixed offset, wrong half the year; the
    /// same rule refuses it to players' TIMEZONE.
    FixedOffsetZone(String),
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::setup_text::warning_text(Lang::En, self))
    }
}

fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

impl GameToml {
    pub fn parse(text: &str) -> Result<GameToml, GameConfigError> {
        let g: GameToml =
            toml::from_str(text).map_err(|e| GameConfigError::Toml(TomlError::from_toml(&e)))?;
        if !valid_id(&g.id) {
            return Err(GameConfigError::BadId(g.id));
        }
        let mut seen = std::collections::BTreeSet::new();
        for p in &g.players {
            if !valid_id(&p.id) {
                return Err(GameConfigError::BadPlayerId(p.id.clone()));
            }
            if !seen.insert(p.id.to_ascii_lowercase()) {
                return Err(GameConfigError::DuplicatePlayer(p.id.clone()));
            }
            if !p.email.contains('@') || p.email.contains(char::is_whitespace) {
                return Err(GameConfigError::BadEmail(p.id.clone(), p.email.clone()));
            }
            if let Some(phc) = &p.password_hash {
                if p.password.is_some() {
                    return Err(GameConfigError::BothPasswords(p.id.clone()));
                }
                arbitre_store::password::check_argon2id(phc)
                    .map_err(|e| GameConfigError::BadPasswordHash(p.id.clone(), e))?;
            }
            // Written on one header line after TOKEN: one word.
            if p.token.as_deref().is_some_and(|t| {
                t.is_empty() || t.chars().count() > 100 || t.contains(char::is_whitespace)
            }) {
                return Err(GameConfigError::BadToken(p.id.clone()));
            }
        }
        if let Some(l) = &g.language {
            Lang::parse(l).ok_or_else(|| GameConfigError::BadLanguage(l.clone()))?;
        }
        Schedule::from_toml(&g.schedule)?;
        if g.signup.max_players == Some(0) {
            return Err(GameConfigError::SignupNoSeat);
        }
        if g.signup.open && g.signup.approve == Approve::Gm && g.gm_email.is_none() {
            return Err(GameConfigError::SignupNeedsGm);
        }
        Ok(g)
    }

    pub fn load(path: &Path) -> Result<GameToml, GameConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GameConfigError::Read(path.display().to_string(), e))?;
        GameToml::parse(&text).map_err(|e| e.at(&text, &path.display().to_string()))
    }

    /// The warnings of this game file at `now` (see [`Warning`]), each
    /// with its `file:line:column`.
    pub fn warnings(
        &self,
        text: &str,
        file: &str,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Vec<(String, Warning)> {
        let spans = FileSpans::new(text);
        let mut out = Vec::new();
        let mut seen: BTreeMap<String, (usize, &str)> = BTreeMap::new();
        for (i, p) in self.players.iter().enumerate() {
            let email = p.email.to_ascii_lowercase();
            if let Some((_, first)) = seen.get(&email) {
                let path = vec![
                    Seg::Key("players".into()),
                    Seg::Index(i),
                    Seg::Key("email".into()),
                ];
                out.push((
                    spans.place(file, Some(&path)),
                    Warning::SharedAddress {
                        email: p.email.clone(),
                        first: first.to_string(),
                        second: p.id.clone(),
                    },
                ));
            } else {
                seen.insert(email, (i, &p.id));
            }
        }
        if self.schedule().start.is_some_and(|s| s < now) {
            out.push((
                spans.place(file, Some(&keys(&["schedule", "start"]))),
                Warning::StartInPast(self.schedule.start.clone().unwrap_or_default()),
            ));
        }
        if let Some(z) = &self.schedule.timezone {
            if crate::services::zone::is_fixed_offset(z) {
                out.push((
                    spans.place(file, Some(&keys(&["schedule", "timezone"]))),
                    Warning::FixedOffsetZone(z.clone()),
                ));
            }
        }
        out
    }

    /// Checks what only `game create` needs: every player has a password.
    pub fn require_passwords(&self) -> Result<(), GameConfigError> {
        match self
            .players
            .iter()
            .find(|p| p.password.as_deref().unwrap_or("").is_empty() && p.password_hash.is_none())
        {
            Some(p) => Err(GameConfigError::NoPassword(p.id.clone())),
            None => Ok(()),
        }
    }

    /// The seed: given, or derived from the id (FNV-1a, stable forever).
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| fnv1a64(self.id.as_bytes()))
    }

    pub fn lang(&self, ruleset_default: Lang) -> Lang {
        self.language
            .as_deref()
            .and_then(Lang::parse)
            .unwrap_or(ruleset_default)
    }

    pub fn schedule(&self) -> Schedule {
        Schedule::from_toml(&self.schedule).expect("validated in GameToml::parse")
    }

    /// The copy stored in the database: the same TOML without passwords.
    pub fn stored(&self) -> String {
        let mut g = self.clone();
        for p in &mut g.players {
            p.password = None;
            p.password_hash = None;
            p.token = None;
        }
        g.services.gm_password = None;
        toml::to_string(&g).expect("game TOML serialises")
    }

    /// The ruleset's setup input; `base` is the game.toml's folder, for `*_file` options.
    pub fn setup_config(&self, base: &Path) -> Result<SetupConfig, GameConfigError> {
        let mut files = BTreeMap::new();
        collect_files(&self.rules, base, &mut files)?;
        for p in &self.players {
            collect_files(&p.rules, base, &mut files)?;
        }
        Ok(SetupConfig {
            game_id: self.id.clone(),
            seed: self.seed(),
            players: self
                .players
                .iter()
                .map(|p| PlayerSetup {
                    id: PlayerId::new(p.id.clone()),
                    name: p.name.clone().unwrap_or_else(|| p.id.clone()),
                    options: p.rules.clone(),
                })
                .collect(),
            options: self.rules.clone(),
            files,
        })
    }
}

fn collect_files(
    t: &toml::Table,
    base: &Path,
    out: &mut BTreeMap<String, String>,
) -> Result<(), GameConfigError> {
    for (k, v) in t {
        if let (true, Some(rel)) = (k.ends_with("_file"), v.as_str()) {
            let path = base.join(rel);
            let text = std::fs::read_to_string(&path).map_err(|err| GameConfigError::File {
                key: k.clone(),
                path: path.display().to_string(),
                err,
            })?;
            out.insert(k.clone(), text);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = r#"
id = "neb-001"
ruleset = "nebulight"
language = "fr"
[schedule]
interval = "7d"
[rules]
map = "duel"
map_file = "map.toml"
[[players]]
id = "maxtor"
name = "Maxtor"
email = "maxtor@example.org"
password = "secret"
token = "tok-maxtor-7"
[players.rules]
slot = 1
[[players]]
id = "miria"
email = "miria@example.org"
password = "hunter2"
"#;

    #[test]
    fn game_toml_parses_reads_files_and_stores_no_password() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("map.toml"), "size = 9").unwrap();
        let g = GameToml::parse(GAME).unwrap();
        g.require_passwords().unwrap();
        assert_eq!(g.seed(), fnv1a64(b"neb-001"));
        assert_eq!(g.lang(Lang::En), Lang::Fr);
        let cfg = g.setup_config(dir.path()).unwrap();
        assert_eq!(cfg.files["map_file"], "size = 9");
        assert_eq!(cfg.players[1].name, "miria");
        assert_eq!(cfg.players[0].options["slot"].as_integer(), Some(1));
        let stored = g.stored();
        assert!(!stored.contains("secret") && !stored.contains("hunter2"));
        assert_eq!(g.players[0].token.as_deref(), Some("tok-maxtor-7"));
        assert!(
            !stored.contains("tok-maxtor-7"),
            "the token is never stored in clear"
        );
        let back = GameToml::parse(&stored).unwrap();
        assert!(back.require_passwords().is_err());
        assert_eq!(back.players.len(), 2);
    }

    #[test]
    fn signup_table_denies_unknown_keys_and_needs_a_gm_address() {
        let open = format!("{GAME}\n[signup]\nopen = true\napprove = \"auto\"\nmax_players = 4\n");
        let g = GameToml::parse(&open).unwrap();
        assert_eq!(g.signup.approve, Approve::Auto);
        assert_eq!(g.signup.max_pending(), SignupToml::DEFAULT_MAX_PENDING);
        assert_eq!(GameToml::parse(&g.stored()).unwrap().signup, g.signup);
        let typo = open.replace("max_players", "max_player");
        let e = GameToml::parse(&typo).unwrap_err().at(&typo, "g.toml");
        assert!(e.to_string().contains("max_player"), "{e}");
        let typo_line = typo
            .lines()
            .position(|l| l.starts_with("max_player"))
            .unwrap()
            + 1;
        assert!(
            e.to_string().starts_with(&format!("g.toml:{typo_line}:")),
            "a place: {e}"
        );
        let no_gm = open.replace("\"auto\"", "\"gm\"");
        let e = GameToml::parse(&no_gm).unwrap_err().at(&no_gm, "g.toml");
        let line = no_gm
            .lines()
            .position(|l| l.starts_with("approve"))
            .unwrap()
            + 1;
        assert!(e.to_string().starts_with(&format!("g.toml:{line}:")), "{e}");
        assert!(e.to_string().contains("gm_email"), "{e}");
    }

    #[test]
    fn bad_game_toml_is_a_clear_error() {
        let dup = GAME.replace("id = \"miria\"", "id = \"Maxtor\"");
        assert!(matches!(
            GameToml::parse(&dup),
            Err(GameConfigError::DuplicatePlayer(_))
        ));
        let bad = GAME.replace("neb-001", "neb 001");
        assert!(matches!(
            GameToml::parse(&bad),
            Err(GameConfigError::BadId(_))
        ));
        let spaced = GAME.replace("tok-maxtor-7", "two words");
        assert!(matches!(
            GameToml::parse(&spaced),
            Err(GameConfigError::BadToken(_))
        ));
        let empty = GAME.replace("tok-maxtor-7", "");
        assert!(matches!(
            GameToml::parse(&empty),
            Err(GameConfigError::BadToken(_))
        ));
        let typo = GAME
            .replace("gm_email", "x")
            .replace("language", "langauge");
        assert!(GameToml::parse(&typo)
            .unwrap_err()
            .to_string()
            .contains("langauge"));
        let dir = tempfile::tempdir().unwrap();
        let e = GameToml::parse(GAME)
            .unwrap()
            .setup_config(dir.path())
            .unwrap_err();
        assert!(e.to_string().contains("map_file"), "{e}");
    }
}
