//! A player's order block and CHECK block as requests (issue 16 item 1):
//! [`Request::Orders`] and [`Request::Check`], made by
//! [`parse::orders`](super::parse::orders) from the block left after its
//! command lines, decided here over the caller's transaction.
//!
//! [`handle`] reads the seat's state (ejected, game over), checks the
//! block through the ruleset (or takes the check made outside the write
//! lock, [`PreChecked`], when it was made for this very state, seat and
//! text), and returns an [`OrdersDecision`]: the journal outcome and
//! detail, the orders row to store (none for a CHECK or a refused block)
//! and the confirmation mail. Nothing is written here: the mail path
//! (inbound.rs `apply`, the same for the web's submissions) writes the
//! journal row, the mails and the orders in one transaction, because the
//! orders row carries the mail's journal key (SHA-256), which only the
//! mail knows once its blocks are merged (request/blocks.rs).

use super::{Ctx, OrderBlock, Request};
use crate::daemon::GameView;
use crate::error::{DaemonError, Result};
use crate::inbound::Disposition;
use crate::messages::{text, Msg};
use crate::outgoing::{signed, Draft, Kind};
use crate::services::authenticity::Authenticity;
use crate::services::texts::{svc_text, SvcMsg};
use arbitre_core::{Checked, Lang, PlayerId, Verdict};
use arbitre_mail::BlockKind;
use arbitre_store::{games, orders, Connection, GameStatus};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// An orders row to store: the block's text and its verdicts, already
/// encoded for the store (issue 14 item 1: the ruleset's verdicts echo
/// every line, as big as the block, and are dropped once the confirmation
/// is made and they are encoded, before the mail's writes).
pub struct NewOrders {
    pub game: String,
    pub turn: u32,
    pub player: String,
    pub text: String,
    pub verdicts: orders::Verdicts,
    pub errors: u32,
    pub ready: bool,
}

/// Writes `o`, kept with the journal key `sha` of the mail it came in.
pub fn write(c: &Connection, o: NewOrders, now: DateTime<Utc>, sha: &str) -> Result<()> {
    orders::insert_encoded(
        c,
        &o.game,
        o.turn,
        &o.player,
        o.text,
        &o.verdicts,
        o.errors,
        o.ready,
        now.timestamp(),
        Some(sha),
    )?;
    Ok(())
}

/// The ruleset's check of a block, made outside the write lock, and what
/// it was made for: used inside the transaction only if all still holds.
pub struct PreChecked {
    pub game: String,
    pub player: String,
    /// The stored state it was checked against (the current turn's).
    pub state: crate::loaded::StateKey,
    /// Which order text was checked.
    pub orders: OrdersKey,
    pub checked: Checked,
    /// The confirmation's echo of the lines ([`confirmation_lines`]).
    pub echo: String,
}

/// The order text a [`PreChecked`] checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrdersKey {
    /// The mail's block as it came (no command line in it): the decision
    /// reads the same block of the same mail, so it is the same text
    /// without hashing it twice (issue 22 item 1).
    WholeBlock,
    /// SHA-256 of the text left once the block's commands were taken out.
    Sha([u8; 32]),
}

