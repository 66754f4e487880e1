//! The life of one inbound mail (issue 2 item 4; exactly once, issue 8).
//!
//! 1. read it from `new/` (refused unread if larger than `max_mail_size`);
//! 2. its SHA-256 is looked up in the journal: a hit means it was handled
//!    before a crash, and only step 5 is repeated;
//! 3. decide, inside one IMMEDIATE transaction: journal row + orders (if any)
//!    + the reply in the outbox;
//! 4. commit;
//! 5. move the file to `cur/`.
//!
//! A crash before 4 handles the mail again from scratch (nothing was
//! written); a crash between 4 and 5 only repeats the move. Replies are
//! never sent from here: the outbox sender does that after the commit.
//!
//! A mail whose Message-ID and sender are already in the journal is a
//! duplicate delivery (issue 14 item 12): journaled as ignored, nothing else.
//!
//! Never answered (no mail loops): bounces, Auto-Submitted mail, list and
//! bulk mail, mail from the referee's own address, mail without a sender.
//! Answered but nothing stored: no order block, a malformed header, an
//! unknown game or player, a wrong password, a finished game.

use crate::daemon::{Daemon, GameView};
use crate::error::Result;
use crate::failpoint;
use crate::messages::{text, Msg};
use crate::outgoing::{queue, signed, Draft, Kind};
use crate::registry::Registry;
use crate::services::answer::{answer, answer_mail, Asker, MailFacts};
use crate::services::command::split_commands;
use crate::services::texts::{svc_text, SvcMsg};
use crate::config::DaemonConfig;
use arbitre_core::{Checked, Lang, PlayerId, Verdict};
use arbitre_mail::{find_in_mail, parse_mail, AutoKind, BlockKind, EnvelopeError, InboundMail, InboxEntry, MailError};
use arbitre_store::{games, journal, orders, turns, GameStatus, JournalEntry};
use chrono::{DateTime, Utc};
use rusqlite::Connection;
use sha2::{Digest, Sha256};

/// What became of a mail (the journal's `outcome`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    Stored,
    Checked,
    Rejected,
    Ignored,
    /// Only service commands (issue 10): answered, no orders stored.
    Service,
}

impl Disposition {
    pub fn as_str(self) -> &'static str {
        match self {
            Disposition::Stored => "stored",
            Disposition::Checked => "checked",
            Disposition::Rejected => "rejected",
            Disposition::Ignored => "ignored",
            Disposition::Service => "service",
        }
    }
}

/// Mails handled in one transaction (issue 9): one durable commit (an fsync
/// of the WAL) for up to this many mails instead of one each, which capped
/// the inbox at the disk's commit rate (~1,000 mails/s on the test machine).
pub const BATCH_MAILS: usize = 64;
/// A batch is also committed once the mails read for it hold this many
/// bytes, so that 64 mails near `max_mail_size` are never in memory at once.
pub const BATCH_BYTES: usize = 4 * 1024 * 1024;

impl Daemon {
    /// Handles every mail waiting in `new/`, in file-name order. Returns how
    /// many were handled. A mail that fails for a reason of its own is
    /// logged and left for the next cycle; a database error stops the cycle.
    ///
    /// Mails are handled in batches (issue 9): up to [`BATCH_MAILS`] mails
    /// are decided one after the other inside ONE IMMEDIATE transaction,
    /// each under its own savepoint, then committed together, and only then
    /// moved to `cur/`. Exactly once still holds: a crash before the commit
    /// leaves every mail of the batch in `new/` with nothing written, so all
    /// are handled again from scratch; a crash after it finds each of them in
    /// the journal (by SHA-256) and only repeats the move. Each mail still
    /// sees the writes of the mails before it (same transaction), so the
    /// outcome is the one of handling them one by one, in the same order.
    /// A mail whose handling fails for a reason that is not the database's
    /// (a state the ruleset cannot load: the referee's fault) is rolled back
    /// to its savepoint and left in `new/`; the rest of the batch commits.
    /// A database error rolls the whole batch back, which is then handled
    /// again one transaction per mail ([`Daemon::handle_entry`]), so the
    /// mails before the failing one are kept and the cycle stops at it, as
    /// before batching.
    pub fn process_inbox(&mut self) -> Result<usize> {
        let entries = self.inbox.pending()?;
        let mut n = 0;
        let mut batch: Vec<(InboxEntry, Vec<u8>)> = Vec::new();
        let mut bytes = 0;
        for entry in entries {
            let raw = match self.inbox.read(&entry, self.config.max_mail_size) {
                Ok(raw) => raw,
                Err(MailError::TooLarge { size, limit }) => {
                    // Its own transaction, in its place in the order.
                    n += self.commit_batch(std::mem::take(&mut batch))?;
                    bytes = 0;
                    let _span = tracing::info_span!("mail", entry = %entry.name()).entered();
                    match self.too_large(&entry, size, limit, self.now()) {
                        Ok(()) => n += 1,
                        Err(crate::error::DaemonError::Store(e)) => return Err(e.into()),
                        Err(e) => tracing::error!(error = %e, "mail left in new/ for the next cycle"),
                    }
                    continue;
                }
                Err(e) if crate::serve::is_connection_failure(&e) => {
                    // The server went away mid-pass: keep what was read,
                    // and let the serve loop back off (issue 14 item 10).
                    n += self.commit_batch(std::mem::take(&mut batch))?;
                    tracing::info!(handled = n, "inbox pass cut short");
                    return Err(e.into());
                }
                Err(e) => {
                    tracing::error!(entry = %entry.name(), error = %e, "mail unreadable, left in new/ for the next cycle");
                    continue;
                }
            };
            bytes += raw.len();
            batch.push((entry, raw));
            if batch.len() >= BATCH_MAILS || bytes >= BATCH_BYTES {
                n += self.commit_batch(std::mem::take(&mut batch))?;
                bytes = 0;
            }
        }
        n += self.commit_batch(batch)?;
        Ok(n)
    }

