//! Handling a [`Request`] (issue 16 item 1): decide, then apply.
//!
//! [`handle`] reads what it needs through the [`Ctx`] (the caller's
//! transaction, the registry, the configuration, the request's time) and
//! returns the [`Effects`]: the rows to write, the mails to queue and what
//! to answer. [`apply`] writes them, in the same transaction. A refusal
//! (`DaemonError::Invalid`, in the game's language) is returned before
//! anything is written, so a command that cannot be done changes nothing.
//!
//! Every command is decided first and written by [`apply`]: the schedule
//! changes, the password change and the player services here and in
//! request/player.rs, EJECT and TAKEOVER in gm/seats.rs, PREVIEW and
//! RELEASE in gm/preview.rs, ROLLBACK in gm/rollback.rs — each of those
//! reads and returns its rows as [`Write`] values and its mails as drafts,
//! and writes nothing itself. ABSENCE too: services/absence.rs `declare`
//! returns the absence's row (under the id it will take), the deadline it
//! moves and the notices (`decide_move`, which the turn's resolution
//! shares through `move_deadline`).
//!
//! The schedule changes' notices (issue 17 item 9) tell each player the
//! new deadline in their own zone (`TIMEZONE`) and carry the turn's
//! updated `.ics` (same UID: a calendar moves the event).

use super::{Asker, Request, ServiceMail};
use crate::config::DaemonConfig;
use crate::daemon::GameView;
use crate::error::{DaemonError, Result};
use crate::gm::preview::{self, PreviewMode};
use crate::gm::{rollback, seats};
use crate::i18n::tr;
use crate::loaded::Loaded;
use crate::messages::{text, Msg};
use crate::outgoing::{message_id_in, queue, signed, Draft, Kind};
use crate::registry::Registry;
use crate::services::command::{Command, Role};
use crate::services::texts::{svc_text, SvcMsg};
use arbitre_store::seats::SeatChangeKind;
use arbitre_store::PreviewMode as StoredPreview;
use arbitre_store::{games, outbox, settings, turns, Connection, GameStatus};
use chrono::{DateTime, Duration, Utc};

/// What a handler may read: everything but the clock, whose reading is
/// `now` (the mail's handling time, or the CLI's). `'r` is the registry's
/// lifetime, which the games loaded in `loaded` borrow their engine for.
pub struct Ctx<'a, 'r> {
    pub tx: &'a Connection,
    pub registry: &'r Registry,
    /// The games decoded for this batch (issue 16 item 5): the mail path
    /// passes its batch's, the CLI a fresh one per command.
    pub loaded: &'a Loaded<'r>,
    pub config: &'a DaemonConfig,
    pub now: DateTime<Utc>,
    /// Makes the request's mails' Message-IDs its own: the answered
    /// mail's hash prefix, or the CLI's time.
    pub tag: &'a str,
}

/// A row a handler asks to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// The game's status and deadline (PAUSE, RESUME, EXTEND, SET DEADLINE).
    Status {
        game: String,
        status: GameStatus,
        deadline: Option<i64>,
    },
    /// A seat's new password, as its argon2id hash (PASSWORD NEW).
    PasswordHash {
        game: String,
        player: String,
        phc: String,
    },
    /// The turn from which a seat no longer plays (EJECT), or `None`: it
    /// plays again (a takeover).
    Ejected {
        game: String,
        player: String,
        from_turn: Option<u32>,
    },
    /// A seat's change for the record (`seat_changes`): who played it
    /// before and who plays it now, as (name, address).
    SeatChange {
        game: String,
        player: String,
        turn: u32,
        kind: SeatChangeKind,
        before: Option<(String, String)>,
        after: Option<(String, String)>,
        at: i64,
    },
    /// A seat's new occupant (TAKEOVER).
    Occupant {
        game: String,
        player: String,
        name: String,
        email: String,
        phc: String,
    },
    /// The game's deadline alone (a takeover's extension).
    Deadline { game: String, deadline: Option<i64> },
    /// The game's preview setting (PREVIEW).
    Preview {
        game: String,
        mode: Option<StoredPreview>,
    },
    /// The held `turn` goes out: its mails back to pending (RELEASE).
    Release { game: String, turn: u32, at: i64 },
    /// The turns after `to` move to the archive of undone turns, their
    /// unsent mails are cancelled and the reminders forgotten (ROLLBACK).
    RollBack {
        game: String,
        to: u32,
        kinds: Vec<arbitre_store::MailKind>,
        at: i64,
    },
    /// The game's last resolved turn and deadline (ROLLBACK).
    Turn {
        game: String,
        turn: u32,
        deadline: Option<i64>,
    },
    /// A new seat between two turns (a sign-up accepted: join.rs).
    Join(Box<crate::join::JoinRows>),
    /// A sign-up request, new or answered (issue 17 item 3).
    Signup(arbitre_store::signups::Signup),
    /// The zone a player reads deadlines in (TIMEZONE; `None`: the game's).
    Timezone {
        game: String,
        player: String,
        zone: Option<String>,
    },
    /// A relayed press message's archive row (PRESS).
    Press(arbitre_store::press::PressRow),
    /// An accepted absence, under the id it was decided with (ABSENCE).
    Absence(arbitre_store::absences::AbsenceRow),
    /// An absence that moved a deadline: it moves none again (ABSENCE).
    AbsenceUsed {
        game: String,
        player: String,
        absence: i64,
        at: i64,
    },
}

