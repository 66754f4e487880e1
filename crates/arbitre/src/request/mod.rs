//! The request pipeline (issue 16 item 1): every command the referee is
//! asked to do, whoever asks and however it arrives, is first a typed
//! [`Request`] (pure: [`parse`]), then handled over one [`Ctx`] by
//! [`handle()`](handle::handle), which returns the [`Effects`] as a value,
//! written by [`apply`] in one place, in the caller's transaction.
//!
//! Both ways in meet here: the command line (`arbitre pause g`, through the
//! `Daemon` methods of gm.rs) and a mail block's command lines (inbound.rs
//! `gm_mail` for the game master, [`player::serve`] for a player's
//! command lines). A command therefore changes the same rows and
//! queues the same notices from both; only the answer's form differs (a CLI
//! line, or a line of the reply mail).
//!
//! The players' service commands (RESEND, HISTORY, STATUS, HELP, TIMEZONE,
//! PRESS, ABSENCE) are [`Request::Service`]s, decided in [`player`]; a
//! mail's command lines are served in line order by [`player::serve`], each
//! request applied before the next is decided (TIMEZONE then STATUS shows
//! the new zone).
//!
//! A player's order block and CHECK block are [`Request::Orders`] and
//! [`Request::Check`], decided in [`orders`] (the ruleset's check, the
//! verdicts, the row to store, the confirmation) and written with the
//! mail's journal entry by inbound.rs `apply`, the one place that knows the
//! mail's journal key (its SHA-256, kept on the orders row).
//!
//! Adding a command: its keyword line in services/command.rs (`Command`,
//! `parse_line`, `role`, `name`), its arm in [`handle::handle`] returning
//! [`Effects`], its texts in locales/{en,fr,de}.ftl, a test. docs/
//! architecture.md "Adding a command" has the recipe.

pub mod blocks;
pub mod handle;
pub mod orders;
pub mod parse;
pub mod player;

pub use handle::{apply, handle, Ctx, Decided, Done, Effects, Write};

use crate::services::command::Command;

/// Who asks. The game master is whoever holds the game's GM password (by
/// mail) or a shell on the referee's machine (the CLI); a player is a seat
/// whose password was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asker {
    GameMaster,
    Player(String),
}

/// One thing the referee is asked to do to one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// A command of [`Command`]'s grammar (the mail keywords; the CLI
    /// subcommands map onto the same variants in [`parse`]).
    Command {
        game: String,
        by: Asker,
        command: Command,
    },
    /// `JOIN <game> [name]` / `REJOINDRE` / `BEITRETEN` by mail, from any
    /// address and without a password (issue 17 item 3, signup.rs).
    Join(crate::signup::JoinRequest),
    /// A player's service command (RESEND, HISTORY, STATUS, HELP, TIMEZONE,
    /// PRESS, ABSENCE), with what it needs of the mail it came in.
    Service {
        game: String,
        player: String,
        command: Command,
        mail: ServiceMail,
    },
    /// A player's order block (issue 16 item 1, request/orders.rs): the
    /// orders for the coming turn, stored if the ruleset takes them.
    Orders(OrderBlock),
    /// A `CHECK` block: the same verdicts, nothing stored.
    Check(OrderBlock),
}

/// A block of order lines of a seat whose password was checked (its
/// command lines already taken off).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderBlock {
    pub game: String,
    pub player: String,
    pub text: String,
}

/// What a player's service request carries from its mail besides the
/// command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceMail {
    /// Where a RESEND goes: the address the request came from.
    pub reply_to: String,
    /// The mail's SHA-256, kept with the rows it causes (press, absence).
    pub sha: String,
    /// The text after a `PRESS` line: the message to relay.
    pub press_text: Option<String>,
}

impl Request {
    /// The game master's `command` on `game`.
    pub fn gm(game: &str, command: Command) -> Request {
        Request::Command {
            game: game.to_string(),
            by: Asker::GameMaster,
            command,
        }
    }

    pub fn game(&self) -> &str {
        match self {
            Request::Command { game, .. } | Request::Service { game, .. } => game,
            Request::Join(j) => &j.game,
            Request::Orders(b) | Request::Check(b) => &b.game,
        }
    }
}
