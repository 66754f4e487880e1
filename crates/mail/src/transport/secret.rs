//! Passwords for the IMAP and SMTP accounts. Issue 7 requires them to come
//! from an environment variable or a file, never from the command line
//! (where `ps` shows them to every local user) nor from `arbitre.toml` (which
//! game masters share and commit).

use std::path::Path;

/// Where a password is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretSource {
    /// Name of an environment variable holding the password.
    Env(String),
    /// A file whose first line is the password (systemd credentials,
    /// `/etc/arbitre/imap.pass` with mode 0600...).
    File(std::path::PathBuf),
}

/// Why a password could not be obtained.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SecretError {
    #[error("environment variable {0} is not set or not UTF-8")]
    MissingEnv(String),
    #[error("cannot read password file {path}: {reason}")]
    File { path: String, reason: String },
    #[error("password from {0} is empty")]
    Empty(String),
}

impl SecretSource {
    /// Reads the password. A trailing newline (and CR) is removed, because
    /// `echo secret > file` writes one; nothing else is trimmed.
    pub fn read(&self) -> Result<String, SecretError> {
        let (value, origin) = match self {
            SecretSource::Env(name) => (
                std::env::var(name).map_err(|_| SecretError::MissingEnv(name.clone()))?,
                format!("${name}"),
            ),
            SecretSource::File(path) => (read_file(path)?, path.display().to_string()),
        };
        let first = value.split('\n').next().unwrap_or("");
        let first = first.strip_suffix('\r').unwrap_or(first);
        if first.is_empty() {
            return Err(SecretError::Empty(origin));
        }
        Ok(first.to_owned())
    }
}

/// Why a password file is too open, if it is: readable by every local user
/// (issue 14 item 15). Group-readable is accepted (a `arbitre` group is a
/// sound way to share it with the daemon's user).
#[cfg(unix)]
pub fn too_open(path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    (mode & 0o004 != 0).then(|| {
        format!(
            "password file {} is readable by every local user (mode {:o}): run `chmod o-rwx {}`",
            path.display(),
            mode & 0o777,
            path.display()
        )
    })
}

#[cfg(not(unix))]
pub fn too_open(_path: &Path) -> Option<String> {
    None
}

fn read_file(path: &Path) -> Result<String, SecretError> {
    if let Some(warning) = too_open(path) {
        tracing::warn!("{warning}");
    }
    std::fs::read_to_string(path).map_err(|e| SecretError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// Convenience for configuration with both optional keys (`password_env`,
/// `password_file`): the environment variable wins when both are given.
pub fn read_secret(env: Option<&str>, file: Option<&Path>) -> Result<Option<String>, SecretError> {
    match (env, file) {
        (Some(name), _) => SecretSource::Env(name.to_owned()).read().map(Some),
        (None, Some(path)) => SecretSource::File(path.to_path_buf()).read().map(Some),
        (None, None) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_secret_drops_the_trailing_newline_only() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pw");
        std::fs::write(&p, " s3cr et \r\nignored\n").unwrap();
        assert_eq!(SecretSource::File(p.clone()).read().unwrap(), " s3cr et ");
        std::fs::write(&p, "\n").unwrap();
        assert!(matches!(
            SecretSource::File(p).read(),
            Err(SecretError::Empty(_))
        ));
        assert!(matches!(
            SecretSource::File(dir.path().join("missing")).read(),
            Err(SecretError::File { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn password_file_readable_by_others_warned() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pw");
        std::fs::write(&p, "secret\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        let w = too_open(&p).expect("0644 is readable by others");
        assert!(w.contains("chmod o-rwx") && w.contains("644"), "{w}");
        for private in [0o600, 0o640, 0o400] {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(private)).unwrap();
            assert_eq!(too_open(&p), None, "mode {private:o}");
        }
        // Reading still works either way: a warning, not a refusal.
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o604)).unwrap();
        assert!(too_open(&p).is_some());
        assert_eq!(SecretSource::File(p).read().unwrap(), "secret");
    }

    #[test]
    fn env_secret() {
        // A variable name unique to this test: tests run in parallel threads.
        std::env::set_var("ARBITRE_TEST_SECRET_ENV_1", "pw\n");
        assert_eq!(
            read_secret(Some("ARBITRE_TEST_SECRET_ENV_1"), None).unwrap(),
            Some("pw".into())
        );
        assert_eq!(
            read_secret(Some("ARBITRE_TEST_SECRET_ENV_MISSING"), None),
            Err(SecretError::MissingEnv(
                "ARBITRE_TEST_SECRET_ENV_MISSING".into()
            ))
        );
        assert_eq!(read_secret(None, None).unwrap(), None);
    }
}