/// What was done, for the asker's answer (typed; the CLI and the mail
/// reply word it each their way).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Done {
    /// The schedule changed; the new deadline as the players are shown it.
    Schedule {
        shown: Option<String>,
    },
    Ejected(String),
    /// The seat changed hands; the password when it was generated (the
    /// CLI prints it, the new player gets it by mail).
    TakenOver(Option<crate::services::command::Secret>),
    Preview,
    Released {
        turn: u32,
        mails: usize,
    },
    RolledBack(Vec<u32>),
    PasswordChanged,
    /// A sign-up waits for the game master.
    SignupPending,
    /// A sign-up entered the game as this seat.
    Joined(String),
    /// The game master refused a sign-up.
    SignupRefused,
    /// A player's service command answered (request/player.rs).
    Served,
    /// A player's command the game master sent, or the reverse: answered,
    /// nothing done.
    NotServed,
}

/// Everything one request causes.
pub struct Effects {
    pub writes: Vec<Write>,
    pub mails: Vec<Draft>,
    pub done: Done,
    /// The answer's line for a mail reply, in the game's language.
    pub answer: String,
}

/// What a decider of gm/ returns: the rows and mails it decided, and its
/// result for the caller. Nothing is written until [`Decided::apply`] (or
/// the request's [`apply`]).
pub struct Decided<T> {
    pub writes: Vec<Write>,
    pub mails: Vec<Draft>,
    pub value: T,
}

impl<T> Decided<T> {
    /// The request's effects, answered with `done` and `answer`; the value
    /// is the caller's.
    fn effects(self, done: Done, answer: String) -> (Effects, T) {
        let e = Effects {
            writes: self.writes,
            mails: self.mails,
            done,
            answer,
        };
        (e, self.value)
    }

    /// Writes the rows and queues the mails in the context's transaction;
    /// returns the value.
    pub fn apply(self, ctx: &Ctx<'_, '_>) -> Result<T> {
        let (e, value) = self.effects(Done::NotServed, String::new());
        apply(ctx, e)?;
        Ok(value)
    }
}

impl Effects {
    pub(crate) fn answered(done: Done, answer: String) -> Effects {
        Effects {
            writes: Vec::new(),
            mails: Vec::new(),
            done,
            answer,
        }
    }
}

