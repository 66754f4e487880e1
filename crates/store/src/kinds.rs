//! The closed sets of words the database holds (issue 16 item 2): game
//! statuses, mail kinds, outbox statuses, journal outcomes, preview modes
//! and seat-change kinds. Each is a Rust enum stored as its word through
//! rusqlite's `ToSql`/`FromSql`, so a column can only receive a word of its
//! set and a row holding another word is reported as corrupt instead of
//! being misread. The words are the ones the schema has always held, so no
//! row needs rewriting and `sqlite3` still shows plain words.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

macro_rules! text_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $s:literal,)+ }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vm])* $var,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$var,)+];

            /// The word stored in the database.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$var => $s,)+
                }
            }

            /// The value of a stored word.
            pub fn parse(s: &str) -> Option<$name> {
                match s {
                    $($s => Some($name::$var),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                let s = value.as_str()?;
                $name::parse(s).ok_or_else(|| {
                    FromSqlError::Other(format!("unknown {} '{s}'", stringify!($name)).into())
                })
            }
        }

        // Tests and tools compare with the stored word: `kind == "report"`.
        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
    };
}

text_enum! {
    /// `games.status`.
    GameStatus {
        Running => "running",
        Paused => "paused",
        Over => "over",
    }
}

text_enum! {
    /// `outbox.kind`: what a queued mail is.
    MailKind {
        /// Reply to an order mail that was stored.
        Confirm => "confirm",
        /// Reply to a CHECK block.
        Check => "check",
        /// Reply to a mail that was refused.
        Error => "error",
        Report => "report",
        /// The game master's report.
        Gm => "gm",
        Reminder => "reminder",
        Notice => "notice",
        /// The spectator report mailed to a game's observers (issue 10).
        Observer => "observer",
        /// The welcome mail of a new seat (issue 17 item 1).
        Welcome => "welcome",
    }
}

text_enum! {
    /// `outbox.status`.
    OutboxStatus {
        Pending => "pending",
        Sent => "sent",
        /// Permanent failure, or retries exhausted: the GM must look.
        Failed => "failed",
        /// A report of a turn the game master previews (issue 10 `PREVIEW`):
        /// never sent until `RELEASE` puts it back to pending.
        Held => "held",
        /// Never to be sent: a report of a turn undone by `ROLLBACK` before it
        /// left. Kept as the archive of what was (almost) sent.
        Cancelled => "cancelled",
    }
}

text_enum! {
    /// `mail_journal.outcome`: what became of a mail.
    JournalOutcome {
        Stored => "stored",
        Checked => "checked",
        Rejected => "rejected",
        Ignored => "ignored",
        /// Only service commands (issue 10): answered, no orders stored.
        Service => "service",
        /// Refused by the flood limit, answered once (issue 8).
        RateLimited => "rate-limited",
        /// Refused by the flood limit, not answered.
        RateLimitedSilent => "rate-limited-silent",
    }
}

text_enum! {
    /// `games.preview`: which resolved turns are held for the game master
    /// (NULL: none).
    PreviewMode {
        /// The next resolved turn only.
        Next => "next",
        Always => "always",
    }
}

text_enum! {
    /// `seat_changes.kind`.
    SeatChangeKind {
        Eject => "eject",
        Takeover => "takeover",
    }
}

text_enum! {
    /// `signups.status` (issue 17 item 3).
    SignupStatus {
        /// Waiting for the game master's ACCEPT or REFUSE.
        Pending => "pending",
        Accepted => "accepted",
        Refused => "refused",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: ToSql + FromSql + PartialEq + std::fmt::Debug + Copy>(all: &[T]) {
        let c = rusqlite::Connection::open_in_memory().unwrap();
        for v in all {
            let back: T = c.query_row("SELECT ?1", [v], |r| r.get(0)).unwrap();
            assert_eq!(back, *v);
        }
    }

    #[test]
    fn every_kind_round_trips_and_a_strange_word_is_refused() {
        round_trip(GameStatus::ALL);
        round_trip(MailKind::ALL);
        round_trip(OutboxStatus::ALL);
        round_trip(JournalOutcome::ALL);
        round_trip(PreviewMode::ALL);
        round_trip(SeatChangeKind::ALL);
        round_trip(SignupStatus::ALL);
        let c = rusqlite::Connection::open_in_memory().unwrap();
        let e = c
            .query_row("SELECT 'sideways'", [], |r| r.get::<_, MailKind>(0))
            .unwrap_err();
        assert!(e.to_string().contains("unknown MailKind 'sideways'"), "{e}");
        assert_eq!(MailKind::Report, "report");
    }
}