    /// One batch of read mails: decided in one transaction, committed, moved.
    /// Returns how many were handled (moved to `cur/`).
    fn commit_batch(&mut self, batch: Vec<(InboxEntry, Vec<u8>)>) -> Result<usize> {
        if batch.is_empty() {
            return Ok(0);
        }
        let _span = tracing::info_span!("batch", mails = batch.len()).entered();
        let shas: Vec<String> = batch.iter().map(|(_, raw)| hex::encode(Sha256::digest(raw))).collect();
        let Daemon { store, registry, config, clock, .. } = self;
        let decided = store.tx(|tx| -> Result<Vec<bool>> {
            let sql = |q: &str| tx.execute_batch(q).map_err(arbitre_store::StoreError::from);
            let mut done = vec![false; batch.len()];
            for (i, (entry, raw)) in batch.iter().enumerate() {
                let _span = tracing::info_span!("mail", entry = %entry.name()).entered();
                let sha = &shas[i];
                if journal::seen(tx, sha)? {
                    tracing::info!(sha256 = %sha, "already handled before a restart: only moving it to cur/");
                    done[i] = true;
                    continue;
                }
                failpoint::hit("after-read");
                let now = clock.now();
                sql("SAVEPOINT mail")?;
                match decide(tx, registry, config, raw, sha, now).and_then(|d| apply(tx, config, now, d)) {
                    Ok(()) => {
                        sql("RELEASE mail")?;
                        done[i] = true;
                    }
                    Err(crate::error::DaemonError::Store(e)) => return Err(e.into()),
                    Err(e) => {
                        sql("ROLLBACK TO mail; RELEASE mail")?;
                        tracing::error!(error = %e, "mail left in new/ for the next cycle");
                    }
                }
            }
            failpoint::hit("before-commit");
            Ok(done)
        });
        let done = match decided {
            Ok(done) => done,
            Err(crate::error::DaemonError::Store(e)) => {
                tracing::warn!(error = %e, "database error in a batch: handling its mails one transaction each");
                let mut n = 0;
                for (entry, _) in &batch {
                    let _span = tracing::info_span!("mail", entry = %entry.name()).entered();
                    match self.handle_entry(entry) {
                        Ok(()) => n += 1,
                        Err(crate::error::DaemonError::Store(e)) => return Err(e.into()),
                        Err(e) => tracing::error!(error = %e, "mail left in new/ for the next cycle"),
                    }
                }
                return Ok(n);
            }
            Err(e) => return Err(e),
        };
        failpoint::hit("after-commit-before-move");
        let n = self.move_to_cur(&batch, &done);
        failpoint::hit("after-move");
        Ok(n)
    }