/// Decides what `req` causes.
pub fn handle(ctx: &Ctx<'_, '_>, req: &Request) -> Result<Effects> {
    let (game, by, command) = match req {
        Request::Command { game, by, command } => (game, by, command),
        Request::Join(j) => return crate::signup::join(ctx, j),
        // Orders need the mail's facts and the batch's loaded games:
        // request/orders.rs `handle`, from the mail path.
        Request::Orders(_) | Request::Check(_) => {
            let g = GameView::new(ctx.registry, games::require_game(ctx.tx, req.game())?)?;
            let name = super::player::name_of(req);
            return Ok(Effects::answered(
                Done::NotServed,
                super::player::not_served(g.lang, name),
            ));
        }
        Request::Service {
            game,
            player,
            command,
            mail,
        } => {
            let g = GameView::new(ctx.registry, games::require_game(ctx.tx, game)?)?;
            return super::player::decide(ctx, &g, player, command, mail);
        }
    };
    let g = GameView::new(ctx.registry, games::require_game(ctx.tx, game)?)?;
    let lang = g.lang;
    let name = command.name();
    let done = || svc_text(lang, &SvcMsg::GmDone { command: name });
    match (by, command.role()) {
        (Asker::Player(_), Role::GameMaster) => {
            let t = svc_text(lang, &SvcMsg::GmOnly { command: name });
            return Ok(Effects::answered(Done::NotServed, t));
        }
        // The game master reads the game's STATUS and HISTORY too.
        (Asker::GameMaster, Role::Player)
            if matches!(command, Command::Status | Command::History) =>
        {
            return super::player::decide(ctx, &g, "gm", command, &ServiceMail::default());
        }
        (Asker::GameMaster, Role::Player) => {
            let t = super::player::not_served(lang, name);
            return Ok(Effects::answered(Done::NotServed, t));
        }
        _ => {}
    }
    let (tx, registry, config, now) = (ctx.tx, ctx.registry, ctx.config, ctx.now);
    let gid = g.row.id.as_str();
    match command {
        Command::Pause => schedule(ctx, &g, Change::Pause, done()),
        Command::Resume => schedule(ctx, &g, Change::Resume, done()),
        Command::Extend(by) => schedule(ctx, &g, Change::Extend(*by), done()),
        Command::SetDeadline(w) => {
            let d = w.resolve(g.schedule.tz);
            let answer = format!("{} {}", done(), g.schedule.show(d));
            schedule(ctx, &g, Change::SetDeadline(d), answer)
        }
        Command::Eject(p) => {
            let d = seats::eject(tx, registry, gid, p, now)?;
            let id = d.value.clone();
            Ok(d.effects(Done::Ejected(id), done()).0)
        }
        Command::Takeover {
            player,
            email,
            name,
            password,
        } => {
            let t = seats::Takeover {
                player,
                email,
                name: name.as_deref(),
                password: password.as_ref().map(|p| p.0.as_str()),
                tag: ctx.tag,
            };
            let d = seats::takeover(tx, registry, config, gid, &t, now)?;
            let generated = d.value.clone().map(crate::services::command::Secret);
            Ok(d.effects(Done::TakenOver(generated), done()).0)
        }
        Command::Preview | Command::PreviewAlways | Command::PreviewOff => {
            let mode = match command {
                Command::PreviewAlways => PreviewMode::Always,
                Command::PreviewOff => PreviewMode::Off,
                _ => PreviewMode::Next,
            };
            let d = preview::set_preview(tx, gid, mode)?;
            Ok(d.effects(Done::Preview, done()).0)
        }
        Command::Release => {
            let d = preview::release(tx, registry, gid, now)?;
            let (turn, mails, t) = d.value.clone();
            Ok(d.effects(Done::Released { turn, mails }, t).0)
        }
        Command::Rollback(t) => {
            let d = rollback::rollback(tx, registry, gid, *t, now)?;
            let undone = d.value.clone();
            Ok(d.effects(Done::RolledBack(undone), done()).0)
        }
        Command::Accept(email) => crate::signup::accept(ctx, &g, email),
        Command::Refuse { email, reason } => {
            crate::signup::refuse(ctx, &g, email, reason.as_deref())
        }
        Command::NewPassword(pw) => {
            let Asker::Player(asker) = by else {
                let t = super::player::not_served(lang, name);
                return Ok(Effects::answered(Done::NotServed, t));
            };
            let Some(p) = games::player_nocase(tx, gid, asker)? else {
                let (game, player) = (gid, asker.as_str());
                let args = crate::fl_args![game, player];
                return Err(DaemonError::Invalid(tr(lang, "password-no-player", &args)));
            };
            if pw.0.is_empty() || pw.0.contains(char::is_whitespace) {
                return Err(DaemonError::Invalid(tr(lang, "cli-password-one-word", &[])));
            }
            // Salted by the request's tag (the mail's hash): a crash
            // before the commit hashes again to the same value.
            let phc = config
                .hasher
                .hash(&pw.0, &format!("{gid}/{}/{}", p.id, ctx.tag))?;
            let (game, player) = (gid, p.id.as_str());
            let answer = tr(lang, "password-changed", &crate::fl_args![game, player]);
            tracing::info!(game = gid, player, "password changed");
            Ok(Effects {
                writes: vec![Write::PasswordHash {
                    game: gid.to_string(),
                    player: p.id.clone(),
                    phc,
                }],
                mails: Vec::new(),
                done: Done::PasswordChanged,
                answer,
            })
        }
        // A player's service command comes as a `Request::Service`
        // (parse::player_requests), with its mail's facts.
        other => Ok(Effects::answered(
            Done::NotServed,
            super::player::not_served(lang, other.name()),
        )),
    }
}

