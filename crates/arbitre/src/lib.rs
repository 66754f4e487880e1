//! # arbitre: the play-by-email referee daemon and its command line
//!
//! This crate owns time, mail and storage; the rulesets (pure, in their own
//! crates) own the games. See docs/architecture.md for the crate map and the
//! life of one order mail.
//!
//! Module map, in the order a mail meets them:
//! [`config`] (arbitre.toml), [`game_config`] (a game's TOML), [`registry`]
//! (ruleset id → engine), [`daemon`] (the serve cycle), [`inbound`] (one
//! mail, exactly once), [`turn`] (resolution), [`reminder`], [`sender`]
//! (outbox → transport), [`create`] and [`gm`] (the GM's commands),
//! [`request`] (issue 16 item 1: every command as a typed request, handled
//! into effects written in one place, shared by the CLI and mail),
//! [`messages`] (FR/DE/EN system texts), [`schedule`] (deadlines, time zones),
//! [`timespec`] (the one grammar of durations and times),
//! [`services`] (issue 10: service commands, .ics and JSON attachments),
//! [`fault`] (issue 14: a ruleset's panic faults its game only),
//! [`backup`] (`arbitre backup`),
//! [`serve`] (the `serve` loop: inbox outages, the wait, SIGTERM),
//! [`clock`] (injected time), [`failpoint`] (crash tests), [`fixture`]
//! (replay and record of archived games), [`demo`], [`offline`] (`check`),
//! [`web`] (issue 24: the web pages, `arbitre web`).

/// The allocator the `arbitre` binary runs on (and the capacity
/// simulation with it): mimalloc. In a profile of the tenth round of
/// ten thousand games, glibc's `malloc` was a fifth of resolving a turn
/// and grew from round to round as the long-running process's heap
/// fragmented (`_int_malloc`, `unlink_chunk`); a turn's reports allocate
/// and free many strings of every size.
pub use mimalloc::MiMalloc as Allocator;

pub mod backup;
pub mod cli;
pub mod clock;
pub mod config;
pub mod create;
pub mod daemon;
pub mod demo;
pub mod due;
pub mod error;
pub mod error_text;
pub mod failpoint;
pub mod fault;
pub mod fixture;
pub mod game_config;
pub mod gm;
pub mod i18n;
pub mod inbound;
pub mod join;
pub mod loaded;
pub mod logs;
pub mod messages;
pub mod offline;
pub mod outgoing;
pub mod png_map;
pub mod registry;
pub mod reminder;
pub mod request;
pub mod schedule;
pub mod sender;
pub mod serve;
pub mod services;
pub mod setup_text;
pub mod signup;
pub mod spans;
pub mod timespec;
pub mod turn;
pub mod web;

pub use clock::{Clock, FixedClock, SystemClock};
pub use config::DaemonConfig;
pub use daemon::{CycleReport, Daemon};
pub use error::DaemonError;
pub use registry::Registry;
