//! `arbitre serve`: the loop around [`Daemon::cycle`] (issue 14 items 10,
//! 11 and 15).
//!
//! - **The inbox is one input among others** (item 10). A connection
//!   failure of the IMAP inbox (server stopped, restarted, `reload`ed, or
//!   down at start) is logged and the inbox is retried with a backoff
//!   ([`InboxHealth`]), while the rest of the cycle — deadlines, reminders,
//!   the outbox — goes on. Nothing is lost meanwhile: mail stays on the
//!   server until the journal has recorded it.
//! - **The wait between cycles ends at the next due instant** (item 11):
//!   the earliest of the poll interval, a game's deadline (plus its grace),
//!   a reminder's instant, and the inbox's next retry. IMAP IDLE is bounded
//!   by that instant whatever the server sends (see arbitre_mail::imap).
//! - **SIGTERM and SIGINT stop the loop cleanly** (item 15) at the end of the
//!   step in progress: a cycle is never cut in the middle (each of its
//!   writes is a transaction anyway), and a wait ends within a quarter of a
//!   second. The handler only sets a flag (signal-hook), which the loop and
//!   the waits read.

use crate::daemon::Daemon;
use crate::error::{DaemonError, Result};
use arbitre_mail::MailError;
use arbitre_store::games;
use chrono::{DateTime, Utc};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The longest pause between two connection attempts to a failing inbox.
pub const MAX_INBOX_BACKOFF: Duration = Duration::from_secs(300);

/// How the inbox has been doing: consecutive connection failures and when
/// to try again. Times are the daemon's clock (injected, as everywhere).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InboxHealth {
    pub failures: u32,
    pub retry_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

impl InboxHealth {
    /// The pause after the `failures`-th failure in a row: the poll interval,
    /// doubled each time, at most [`MAX_INBOX_BACKOFF`] (or the poll
    /// interval if that is longer).
    pub fn backoff(poll: Duration, failures: u32) -> Duration {
        let cap = MAX_INBOX_BACKOFF.max(poll);
        let factor = 1u32 << failures.saturating_sub(1).min(16);
        poll.max(Duration::from_secs(1))
            .saturating_mul(factor)
            .min(cap)
    }

    /// True when the inbox should be left alone at `now`.
    pub fn waiting(&self, now: DateTime<Utc>) -> bool {
        self.retry_at.is_some_and(|t| now < t)
    }
}

/// True for a failure of the way to the inbox (network, TLS, login), as
/// opposed to one message the server cannot hand over.
pub fn is_connection_failure(e: &MailError) -> bool {
    use arbitre_mail::ImapError;
    matches!(
        e,
        MailError::Imap(
            ImapError::Connect(_)
                | ImapError::Tls(_)
                | ImapError::Auth(_)
                | ImapError::Lost(_)
                | ImapError::Config(_)
        )
    )
}

impl Daemon {
    /// The inbox part of a cycle, guarded: skipped while the inbox backs off
    /// after a connection failure; a new connection failure is logged and
    /// schedules the next attempt instead of stopping the cycle. Database
    /// errors still stop it.
    pub(crate) fn inbox_step(&mut self) -> Result<(usize, Option<String>)> {
        let now = self.now();
        if self.inbox_health.waiting(now) {
            return Ok((0, self.inbox_health.last_error.clone()));
        }
        match self.process_inbox() {
            Ok(n) => {
                if self.inbox_health.failures > 0 {
                    tracing::info!(
                        failures = self.inbox_health.failures,
                        "inbox reachable again"
                    );
                }
                self.inbox_health = InboxHealth::default();
                Ok((n, None))
            }
            Err(DaemonError::Mail(e)) => {
                self.inbox_failed(&e);
                Ok((0, Some(e.to_string())))
            }
            Err(e) => Err(e),
        }
    }

    /// Records a failure of the inbox and when to try again.
    pub fn inbox_failed(&mut self, e: &MailError) {
        let now = self.now();
        let h = &mut self.inbox_health;
        h.failures += 1;
        let delay = InboxHealth::backoff(Duration::from_secs(self.config.poll_seconds), h.failures);
        h.retry_at =
            Some(now + chrono::Duration::from_std(delay).unwrap_or(chrono::Duration::seconds(300)));
        h.last_error = Some(e.to_string());
        if matches!(
            e,
            MailError::Imap(arbitre_mail::ImapError::Auth(_) | arbitre_mail::ImapError::Config(_))
        ) {
            tracing::error!(error = %e, retry_in_secs = delay.as_secs(), failures = h.failures, "inbox refused us (check [inbound] in arbitre.toml); deadlines and sending go on, retrying");
        } else {
            tracing::warn!(error = %e, retry_in_secs = delay.as_secs(), failures = h.failures, "inbox unreachable; deadlines and sending go on, retrying");
        }
    }

