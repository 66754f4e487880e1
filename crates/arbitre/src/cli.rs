//! The command line (issue 2 item 6). Every command has its `--help`.
//! The library is driven in-process by tests through [`run`].

use crate::clock::SystemClock;
use crate::config::DaemonConfig;
use crate::daemon::Daemon;
use crate::fixture::{self, OrdersSource};
use crate::fl_args;
use crate::i18n::tr;
use crate::registry::Registry;
use crate::timespec::parse_duration;
use arbitre_core::Lang;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The exit statuses, shown under `arbitre --help` (issue 19 item 9).
pub const EXIT_CODES_HELP: &str = "Exit status:
  0  success
  1  a check found errors (check, case run)
  2  usage: a bad argument, an unknown game or player, a refused request
  3  configuration: arbitre.toml or a game file is wrong, or there is no database yet
  4  runtime: the database, the mail servers or the file system failed";

#[derive(Parser, Debug)]
#[command(
    name = "arbitre",
    version,
    about = "arbitre, a play-by-email referee: reads order mails, resolves turns, mails reports.",
    after_help = EXIT_CODES_HELP
)]
pub struct Cli {
    /// Daemon configuration (default: ./arbitre.toml if present, else everything under ./var/).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The language of this command's output: en, fr or de (default: the
    /// locale's, from LC_ALL, LC_MESSAGES or LANG; else English).
    #[arg(long, global = true, value_name = "LANG", value_parser = ["en", "fr", "de"])]
    pub lang: Option<String>,
    /// How log lines on standard error are written: text (coloured on a
    /// terminal only) or json (one object per line, for journald or Loki).
    /// The filter comes from ARBITRE_LOG or RUST_LOG (default: info;
    /// warn for `serve --once`, so that cron mails only what matters).
    #[arg(long, global = true, value_enum, default_value_t = crate::logs::LogFormat::Text)]
    pub log_format: crate::logs::LogFormat,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Manage games.
    #[command(subcommand)]
    Game(GameCmd),
    /// Run the daemon: poll the inbox, answer order mails, store orders, resolve due turns, send reports and reminders.
    Serve {
        /// Do one cycle and exit (cron, tests).
        #[arg(long)]
        once: bool,
    },
    /// Resolve the next turn of a game now (game master).
    Turn {
        /// The game's id.
        game: String,
    },
    /// Show turn, deadline and who has sent orders, for one game or all, and the outbox's health.
    Status {
        /// One game's id (default: every game).
        game: Option<String>,
        /// Print JSON for scripts instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print a player's report (`gm` and `spectator` are viewers too).
    Report {
        /// The game's id.
        game: String,
        /// The player's id, or `gm`, or `spectator`.
        player: String,
        /// The turn (default: the last resolved).
        #[arg(long)]
        turn: Option<u32>,
    },
    /// Write the map of a player's report as PNG and/or SVG (`gm` and `spectator` are viewers too),
    /// e.g. `arbitre map neb-001 maxtor --turn 3 --png carte.png`. GAME may be a fixture folder
    /// (`fixtures/eds/bots-trio`): the archived game is replayed up to the turn first.
    Map {
        /// A game id, or a fixture folder holding a game.toml.
        game: String,
        /// The player's id, or `gm`, or `spectator`.
        player: String,
        /// The turn (default: the last resolved).
        #[arg(long)]
        turn: Option<u32>,
        /// Write the PNG here (the picture mailed next to the SVG).
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// Write the SVG here.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Passwords (game master).
    #[command(subcommand)]
    Password(PasswordCmd),
    /// Players (game master).
    #[command(subcommand)]
    Player(PlayerCmd),
    /// Sign-up requests by mail, `[signup] approve = "gm"` (game master).
    #[command(subcommand)]
    Signup(SignupCmd),
    /// Pause a game: no deadline until `resume`; orders are still accepted.
    Pause {
        /// The game's id.
        game: String,
    },
    /// Resume a paused game (the next deadline follows the schedule from now),
    /// or a game stopped by a fault of its ruleset (after a fix: its waiting mails and turn are tried again).
    Resume {
        /// The game's id.
        game: String,
    },
    /// Push back the current deadline (e.g. `extend neb-001 48h`).
    Extend {
        /// The game's id.
        game: String,
        /// How long: 7d, 48h, 1d12h, 90m.
        by: String,
    },
    /// Set the deadline of the turn in progress (e.g. `deadline neb-001 "2026-12-04 20:00"`,
    /// read in the game's time zone, or RFC 3339 with an offset). A paused game runs again.
    Deadline {
        /// The game's id.
        game: String,
        /// "YYYY-MM-DD HH:MM" (the game's zone) or "2026-12-04T20:00:00+01:00".
        when: String,
    },
    /// Hold resolved turns for the game master before the players get them.
    Preview {
        /// The game's id.
        game: String,
        /// next (the next turn), always (every turn), off.
        #[arg(default_value = "next")]
        mode: String,
    },
    /// Send the reports of the held turn (see `preview`).
    Release {
        /// The game's id.
        game: String,
    },
    /// Restore the game to the state after TURN; the next turn is resolved again.
    Rollback {
        /// The game's id.
        game: String,
        /// The resolved turn to go back to.
        turn: u32,
    },
    /// Validate an orders file offline against a fresh game, like echeck. Exit status 1 if any line has an error.
    /// With --report (your last JSON report): `arbitre check --report r.json orders.txt`, no ruleset nor game file.
    Check {
        /// RULESET ORDERS_FILE, or ORDERS_FILE alone with --report.
        #[arg(num_args = 1..=2, required = true, value_name = "[RULESET] ORDERS_FILE")]
        args: Vec<String>,
        /// Judge against the game your JSON report (version 2) shows; prints `FILE:LINE: error|warning: reason`.
        #[arg(long, value_name = "REPORT_JSON", conflicts_with_all = ["game", "player"])]
        report: Option<PathBuf>,
        /// Judge against this game's setup instead of the ruleset's default one.
        #[arg(long, value_name = "GAME_TOML")]
        game: Option<PathBuf>,
        /// Check as this player (default: the order block's PLAYER, else the first player).
        #[arg(long)]
        player: Option<String>,
    },
    /// Replay an archived game (a fixture folder, or every fixture under a folder) and compare every mail with expected/.
    Replay {
        /// A fixture folder (with a game.toml), or a folder of fixtures.
        fixture_dir: PathBuf,
        /// Rewrite expected/ with what the referee sends now.
        #[arg(long)]
        bless: bool,
    },
    /// Record fixtures.
    #[command(subcommand)]
    Fixture(FixtureCmd),
    /// Rule cases written as data (docs/rules/cases.md).
    #[command(subcommand)]
    Case(CaseCmd),
    /// Mails in trouble: list them, send them again, or drop them.
    #[command(subcommand)]
    Outbox(OutboxCmd),
    /// Write a consistent copy of the database to FILE while the daemon runs (restore: docs/operations.md).
    Backup {
        /// Where to write the copy (must not exist).
        file: PathBuf,
    },
    /// Create a demo game under ./var/, play a few turns with bot order mails through the real loop, and show where the reports are.
    Demo {
        /// Turns to play.
        #[arg(long, default_value_t = 3)]
        turns: u32,
    },
    /// Serve the web pages (public games, players' orders, the game master's pages) until SIGTERM/SIGINT; see docs/web.md.
    Web {
        /// Address and port to listen on (default: [web] listen of arbitre.toml, else 127.0.0.1:8080).
        #[arg(long, value_name = "ADDR:PORT")]
        listen: Option<std::net::SocketAddr>,
    },
}

#[derive(Subcommand, Debug)]
pub enum OutboxCmd {
    /// Failed mails, mails retried after a failure and held reports, with their error (--all: every mail).
    List {
        /// Every mail, sent ones included.
        #[arg(long)]
        all: bool,
    },
    /// Send mail ID again now with a fresh retry window, or every failed mail with --failed.
    Retry {
        /// The mail's number (#ID in `outbox list`).
        #[arg(required_unless_present = "failed", conflicts_with = "failed")]
        id: Option<i64>,
        /// Every failed mail.
        #[arg(long)]
        failed: bool,
    },
    /// Never send mail ID (it stays in the archive as cancelled).
    Drop {
        /// The mail's number (#ID in `outbox list`).
        id: i64,
    },
}

#[derive(Subcommand, Debug)]
pub enum GameCmd {
    /// Create a game from its TOML and mail every player the turn-0 report.
    Create {
        /// The game file (docs/game-master.md).
        game_toml: PathBuf,
    },
    /// Every game: id, ruleset, last resolved turn, state, next deadline.
    List {
        /// Print JSON for scripts instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print the game's state after a resolved turn as a position file,
    /// which `game create` loads back (`position_file` in [rules]) into the
    /// same game.
    Export {
        /// The game's id.
        game: String,
        /// The resolved turn (default: the last one).
        #[arg(long)]
        turn: Option<u32>,
    },
    /// Delete a game for good: its rows (players, turns, orders, mails,
    /// settings) are first written as JSON to an archive file, then deleted.
    /// Asks for the game's id on a terminal; elsewhere --yes is required.
    Delete {
        /// The game's id.
        game: String,
        /// Do not ask: delete at once (scripts).
        #[arg(long)]
        yes: bool,
        /// The archive file to write (must not exist; default:
        /// <game>-deleted-<time>.json next to the database).
        #[arg(long, value_name = "FILE")]
        archive: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum PasswordCmd {
    /// Give a player a new password. It is read from the first line of
    /// standard input (a prompt on a terminal) or of --password-file FILE,
    /// never from the command line, so it stays out of shell history and `ps`.
    Reset {
        /// The game's id.
        game: String,
        /// The player's id.
        player: String,
        /// Read the password from the first line of FILE.
        #[arg(long = "password-file", visible_alias = "from", value_name = "FILE")]
        from: Option<PathBuf>,
    },
    /// Print the argon2id hash of a password read from the first line of
    /// standard input (or of --from FILE), for `password_hash = "..."` in a
    /// game's TOML: the file then holds no clear password.
    Hash {
        /// Read the password from the first line of FILE.
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
    },
}

/// The game master's answers to `JOIN` mails (issue 17 item 3), as
/// `ACCEPT` / `REFUSE` by mail.
#[derive(Subcommand, Debug)]
pub enum SignupCmd {
    /// The requests waiting for an answer.
    List {
        /// The game's id.
        game: String,
    },
    /// Let the address in: it gets a seat, a generated password and the
    /// welcome mail.
    Accept {
        /// The game's id.
        game: String,
        /// The address that sent JOIN.
        address: String,
    },
    /// Turn the address down; it is told (with the reason, if given).
    Refuse {
        /// The game's id.
        game: String,
        /// The address that sent JOIN.
        address: String,
        /// Told to the address.
        #[arg(long)]
        reason: Option<String>,
    },
}

#[derive(Subcommand, Debug)]
pub enum PlayerCmd {
    /// Add a player to a game in progress, between two turns, where the
    /// ruleset allows it (Scrambled Nations). PLAYER_TOML holds one player
    /// as in a game's [[players]] entry: id, name, email, password, [rules].
    /// The newcomer is mailed their report at once.
    Join {
        /// The game's id.
        game: String,
        /// The newcomer's TOML.
        player_toml: PathBuf,
    },
    /// Give a player a new password (as `PASSWORD NEW` by mail). It is read
    /// from the first line of standard input (a prompt on a terminal) or of
    /// --password-file FILE, never from the command line.
    Password {
        /// The game's id.
        game: String,
        /// The player's id.
        player: String,
        /// Read the new password from the first line of this file.
        #[arg(long = "password-file", value_name = "FILE")]
        from: Option<PathBuf>,
    },
    /// Eject a player: from the turn in progress the seat's orders are not
    /// accepted and it is not waited for (NMR, or the bot with nmr = "bot").
    Eject {
        /// The game's id.
        game: String,
        /// The player's id.
        player: String,
    },
    /// A new player takes the seat over (same id and position): new
    /// address, name and password; an ejected seat comes back. The password
    /// is read from the first line of --password-file FILE or of standard
    /// input (--password-stdin), never from the command line; without
    /// either one is generated, printed and mailed to the new player with
    /// the seat's last report (the outbox keeps that mail's password only
    /// until it is sent).
    Replace {
        /// The game's id.
        game: String,
        /// The seat's player id (kept).
        player: String,
        /// The new player's address.
        #[arg(long)]
        email: String,
        /// The new player's name (default: the seat's).
        #[arg(long)]
        name: Option<String>,
        /// Read the password from the first line of FILE.
        #[arg(
            long = "password-file",
            value_name = "FILE",
            conflicts_with = "password_stdin"
        )]
        password_file: Option<PathBuf>,
        /// Read the password from the first line of standard input.
        #[arg(long = "password-stdin")]
        password_stdin: bool,
        /// Refused: a password on the command line is visible to every
        /// user in `ps` (kept only to say so).
        #[arg(long, hide = true)]
        password: Option<String>,
    },
}

#[derive(Subcommand, Debug)]
pub enum CaseCmd {
    /// Run rule case files and show what differs from what they expect.
    Run {
        /// Case files (`rulesets/<ruleset>/cases/*.toml`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The ruleset; by default the folder above `cases/` names it.
        #[arg(long)]
        ruleset: Option<String>,
    },
}

#[derive(Subcommand, Debug)]
pub enum FixtureCmd {
    /// Play a game from a TOML and write it as a fixture folder (game.toml, turn-NNN/inbox, turn-NNN/expected).
    Record {
        /// The game file to play.
        game_toml: PathBuf,
        /// Output folder (must not hold a fixture yet).
        out_dir: PathBuf,
        /// Orders from each player's bot.
        #[arg(long, conflicts_with = "orders")]
        bots: bool,
        /// Orders from DIR/turn-NNN/ (*.eml as they are, <player>.txt wrapped into an order mail).
        #[arg(long, value_name = "DIR")]
        orders: Option<PathBuf>,
        /// Stop after this many turns (the game may end earlier).
        #[arg(long, default_value_t = 10)]
        turns: u32,
    },
}

fn load_config(path: Option<&Path>) -> anyhow::Result<DaemonConfig> {
    match path {
        Some(p) => Ok(DaemonConfig::load(p)?),
        None if Path::new("arbitre.toml").is_file() => {
            Ok(DaemonConfig::load(Path::new("arbitre.toml"))?)
        }
        None => Ok(DaemonConfig::under(Path::new("var"))),
    }
}

/// What a command's exit status says (issue 19 item 9; [`EXIT_CODES_HELP`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    CheckFailed = 1,
    Usage = 2,
    Configuration = 3,
    Runtime = 4,
}

/// A command line that asks for something impossible: exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// A configuration that is wrong or missing: exit status 3.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigurationError(pub String);

/// What a command was doing when its cause failed ("reading FILE",
/// "opening database FILE"), as a message of the catalogue: the error's
/// chain then reads in the command line's language ([`error_text`]). Its
/// `Display` is the English, for `{:#}` and the logs.
#[derive(Debug)]
pub struct Doing {
    id: &'static str,
    args: Vec<(&'static str, String)>,
    source: anyhow::Error,
}

impl std::fmt::Display for Doing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&tr(Lang::En, self.id, &self.args))
    }
}