/// Writes `e` in the context's transaction; returns what was done.
pub fn apply(ctx: &Ctx<'_, '_>, e: Effects) -> Result<(Done, String)> {
    for w in e.writes {
        match w {
            Write::Status {
                game,
                status,
                deadline,
            } => games::set_status(ctx.tx, &game, status, deadline)?,
            Write::PasswordHash { game, player, phc } => {
                games::set_password_hash(ctx.tx, &game, &player, &phc)?;
            }
            Write::Ejected {
                game,
                player,
                from_turn,
            } => settings::set_ejected(ctx.tx, &game, &player, from_turn)?,
            Write::SeatChange {
                game,
                player,
                turn,
                kind,
                before,
                after,
                at,
            } => {
                arbitre_store::seats::record(
                    ctx.tx,
                    &game,
                    &player,
                    turn,
                    kind,
                    pair(&before),
                    pair(&after),
                    at,
                )?;
            }
            Write::Occupant {
                game,
                player,
                name,
                email,
                phc,
            } => {
                arbitre_store::seats::replace_player(ctx.tx, &game, &player, &name, &email, &phc)?;
            }
            Write::Deadline { game, deadline } => games::set_deadline(ctx.tx, &game, deadline)?,
            Write::Preview { game, mode } => games::set_preview(ctx.tx, &game, mode)?,
            Write::Release { game, turn, at } => {
                outbox::release(ctx.tx, &game, at)?;
                turns::set_held(ctx.tx, &game, turn, false)?;
            }
            Write::RollBack {
                game,
                to,
                kinds,
                at,
            } => {
                turns::roll_back(ctx.tx, &game, to, at)?;
                let cancelled = outbox::cancel_after(ctx.tx, &game, to, &kinds)?;
                // The replayed turn has a new deadline, hence new reminder points.
                arbitre_store::reminders::forget_after(ctx.tx, &game, to)?;
                tracing::info!(game, to, cancelled, "undone turns' unsent mails cancelled");
            }
            Write::Turn {
                game,
                turn,
                deadline,
            } => games::set_turn(ctx.tx, &game, turn, deadline)?,
            Write::Join(rows) => crate::join::write(ctx.tx, &rows)?,
            Write::Signup(s) => arbitre_store::signups::decide(ctx.tx, &s)?,
            Write::Timezone { game, player, zone } => {
                arbitre_store::settings::set_timezone(ctx.tx, &game, &player, zone.as_deref())?;
            }
            Write::Press(row) => {
                arbitre_store::press::insert(ctx.tx, &row)?;
            }
            Write::Absence(row) => {
                arbitre_store::absences::insert_row(ctx.tx, &row)?;
                tracing::info!(
                    game = row.game_id,
                    player = row.player,
                    from = row.first_day,
                    to = row.last_day,
                    "absence recorded"
                );
            }
            Write::AbsenceUsed {
                game,
                player,
                absence,
                at,
            } => {
                let label = crate::services::absence::used_label(absence);
                arbitre_store::reminders::record(ctx.tx, &game, 0, &player, &label, at)?;
            }
        }
    }
    for m in e.mails {
        queue(ctx.tx, ctx.config, ctx.now, m)?;
    }
    Ok((e.done, e.answer))
}

/// A (name, address) pair as the store takes it.
fn pair(p: &Option<(String, String)>) -> Option<(&str, &str)> {
    p.as_ref().map(|(n, e)| (n.as_str(), e.as_str()))
}

#[derive(Clone, Copy)]
enum Change {
    Pause,
    Resume,
    Extend(Duration),
    SetDeadline(DateTime<Utc>),
}