/// SHA-256 of an order text, to match a [`PreChecked`] with its block.
pub fn sha_of(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// What the request needs of its mail besides the block: where the answer
/// goes, what the mail proved, and the check made before the lock.
pub struct Facts<'m, 'r> {
    pub reply_to: &'m str,
    pub auth: &'m Authenticity,
    pub pre: Option<PreChecked>,
    /// The game as the mail's decision read it, when nothing since can
    /// have changed it (the mail ran no service command, in its own
    /// transaction): spares reading and viewing it again. `None`: read here.
    pub game: Option<GameView<'r>>,
    /// The block is the order text as it came, no command taken out of it:
    /// the text a [`PreChecked`] of [`OrdersKey::WholeBlock`] checked.
    pub whole_block: bool,
}

/// What an order block or a CHECK causes (written by the mail's apply).
pub struct OrdersDecision {
    /// The journal's outcome: stored, checked, or rejected.
    pub outcome: Disposition,
    pub detail: String,
    /// The row to store: orders accepted for the coming turn.
    pub orders: Option<NewOrders>,
    /// The answer, without its Message-ID discriminator and In-Reply-To
    /// (the mail's, added by the caller).
    pub reply: Draft,
    /// Refused before the ruleset read the block (an ejected seat, a game
    /// over, a seat not in the state): the mail is answered by this reply
    /// alone.
    pub refused: bool,
}

impl OrdersDecision {
    fn refused(detail: String, reply: Draft) -> OrdersDecision {
        OrdersDecision {
            outcome: Disposition::Rejected,
            detail,
            orders: None,
            reply,
            refused: true,
        }
    }
}

/// Decides `req`, an [`Request::Orders`] or [`Request::Check`].
/// The ruleset's check is made on the batch's decoded game (`ctx.loaded`).
pub fn handle<'r>(ctx: &Ctx<'_, 'r>, req: Request, facts: Facts<'_, 'r>) -> Result<OrdersDecision> {
    let c = ctx.tx;
    let now = ctx.now;
    let loaded = ctx.loaded;
    let game = match facts.game {
        Some(game) if game.row.id == req.game() => game,
        _ => GameView::new(ctx.registry, games::require_game(c, req.game())?)?,
    };
    let lang = game.lang;
    let (block, kind) = match req {
        Request::Orders(b) => (b, BlockKind::Orders),
        Request::Check(b) => (b, BlockKind::Check),
        other => {
            let name = super::player::name_of(&other);
            return Err(DaemonError::Invalid(super::player::not_served(lang, name)));
        }
    };
    let OrderBlock {
        game: gid,
        player,
        text: orders,
    } = block;
    let Facts {
        reply_to: to,
        auth,
        pre,
        game: _,
        whole_block,
    } = facts;
    let error_mail = |lang: Lang, body: String| {
        Draft::new(
            Kind::Error,
            to,
            text(lang, &Msg::ErrorSubject),
            signed(lang, &body),
        )
    };
    // An ejected seat (issue 10, gm/seats.rs): its orders no longer count.
    let seat = loaded.settings(c, &gid, &player)?;
    if crate::gm::seats::ejected_by(&seat, game.row.turn + 1) && game.row.status != GameStatus::Over
    {
        let body = svc_text(
            lang,
            &SvcMsg::EjectedSeat {
                game: &gid,
                player: &player,
            },
        );
        // No player on it: an `error` mail naming a player and the coming
        // turn counts as a wrong-password attempt (turn.rs).
        let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, None);
        let detail = format!("orders from ejected seat '{player}'");
        return Ok(OrdersDecision::refused(detail, reply));
    }
    if game.row.status == GameStatus::Over {
        let body = text(lang, &Msg::GameOver { game: &gid });
        let reply = error_mail(lang, body).about(&gid, game.row.turn, Some(&player));
        return Ok(OrdersDecision::refused("game over".into(), reply));
    }
    // Read as this player reads it (TIMEZONE, issue 10); the game was read
    // after the mail's commands (an ABSENCE may have moved the deadline).
    let game = game.seen_by(seat.timezone.as_deref());
    let state = loaded.stamp_of(c, &gid)?;
    let pid = PlayerId::new(player.clone());
    // The check made outside the lock (precheck) when it was made for this
    // very state, seat and text; else made here.
    let pre = pre.filter(|p| {
        p.game == gid
            && p.player == player
            && p.state == state
            && match p.orders {
                OrdersKey::WholeBlock => whole_block,
                OrdersKey::Sha(sha) => !whole_block && sha == sha_of(&orders),
            }
    });
    let checked = match pre {
        Some(p) => Ok((p.checked, Some(p.echo))),
        None => loaded
            .latest(c, &game, &state)?
            .1
            .check(&pid, &orders)
            .map(|c| (c, None)),
    };
    drop(state);
    let (checked, echo) = match checked {
        Ok(c) => c,
        // Configured in the TOML but not (or no longer) in the ruleset's state.
        Err(arbitre_core::EngineError::UnknownPlayer(_)) => {
            let body = text(
                lang,
                &Msg::UnknownPlayer {
                    game: &gid,
                    player: &player,
                },
            );
            let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, Some(&player));
            let detail = format!("player '{player}' not in the game state");
            return Ok(OrdersDecision::refused(detail, reply));
        }
        // A state the ruleset cannot load is the referee's fault, not the
        // player's: the mail stays in new/ and is retried after the fix.
        Err(e) => return Err(game.engine_err(e)),
    };
    let turn = game.row.turn + 1;
    // A block the ruleset refused whole (another turn, month or nation,
    // issue 17 item 7) is answered but never stored: storing it would
    // replace the orders already in force for the open turn.
    let refused = kind == BlockKind::Orders && checked.refused;
    let store = kind == BlockKind::Orders && !refused;
    let echo = echo.unwrap_or_else(|| confirmation_lines(lang, &checked));
    let mut body = auth.annotate(
        lang,
        confirmation_around(&game, turn, &player, store, &checked, &echo),
    );
    drop(echo);
    // Past the deadline, within the `[services] grace`: the orders count,
    // and the player is told they were late. (Without a grace, orders that
    // beat the next cycle count as before, unmarked.)
    let grace = game.toml.services.grace();
    if let Some(d) = game
        .deadline()
        .filter(|d| store && grace > chrono::Duration::zero() && *d < now)
    {
        body = format!(
            "{}\n\n{body}",
            svc_text(
                lang,
                &SvcMsg::LateOrders {
                    deadline: &game.schedule.show(d)
                }
            )
        );
    }
    let (kind, subject) = if store {
        (
            Kind::Confirm,
            text(lang, &Msg::ConfirmSubject { game: &gid, turn }),
        )
    } else if refused {
        (
            Kind::Confirm,
            text(lang, &Msg::RefusedSubject { game: &gid, turn }),
        )
    } else {
        (Kind::Check, text(lang, &Msg::CheckSubject { game: &gid }))
    };
    let reply = Draft::new(kind, to, subject, body).about(&gid, turn, Some(&player));
    let outcome = if store {
        Disposition::Stored
    } else if refused {
        Disposition::Rejected
    } else {
        Disposition::Checked
    };
    let detail = format!(
        "{} for {player} turn {turn}: {} order(s), {} error(s)",
        if store { "orders" } else { "check" },
        checked.orders,
        checked.errors
    );
    tracing::info!(game = %gid, player = %player, turn, orders = checked.orders, errors = checked.errors, "{}", outcome.as_str());
    let orders = store.then(|| NewOrders {
        game: gid.clone(),
        turn,
        player: player.clone(),
        verdicts: orders::Verdicts::encode(&orders, &checked.verdicts),
        errors: checked.errors as u32,
        ready: checked.ready,
        text: orders,
    });
    drop(checked);
    Ok(OrdersDecision {
        outcome,
        detail,
        orders,
        reply,
        refused: false,
    })
}

