//! The inbound Maildir: the default, dependency-free way mail reaches arbitre
//! (Postfix, Dovecot's LDA, fetchmail or getmail all deliver into one).
//!
//! Protocol (<https://cr.yp.to/proto/maildir.html>): a delivery writes into
//! `tmp/` and renames into `new/`; the reader moves a message to `cur/` with
//! the `:2,S` (seen) info suffix. arbitre moves a message only *after* its
//! journal has recorded it, so a crash between reading and moving re-reads the
//! message, and the journal (keyed by the SHA-256 of the bytes) drops the
//! duplicate: never lost, never processed twice.
//!
//! Directories are fsynced after renames so a power cut cannot resurrect a
//! message in `new/` that the journal already marked done, nor lose one.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::MailError;

/// A Maildir rooted at a directory holding `new/`, `cur/` and `tmp/`.
#[derive(Debug, Clone)]
pub struct Maildir {
    root: PathBuf,
}

/// One message waiting in `new/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaildirEntry {
    /// File name inside `new/` (no directory).
    pub name: String,
    /// Full path of the file in `new/` at listing time.
    pub path: PathBuf,
}

/// Disambiguates deliveries from one process within the same nanosecond.
static DELIVERY_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Maildir {
    /// Opens the Maildir at `root`, creating `new/`, `cur/` and `tmp/` if missing.
    pub fn open(root: impl AsRef<Path>) -> Result<Maildir, MailError> {
        let root = root.as_ref().to_path_buf();
        for sub in ["new", "cur", "tmp"] {
            fs::create_dir_all(root.join(sub))?;
        }
        Ok(Maildir { root })
    }

    /// The directory this Maildir lives in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Messages in `new/`, sorted by file name (delivery order for names made
    /// by [`Maildir::deliver`] and by most MDAs, whose names start with a
    /// timestamp). Dot files and subdirectories are skipped.
    pub fn pending(&self) -> Result<Vec<MaildirEntry>, MailError> {
        let mut entries = Vec::new();
        for item in fs::read_dir(self.root.join("new"))? {
            let item = item?;
            let Some(name) = item.file_name().to_str().map(str::to_owned) else {
                // Non-UTF-8 names cannot be produced by sane MDAs; leave them.
                tracing::warn!(path = ?item.path(), "skipping non-UTF-8 Maildir file name");
                continue;
            };
            if name.starts_with('.') || !item.file_type()?.is_file() {
                continue;
            }
            entries.push(MaildirEntry {
                path: item.path(),
                name,
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    /// Reads a pending message, refusing it if bigger than `max_size`. The size
    /// is checked from the metadata before reading, and the read itself is
    /// bounded too in case the file grows meanwhile.
    pub fn read(&self, e: &MaildirEntry, max_size: usize) -> Result<Vec<u8>, MailError> {
        let path = self.root.join("new").join(&e.name);
        let file = File::open(&path)?;
        let len = file.metadata()?.len();
        let size = usize::try_from(len).unwrap_or(usize::MAX);
        if size > max_size {
            return Err(MailError::TooLarge {
                size,
                limit: max_size,
            });
        }
        let mut bytes = Vec::with_capacity(size);
        file.take(max_size as u64 + 1).read_to_end(&mut bytes)?;
        if bytes.len() > max_size {
            return Err(MailError::TooLarge {
                size: bytes.len(),
                limit: max_size,
            });
        }
        Ok(bytes)
    }

    /// Moves `new/X` to `cur/X:2,S` and fsyncs both directories. Calling it
    /// again after success (or after a crash that happened after the rename)
    /// is a no-op.
    pub fn mark_done(&self, e: &MaildirEntry) -> Result<(), MailError> {
        let from = self.root.join("new").join(&e.name);
        let to = self.root.join("cur").join(format!("{}:2,S", e.name));
        match fs::rename(&from, &to) {
            Ok(()) => {}
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                if self.already_in_cur(&e.name)? {
                    return Ok(());
                }
                return Err(MailError::Io(err));
            }
            Err(err) => return Err(MailError::Io(err)),
        }
        sync_dir(&self.root.join("cur"))?;
        sync_dir(&self.root.join("new"))?;
        Ok(())
    }

    /// Delivers `bytes` as a new message: written to `tmp/`, fsynced, renamed
    /// into `new/`. Names are `<seconds>.<nanoseconds>_<counter>.P<pid>.arbitre`
    /// with fixed-width numbers, so sorting names sorts by delivery order.
    pub fn deliver(&self, bytes: &[u8]) -> Result<MaildirEntry, MailError> {
        loop {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            let n = DELIVERY_COUNTER.fetch_add(1, Ordering::Relaxed);
            let name = format!(
                "{:012}.{:09}_{:08}.P{}.arbitre",
                now.as_secs(),
                now.subsec_nanos(),
                n,
                std::process::id()
            );
            let tmp = self.root.join("tmp").join(&name);
            let mut file = match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => f,
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(err) => return Err(MailError::Io(err)),
            };
            let dest = self.root.join("new").join(&name);
            if dest.exists() {
                drop(file);
                let _ = fs::remove_file(&tmp);
                continue;
            }
            let written = file.write_all(bytes).and_then(|()| file.sync_all());
            if let Err(err) = written {
                let _ = fs::remove_file(&tmp);
                return Err(MailError::Io(err));
            }
            drop(file);
            fs::rename(&tmp, &dest)?;
            sync_dir(&self.root.join("new"))?;
            return Ok(MaildirEntry { name, path: dest });
        }
    }

    /// Whether `cur/` holds `name` with any info suffix (another reader, e.g.
    /// a mail client, may have set other flags than `S`).
    fn already_in_cur(&self, name: &str) -> Result<bool, MailError> {
        let prefix = format!("{name}:");
        for item in fs::read_dir(self.root.join("cur"))? {
            let item = item?;
            if let Some(n) = item.file_name().to_str() {
                if n == name || n.starts_with(&prefix) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// Flushes a directory's entries (the renames) to disk.
fn sync_dir(dir: &Path) -> Result<(), MailError> {
    File::open(dir)?.sync_all()?;
    Ok(())
}