/// Pause, resume, extend or set the deadline: the game's new status and
/// deadline, and a notice to every player in the game's language.
fn schedule(
    ctx: &Ctx<'_, '_>,
    g: &GameView<'_>,
    change: Change,
    answer: String,
) -> Result<Effects> {
    let now = ctx.now;
    let gid = g.row.id.as_str();
    let lang = g.lang;
    let (status, deadline, subject, tag) = match change {
        Change::Pause => {
            if g.row.status != GameStatus::Running {
                let (game, status) = (gid, g.row.status.as_str());
                let args = crate::fl_args![game, status];
                return Err(DaemonError::Invalid(tr(lang, "gm-not-running", &args)));
            }
            (
                GameStatus::Paused,
                None,
                text(lang, &Msg::PausedSubject { game: gid }),
                "pause",
            )
        }
        Change::Resume => {
            if g.row.status != GameStatus::Paused {
                let (game, status) = (gid, g.row.status.as_str());
                let args = crate::fl_args![game, status];
                return Err(DaemonError::Invalid(tr(lang, "gm-not-paused", &args)));
            }
            let d = g.schedule.next_after(now);
            (
                GameStatus::Running,
                Some(d),
                text(lang, &Msg::ResumedSubject { game: gid }),
                "resume",
            )
        }
        Change::SetDeadline(d) => {
            if g.row.status == GameStatus::Over {
                return Err(DaemonError::Invalid(text(
                    lang,
                    &Msg::GameOver { game: gid },
                )));
            }
            let when = g.schedule.show(d);
            if d <= now {
                return Err(DaemonError::Invalid(svc_text(
                    lang,
                    &SvcMsg::DeadlineInPast { when: &when },
                )));
            }
            // A paused game runs again: the GM gave it a deadline.
            (
                GameStatus::Running,
                Some(d),
                svc_text(lang, &SvcMsg::DeadlineSetSubject { game: gid }),
                "deadline",
            )
        }
        Change::Extend(by) => {
            let Some(old) = g.deadline().filter(|_| g.row.status == GameStatus::Running) else {
                let game = gid;
                let args = crate::fl_args![game];
                let why = tr(lang, "gm-no-deadline-to-extend", &args);
                return Err(DaemonError::Invalid(why));
            };
            let d = old.max(now) + by;
            (
                GameStatus::Running,
                Some(d),
                text(lang, &Msg::ExtendedSubject { game: gid }),
                "extend",
            )
        }
    };
    // Each player reads the deadline in their own zone (TIMEZONE) and
    // gets the turn's event again with it (issue 17 item 9).
    let turn = g.row.turn + 1;
    let zones = crate::services::timezone::player_zones(ctx.tx, gid)?;
    let notice = |p: &arbitre_store::PlayerRow, disc: &str| {
        let zone = crate::services::timezone::zone_of(&zones, &p.id, g.schedule.tz);
        let when = deadline.map(|d| crate::services::zone::show_in(d, zone));
        let body = notice_body(lang, gid, change, when.as_deref().unwrap_or_default());
        let mut d = Draft::new(Kind::Notice, &p.email, subject.clone(), signed(lang, &body))
            .about(gid, turn, Some(&p.id))
            .discriminator(disc.to_string());
        if let (Some(at), Some(when)) = (deadline, &when) {
            d.attachments.push(crate::services::deadline_ics(
                lang,
                gid,
                turn,
                at,
                when,
                ctx.config.domain(),
                now,
            ));
        }
        d
    };
    let players = games::players(ctx.tx, gid)?;
    let disc = unused_discriminator(ctx, &format!("{tag}.{}", now.timestamp()), |d| {
        players.first().map(|p| notice(p, d))
    })?;
    let mails = players.iter().map(|p| notice(p, &disc)).collect();
    tracing::info!(
        game = gid,
        change = tag,
        "schedule changed by the game master"
    );
    Ok(Effects {
        writes: vec![Write::Status {
            game: gid.to_string(),
            status,
            deadline: deadline.map(|d| d.timestamp()),
        }],
        mails,
        done: Done::Schedule {
            shown: deadline.map(|d| g.schedule.show(d)),
        },
        answer,
    })
}

/// The notice of a schedule change, the new deadline shown as `when`.
fn notice_body(lang: arbitre_core::Lang, game: &str, change: Change, when: &str) -> String {
    match change {
        Change::Pause => text(lang, &Msg::Paused { game }),
        Change::Resume => text(lang, &Msg::Resumed { game, when }),
        Change::SetDeadline(_) => svc_text(lang, &SvcMsg::DeadlineSet { game, when }),
        Change::Extend(_) => text(lang, &Msg::Extended { game, when }),
    }
}

/// `base`, or `base.2`, `base.3`…: the first discriminator whose mail
/// (`draft`) is not in the outbox yet. Two changes of one game in the same
/// second (two `arbitre extend` in a row) named their notices alike, and
/// the second failed on the outbox's unique Message-ID. The first keeps
/// the plain name, so the Message-IDs of existing games and fixtures stay.
fn unused_discriminator(
    ctx: &Ctx<'_, '_>,
    base: &str,
    draft: impl Fn(&str) -> Option<Draft>,
) -> Result<String> {
    let mut n = 1;
    loop {
        let disc = if n == 1 {
            base.to_string()
        } else {
            format!("{base}.{n}")
        };
        let Some(d) = draft(&disc) else {
            return Ok(disc);
        };
        let id = message_id_in(ctx.tx, ctx.config, &d)?;
        if outbox::by_message_id(ctx.tx, &id)?.is_none() {
            return Ok(disc);
        }
        n += 1;
    }
}