    /// Moves the committed mails of a batch out of `new/`; returns how many.
    /// In a Maildir the renames are flushed by one fsync of `cur/` and `new/`
    /// for the whole batch, where `Maildir::mark_done` fsyncs both after
    /// every mail (two directory fsyncs cost more than the batch's commit,
    /// 13 ms a mail on the test disk). Losing a rename to a power cut only
    /// shows the mail again in `new/`, where the journal recognises it. A
    /// rename that fails (the file moved by someone else) and an IMAP inbox
    /// go through `mark_done`. A failed move is repeated by the next cycle.
    fn move_to_cur(&mut self, batch: &[(InboxEntry, Vec<u8>)], done: &[bool]) -> usize {
        let mut n = 0;
        let mut renamed = false;
        for ((entry, _), ok) in batch.iter().zip(done) {
            if !ok {
                continue;
            }
            if let (arbitre_mail::Inbox::Maildir(m), InboxEntry::Maildir(e)) = (&self.inbox, entry) {
                if std::fs::rename(&e.path, m.root().join("cur").join(format!("{}:2,S", e.name))).is_ok() {
                    renamed = true;
                    n += 1;
                    continue;
                }
            }
            match self.inbox.mark_done(entry) {
                Ok(()) => n += 1,
                Err(e) => tracing::error!(entry = %entry.name(), error = %e, "mail recorded but not moved to cur/; the next cycle moves it"),
            }
        }
        if let (true, arbitre_mail::Inbox::Maildir(m)) = (renamed, &self.inbox) {
            for sub in ["cur", "new"] {
                if let Err(e) = std::fs::File::open(m.root().join(sub)).and_then(|d| d.sync_all()) {
                    tracing::warn!(dir = sub, error = %e, "inbox folder not flushed (a lost move is redone from the journal)");
                }
            }
        }
        n
    }

    /// One mail in its own transaction: the path of a batch that met a
    /// database error (see [`Daemon::process_inbox`]).
    fn handle_entry(&mut self, entry: &InboxEntry) -> Result<()> {
        let now = self.now();
        let raw = match self.inbox.read(entry, self.config.max_mail_size) {
            Ok(raw) => raw,
            Err(MailError::TooLarge { size, limit }) => return self.too_large(entry, size, limit, now),
            Err(e) => return Err(e.into()),
        };
        let sha = hex::encode(Sha256::digest(&raw));
        if journal::seen(self.store.conn(), &sha)? {
            tracing::info!(sha256 = %sha, "already handled before a restart: only moving it to cur/");
            self.inbox.mark_done(entry)?;
            return Ok(());
        }
        failpoint::hit("after-read");
        let Daemon { store, registry, config, .. } = self;
        store.tx(|tx| -> Result<()> {
            let d = decide(tx, registry, config, &raw, &sha, now)?;
            apply(tx, config, now, d)?;
            failpoint::hit("before-commit");
            Ok(())
        })?;
        failpoint::hit("after-commit-before-move");
        self.inbox.mark_done(entry)?;
        failpoint::hit("after-move");
        Ok(())
    }

    /// A mail over the size limit is never read whole: its first 64 KiB
    /// give its headers (to answer the sender) and, with its size, the
    /// journal key — stable for the same message, so a crash before the
    /// move never answers it twice.
    fn too_large(&mut self, entry: &InboxEntry, size: usize, limit: usize, now: DateTime<Utc>) -> Result<()> {
        let head = self.inbox.read_head(entry, 64 * 1024)?;
        let mut hasher = Sha256::new();
        hasher.update(b"too-large\0");
        hasher.update((size as u64).to_le_bytes());
        hasher.update(&head);
        let sha = hex::encode(hasher.finalize());
        if journal::seen(self.store.conn(), &sha)? {
            self.inbox.mark_done(entry)?;
            return Ok(());
        }
        tracing::warn!(size, limit, "mail larger than max_mail_size refused unread");
        let detail = format!("too large: {size} bytes (limit {limit})");
        let parsed = parse_mail(&head, usize::MAX).ok();
        let config = &self.config;
        let lang = config.language;
        let d = match parsed.as_ref().and_then(|m| answerable(m, config).ok()) {
            Some(to) => Decision::reject(
                &sha,
                parsed.as_ref(),
                detail,
                None,
                Draft::new(Kind::Error, &to, text(lang, &Msg::ErrorSubject), signed(lang, &text(lang, &Msg::TooLarge { size: size / 1024, limit: limit / 1024 }))),
            ),
            None => Decision::ignore(&sha, parsed.as_ref(), detail),
        };
        self.store.tx(|tx| apply(tx, config, now, d))?;
        self.inbox.mark_done(entry)?;
        Ok(())
    }
}

/// Everything one mail causes, written in one transaction.
pub struct Decision {
    pub journal: JournalEntry,
    pub orders: Option<NewOrders>,
    pub reply: Option<Draft>,
    /// Further mails: the answers to service commands (issue 10).
    pub extra: Vec<Draft>,
}