    /// The next instant something is due: a running game's deadline (plus
    /// its grace), one of its reminders, the end of an early resolution's
    /// `change_delay`, or the inbox's next retry. `None` when nothing is
    /// scheduled. Read from the stored due instants (crate::due); a game
    /// whose instant is not known yet (changed since the last cycle) is
    /// computed here without being stored.
    pub fn next_due(&self) -> Result<Option<DateTime<Utc>>> {
        let now = self.now();
        let c = self.store.conn();
        let mut next = self.inbox_health.retry_at;
        let mut consider = |t: i64| {
            if let Some(t) = DateTime::from_timestamp(t, 0) {
                next = Some(next.map_or(t, |n| n.min(t)));
            }
        };
        for row in games::due_games(c, now.timestamp())? {
            let at = crate::due::attention_at(c, &self.registry, row, now)?;
            if at != games::DUE_NEVER {
                consider(at);
            }
        }
        if let Some(at) = games::next_due_after(c, now.timestamp())? {
            consider(at);
        }
        Ok(next)
    }

    /// How long to wait after a cycle: the poll interval, cut short at the
    /// next due instant (never negative).
    pub fn wait_budget(&self) -> Result<Duration> {
        let poll = Duration::from_secs(self.config.poll_seconds);
        let Some(due) = self.next_due()? else {
            return Ok(poll);
        };
        let left = (due - self.now()).to_std().unwrap_or(Duration::ZERO);
        Ok(left.min(poll))
    }

    /// Waits between two cycles (see [`Daemon::wait_budget`]): on the inbox
    /// (IMAP IDLE wakes up on new mail) when it is up, else a plain sleep.
    /// Ends early when `stop` is set.
    pub fn wait_between_cycles(&mut self, stop: &Arc<AtomicBool>) -> Result<()> {
        let budget = self.wait_budget()?;
        if budget.is_zero() {
            return Ok(());
        }
        if self.inbox_health.waiting(self.now()) {
            arbitre_mail::inbox::sleep_or_stop(budget, Some(stop));
            return Ok(());
        }
        if let Err(e) = self.inbox.wait_or_stop(budget, Some(stop)) {
            if is_connection_failure(&e) {
                self.inbox_failed(&e);
            } else {
                tracing::warn!(error = %e, "waiting for mail failed; polling again");
            }
        }
        Ok(())
    }

    /// `arbitre serve`: cycles until `stop` is set (SIGTERM, SIGINT), or once.
    /// Returns the last cycle's report.
    pub fn serve(
        &mut self,
        once: bool,
        stop: &Arc<AtomicBool>,
    ) -> Result<crate::daemon::CycleReport> {
        loop {
            let r = self.cycle()?;
            // One line per cycle that did something (issue 19 item 11); an
            // idle poll every minute would bury them.
            let busy = r.mails + r.resolved.len() + r.reminders + r.sent + r.send_failures > 0;
            if busy {
                tracing::info!(
                    mails = r.mails,
                    resolved = r.resolved.len(),
                    reminders = r.reminders,
                    sent = r.sent,
                    failures = r.send_failures,
                    inbox_ok = r.inbox_error.is_none(),
                    "cycle done"
                );
            } else {
                tracing::debug!(inbox_ok = r.inbox_error.is_none(), "idle cycle");
            }
            if once || stop.load(Ordering::SeqCst) {
                if !once {
                    tracing::info!("stop requested: the cycle in progress is finished, exiting");
                }
                return Ok(r);
            }
            self.wait_between_cycles(stop)?;
            if stop.load(Ordering::SeqCst) {
                tracing::info!("stop requested while waiting: exiting");
                return Ok(r);
            }
        }
    }
}

/// A flag set by SIGTERM and SIGINT (systemd's stop, Ctrl-C). signal-hook's
/// `flag::register` is the one small, safe way to get it: the handler only
/// stores to an atomic, which is async-signal-safe.
pub fn stop_flag() -> std::io::Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(sig, Arc::clone(&stop))?;
    }
    Ok(stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inbox_backoff_doubles_from_the_poll_interval_up_to_a_cap() {
        let s = Duration::from_secs;
        assert_eq!(InboxHealth::backoff(s(1), 1), s(1));
        assert_eq!(InboxHealth::backoff(s(1), 2), s(2));
        assert_eq!(InboxHealth::backoff(s(1), 4), s(8));
        assert_eq!(InboxHealth::backoff(s(60), 3), s(240));
        assert_eq!(InboxHealth::backoff(s(60), 30), MAX_INBOX_BACKOFF);
        // A poll interval above the cap is kept: never more eager than polling.
        assert_eq!(InboxHealth::backoff(s(600), 5), s(600));
    }
}