impl std::error::Error for Doing {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

/// `.doing(|| ("ctx-reading", fl_args![path]))`: anyhow's `with_context`
/// with words of the catalogue.
pub trait DoingExt<T> {
    fn doing(self, what: impl FnOnce() -> crate::i18n::Lookup) -> anyhow::Result<T>;
}

impl<T, E: Into<anyhow::Error>> DoingExt<T> for std::result::Result<T, E> {
    fn doing(self, what: impl FnOnce() -> crate::i18n::Lookup) -> anyhow::Result<T> {
        self.map_err(|e| doing(e.into(), what))
    }
}

/// `source` under what the command was doing.
fn doing(source: anyhow::Error, what: impl FnOnce() -> crate::i18n::Lookup) -> anyhow::Error {
    let (id, args) = what();
    anyhow::Error::new(Doing { id, args, source })
}

/// A failed command's error in `lang` (issue 16 item 3): each link of the
/// chain that the catalogue knows (what the command was doing, the
/// store's, the daemon's, the engine's, a mail's, `arbitre.toml`'s, a
/// date or duration not understood, …) in its words; the first typed
/// error's words say its causes too. A link no kind describes (the
/// database's, the system's, a server's words) is quoted as it is. A
/// cause whose English its outer link already shows is left out.
pub fn error_text(lang: Lang, e: &anyhow::Error) -> String {
    let mut english = String::new();
    let mut shown: Vec<String> = Vec::new();
    for c in e.chain() {
        let en = c.to_string();
        if !english.is_empty() && english.contains(&en) {
            continue;
        }
        english = if english.is_empty() {
            en.clone()
        } else {
            format!("{english}: {en}")
        };
        if let Some(d) = c.downcast_ref::<Doing>() {
            shown.push(tr(lang, d.id, &d.args));
            continue;
        }
        if let Some(n) = c.downcast_ref::<NoDatabase>() {
            shown.push(n.text(lang));
            break;
        }
        if let Some(t) = crate::error_text::chain_link_text(lang, c) {
            shown.push(t);
            break;
        }
        shown.push(en);
    }
    let mut parts = shown.into_iter();
    let first = parts.next().unwrap_or_default();
    parts.fold(first, |outer, inner| {
        tr(lang, "err-chain", &fl_args![outer, inner])
    })
}

/// The exit status of a failed command: the first cause that says what
/// kind of failure it is; anything else (database, mail, disk) is a
/// runtime failure.
pub fn exit_of(e: &anyhow::Error) -> Exit {
    use crate::DaemonError as D;
    use arbitre_store::StoreError as S;
    for c in e.chain() {
        if c.is::<UsageError>() || c.is::<crate::timespec::TimeSpecError>() {
            return Exit::Usage;
        }
        if c.is::<ConfigurationError>()
            || c.is::<NoDatabase>()
            || c.is::<crate::config::ConfigError>()
            || c.is::<crate::game_config::GameConfigError>()
        {
            return Exit::Configuration;
        }
        if let Some(d) = c.downcast_ref::<D>() {
            match d {
                D::GameConfig(_) | D::Ruleset(_) | D::GameFile(_) => return Exit::Configuration,
                D::Invalid(_) | D::GameOver(_) | D::Faulted(_) | D::Held { .. } => {
                    return Exit::Usage
                }
                D::Store(S::UnknownGame(_) | S::GameExists(_) | S::PlayerExists { .. }) => {
                    return Exit::Usage
                }
                _ => {}
            }
        }
        if let Some(S::UnknownGame(_) | S::GameExists(_) | S::PlayerExists { .. }) =
            c.downcast_ref::<S>()
        {
            return Exit::Usage;
        }
    }
    Exit::Runtime
}

/// A command that reads or changes games, run where no database is:
/// exit status 3. `config`: the `--config` file, or `./arbitre.toml` when
/// one is here; `None`: the default `./var/arbitre.db`.
#[derive(Debug)]
pub struct NoDatabase {
    pub database: PathBuf,
    pub config: Option<PathBuf>,
}

impl NoDatabase {
    /// The refusal in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let how = match &self.config {
            Some(config) => {
                let config = config.display();
                tr(lang, "cli-no-database-named-by", &fl_args![config])
            }
            None => tr(lang, "cli-no-database-default", &[]),
        };
        let database = self.database.display();
        tr(lang, "cli-no-database", &fl_args![database, how])
    }
}

