//! `arbitre backup <file>` (issue 14 item 8): a consistent copy of the
//! database while the daemon runs.
//!
//! The copy itself is the store's (`Store::backup_to`, SQLite's online
//! backup API in one step: the database as of one instant, the daemon
//! never blocked). Here it is made crash-safe like every other file
//! arbitre writes: copied into a hidden temporary file next to the
//! destination, checked, fsynced, then renamed over the destination and
//! the folder fsynced. A kill at any instant leaves either the previous
//! backup or the new one under the final name, never half a file; the
//! leftover temporary file of a killed backup is removed by the next one.
//! The database itself is only read.
//!
//! Restoring is a copy of that file back to `database` while the daemon
//! is stopped (docs/operations.md): the journal in the copy recognises
//! every mail handled before the backup, so mails still in the inbox are
//! not answered twice.

use crate::error::{DaemonError, Result};
use crate::failpoint;
use crate::i18n::tr;
use arbitre_core::Lang;
use arbitre_store::Store;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a backup wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupDone {
    pub path: PathBuf,
    pub bytes: u64,
}

/// The failpoint between the checked copy and its rename (crash tests).
pub const BEFORE_RENAME: &str = "backup-before-rename";

/// A temporary file of a killed backup is this old at least before the
/// next backup removes it (a backup of a large database takes seconds, a
/// concurrent one to the same file must not lose its file).
const STALE_TMP: Duration = Duration::from_secs(10 * 60);

fn io(lang: Lang, path: &Path) -> impl Fn(std::io::Error) -> DaemonError + '_ {
    move |error| {
        let path = path.display();
        DaemonError::Invalid(tr(lang, "err-backup-io", &crate::fl_args![path, error]))
    }
}

/// Backs `store` up into `dest`; a refusal is said in `lang` (the CLI's).
pub fn backup(store: &Store, dest: &Path, lang: Lang) -> Result<BackupDone> {
    let path = dest.display();
    let name = dest.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
        DaemonError::Invalid(tr(lang, "err-backup-not-a-file", &crate::fl_args![path]))
    })?;
    if let Some(db) = store.path() {
        let same = |a: &Path, b: &Path| {
            a.canonicalize()
                .ok()
                .zip(b.canonicalize().ok())
                .is_some_and(|(a, b)| a == b)
        };
        if same(db, dest) {
            let args = crate::fl_args![path];
            return Err(DaemonError::Invalid(tr(
                lang,
                "err-backup-is-database",
                &args,
            )));
        }
    }
    let dir = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(io(lang, &dir))?;
    remove_stale_tmp(&dir, name);
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let written = store.backup_to(&tmp).and_then(|()| {
        failpoint::hit(BEFORE_RENAME);
        let sync = |p: &Path| std::fs::File::open(p).and_then(|f| f.sync_all());
        sync(&tmp)
            .and_then(|()| std::fs::rename(&tmp, dest))
            .and_then(|()| sync(&dir))
            .map_err(|e| arbitre_store::StoreError::Io(dest.display().to_string(), e))
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.into());
    }
    let bytes = std::fs::metadata(dest).map_err(io(lang, dest))?.len();
    tracing::info!(path = %dest.display(), bytes, "backup written");
    Ok(BackupDone {
        path: dest.to_path_buf(),
        bytes,
    })
}

fn remove_stale_tmp(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for e in entries.flatten() {
        let n = e.file_name();
        let Some(n) = n.to_str() else { continue };
        if !(n.starts_with(&prefix) && n.ends_with(".tmp")) {
            continue;
        }
        let stale = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STALE_TMP);
        if stale && std::fs::remove_file(e.path()).is_ok() {
            tracing::info!(file = n, "removed the leftover of a killed backup");
        }
    }
}