pub struct NewOrders {
    pub game: String,
    pub turn: u32,
    pub player: String,
    pub text: String,
    pub checked: Checked,
}

impl Decision {
    fn base(sha: &str, mail: Option<&InboundMail>, outcome: Disposition, detail: String, game: Option<String>) -> JournalEntry {
        JournalEntry {
            sha256: sha.to_string(),
            message_id: mail.and_then(|m| m.message_id.clone()),
            sender: mail.and_then(|m| m.from.as_ref().map(|a| a.email.clone())),
            received_at: 0,
            game_id: game,
            outcome: outcome.as_str().to_string(),
            detail,
        }
    }

    fn ignore(sha: &str, mail: Option<&InboundMail>, detail: String) -> Decision {
        tracing::info!(%detail, "mail ignored, not answered");
        Decision { journal: Self::base(sha, mail, Disposition::Ignored, detail, None), orders: None, reply: None, extra: Vec::new() }
    }

    fn reject(sha: &str, mail: Option<&InboundMail>, detail: String, game: Option<String>, reply: Draft) -> Decision {
        tracing::warn!(%detail, "mail refused, nothing stored");
        let reply = reply.replying_to(mail.and_then(|m| m.message_id.as_deref())).discriminator(&sha[..16]);
        Decision { journal: Self::base(sha, mail, Disposition::Rejected, detail, game), orders: None, reply: Some(reply), extra: Vec::new() }
    }
}

/// The address to answer, or why not to answer at all.
fn answerable(m: &InboundMail, config: &DaemonConfig) -> std::result::Result<String, String> {
    if m.auto != AutoKind::Human {
        return Err(format!("automatic mail ({:?})", m.auto));
    }
    let own = |a: &Option<arbitre_mail::Address>| {
        a.as_ref().is_some_and(|a| a.email.trim().eq_ignore_ascii_case(config.referee.trim()))
    };
    if own(&m.from) || own(&m.reply_to) {
        return Err("mail from the referee's own address".into());
    }
    match m.reply_to.as_ref().or(m.from.as_ref()) {
        Some(a) if a.email.contains('@') && !a.email.contains(char::is_whitespace) && formattable(&a.email) => {
            Ok(a.email.trim().to_string())
        }
        _ => Err("no usable sender address".into()),
    }
}

/// True when the outbound formatter accepts `to` as a recipient. Checked
/// here, not left to `queue`: an address it refuses (`a@b@c`, a NUL byte)
/// would fail the mail's transaction on every cycle and leave the mail in
/// `new/` forever (found by the fuzz loop, issue 8). Such a mail is
/// journaled as ignored instead.
fn formattable(to: &str) -> bool {
    let probe = arbitre_mail::OutgoingMail {
        from: "probe@arbitre.invalid".into(),
        to: to.trim().to_string(),
        subject: String::new(),
        body: String::new(),
        message_id: "probe@arbitre.invalid".into(),
        in_reply_to: None,
        auto_submitted: "auto-replied",
        date: "Tue, 1 Dec 2026 10:00:00 +0000".into(),
        attachments: Vec::new(),
    };
    arbitre_mail::format_mail(&probe).is_ok()
}

/// The journal key of an earlier delivery of this mail: same Message-ID,
/// same From address.
fn duplicate_of(c: &Connection, mail: &InboundMail) -> Result<Option<String>> {
    match (mail.message_id.as_deref(), mail.from.as_ref()) {
        (Some(id), Some(from)) => Ok(journal::seen_message(c, id, &from.email)?),
        _ => Ok(None),
    }
}

