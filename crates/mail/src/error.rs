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
}
