//! Sending the outbox: every due row goes to the transport; success marks it
//! sent, a transient failure schedules a retry with backoff, a permanent one
//! (or too many attempts) marks it failed for the GM to see in `status`.
//!
//! A crash between the transport accepting a mail and the row being marked
//! sent resends that one mail on restart (at-least-once on the wire is the
//! best any mailer can do); the file transport treats an existing file as
//! already sent, so there it is exactly once.

use crate::daemon::Daemon;
use crate::error::Result;
use crate::failpoint;
use arbitre_store::{outbox, OutboxStatus};

impl Daemon {
    /// Returns (sent, failed attempts).
    pub fn send_outbox(&mut self) -> Result<(usize, usize)> {
        let now = self.now().timestamp();
        let (mut sent, mut failed) = (0, 0);
        for row in outbox::due(self.store.conn(), now)? {
            let m = &row.mail;
            match self
                .config
                .transport
                .send(&self.config.referee, &m.recipient, &m.raw)
            {
                Ok(()) => {
                    failpoint::hit("after-send-before-mark");
                    outbox::mark_sent(self.store.conn(), row.id, now)?;
                    tracing::info!(message_id = %m.message_id, kind = %m.kind, "sent");
                    sent += 1;
                }
                Err(e) => {
                    let status = outbox::mark_failed(
                        self.store.conn(),
                        row.id,
                        now,
                        &e.to_string(),
                        e.is_permanent(),
                        self.config.max_send_attempts,
                    )?;
                    if status == OutboxStatus::Failed {
                        tracing::error!(message_id = %m.message_id, error = %e, "mail failed for good; see arbitre status");
                    } else {
                        tracing::warn!(message_id = %m.message_id, error = %e, "send failed; will retry");
                    }
                    failed += 1;
                }
            }
        }
        Ok((sent, failed))
    }
}