/// Decides what a mail causes. Reads the database (inside the caller's
/// transaction, so no turn can resolve between the check and the insert).
pub fn decide(c: &Connection, registry: &Registry, config: &DaemonConfig, raw: &[u8], sha: &str, now: DateTime<Utc>) -> Result<Decision> {
    let default_lang = config.language;
    let mail = match parse_mail(raw, config.max_mail_size) {
        Ok(m) => m,
        Err(e) => return Ok(Decision::ignore(sha, None, format!("unreadable mail: {e}"))),
    };
    let m = Some(&mail);
    if let Some(first) = duplicate_of(c, &mail)? {
        // Issue 14 item 12: the same mail delivered again (an MTA retry after
        // a lost "250", a provider's duplicate) differs only by its trace
        // headers. Played once: the copy is journaled, never answered.
        let detail = format!("duplicate delivery of mail {} (same Message-ID and sender)", &first[..first.len().min(16)]);
        return Ok(Decision::ignore(sha, m, detail));
    }
    let to = match answerable(&mail, config) {
        Ok(to) => to,
        Err(why) => return Ok(Decision::ignore(sha, m, why)),
    };
    let error_mail = |lang: Lang, body: String| Draft::new(Kind::Error, &to, text(lang, &Msg::ErrorSubject), signed(lang, &body));
    let found = find_in_mail(&mail);
    // The game is looked up before the flood limit, only to answer in its
    // language and to count its mails; nothing else is read (no argon2)
    // for a mail over the limit.
    let game_row = match &found {
        Ok(env) => games::find_game_nocase(c, &env.game)?,
        Err(_) => None,
    };
    if let Some(d) = flood(c, registry, config, &mail, sha, &to, game_row.as_ref(), now)? {
        return Ok(d);
    }
    let env = match found {
        Ok(env) => env,
        Err(EnvelopeError::NoBlock) => {
            return Ok(Decision::reject(sha, m, "no order block".into(), None, error_mail(default_lang, text(default_lang, &Msg::NoBlock))))
        }
        Err(EnvelopeError::Malformed { line, reason, .. }) => {
            let body = text(default_lang, &Msg::Malformed { line, reason: &reason });
            return Ok(Decision::reject(sha, m, format!("malformed header line {line}: {reason}"), None, error_mail(default_lang, body)));
        }
    };
    let Some(row) = game_row else {
        // No game, no game language: answer in the language of the header words.
        let lang = header_lang(&mail, &env).unwrap_or(default_lang);
        let body = text(lang, &Msg::UnknownGame { game: &env.game });
        return Ok(Decision::reject(sha, m, format!("unknown game '{}'", env.game), None, error_mail(lang, body)));
    };
    let game = GameView::new(registry, row)?;
    let (gid, lang) = (game.row.id.clone(), game.lang);
    // The game master's commands by mail (issue 10): player id `gm`, the
    // game's gm_password.
    if env.player.eq_ignore_ascii_case("gm") && games::player_nocase(c, &gid, "gm")?.is_none() {
        return gm_mail(c, registry, config, &game, &env, &mail, sha, &to, now);
    }
    let Some(player) = games::player_nocase(c, &gid, &env.player)? else {
        let body = text(lang, &Msg::UnknownPlayer { game: &gid, player: &env.player });
        let detail = format!("unknown player '{}'", env.player);
        let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, None);
        return Ok(Decision::reject(sha, m, detail, Some(gid), reply));
    };
    // The password itself never reaches a log line or a reply.
    if !games::check_password(&player, &env.password) {
        let body = text(lang, &Msg::WrongPassword { game: &gid, player: &player.id });
        let detail = format!("wrong password for player '{}'", player.id);
        let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, Some(&player.id));
        return Ok(Decision::reject(sha, m, detail, Some(gid), reply));
    }
    // Beyond the password (issue 10): the player's token, and DKIM where
    // the game requires it (services/authenticity.rs).
    let auth = match crate::services::authenticity::check(c, config, &game, &player, &env, raw)? {
        Ok(a) => a,
        Err(refusal) => {
            // No player on the answer: the password was right, so it must
            // not count as a wrong-password attempt (turn.rs).
            let reply = error_mail(lang, refusal.text(lang, &gid, &player.id)).about(&gid, game.row.turn + 1, None);
            return Ok(Decision::reject(sha, m, refusal.detail(&player.id), Some(gid), reply));
        }
    };
    // Service commands (issue 10): the leading lines of the block. Served
    // in a finished game too (RESEND, HISTORY).
    let split = split_commands(&env.orders);
    let mut extra = Vec::new();
    if !split.commands.is_empty() || !split.errors.is_empty() {
        let who = Asker { player: &player.id, to: &to, tag: &sha[..16] };
        let facts = MailFacts { sha, press_text: split.press_text.as_deref(), now };
        let ans = answer_mail(c, config, &game, &who, &split.commands, &split.errors, Some(&facts))?;
        let subject = svc_text(lang, &SvcMsg::CommandsSubject { game: &gid });
        let reply = Draft::new(Kind::Confirm, &to, subject, auth.annotate(lang, signed(lang, &ans.text)))
            .about(&gid, game.row.turn + 1, Some(&player.id))
            .discriminator(format!("cmd.{}", &sha[..16]))
            .replying_to(mail.message_id.as_deref());
        extra.push(reply);
        extra.extend(ans.mails);
        if split.only_commands {
            let names: Vec<&str> = split.commands.iter().map(|(_, c)| c.name()).collect();
            let detail = format!("commands from {}: {} ({} refused)", player.id, names.join(", "), split.errors.len());
            tracing::info!(game = %gid, player = %player.id, %detail, "service commands");
            return Ok(Decision { journal: Decision::base(sha, m, Disposition::Service, detail, Some(gid)), orders: None, reply: None, extra });
        }
    }
    let env = if split.commands.is_empty() && split.errors.is_empty() {
        env
    } else {
        arbitre_mail::Envelope { orders: split.orders.clone(), ..env }
    };
    // An ejected seat (issue 10, gm/seats.rs): its orders no longer count.
    if crate::gm::seats::is_ejected(c, &gid, &player.id, game.row.turn + 1)? && game.row.status != GameStatus::Over {
        let body = svc_text(lang, &SvcMsg::EjectedSeat { game: &gid, player: &player.id });
        // No player on it: an `error` mail naming a player and the coming
        // turn counts as a wrong-password attempt (turn.rs).
        let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, None);
        return Ok(Decision::reject(sha, m, format!("orders from ejected seat '{}'", player.id), Some(gid), reply));
    }
    if game.row.status == GameStatus::Over {
        let body = text(lang, &Msg::GameOver { game: &gid });
        let reply = error_mail(lang, body).about(&gid, game.row.turn, Some(&player.id));
        return Ok(Decision::reject(sha, m, "game over".into(), Some(gid), reply));
    }
    // Read again after the commands (an ABSENCE may have moved the
    // deadline) and as this player reads it (TIMEZONE, issue 10).
    let zone = arbitre_store::settings::get(c, &gid, &player.id)?.timezone;
    let game = GameView::new(registry, games::require_game(c, &gid)?)?.seen_by(zone.as_deref());
    let state = turns::latest(c, &gid)?;
    let pid = PlayerId::new(player.id.clone());
    let checked = match game.engine.check(&state.state, &pid, &env.orders) {
        Ok(c) => c,
        // Configured in the TOML but not (or no longer) in the ruleset's state.
        Err(arbitre_core::EngineError::UnknownPlayer(_)) => {
            let body = text(lang, &Msg::UnknownPlayer { game: &gid, player: &player.id });
            let reply = error_mail(lang, body).about(&gid, game.row.turn + 1, Some(&player.id));
            return Ok(Decision::reject(sha, m, format!("player '{}' not in the game state", player.id), Some(gid), reply));
        }
        // A state the ruleset cannot load is the referee's fault, not the
        // player's: the mail stays in new/ and is retried after the fix.
        Err(e) => return Err(game.engine_err(e)),
    };
    let turn = game.row.turn + 1;
    let store = env.kind == BlockKind::Orders;
    let mut body = auth.annotate(lang, confirmation(&game, turn, &player.id, store, &checked));
    // Past the deadline, within the `[services] grace`: the orders count,
    // and the player is told they were late. (Without a grace, orders that
    // beat the next cycle count as before, unmarked.)
    let grace = game.toml.services.grace();
    if let Some(d) = game.deadline().filter(|d| store && grace > chrono::Duration::zero() && *d < now) {
        body = format!("{}\n\n{body}", svc_text(lang, &SvcMsg::LateOrders { deadline: &game.schedule.show(d) }));
    }
    let (kind, subject) = if store {
        (Kind::Confirm, text(lang, &Msg::ConfirmSubject { game: &gid, turn }))
    } else {
        (Kind::Check, text(lang, &Msg::CheckSubject { game: &gid }))
    };
    let reply = Draft::new(kind, &to, subject, body)
        .about(&gid, turn, Some(&player.id))
        .discriminator(&sha[..16])
        .replying_to(mail.message_id.as_deref());
    let disposition = if store { Disposition::Stored } else { Disposition::Checked };
    let detail = format!(
        "{} for {} turn {turn}: {} order(s), {} error(s)",
        if store { "orders" } else { "check" },
        player.id,
        checked.orders,
        checked.errors
    );
    tracing::info!(game = %gid, player = %player.id, turn, orders = checked.orders, errors = checked.errors, "{}", disposition.as_str());
    let orders = store.then(|| NewOrders { game: gid.clone(), turn, player: player.id.clone(), text: env.orders.clone(), checked });
    Ok(Decision { journal: Decision::base(sha, m, disposition, detail, Some(gid)), orders, reply: Some(reply), extra })
}