impl std::fmt::Display for NoDatabase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for NoDatabase {}

/// The database of a command that reads or changes games: it must exist
/// already (issue 19 item 10). Opening it would create an empty one, and
/// `./var/` with it, wherever the GM happened to type `arbitre status`.
fn existing_database(config: Option<&Path>) -> anyhow::Result<DaemonConfig> {
    let cfg = load_config(config)?;
    if !cfg.database.exists() {
        let config = match config {
            Some(c) => Some(c.to_path_buf()),
            None if Path::new("arbitre.toml").is_file() => Some(PathBuf::from("./arbitre.toml")),
            None => None,
        };
        return Err(NoDatabase {
            database: cfg.database.clone(),
            config,
        }
        .into());
    }
    Ok(cfg)
}

/// A daemon over an existing database (every command but `game create`
/// and `serve`, which may start a new one).
fn open_existing(config: Option<&Path>, registry: Registry) -> anyhow::Result<Daemon> {
    existing_database(config)?;
    open_new(config, registry)
}

fn open_new(config: Option<&Path>, registry: Registry) -> anyhow::Result<Daemon> {
    let cfg = load_config(config)?;
    let db = cfg.database.display().to_string();
    match Daemon::open(cfg, registry, Arc::new(SystemClock)) {
        Ok(d) => Ok(d),
        // Only a Maildir is opened here (IMAP logs in on first use): say so,
        // rather than blaming the database (issue 14 item 10).
        Err(e @ crate::DaemonError::Mail(_)) => {
            Err(doing(e.into(), || ("ctx-opening-inbox", vec![])))
        }
        Err(e) => Err(doing(e.into(), || ("ctx-opening-database", fl_args![db]))),
    }
}

