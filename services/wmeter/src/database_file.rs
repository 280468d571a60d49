//! The embedded mode's SQLite file, and who is using it.
//!
//! Every `wmeter` command that opens that file holds a shared lock on
//! `<file>.lock` for as long as it runs. `wmeter restore` takes the lock
//! exclusively, so it never replaces a database that a server, a migration
//! or a seeder has open, and none of them opens one half restored.

use std::{
    fs::{File, OpenOptions, TryLockError},
    path::{Path, PathBuf},
    str::FromStr,
};

use anyhow::{Context, bail};
use sqlx::sqlite::SqliteConnectOptions;
use wm_storage::{Backend, DatabaseSettings};

/// The database file named by `settings`, when it is a SQLite file (not
/// PostgreSQL, not an in-memory database).
pub fn sqlite_path(settings: &DatabaseSettings) -> anyhow::Result<Option<PathBuf>> {
    if settings.backend()? != Backend::Sqlite {
        return Ok(None);
    }
    let location = settings.url.trim_start_matches("sqlite://").split('?').next().unwrap_or_default();
    if location == ":memory:" {
        return Ok(None);
    }
    let options = SqliteConnectOptions::from_str(&settings.url).context("database.url")?;
    Ok(Some(options.get_filename().to_path_buf()))
}

/// A lock on the database file, released when dropped (or when the process
/// ends, however it ends).
#[derive(Debug)]
pub struct InUse {
    _file: File,
}

/// Marks the configured SQLite file as in use by this process; nothing for
/// PostgreSQL. Fails while a restore is replacing the file.
pub fn share(settings: &DatabaseSettings) -> anyhow::Result<Option<InUse>> {
    let Some(path) = sqlite_path(settings)? else { return Ok(None) };
    let file = open_lock(&path)?;
    match file.try_lock_shared() {
        Ok(()) => Ok(Some(InUse { _file: file })),
        Err(TryLockError::WouldBlock) => {
            bail!("{}: a wmeter restore is replacing this database; try again once it has finished", path.display())
        }
        Err(TryLockError::Error(e)) => Err(e).with_context(|| format!("locking {}", lock_path(&path).display())),
    }
}

/// Takes the file for this process alone, or says who holds it.
pub fn exclusive(path: &Path) -> anyhow::Result<InUse> {
    let file = open_lock(path)?;
    match file.try_lock() {
        Ok(()) => Ok(InUse { _file: file }),
        Err(TryLockError::WouldBlock) => bail!(
            "{} is in use by a running wmeter (serve, migrate, seed, backup or another restore); stop it first: \
             a restore never replaces a live database",
            path.display()
        ),
        Err(TryLockError::Error(e)) => Err(e).with_context(|| format!("locking {}", lock_path(path).display())),
    }
}

fn open_lock(path: &Path) -> anyhow::Result<File> {
    let lock = lock_path(path);
    if let Some(dir) = lock.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("database.url: cannot create {}", dir.display()))?;
    }
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock)
        .with_context(|| format!("cannot open {}", lock.display()))
}

fn lock_path(path: &Path) -> PathBuf {
    with_suffix(path, ".lock")
}

/// `path` with `suffix` appended to its file name: SQLite's own companions
/// are named this way (`wm.db-wal`, `wm.db-shm`).
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite(dir: &Path) -> DatabaseSettings {
        DatabaseSettings::with_url(format!("sqlite://{}/wm.db", dir.display()))
    }

    #[test]
    fn users_share_the_file_and_a_restore_waits_for_the_last_of_them() {
        let dir = tempfile::tempdir().unwrap();
        let settings = sqlite(dir.path());
        let path = sqlite_path(&settings).unwrap().unwrap();
        let server = share(&settings).unwrap().unwrap();
        let migration = share(&settings).unwrap().unwrap();
        let refused = exclusive(&path).unwrap_err().to_string();
        assert!(refused.contains("in use by a running wmeter"), "{refused}");
        drop(server);
        assert!(exclusive(&path).is_err(), "one user is left");
        drop(migration);
        let restore = exclusive(&path).unwrap();
        let refused = share(&settings).unwrap_err().to_string();
        assert!(refused.contains("a wmeter restore is replacing this database"), "{refused}");
        drop(restore);
        assert!(share(&settings).unwrap().is_some());
    }

    #[test]
    fn postgres_and_memory_databases_have_no_file() {
        assert!(sqlite_path(&DatabaseSettings::with_url("postgres://u@h/db")).unwrap().is_none());
        assert!(share(&DatabaseSettings::with_url("sqlite://:memory:")).unwrap().is_none());
    }
}
