//! Sending the outbox (issue 14 item 6): every due row goes to the
//! transport, and each failure is classified (arbitre_mail::SendError):
//!
//! * **installation** (the relay refuses our login, TLS or the connection
//!   fails, checked once before each batch): sending pauses; no mail is
//!   touched, its attempts are not counted; the pause is recorded (shown by
//!   `arbitre status`) and tried again with a doubling delay (1 min up to
//!   1 h); the game masters are told once per pause, by a mail that leaves
//!   when sending works again;
//! * **permanent** (5xx after MAIL, RCPT or DATA): that mail is failed at
//!   once with the server's words, and its game's master is told;
//! * **transient** (4xx): retried with backoff (1 min doubling up to 6 h)
//!   for `send_retry_window` (default 3 days) from its first failure, then
//!   failed like a permanent one. `arbitre outbox retry` brings it back.
//!
//! A crash between the transport accepting a mail and the row being marked
//! sent resends that one mail on restart (at-least-once on the wire is the
//! best any mailer can do); the file transport treats an existing file as
//! already sent, so there it is exactly once.

use crate::config::DaemonConfig;
use crate::daemon::Daemon;
use crate::error::Result;
use crate::failpoint;
use crate::fault::{text, FaultMsg};
use crate::outgoing::{queue, signed, Draft, Kind};
use arbitre_core::Lang;
use arbitre_mail::SendError;
use arbitre_store::Connection;
use arbitre_store::{faults, games, outbox, OutboxStatus, SendingPause};
use chrono::{DateTime, Utc};

/// Seconds to wait after a failed try before trying a paused installation
/// again: the pause's age so far, between one minute and one hour — so the
/// delays double (1, 1, 2, 4 … 60 min).
pub fn pause_retry_after(p: &SendingPause) -> i64 {
    (p.last_try - p.since).clamp(60, 3600)
}

impl Daemon {
    /// Returns (sent, failed attempts).
    pub fn send_outbox(&mut self) -> Result<(usize, usize)> {
        let now = self.now();
        let due = outbox::due_ids(self.store.conn(), now.timestamp())?;
        if due.is_empty() {
            return Ok((0, 0));
        }
        // Tests and `arbitre` commands may change the transport after open.
        let wanted = crate::daemon::mailer_for(&self.config);
        if self.mailer.transport() != wanted.transport() {
            self.mailer = wanted;
        }
        if let Some(p) = faults::sending_pause(self.store.conn())? {
            if now.timestamp() < p.last_try + pause_retry_after(&p) {
                return Ok((0, 0));
            }
        }
        if let Err(e) = self.mailer.check() {
            self.pause_sending(&e, now)?;
            return Ok((0, 0));
        }
        self.end_pause(now)?;
        let (mut sent, mut failed) = (0, 0);
        // The file transport treats an existing file as sent, so its marks
        // can share one commit per batch (issue 22 item 3): a crash before
        // that commit resends the batch, which finds every file written.
        // A relay would take the mails a second time, so there each mail is
        // marked the moment it is accepted.
        let idempotent = matches!(
            self.mailer.transport(),
            arbitre_mail::Transport::File { .. }
        );
        let mut accepted: Vec<i64> = Vec::new();
        for id in due {
            // Each mail is loaded when it is sent, not all at once.
            let Some(m) = outbox::due_row(self.store.conn(), id, now.timestamp())? else {
                continue;
            };
            match self.mailer.send(&self.config.referee, &m.recipient, &m.raw) {
                Ok(()) => {
                    failpoint::hit("after-send-before-mark");
                    if idempotent {
                        accepted.push(m.id);
                        if accepted.len() >= MARK_BATCH {
                            mark_all_sent(&mut self.store, &mut self.mailer, &mut accepted, now)?;
                        }
                    } else {
                        outbox::mark_sent(self.store.conn(), m.id, now.timestamp())?;
                    }
                    tracing::info!(message_id = %m.message_id, kind = %m.kind, "sent");
                    sent += 1;
                }
                Err(e) => {
                    // A connection lost in the middle of a batch: the
                    // installation's if the relay no longer takes us, else
                    // this mail's (retried as a temporary failure).
                    if e.is_installation() {
                        if let Err(e) = self.mailer.check() {
                            self.pause_sending(&e, now)?;
                            break;
                        }
                    }
                    failed += 1;
                    let window = self.config.send_retry_window.num_seconds();
                    let Daemon { store, config, .. } = self;
                    store.tx(|tx| record_failure(tx, config, &m, &e, window, now))?;
                }
            }
        }
        mark_all_sent(&mut self.store, &mut self.mailer, &mut accepted, now)?;
        Ok((sent, failed))
    }