/// "attempt to write a readonly database" names no file: add which one and
/// the usual fix (issue 14 item 16). It happens when a GM command ran as
/// another user (root) than the daemon's and created or took the files.
pub fn explain_readonly(e: anyhow::Error, database: Option<&Path>) -> anyhow::Error {
    let readonly = e.chain().any(|c| {
        let t = c.to_string();
        t.contains("readonly database") || t.contains("read-only database")
    });
    if !readonly {
        return e;
    }
    match database {
        Some(p) => {
            let file = p.display().to_string();
            let dir = p
                .parent()
                .map_or_else(|| ".".to_string(), |d| d.display().to_string());
            doing(e, || ("cli-readonly", fl_args![file, dir]))
        }
        None => doing(e, || ("cli-readonly-unknown", vec![])),
    }
}

/// Sends what a GM command queued, unless a daemon serves this database
/// (then it sends them itself: two senders could mail a row twice).
fn flush(d: &mut Daemon, lang: Lang, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    match d.lock() {
        Ok(_lock) => {
            let (sent, failed) = d.send_outbox()?;
            let line = if failed > 0 {
                tr(lang, "cli-mails-sent-failed", &fl_args![sent, failed])
            } else {
                tr(lang, "cli-mails-sent", &fl_args![sent])
            };
            writeln!(out, "{line}")?;
        }
        Err(_) => writeln!(out, "{}", tr(lang, "cli-daemon-sends", &[]))?,
    }
    Ok(())
}

/// Runs a parsed command line; output goes to `out`. Returns the exit status.
pub fn run(cli: Cli, registry: Registry, out: &mut dyn std::io::Write) -> anyhow::Result<u8> {
    let config = cli.config.clone();
    run_command(cli, registry, out).map_err(|e| {
        let database = load_config(config.as_deref()).ok().map(|c| c.database);
        explain_readonly(e, database.as_deref())
    })
}

