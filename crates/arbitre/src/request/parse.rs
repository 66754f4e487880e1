//! From what arrives to a [`Request`] (issue 16 item 1), without a
//! database or a clock: the CLI's typed arguments, and a mail block's
//! leading command lines (their keywords: services/command.rs).

use super::{Asker, Request};
use crate::gm::preview::PreviewMode;
use crate::services::command::{split_commands, Command, CommandError, Split};

/// A preview mode as the CLI spells it (`next`, `always`, `off`).
pub fn preview_mode(mode: &str) -> Option<PreviewMode> {
    match mode.to_ascii_lowercase().as_str() {
        "next" => Some(PreviewMode::Next),
        "always" => Some(PreviewMode::Always),
        "off" => Some(PreviewMode::Off),
        _ => None,
    }
}

/// The [`Command`] of a CLI `preview` (the mail's `PREVIEW [ALWAYS|OFF]`).
pub fn preview_command(mode: PreviewMode) -> Command {
    match mode {
        PreviewMode::Next => Command::Preview,
        PreviewMode::Always => Command::PreviewAlways,
        PreviewMode::Off => Command::PreviewOff,
    }
}

/// The requests of one block's leading command lines, in line order, with
/// the lines refused and the rest of the block (services/command.rs
/// [`split_commands`]).
pub struct Block {
    pub requests: Vec<(usize, Request)>,
    pub errors: Vec<CommandError>,
    pub split: Split,
}

/// Reads the leading command lines of `orders`, a block of `game` sent by
/// `by`.
pub fn block(game: &str, by: &Asker, orders: &str) -> Block {
    let mut split = split_commands(orders);
    let requests = std::mem::take(&mut split.commands)
        .into_iter()
        .map(|(line, command)| {
            (
                line,
                Request::Command {
                    game: game.to_string(),
                    by: by.clone(),
                    command,
                },
            )
        })
        .collect();
    let errors = std::mem::take(&mut split.errors);
    Block {
        requests,
        errors,
        split,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gm_block_becomes_requests_in_line_order() {
        let b = block("g", &Asker::GameMaster, "PAUSE\nEXTEND 1w\nRESUME\n");
        let cmds: Vec<_> = b.requests.iter().map(|(l, r)| (*l, r.clone())).collect();
        assert_eq!(cmds.len(), 3);
        assert_eq!(cmds[0], (1, Request::gm("g", Command::Pause)));
        assert_eq!(
            cmds[1],
            (
                2,
                Request::gm("g", Command::Extend(chrono::Duration::weeks(1)))
            )
        );
        assert_eq!(cmds[2], (3, Request::gm("g", Command::Resume)));
        assert!(b.errors.is_empty() && b.split.only_commands);
    }

    #[test]
    fn cli_preview_modes_are_the_mail_commands() {
        assert_eq!(
            preview_mode("Always").map(preview_command),
            Some(Command::PreviewAlways)
        );
        assert_eq!(
            preview_mode("next").map(preview_command),
            Some(Command::Preview)
        );
        assert_eq!(
            preview_mode("off").map(preview_command),
            Some(Command::PreviewOff)
        );
        assert_eq!(preview_mode("sometimes"), None);
    }
}