    fn pause_sending(&mut self, e: &SendError, now: DateTime<Utc>) -> Result<()> {
        let reason = e.to_string();
        let Daemon { store, config, .. } = self;
        store.tx(|tx| -> Result<()> {
            let (p, new) = faults::pause_sending(tx, &reason, now.timestamp())?;
            if !new {
                tracing::warn!(error = %reason, "sending still paused; no mail is failed for it");
                return Ok(());
            }
            tracing::error!(error = %reason, "sending paused: the mail set-up fails (see arbitre status); no mail is failed for it");
            // Every game master, once per pause; the mail leaves when
            // sending works again, and says what happened meanwhile.
            let mut told = std::collections::BTreeSet::new();
            for g in games::games(tx)? {
                let Some(gm) = g.gm_email.clone().filter(|a| !a.trim().is_empty()) else { continue };
                if !told.insert(gm.to_ascii_lowercase()) {
                    continue;
                }
                let lang = Lang::parse(&g.lang).unwrap_or(config.language);
                let since = show(now);
                let body = signed(lang, &text(lang, &FaultMsg::SendingPaused { reason: &reason, since: &since }));
                let d = Draft::new(Kind::Notice, &gm, text(lang, &FaultMsg::SendingPausedSubject), body)
                    .about(&g.id, g.turn + 1, None)
                    .discriminator(format!("paused{}", p.id));
                queue(tx, config, now, d)?;
            }
            Ok(())
        })
    }

    fn end_pause(&mut self, now: DateTime<Utc>) -> Result<()> {
        if let Some(p) = faults::sending_pause(self.store.conn())? {
            self.store.tx(|tx| faults::end_pause(tx, now.timestamp()))?;
            tracing::info!(since = p.since, reason = %p.reason, "sending resumed");
        }
        Ok(())
    }
}

/// Sent mails of the file transport marked per commit.
pub const MARK_BATCH: usize = 256;

/// Marks `ids` sent in one transaction (one commit, one fsync of the
/// database) once the file transport's batch is synced and in its folder
/// (`Mailer::sync`), and empties the list. If the batch cannot be synced
/// the mails stay pending and are written again at the next send; those
/// already renamed are found there and count as sent.
fn mark_all_sent(
    store: &mut arbitre_store::Store,
    mailer: &mut arbitre_mail::Mailer,
    ids: &mut Vec<i64>,
    now: DateTime<Utc>,
) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    if let Err(e) = mailer.sync() {
        tracing::warn!(error = %e, "outbox folder not synced; the mails stay pending");
        ids.clear();
        return Ok(());
    }
    store.tx(|tx| -> Result<()> {
        for id in ids.iter() {
            outbox::mark_sent(tx, *id, now.timestamp())?;
        }
        Ok(())
    })?;
    ids.clear();
    Ok(())
}