fn run_command(cli: Cli, registry: Registry, out: &mut dyn std::io::Write) -> anyhow::Result<u8> {
    let cfg = cli.config.as_deref();
    // Tests and scripts get English unless --lang says otherwise; `main`
    // fills the flag from the locale.
    let lang = crate::i18n::cli_lang(cli.lang.as_deref(), |_| None);
    // Every daemon a command opens speaks its language (issue 16 item 3):
    // `status`, `outbox list` and the refusals of its methods.
    let daemon = |cfg: Option<&Path>, registry: Registry| -> anyhow::Result<Daemon> {
        let mut d = open_existing(cfg, registry)?;
        d.lang = lang;
        Ok(d)
    };
    let new_daemon = |cfg: Option<&Path>, registry: Registry| -> anyhow::Result<Daemon> {
        let mut d = open_new(cfg, registry)?;
        d.lang = lang;
        Ok(d)
    };
    match cli.command {
        Command::Game(GameCmd::Create { game_toml }) => {
            let mut d = new_daemon(cfg, registry)?;
            // Warnings first (issue 19 item 4): printed, never fatal.
            if let Ok(text) = std::fs::read_to_string(&game_toml) {
                let base = game_toml.parent().unwrap_or(Path::new("."));
                let file = game_toml.display().to_string();
                if let Ok(warnings) = d.check_game_file_in(&text, &file, base, lang) {
                    for warning in warnings {
                        writeln!(out, "{}", tr(lang, "cfg-warning", &fl_args![warning]))?;
                    }
                }
            }
            let id = d.create_game_file_in(&game_toml, lang)?;
            writeln!(out, "{}", tr(lang, "cli-game-created", &fl_args![id]))?;
            flush(&mut d, lang, out)?;
        }
        Command::Serve { once } => {
            // Before anything else, so a SIGTERM during start-up is honoured too.
            let stop = crate::serve::stop_flag().doing(|| ("ctx-signal-handler", vec![]))?;
            let mut d = new_daemon(cfg, registry)?;
            let _lock = d.lock()?;
            // `[web] listen` (issue 24): the web pages on a thread of their
            // own, with their own database connection; stopped by the
            // same signal. Not for a cron's `--once`.
            if let (Some(listen), false) = (d.config.web_listen, once) {
                let web = crate::web::Web::open(
                    d.config.clone(),
                    Arc::clone(&d.registry),
                    Arc::clone(&d.clock),
                )?;
                crate::web::spawn(web, listen, Arc::clone(&stop))
                    .doing(|| ("ctx-web-thread", vec![]))?;
            }
            for w in d.id_collisions()? {
                tracing::error!("{w}");
                writeln!(out, "{w}")?;
            }
            if !once {
                // Reported now, but not fatal: the loop retries (issue 14 item 10).
                if let Err(e) = d.inbox.connect() {
                    d.inbox_failed(&e);
                }
            }
            let r = d.serve(once, &stop)?;
            if once {
                let (mails, resolved, reminders, sent, failures) = (
                    r.mails,
                    r.resolved.len(),
                    r.reminders,
                    r.sent,
                    r.send_failures,
                );
                // Nothing done, nothing printed: cron mails any output.
                if mails + resolved + reminders + sent + failures > 0 {
                    let args = fl_args![mails, resolved, reminders, sent, failures];
                    writeln!(out, "{}", tr(lang, "cli-cycle", &args))?;
                }
                if let Some(error) = &r.inbox_error {
                    writeln!(out, "{}", tr(lang, "cli-inbox-not-read", &fl_args![error]))?;
                }
            }
        }
        Command::Turn { game } => {
            let mut d = daemon(cfg, registry)?;
            let t = d.resolve(&game)?;
            let turn = t;
            writeln!(
                out,
                "{}",
                tr(lang, "cli-turn-resolved", &fl_args![game, turn])
            )?;
            flush(&mut d, lang, out)?;
        }
        Command::Status { game, json } => {
            let d = daemon(cfg, registry)?;
            if json {
                let s = d.status_json(game.as_deref())?;
                writeln!(out, "{}", serde_json::to_string_pretty(&s)?)?;
            } else {
                write!(out, "{}", d.status(game.as_deref())?)?;
            }
        }
        Command::Game(GameCmd::List { json }) => {
            let d = daemon(cfg, registry)?;
            let list = d.game_list()?;
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&list)?)?;
            } else {
                write!(out, "{}", crate::gm::listing::render_list(&list))?;
            }
        }
        Command::Game(GameCmd::Export { game, turn }) => {
            let d = daemon(cfg, registry)?;
            write!(out, "{}", d.export_position(&game, turn)?)?;
        }
        Command::Game(GameCmd::Delete { game, yes, archive }) => {
            let db = existing_database(cfg)?.database;
            let mut d = daemon(cfg, registry)?;
            // Under the daemon's lock: a turn resolving meanwhile would
            // write rows the archive does not hold.
            let _lock = d.lock()?;
            if !yes {
                confirm_delete(&game, lang)?;
            }
            let archive = archive.unwrap_or_else(|| {
                let dir = db.parent().unwrap_or(Path::new("."));
                let at = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
                dir.join(format!("{game}-deleted-{at}.json"))
            });
            let done = d.delete_game(&game, &archive)?;
            let (path, rows, mails) = (archive.display(), done.rows, done.mails);
            let args = fl_args![game, path, rows, mails];
            writeln!(out, "{}", tr(lang, "cli-game-deleted", &args))?;
        }
        Command::Report { game, player, turn } => {
            let d = daemon(cfg, registry)?;
            writeln!(out, "{}", d.report(&game, &player, turn)?.trim_end())?;
        }
        Command::Map {
            game,
            player,
            turn,
            png,
            svg,
        } => {
            if png.is_none() && svg.is_none() {
                return Err(UsageError(tr(lang, "cli-map-where", &[])).into());
            }
            // A fixture folder is replayed up to the turn (docs/img/ maps).
            let m = if Path::new(&game).join("game.toml").is_file() {
                crate::png_map::fixture_map(Path::new(&game), &player, turn, registry)?
            } else {
                daemon(cfg, registry)?.map(&game, &player, turn)?
            };
            if let Some(p) = &png {
                std::fs::write(p, &m.png)
                    .doing(|| ("ctx-writing", fl_args![path = p.display()]))?;
                let (path, name, bytes) =
                    (p.display(), crate::png_map::png_name(&m.name), m.png.len());
                let args = fl_args![path, name, bytes];
                writeln!(out, "{}", tr(lang, "cli-file-written", &args))?;
            }
            if let Some(p) = &svg {
                std::fs::write(p, &m.svg)
                    .doing(|| ("ctx-writing", fl_args![path = p.display()]))?;
                let (path, name, bytes) = (p.display(), &m.name, m.svg.len());
                let args = fl_args![path, name, bytes];
                writeln!(out, "{}", tr(lang, "cli-file-written", &args))?;
            }
        }
        Command::Password(PasswordCmd::Reset { game, player, from }) => {
            let password = read_password(from.as_deref(), lang)?;
            let mut d = daemon(cfg, registry)?;
            d.reset_password(&game, &player, &password)?;
            writeln!(
                out,
                "{}",
                tr(lang, "cli-password-reset", &fl_args![game, player])
            )?;
        }
        Command::Password(PasswordCmd::Hash { from }) => {
            let text = match &from {
                Some(f) => std::fs::read_to_string(f)
                    .doing(|| ("ctx-reading", fl_args![path = f.display()]))?,
                None => {
                    let mut line = String::new();
                    std::io::stdin().read_line(&mut line)?;
                    line
                }
            };
            let password = text.lines().next().unwrap_or("").trim().to_string();
            if password.is_empty() || password.contains(char::is_whitespace) {
                return Err(UsageError(tr(lang, "cli-password-one-word", &[])).into());
            }
            // The hasher's salt is derived from its seed; a fresh seed per
            // call keeps salts unique.
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let hasher = load_config(cfg)?.hasher;
            writeln!(
                out,
                "{}",
                hasher.hash(&password, &format!("cli/{}/{nanos}", std::process::id()))?
            )?;
        }
        Command::Player(PlayerCmd::Join { game, player_toml }) => {
            let text = std::fs::read_to_string(&player_toml)
                .doing(|| ("ctx-reading", fl_args![path = player_toml.display()]))?;
            let mut d = daemon(cfg, registry)?;
            let id = d.join_player(&game, &text)?;
            writeln!(
                out,
                "{}",
                tr(lang, "cli-player-joined", &fl_args![game, id])
            )?;
            flush(&mut d, lang, out)?;
        }
        Command::Signup(SignupCmd::List { game }) => {
            let d = daemon(cfg, registry)?;
            let lines = d.signup_requests(&game, lang)?;
            if lines.is_empty() {
                writeln!(out, "{}", tr(lang, "cli-signup-none", &fl_args![game]))?;
            }
            for l in lines {
                writeln!(out, "{l}")?;
            }
        }
        Command::Signup(SignupCmd::Accept { game, address }) => {
            use crate::services::command::Command as Cmd;
            let mut d = daemon(cfg, registry)?;
            let done = d.request(&crate::request::Request::gm(
                &game,
                Cmd::Accept(address.clone()),
            ))?;
            if let crate::request::Done::Joined(player) = done {
                let args = fl_args![game, address, player];
                writeln!(out, "{}", tr(lang, "cli-signup-accepted", &args))?;
            }
            flush(&mut d, lang, out)?;
        }
        Command::Signup(SignupCmd::Refuse {
            game,
            address,
            reason,
        }) => {
            use crate::services::command::Command as Cmd;
            let mut d = daemon(cfg, registry)?;
            d.request(&crate::request::Request::gm(
                &game,
                Cmd::Refuse {
                    email: address.clone(),
                    reason,
                },
            ))?;
            let args = fl_args![game, address];
            writeln!(out, "{}", tr(lang, "cli-signup-refused", &args))?;
            flush(&mut d, lang, out)?;
        }
        Command::Player(PlayerCmd::Password { game, player, from }) => {
            use crate::request::{Asker, Request};
            use crate::services::command::{Command as Cmd, Secret};
            let password = read_password(from.as_deref(), lang)?;
            let mut d = daemon(cfg, registry)?;
            let req = Request::Command {
                game: game.clone(),
                by: Asker::Player(player.clone()),
                command: Cmd::NewPassword(Secret(password)),
            };
            d.request(&req)?;
            let args = fl_args![game, player];
            writeln!(out, "{}", tr(lang, "cli-password-changed", &args))?;
        }
        Command::Player(PlayerCmd::Eject { game, player }) => {
            let mut d = daemon(cfg, registry)?;
            let id = d.eject(&game, &player)?;
            writeln!(
                out,
                "{}",
                tr(lang, "cli-player-ejected", &fl_args![game, id])
            )?;
            flush(&mut d, lang, out)?;
        }
        Command::Player(PlayerCmd::Replace {
            game,
            player,
            email,
            name,
            password_file,
            password_stdin,
            password,
        }) => {
            if password.is_some() {
                return Err(UsageError(tr(lang, "cli-password-not-on-command-line", &[])).into());
            }
            let password = match (password_file, password_stdin) {
                (Some(f), _) => Some(read_password(Some(&f), lang)?),
                (None, true) => Some(read_password(None, lang)?),
                (None, false) => None,
            };
            let mut d = daemon(cfg, registry)?;
            let generated =
                d.replace_player(&game, &player, &email, name.as_deref(), password.as_deref())?;
            let seat = tr(lang, "cli-seat-replaced", &fl_args![game, player, email]);
            writeln!(out, "{seat}")?;
            if let Some(password) = generated {
                writeln!(out, "{}", tr(lang, "cli-new-password", &fl_args![password]))?;
            }
            flush(&mut d, lang, out)?;
        }
        Command::Deadline { game, when } => {
            let w = parse_when(&when)?;
            let mut d = daemon(cfg, registry)?;
            let shown = d.set_deadline(&game, &w)?;
            let when = shown;
            writeln!(
                out,
                "{}",
                tr(lang, "cli-deadline-set", &fl_args![game, when])
            )?;
            flush(&mut d, lang, out)?;
        }
        Command::Preview { game, mode } => {
            use crate::gm::preview::PreviewMode;
            let m = match mode.to_ascii_lowercase().as_str() {
                "next" => PreviewMode::Next,
                "always" => PreviewMode::Always,
                "off" => PreviewMode::Off,
                mode => {
                    return Err(
                        UsageError(tr(lang, "cli-preview-mode-bad", &fl_args![mode])).into(),
                    )
                }
            };
            let mut d = daemon(cfg, registry)?;
            d.preview(&game, m)?;
            let mode = mode.to_ascii_lowercase();
            writeln!(
                out,
                "{}",
                tr(lang, "cli-preview-set", &fl_args![game, mode])
            )?;
        }
        Command::Release { game } => {
            let mut d = daemon(cfg, registry)?;
            let (turn, mails) = d.release(&game)?;
            let args = fl_args![game, turn, mails];
            writeln!(out, "{}", tr(lang, "cli-released", &args))?;
            flush(&mut d, lang, out)?;
        }
        Command::Rollback { game, turn } => {
            let mut d = daemon(cfg, registry)?;
            let undone = d.rollback(&game, turn)?;
            let list: Vec<String> = undone.iter().map(u32::to_string).collect();
            let undone = list.join(", ");
            let args = fl_args![game, turn, undone];
            writeln!(out, "{}", tr(lang, "cli-rolled-back", &args))?;
            flush(&mut d, lang, out)?;
        }
        Command::Pause { game } => {
            let mut d = daemon(cfg, registry)?;
            d.pause(&game)?;
            writeln!(out, "{}", tr(lang, "cli-paused", &fl_args![game]))?;
            flush(&mut d, lang, out)?;
        }
        Command::Resume { game } => {
            let mut d = daemon(cfg, registry)?;
            match d.resume(&game)? {
                Some(f) => {
                    let (turn, during) = (f.turn, f.during);
                    let args = fl_args![game, turn, during];
                    writeln!(out, "{}", tr(lang, "cli-resumed-after-fault", &args))?
                }
                None => writeln!(out, "{}", tr(lang, "cli-resumed", &fl_args![game]))?,
            }
            flush(&mut d, lang, out)?;
        }
        Command::Extend { game, by } => {
            let by = parse_duration(&by)?;
            let mut d = daemon(cfg, registry)?;
            d.extend(&game, by)?;
            writeln!(out, "{}", tr(lang, "cli-extended", &fl_args![game]))?;
            flush(&mut d, lang, out)?;
        }
        Command::Check {
            args,
            report,
            game,
            player,
        } => {
            let (ruleset, orders_file) = match (report.is_some(), args.as_slice()) {
                (true, [file]) => (String::new(), PathBuf::from(file)),
                (false, [ruleset, file]) => (ruleset.clone(), PathBuf::from(file)),
                (true, _) => return Err(UsageError(tr(lang, "cli-check-report-alone", &[])).into()),
                (false, _) => return Err(UsageError(tr(lang, "cli-check-two-args", &[])).into()),
            };
            let bytes = std::fs::read(&orders_file)
                .doing(|| ("ctx-reading", fl_args![path = orders_file.display()]))?;
            // A saved mail (.eml) is decoded like an inbound one; a plain file is taken as text.
            let from_mail = arbitre_mail::parse_mail(&bytes, usize::MAX)
                .ok()
                .and_then(|m| {
                    m.texts
                        .into_iter()
                        .find(|t| arbitre_mail::find_envelope(t).is_ok())
                });
            let text =
                from_mail.unwrap_or_else(|| arbitre_mail::decode::decode_charset(&bytes, None));
            if let Some(report) = report {
                let json = std::fs::read_to_string(&report)
                    .doing(|| ("ctx-reading", fl_args![path = report.display()]))?;
                let c = crate::offline::check_report(&registry, &json, &text, lang)?;
                let name = orders_file.display().to_string();
                write!(out, "{}", crate::offline::diagnostics(&name, &c.checked))?;
                return Ok(if c.checked.errors > 0 { 1 } else { 0 });
            }
            let c = crate::offline::check(
                &registry,
                &ruleset,
                &text,
                game.as_deref(),
                player.as_deref(),
                lang,
            )?;
            write!(out, "{}", c.report)?;
            return Ok(if c.errors > 0 { 1 } else { 0 });
        }
        Command::Case(CaseCmd::Run { files, ruleset }) => {
            let mut failed = 0;
            for file in &files {
                let id = match &ruleset {
                    Some(r) => r.clone(),
                    None => ruleset_of_case(lang, file)?,
                };
                let outcome = registry.get(&id)?.run_case(file);
                let passed = if outcome.passed() { "yes" } else { "no" };
                let (file, title) = (file.display(), &outcome.title);
                let args = fl_args![passed, file, title];
                writeln!(out, "{}", tr(lang, "cli-case-verdict", &args))?;
                for f in &outcome.failures {
                    writeln!(out, "  {}", f.replace('\n', "\n  "))?;
                }
                if !outcome.passed() {
                    failed += 1;
                }
            }
            let cases = files.len();
            writeln!(out, "{}", tr(lang, "cli-cases", &fl_args![cases, failed]))?;
            return Ok(if failed > 0 { 1 } else { 0 });
        }
        Command::Replay { fixture_dir, bless } => {
            // A folder of fixtures (fixtures/, fixtures/nebulight/) replays each one.
            let dirs = if fixture_dir.join("game.toml").is_file() {
                vec![fixture_dir.clone()]
            } else {
                fixture::find_fixtures(&fixture_dir)
            };
            if dirs.is_empty() {
                let dir = fixture_dir.display();
                return Err(UsageError(tr(lang, "cli-no-fixture", &fl_args![dir])).into());
            }
            let registry = Arc::new(registry);
            for dir in dirs {
                let s = fixture::replay(&dir, registry.clone(), bless)?;
                let blessed = if bless { "yes" } else { "no" };
                let (dir, turns, mails) = (dir.display(), s.turns, s.mails);
                let args = fl_args![dir, turns, mails, blessed];
                writeln!(out, "{}", tr(lang, "cli-replayed", &args))?;
            }
        }
        Command::Fixture(FixtureCmd::Record {
            game_toml,
            out_dir,
            bots,
            orders,
            turns,
        }) => {
            let source = match (bots, orders) {
                (true, None) => OrdersSource::Bots,
                (false, Some(d)) => OrdersSource::Dir(d),
                _ => return Err(UsageError(tr(lang, "cli-bots-or-orders", &[])).into()),
            };
            let s = fixture::record(&game_toml, source, &out_dir, turns, registry)?;
            let (dir, turns, mails) = (out_dir.display(), s.turns, s.mails);
            let args = fl_args![dir, turns, mails];
            writeln!(out, "{}", tr(lang, "cli-recorded", &args))?;
        }
        Command::Outbox(OutboxCmd::List { all }) => {
            let d = daemon(cfg, registry)?;
            write!(out, "{}", d.outbox_list(all)?)?;
        }
        Command::Outbox(OutboxCmd::Retry { id, failed }) => {
            let mut d = daemon(cfg, registry)?;
            match (id, failed) {
                (Some(id), _) => {
                    d.outbox_retry(id)?;
                    writeln!(out, "{}", tr(lang, "cli-mail-requeued", &fl_args![id]))?;
                }
                (None, _) => {
                    let n = d.outbox_retry_failed()?;
                    writeln!(out, "{}", tr(lang, "cli-failed-requeued", &fl_args![n]))?;
                }
            }
            flush(&mut d, lang, out)?;
        }
        Command::Outbox(OutboxCmd::Drop { id }) => {
            let mut d = daemon(cfg, registry)?;
            d.outbox_drop(id)?;
            writeln!(out, "{}", tr(lang, "cli-mail-dropped", &fl_args![id]))?;
        }
        Command::Backup { file } => {
            // The database only: no inbox is opened (an IMAP server may be down).
            let cfg = existing_database(cfg)?;
            let store = arbitre_store::Store::open(&cfg.database).doing(|| {
                (
                    "ctx-opening-database",
                    fl_args![db = cfg.database.display()],
                )
            })?;
            let done = crate::backup::backup(&store, &file, lang)?;
            let (database, path, bytes) = (cfg.database.display(), done.path.display(), done.bytes);
            let args = fl_args![database, path, bytes];
            writeln!(out, "{}", tr(lang, "cli-backup-written", &args))?;
        }
        Command::Demo { turns } => {
            let base = match cfg {
                Some(p) => load_config(Some(p))?
                    .database
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| "var".into()),
                None => PathBuf::from("var"),
            };
            crate::demo::run(&base, registry, turns, lang, out)?;
        }
        Command::Web { listen } => {
            let stop = crate::serve::stop_flag().doing(|| ("ctx-signal-handler", vec![]))?;
            let config = load_config(cfg)?;
            let listen = match (listen, config.web_listen) {
                (Some(l), _) | (None, Some(l)) => l,
                (None, None) => crate::web::DEFAULT_LISTEN.parse()?,
            };
            let db = config.database.display().to_string();
            let web = crate::web::Web::open(config, Arc::new(registry), Arc::new(SystemClock))
                .doing(|| ("ctx-opening-database", fl_args![db]))?;
            writeln!(out, "{}", tr(lang, "cli-web-listening", &fl_args![listen]))?;
            out.flush()?;
            crate::web::run_blocking(web, listen, stop)
                .doing(|| ("ctx-serving-web", fl_args![listen]))?;
        }
    }
    Ok(0)
}

