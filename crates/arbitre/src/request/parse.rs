//! From what arrives to a [`Request`] (issue 16 item 1), without a
//! database or a clock: the CLI's typed arguments, and a mail block's
//! leading command lines (their keywords: services/command.rs).

use super::{Asker, OrderBlock, Request, ServiceMail};
use crate::gm::preview::PreviewMode;
use crate::services::command::{split_commands, Command, CommandError, Role, Split};

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

/// The requests of a player's block whose leading lines `split` read: a
/// service command becomes a [`Request::Service`] carrying what it needs of
/// the mail (the reply address, the mail's hash, the press text); the
/// others (PASSWORD NEW, or a game master's command the player is not
/// allowed) are [`Request::Command`]s asked by the player.
pub fn player_requests(
    game: &str,
    player: &str,
    reply_to: &str,
    sha: &str,
    split: &Split,
) -> Vec<(usize, Request)> {
    split
        .commands
        .iter()
        .map(|(line, command)| {
            let service =
                command.role() == Role::Player && !matches!(command, Command::NewPassword(_));
            let req = if service {
                let press_text = matches!(command, Command::Press { .. })
                    .then(|| split.press_text.clone())
                    .flatten();
                Request::Service {
                    game: game.to_string(),
                    player: player.to_string(),
                    command: command.clone(),
                    mail: ServiceMail {
                        reply_to: reply_to.to_string(),
                        sha: sha.to_string(),
                        press_text,
                    },
                }
            } else {
                Request::Command {
                    game: game.to_string(),
                    by: Asker::Player(player.to_string()),
                    command: command.clone(),
                }
            };
            (*line, req)
        })
        .collect()
}

/// The request of a seat's block `text` (its command lines taken off):
/// orders, or a `CHECK` (the block's header said which).
pub fn orders(game: &str, player: &str, kind: arbitre_mail::BlockKind, text: String) -> Request {
    let b = OrderBlock {
        game: game.to_string(),
        player: player.to_string(),
        text,
    };
    match kind {
        arbitre_mail::BlockKind::Orders => Request::Orders(b),
        arbitre_mail::BlockKind::Check => Request::Check(b),
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
    fn a_player_block_becomes_service_requests_with_the_press_text() {
        let split = split_commands("STATUS\nFUSEAU défaut\nPRESSE À TOUS\nBonjour\n");
        let reqs = player_requests("g", "p1", "p1@x", "abc", &split);
        assert_eq!(reqs.len(), 3);
        let Request::Service { command, mail, .. } = &reqs[1].1 else {
            panic!("{:?}", reqs[1]);
        };
        assert_eq!(command, &Command::TimezoneDefault);
        assert_eq!(mail.press_text, None);
        let Request::Service { mail, player, .. } = &reqs[2].1 else {
            panic!("{:?}", reqs[2]);
        };
        assert_eq!((player.as_str(), mail.reply_to.as_str()), ("p1", "p1@x"));
        assert_eq!(mail.press_text.as_deref(), Some("Bonjour"));
        let gm = split_commands("PAUSE\nPASSWORD NEW x\n");
        for (_, r) in player_requests("g", "p1", "p1@x", "abc", &gm) {
            assert!(
                matches!(
                    r,
                    Request::Command {
                        by: Asker::Player(_),
                        ..
                    }
                ),
                "{r:?}"
            );
        }
    }

    #[test]
    fn an_order_block_and_a_check_block_are_requests() {
        let o = orders(
            "g",
            "p1",
            arbitre_mail::BlockKind::Orders,
            "A PAR-BUR\n".into(),
        );
        let c = orders(
            "g",
            "p1",
            arbitre_mail::BlockKind::Check,
            "A PAR-BUR\n".into(),
        );
        let b = OrderBlock {
            game: "g".into(),
            player: "p1".into(),
            text: "A PAR-BUR\n".into(),
        };
        assert_eq!(o, Request::Orders(b.clone()));
        assert_eq!(c, Request::Check(b));
        assert_eq!(o.game(), "g");
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