fn show(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// Records one failed attempt of `row` and, when it is failed for good,
/// tells its game's master (not for a mail to that master: a failing
/// address must not breed mails).
fn record_failure(
    c: &Connection,
    config: &DaemonConfig,
    m: &outbox::DueMail,
    e: &SendError,
    window: i64,
    now: DateTime<Utc>,
) -> Result<()> {
    let status = outbox::mark_failed(
        c,
        m.id,
        now.timestamp(),
        &e.to_string(),
        e.is_permanent(),
        window,
    )?;
    if status != OutboxStatus::Failed {
        tracing::warn!(message_id = %m.message_id, error = %e, "send failed; will retry");
        return Ok(());
    }
    tracing::error!(message_id = %m.message_id, error = %e, id = m.id, "mail failed for good; see arbitre outbox list");
    let Some(gid) = m.game_id.as_deref() else {
        return Ok(());
    };
    let Some(g) = games::find_game_nocase(c, gid)? else {
        return Ok(());
    };
    let Some(gm) = g.gm_email.as_deref().filter(|a| !a.trim().is_empty()) else {
        return Ok(());
    };
    if gm.trim().eq_ignore_ascii_case(m.recipient.trim()) {
        return Ok(());
    }
    let lang = Lang::parse(&g.lang).unwrap_or(config.language);
    let reason = e.to_string();
    let body = signed(
        lang,
        &text(
            lang,
            &FaultMsg::MailFailed {
                id: m.id,
                to: &m.recipient,
                subject: &m.subject,
                reason: &reason,
            },
        ),
    );
    let d = Draft::new(
        Kind::Notice,
        gm,
        text(lang, &FaultMsg::MailFailedSubject { game: &g.id }),
        body,
    )
    .about(&g.id, m.turn.unwrap_or(g.turn), None)
    .discriminator(format!("failed{}", m.id));
    // Told once per mail: a mail retried by hand and failing again is
    // one the GM already knows of.
    if outbox::by_message_id(c, &crate::outgoing::message_id_in(c, config, &d)?)?.is_none() {
        queue(c, config, now, d)?;
    }
    Ok(())
}

/// `arbitre outbox list|retry|drop` (issue 14 item 6): the game master's
/// hands on mails in trouble, without SQL.
impl Daemon {
    /// Failed mails, mails retried after a failure and held reports (with
    /// `all`: every mail), one line each with its id, error and dates.
    pub fn outbox_list(&self, all: bool) -> Result<String> {
        use crate::fl_args;
        use std::fmt::Write as _;
        let lang = self.lang;
        use crate::i18n::tr;
        let c = self.store.conn();
        let rows = if all {
            outbox::all(c)?
        } else {
            outbox::troubled(c)?
        };
        let when = |t: i64| DateTime::from_timestamp(t, 0).map(show).unwrap_or_default();
        let mut out = String::new();
        if let Some(p) = faults::sending_pause(c)? {
            let (since, reason) = (when(p.since), &p.reason);
            let _ = writeln!(
                out,
                "{}",
                tr(lang, "outbox-sending-paused", &fl_args![since, reason])
            );
        }
        if rows.is_empty() {
            let _ = writeln!(out, "{}", tr(lang, "outbox-none", &[]));
        }
        for r in rows {
            let m = &r.mail;
            let (id, status, kind, to) = (r.id, r.status.as_str(), &m.kind, &m.recipient);
            let (subject, queued) = (&m.subject, when(r.created_at));
            let args = fl_args![id, status, kind, to, subject, queued];
            let _ = write!(out, "{}", tr(lang, "outbox-row", &args));
            if let Some(f) = r.first_failed_at {
                let (since, attempts) = (when(f), r.attempts);
                let args = fl_args![since, attempts];
                let _ = write!(out, ", {}", tr(lang, "outbox-row-failing", &args));
            }
            if r.status == OutboxStatus::Pending && r.attempts > 0 {
                let next = when(r.next_attempt_at);
                let _ = write!(out, ", {}", tr(lang, "outbox-row-next", &fl_args![next]));
            }
            out.push(')');
            if let Some(e) = &r.last_error {
                let _ = write!(out, ": {e}");
            }
            out.push('\n');
        }
        Ok(out)
    }

    /// Puts failed (or pending) mail `id` back in the queue, due now.
    pub fn outbox_retry(&mut self, id: i64) -> Result<()> {
        let now = self.now().timestamp();
        let ok = self.store.tx(|tx| outbox::retry(tx, id, now))?;
        if !ok {
            let what = outbox::get(self.store.conn(), id)?.map(|r| r.status.as_str().to_string());
            return Err(match what {
                Some(status) => self.invalid("err-retry-not-failed", &crate::fl_args![id, status]),
                None => self.invalid("err-no-such-mail", &crate::fl_args![id]),
            });
        }
        Ok(())
    }

    /// Puts every failed mail back in the queue. Returns how many.
    pub fn outbox_retry_failed(&mut self) -> Result<usize> {
        let now = self.now().timestamp();
        Ok(self.store.tx(|tx| outbox::retry_failed(tx, now))?)
    }

    /// Mail `id` is never sent (kept as cancelled).
    pub fn outbox_drop(&mut self, id: i64) -> Result<()> {
        if !self.store.tx(|tx| outbox::drop_mail(tx, id))? {
            return Err(self.invalid("err-nothing-to-drop", &crate::fl_args![id]));
        }
        Ok(())
    }
}