/// `game delete` without --yes: the GM types the game's id on a terminal;
/// anywhere else (cron, a pipe) nothing is deleted.
fn confirm_delete(game: &str, lang: Lang) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() {
        return Err(UsageError(tr(lang, "cli-delete-needs-yes", &fl_args![game])).into());
    }
    eprint!("{} ", tr(lang, "cli-delete-confirm", &fl_args![game]));
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    if line.trim() != game {
        return Err(UsageError(tr(lang, "cli-delete-not-confirmed", &fl_args![game])).into());
    }
    Ok(())
}

/// A password from the first line of `file`, else of standard input (with
/// a prompt on stderr when it is a terminal). Never from the command line
/// (issue 14 item 4): `ps` and shell history show arguments.
fn read_password(file: Option<&Path>, lang: Lang) -> anyhow::Result<String> {
    use std::io::IsTerminal;
    let text = match file {
        Some(f) => {
            std::fs::read_to_string(f).doing(|| ("ctx-reading", fl_args![path = f.display()]))?
        }
        None => {
            if std::io::stdin().is_terminal() {
                eprint!("{} ", tr(lang, "cli-password-prompt", &[]));
            }
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)?;
            line
        }
    };
    let password = text.lines().next().unwrap_or("").trim().to_string();
    if password.is_empty() {
        let source = match file {
            Some(f) => f.display().to_string(),
            None => tr(lang, "cli-standard-input", &[]),
        };
        return Err(UsageError(tr(lang, "cli-no-password", &fl_args![source])).into());
    }
    Ok(password)
}