/// The flood rate limit (issue 8): `None` when the mail may be handled,
/// else what to journal. Counted from the journal inside the mail's own
/// transaction, so a crash repeats the same decision and the polite answer
/// is queued exactly once per sender and sliding hour (the journal row of
/// that answer is the `rate-limited` outcome; the others are
/// `rate-limited-silent`). The window is the daemon's clock, like
/// `received_at`.
#[allow(clippy::too_many_arguments)]
fn flood(
    c: &Connection,
    registry: &Registry,
    config: &DaemonConfig,
    mail: &InboundMail,
    sha: &str,
    to: &str,
    game: Option<&arbitre_store::GameRow>,
    now: DateTime<Utc>,
) -> Result<Option<Decision>> {
    let limits = config.limits;
    let since = now.timestamp() - 3600;
    let sender = mail.from.as_ref().map(|a| a.email.trim().to_string());
    let gid = game.map(|g| g.id.clone());
    let mut over: Option<(String, Msg<'_>)> = None;
    if let Some(s) = &sender {
        if limits.per_sender_per_hour > 0 && journal::count_from_sender_since(c, s, since)? >= limits.per_sender_per_hour {
            over = Some((format!("more than {} mails from {s} within an hour", limits.per_sender_per_hour), Msg::TooManyFromYou { limit: limits.per_sender_per_hour }));
        }
    }
    if over.is_none() {
        if let Some(g) = gid.as_deref() {
            if limits.per_game_per_hour > 0 && journal::count_for_game_since(c, g, since)? >= limits.per_game_per_hour {
                over = Some((format!("more than {} mails for game {g} within an hour", limits.per_game_per_hour), Msg::TooManyForGame { game: g, limit: limits.per_game_per_hour }));
            }
        }
    }
    let Some((detail, msg)) = over else { return Ok(None) };
    // The key of "already answered" is the From address, like the count;
    // a mail without From is answered at most once per hour per reply address.
    let key = sender.as_deref().unwrap_or(to);
    let answered = journal::rate_limit_answered_since(c, key, since)?;
    let mut journal = Decision::base(sha, Some(mail), Disposition::Rejected, detail.clone(), gid.clone());
    if journal.sender.is_none() {
        journal.sender = Some(to.to_string());
    }
    if answered {
        tracing::info!(%detail, "flood: mail journaled, not answered (the sender was answered within the hour)");
        journal.outcome = journal::RATE_LIMITED_SILENT.into();
        return Ok(Some(Decision { journal, orders: None, reply: None, extra: Vec::new() }));
    }
    tracing::warn!(%detail, "flood: mail refused, one polite answer");
    let lang = match game {
        Some(row) => GameView::new(registry, row.clone()).map(|g| g.lang).unwrap_or(config.language),
        None => config.language,
    };
    journal.outcome = journal::RATE_LIMITED.into();
    let reply = Draft::new(Kind::Error, to, text(lang, &Msg::ErrorSubject), signed(lang, &text(lang, &msg)))
        .replying_to(mail.message_id.as_deref())
        .discriminator(&sha[..16]);
    Ok(Some(Decision { journal, orders: None, reply: Some(reply), extra: Vec::new() }))
}

/// A block from the game master: PAUSE, RESUME, EXTEND, SET DEADLINE,
/// EJECT, TAKEOVER, PREVIEW, RELEASE and ROLLBACK act as on the command
/// line (gm.rs `by_mail`; players are told), STATUS and HISTORY are
/// answered. A wrong password changes nothing.
#[allow(clippy::too_many_arguments)]
fn gm_mail(
    c: &Connection,
    registry: &Registry,
    config: &DaemonConfig,
    game: &GameView<'_>,
    env: &arbitre_mail::Envelope,
    mail: &InboundMail,
    sha: &str,
    to: &str,
    now: DateTime<Utc>,
) -> Result<Decision> {
    use crate::services::command::Command;
    let lang = game.lang;
    let gid = game.row.id.clone();
    let m = Some(mail);
    let ok = game.toml.services.gm_password_hash.as_deref().is_some_and(|h| arbitre_store::PasswordHasher::verify(&env.password, h));
    if !ok {
        let body = svc_text(lang, &SvcMsg::GmWrongPassword);
        let reply = Draft::new(Kind::Error, to, text(lang, &Msg::ErrorSubject), signed(lang, &body)).about(&gid, game.row.turn + 1, Some("gm"));
        return Ok(Decision::reject(sha, m, "wrong game master password".into(), Some(gid), reply));
    }
    let split = split_commands(&env.orders);
    let mut lines: Vec<(usize, String)> = Vec::new();
    let errors_only = answer(c, config, game, &Asker { player: "gm", to, tag: &sha[..16] }, &[], &split.errors)?;
    if !errors_only.text.is_empty() {
        lines.push((0, errors_only.text));
    }
    for (line, cmd) in &split.commands {
        let t = match cmd {
            Command::Status | Command::History => {
                answer(c, config, game, &Asker { player: "gm", to, tag: &sha[..16] }, &[(*line, cmd.clone())], &[])?.text
            }
            _ => crate::gm::by_mail(c, registry, config, &gid, cmd, &sha[..16], now)?,
        };
        lines.push((*line, t));
    }
    let body = lines.into_iter().map(|(_, t)| t).collect::<Vec<_>>().join("\n\n");
    let subject = svc_text(lang, &SvcMsg::CommandsSubject { game: &gid });
    let reply = Draft::new(Kind::Confirm, to, subject, signed(lang, &body))
        .about(&gid, game.row.turn + 1, Some("gm"))
        .discriminator(format!("cmd.{}", &sha[..16]))
        .replying_to(mail.message_id.as_deref());
    let names: Vec<&str> = split.commands.iter().map(|(_, c)| c.name()).collect();
    let detail = format!("game master commands: {}", names.join(", "));
    tracing::info!(game = %gid, %detail, "game master by mail");
    Ok(Decision { journal: Decision::base(sha, m, Disposition::Service, detail, Some(gid)), orders: None, reply: None, extra: vec![reply] })
}

/// French for `PARTIE … JOUEUR …`, German for `SPIEL … SPIELER …`.
fn header_lang(mail: &InboundMail, env: &arbitre_mail::Envelope) -> Option<Lang> {
    let line = mail
        .texts
        .iter()
        .find(|t| arbitre_mail::find_envelope(t).as_ref() == Ok(env))?
        .lines()
        .nth(env.header_line.checked_sub(1)?)?;
    let words: Vec<String> = line.split_whitespace().map(|w| w.to_uppercase()).collect();
    let has = |w: &str| words.iter().any(|x| x == w);
    if has("JOUEUR") || has("PARTIE") {
        Some(Lang::Fr)
    } else if has("SPIELER") || has("SPIEL") {
        Some(Lang::De)
    } else if has("PLAYER") {
        Some(Lang::En)
    } else {
        None
    }
}

/// Writes a decision (in the caller's transaction).
pub fn apply(c: &Connection, config: &DaemonConfig, now: DateTime<Utc>, mut d: Decision) -> Result<()> {
    d.journal.received_at = now.timestamp();
    journal::record(c, &d.journal)?;
    if let Some(o) = &d.orders {
        orders::insert(
            c,
            &o.game,
            o.turn,
            &o.player,
            &o.text,
            &o.checked.verdicts,
            o.checked.errors as u32,
            o.checked.ready,
            now.timestamp(),
            Some(&d.journal.sha256),
        )?;
    }
    if let Some(r) = d.reply {
        queue(c, config, now, r)?;
    }
    for r in d.extra {
        queue(c, config, now, r)?;
    }
    Ok(())
}

/// The confirmation: every line echoed with OK or its reason.
pub fn confirmation(game: &GameView<'_>, turn: u32, player: &str, stored: bool, checked: &Checked) -> String {
    let lang = game.lang;
    let gid = game.row.id.as_str();
    let mut out = if stored {
        text(lang, &Msg::ConfirmHeader { game: gid, turn, player })
    } else {
        text(lang, &Msg::CheckHeader { game: gid, turn, player })
    };
    out.push_str("\n\n");
    if checked.verdicts.is_empty() {
        out.push_str(&text(lang, &Msg::NoOrderLines));
        out.push('\n');
    }
    let (ok, err, warn) = (text(lang, &Msg::Ok), text(lang, &Msg::Error), text(lang, &Msg::Warning));
    let width = [&ok, &err, &warn].iter().map(|s| s.chars().count()).max().unwrap_or(0);
    for v in &checked.verdicts {
        let (label, reason) = match &v.verdict {
            Verdict::Ok => (&ok, None),
            Verdict::Warning(r) => (&warn, Some(r)),
            Verdict::Error(r) => (&err, Some(r)),
        };
        out.push_str(&format!("{:>4}  {label:<width$}  {}", v.line, v.text));
        if let Some(r) = reason {
            out.push_str(&format!("\n      {:width$}  -> {r}", ""));
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&text(lang, &Msg::Summary { orders: checked.orders, errors: checked.errors, warnings: checked.warnings }));
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
