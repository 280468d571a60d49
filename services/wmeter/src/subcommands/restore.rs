//! `wmeter restore <file>`: makes a backup the embedded mode's database.
//!
//! Nothing is changed until the backup has been read and checked, and
//! nothing is deleted: with `--replace`, the database and key files found in
//! place are kept aside as `<name>.before-restore-<time>`.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use chrono::Utc;
use sqlx::{Connection, Row, SqliteConnection, sqlite::SqliteJournalMode};

use super::backup::{key_files, open, publish, remove_if_present};
use crate::{config::Settings, database_file, output::say};

/// SQLite's companions of a database file, which move with it.
const COMPANIONS: [&str; 3] = ["", "-wal", "-shm"];

/// What a backup holds besides the database.
struct Backup {
    taken_at: String,
    version: String,
    files: Vec<(String, Vec<u8>)>,
}

pub async fn run(settings: Settings, file: &Path, replace: bool) -> anyhow::Result<()> {
    let Some(database) = database_file::sqlite_path(&settings.database)? else {
        bail!(
            "wmeter restore restores the embedded mode's SQLite database; database.url names PostgreSQL, which is \
             restored from a base backup and its WAL archive (docs/operations.md, \"Backup and restore\")"
        );
    };
    if !file.is_file() {
        bail!("{} is not a file", file.display());
    }
    let _restoring = database_file::exclusive(&database)?;
    let staging = database_file::with_suffix(&database, ".restoring");
    remove_if_present(&staging)?;
    std::fs::copy(file, &staging).with_context(|| format!("copying {} to {}", file.display(), staging.display()))?;
    let staged = stage(file, &staging).await;
    let backup = match staged {
        Ok(backup) => backup,
        Err(e) => {
            let _ = std::fs::remove_file(&staging);
            return Err(e);
        }
    };
    let keys = place_files(&settings, &backup);
    let in_the_way = in_the_way(&database, &keys);
    if !in_the_way.is_empty() && !replace {
        let _ = std::fs::remove_file(&staging);
        let names: Vec<String> = in_the_way.iter().map(|p| p.display().to_string()).collect();
        bail!(
            "restoring would replace {}; pass --replace to keep what is there aside as \
             <name>.before-restore-<time> and restore over it",
            names.join(", ")
        );
    }

    let aside = format!(".before-restore-{}", Utc::now().format("%Y%m%dT%H%M%SZ"));
    for suffix in COMPANIONS {
        let path = database_file::with_suffix(&database, suffix);
        if path.exists() {
            let kept = database_file::with_suffix(&database_file::with_suffix(&database, &aside), suffix);
            std::fs::rename(&path, &kept).with_context(|| format!("keeping {} aside", path.display()))?;
        }
    }
    publish(&staging, &database)?;
    for (path, content, mode) in &keys {
        if std::fs::read(path).is_ok_and(|current| current == *content) {
            continue;
        }
        if path.exists() {
            std::fs::rename(path, database_file::with_suffix(path, &aside))
                .with_context(|| format!("keeping {} aside", path.display()))?;
        }
        write_file(path, content, *mode)?;
    }
    say(format_args!(
        "restored {} (taken at {} by wmeter {}) into {}",
        file.display(),
        backup.taken_at,
        backup.version,
        database.display()
    ));
    if !in_the_way.is_empty() {
        say(format_args!("kept what was there as <name>{aside}"));
    }
    Ok(())
}

/// Checks the copy at `staging` and takes the backup's own tables out of it.
async fn stage(file: &Path, staging: &Path) -> anyhow::Result<Backup> {
    let not_a_backup = || format!("{} is not a wmeter backup", file.display());
    let mut conn = open(staging, SqliteJournalMode::Delete).await.with_context(not_a_backup)?;
    let backup = read(&mut conn).await.with_context(not_a_backup)?;
    let check: String = sqlx::query_scalar("PRAGMA quick_check").fetch_one(&mut conn).await?;
    if check != "ok" {
        bail!("{} is damaged: {check}", file.display());
    }
    sqlx::raw_sql("DROP TABLE wmeter_backup_files; DROP TABLE wmeter_backup").execute(&mut conn).await?;
    conn.close().await?;
    Ok(backup)
}

async fn read(conn: &mut SqliteConnection) -> anyhow::Result<Backup> {
    let about = sqlx::query("SELECT taken_at, version FROM wmeter_backup").fetch_one(&mut *conn).await?;
    let files = sqlx::query("SELECT key, content FROM wmeter_backup_files ORDER BY key")
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    Ok(Backup { taken_at: about.get(0), version: about.get(1), files })
}

/// Where each of the backup's files goes under this configuration, and its
/// mode. A file the configuration does not place (`auth.key_file` when
/// `auth.jwt_key` is set) stays out.
fn place_files(settings: &Settings, backup: &Backup) -> Vec<(PathBuf, Vec<u8>, u32)> {
    let placed = key_files(settings);
    backup
        .files
        .iter()
        .filter_map(|(key, content)| {
            let (_, path) = placed.iter().find(|(k, _)| k == key)?;
            let mode = if key.ends_with("cert_file") { 0o644 } else { 0o600 };
            Some((path.clone(), content.clone(), mode))
        })
        .collect()
}

/// The files a restore would replace: the database and its companions, and
/// any key file whose content differs from the backup's.
fn in_the_way(database: &Path, keys: &[(PathBuf, Vec<u8>, u32)]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> =
        COMPANIONS.iter().map(|s| database_file::with_suffix(database, s)).filter(|p| p.exists()).collect();
    for (path, content, _) in keys {
        if std::fs::read(path).is_ok_and(|current| current != *content) {
            found.push(path.clone());
        }
    }
    found
}

fn write_file(path: &Path, content: &[u8], mode: u32) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = path.file_name().and_then(|n| n.to_str()).context("a key file's name is not valid UTF-8")?;
    crate::files::replace(dir, name, content, mode).with_context(|| format!("writing {}", path.display()))
}