/// A deadline on the command line: RFC 3339, or "YYYY-MM-DD HH:MM" in the game's zone.
/// `rulesets/nebulight/cases/tv04.toml` → `nebulight`.
fn ruleset_of_case(lang: arbitre_core::Lang, file: &Path) -> anyhow::Result<String> {
    let dir = file
        .parent()
        .filter(|d| d.file_name().is_some_and(|n| n == "cases"));
    match dir.and_then(Path::parent).and_then(Path::file_name) {
        Some(name) => Ok(name.to_string_lossy().into_owned()),
        None => {
            let file = file.display();
            let text = tr(lang, "cli-case-not-under-cases", &fl_args![file]);
            Err(UsageError(text).into())
        }
    }
}

fn parse_when(s: &str) -> anyhow::Result<crate::timespec::When> {
    Ok(crate::timespec::When::parse(s)?)
}

/// The log filter of every command but `serve --once`: see
/// [`crate::logs::log_filter`], default `info`.
pub fn log_filter(env: impl Fn(&str) -> Option<String>) -> tracing_subscriber::EnvFilter {
    crate::logs::log_filter(env, "info")
}

/// The binary's entry point.
pub fn main(registry: Registry) -> ExitCode {
    let mut cli = Cli::parse();
    // Under cron every line is mailed to the GM: `serve --once` logs
    // warnings and errors only, unless a variable asks for more; its
    // summary line (stdout) says what the cycle did.
    let quiet = matches!(cli.command, Command::Serve { once: true });
    let default = if quiet { "warn" } else { "info" };
    crate::logs::init(
        cli.log_format,
        crate::logs::log_filter(|name| std::env::var(name).ok(), default),
    );
    if cli.lang.is_none() {
        let lang = crate::i18n::cli_lang(None, |name| std::env::var(name).ok());
        cli.lang = Some(lang.code().to_owned());
    }
    let lang = cli
        .lang
        .as_deref()
        .and_then(arbitre_core::Lang::parse)
        .unwrap_or(arbitre_core::Lang::En);
    let mut stdout = std::io::stdout();
    match run(cli, registry, &mut stdout) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("arbitre: {}", error_text(lang, &e));
            ExitCode::from(exit_of(&e) as u8)
        }
    }
}
