//! `wmeter backup <file>`: a consistent copy of the embedded mode, taken
//! while it serves and ingests.
//!
//! The copy is one SQLite file. `VACUUM INTO` writes the whole database as
//! one read transaction saw it: the event log, every projection, the users,
//! the API keys and the gateway credentials, all at one instant. The files
//! the embedded mode generated for itself (the access-token key and the
//! device CA) go into a table of the copy, `wmeter_backup_files`, so that a
//! restore gives back a server whose sessions and gateway certificates
//! still hold.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use chrono::{SecondsFormat, Utc};
use sqlx::{
    ConnectOptions, Connection, SqliteConnection,
    sqlite::{SqliteConnectOptions, SqliteJournalMode},
};

use crate::{config::Settings, database_file, output::say};

/// The backup's own two tables, which a restore reads and then drops.
const CREATE_TABLES: &str = "CREATE TABLE wmeter_backup (taken_at TEXT NOT NULL, version TEXT NOT NULL);
    CREATE TABLE wmeter_backup_files (key TEXT PRIMARY KEY, content BLOB NOT NULL);";

/// The files the embedded mode generates and a restore brings back, by the
/// configuration key that places them.
pub(super) fn key_files(settings: &Settings) -> Vec<(&'static str, PathBuf)> {
    let mut files = Vec::new();
    if settings.auth.jwt_key.is_none() {
        files.push(("auth.key_file", settings.auth.key_file.clone()));
    }
    files.push(("devices.ca_cert_file", settings.devices.ca_cert_file.clone()));
    files.push(("devices.ca_key_file", settings.devices.ca_key_file.clone()));
    files
}

pub async fn run(settings: Settings, file: &Path) -> anyhow::Result<()> {
    let Some(database) = database_file::sqlite_path(&settings.database)? else {
        bail!(
            "wmeter backup copies the embedded mode's SQLite database; database.url names PostgreSQL, which is \
             backed up with a base backup and its WAL archive (docs/operations.md, \"Backup and restore\")"
        );
    };
    if !database.exists() {
        bail!("database.url: {} does not exist; there is nothing to back up", database.display());
    }
    if file.exists() {
        bail!("{} already exists; a backup never overwrites a file, so name a new one", file.display());
    }
    let _in_use = database_file::share(&settings.database)?;
    let partial = database_file::with_suffix(file, ".partial");
    remove_if_present(&partial)?;
    let taken_at = Utc::now().to_rfc3339_opts(SecondsFormat::Micros, true);
    let result = write(&settings, &database, &partial, &taken_at).await;
    if let Err(e) = result {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    publish(&partial, file)?;
    let bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    say(format_args!("backed up {} to {} ({bytes} bytes, as of {taken_at})", database.display(), file.display(),));
    Ok(())
}

/// The snapshot into `partial`, then the key files and when it was taken.
async fn write(settings: &Settings, database: &Path, partial: &Path, taken_at: &str) -> anyhow::Result<()> {
    let mut source = open(database, SqliteJournalMode::Wal).await?;
    let target = partial.to_str().context("the backup's path is not valid UTF-8")?;
    sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(&mut source)
        .await
        .with_context(|| format!("copying {} into {}", database.display(), partial.display()))?;
    source.close().await?;

    // One file, nothing beside it: no write-ahead log to carry along.
    let mut copy = open(partial, SqliteJournalMode::Delete).await?;
    let mut tx = copy.begin().await?;
    sqlx::raw_sql(CREATE_TABLES).execute(&mut *tx).await?;
    sqlx::query("INSERT INTO wmeter_backup (taken_at, version) VALUES (?, ?)")
        .bind(taken_at)
        .bind(env!("CARGO_PKG_VERSION"))
        .execute(&mut *tx)
        .await?;
    for (key, path) in key_files(settings) {
        let content = match std::fs::read(&path) {
            Ok(content) => content,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("{key}: cannot read {}", path.display())),
        };
        sqlx::query("INSERT INTO wmeter_backup_files (key, content) VALUES (?, ?)")
            .bind(key)
            .bind(content)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    copy.close().await?;
    Ok(())
}

/// One connection to a SQLite file that must exist, in `journal` mode.
pub(super) async fn open(path: &Path, journal: SqliteJournalMode) -> anyhow::Result<SqliteConnection> {
    SqliteConnectOptions::new()
        .filename(path)
        .journal_mode(journal)
        .busy_timeout(std::time::Duration::from_secs(30))
        .connect()
        .await
        .with_context(|| format!("opening {}", path.display()))
}

/// `partial` becomes `file` once it is on disk, so a crash leaves either no
/// backup or a whole one.
pub(super) fn publish(partial: &Path, file: &Path) -> anyhow::Result<()> {
    crate::files::put_in_place(partial, file)
        .with_context(|| format!("putting {} in place as {}", partial.display(), file.display()))
}

pub(super) fn remove_if_present(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("removing {}", path.display())),
    }
}