/// The confirmation: every line echoed with OK or its reason.
pub fn confirmation(
    game: &GameView<'_>,
    turn: u32,
    player: &str,
    stored: bool,
    checked: &Checked,
) -> String {
    let echo = confirmation_lines(game.lang, checked);
    confirmation_around(game, turn, player, stored, checked, &echo)
}

/// The confirmation with its echoed lines (`echo`, from
/// [`confirmation_lines`]) made beforehand: the header and the footer only
/// need what the write transaction reads (the deadline may have moved).
fn confirmation_around(
    game: &GameView<'_>,
    turn: u32,
    player: &str,
    stored: bool,
    checked: &Checked,
    echo: &str,
) -> String {
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let mut out = if stored {
        text(
            lang,
            &Msg::ConfirmHeader {
                game: gid,
                turn,
                player,
            },
        )
    } else if checked.refused {
        text(
            lang,
            &Msg::RefusedHeader {
                game: gid,
                turn,
                player,
            },
        )
    } else {
        text(
            lang,
            &Msg::CheckHeader {
                game: gid,
                turn,
                player,
            },
        )
    };
    out.reserve(echo.len() + 1024);
    out.push_str("\n\n");
    out.push_str(echo);
    out.push('\n');
    out.push_str(&text(
        lang,
        &Msg::Summary {
            orders: checked.orders,
            errors: checked.errors,
            warnings: checked.warnings,
        },
    ));
    out.push('\n');
    if stored {
        out.push_str(&text(lang, &Msg::Replaces));
        out.push('\n');
        if !checked.ready {
            out.push_str(&text(lang, &Msg::NotReady));
            out.push('\n');
        }
    }
    if let Some(when) = game.show_deadline() {
        out.push_str(&text(lang, &Msg::Deadline { when: &when }));
        out.push('\n');
    }
    signed(lang, &out)
}

/// The echo of every line of a checked block with OK or its reason (the
/// body of the confirmation): depends only on the check and the game's
/// language, so it is made outside the write lock (issue 14 item 1).
pub fn confirmation_lines(lang: Lang, checked: &Checked) -> String {
    let mut out = String::new();
    if checked.verdicts.is_empty() {
        out.push_str(&text(lang, &Msg::NoOrderLines));
        out.push('\n');
    }
    let (ok, err, warn) = (
        text(lang, &Msg::Ok),
        text(lang, &Msg::Error),
        text(lang, &Msg::Warning),
    );
    let width = [&ok, &err, &warn]
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0);
    // A long block (issue 14 item 1): the lines accepted without remark are
    // counted, not echoed, so the confirmation stays readable and small;
    // every error and warning is still listed with its line.
    let long = checked.verdicts.len() > crate::config::CONFIRM_ECHO_LINES;
    let mut silent_ok = 0;
    for v in &checked.verdicts {
        if long && v.verdict == Verdict::Ok {
            silent_ok += 1;
            continue;
        }
        let (label, reason) = match &v.verdict {
            Verdict::Ok => (&ok, None),
            Verdict::Warning(r) => (&warn, Some(r)),
            Verdict::Error(r) => (&err, Some(r)),
        };
        // In a long block each line is echoed up to CONFIRM_ECHO_CHARS: the
        // line number and the reason say what is wrong, and ten megabytes
        // of echoed lines would only make the answer unreadable.
        let shown = match v.text.char_indices().nth(crate::config::CONFIRM_ECHO_CHARS) {
            Some((cut, _)) if long => std::borrow::Cow::Owned(format!("{}…", &v.text[..cut])),
            _ => std::borrow::Cow::Borrowed(v.text.as_str()),
        };
        let _ = write!(out, "{:>4}  {label:<width$}  {shown}", v.line);
        if let Some(r) = reason {
            let _ = write!(out, "\n      {:width$}  -> {r}", "");
        }
        out.push('\n');
    }
    if silent_ok > 0 {
        out.push_str(&text(lang, &Msg::OkLinesNotEchoed { ok: silent_ok }));
        out.push('\n');
    }
    out
}
