//! Errors of the mail crate.

/// Failure reading, parsing or formatting a mail.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("mail I/O error: {0}")]
    Io(#[from] std::io::Error),
    #[error("mail of {size} bytes exceeds the limit of {limit} bytes")]
    TooLarge { size: usize, limit: usize },
    #[error("unparseable mail: {0}")]
    Unparseable(String),
    #[error("cannot format mail: {0}")]
    Format(String),
    /// An IMAP inbox failed; [`crate::ImapError::is_transient`] says whether
    /// to retry later.
    #[error(transparent)]
    Imap(#[from] crate::imap::ImapError),
}

impl MailError {
    /// Worth retrying later (network and server hiccups), as opposed to a
    /// problem with the mail itself or the configuration.
    pub fn is_transient(&self) -> bool {
        match self {
            MailError::Imap(e) => e.is_transient(),
            MailError::Io(e) => matches!(
                e.kind(),
                std::io::ErrorKind::Interrupted
                    | std::io::ErrorKind::WouldBlock
                    | std::io::ErrorKind::TimedOut
            ),
            _ => false,
        }
    }
}
