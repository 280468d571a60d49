//! The users table: who may sign in, with which role.

use chrono::DateTime;
use wm_storage::{Db, StorageError, Tx, execute, execute_write, with_pool, with_tx};

use crate::domain::{
    preferences::{Language, Preferences, Theme},
    user::User,
};

struct Row {
    id: String,
    username: String,
    role: String,
    disabled: bool,
    created_at: i64,
    token_version: i64,
    must_change_password: bool,
}
wm_storage::from_row!(Row { id, username, role, disabled, created_at, token_version, must_change_password });

impl TryFrom<Row> for User {
    type Error = StorageError;

    fn try_from(row: Row) -> Result<User, StorageError> {
        let corrupt = |field, value: String| StorageError::Corrupt { field, value };
        Ok(User {
            role: row.role.parse().map_err(|_| corrupt("role", row.role.clone()))?,
            created_at: DateTime::from_timestamp_micros(row.created_at)
                .ok_or_else(|| corrupt("created_at", row.created_at.to_string()))?,
            token_version: u64::try_from(row.token_version)
                .map_err(|_| corrupt("token_version", row.token_version.to_string()))?,
            id: row.id,
            username: row.username,
            disabled: row.disabled,
            must_change_password: row.must_change_password,
        })
    }
}

const COLUMNS: &str = "id, username, role, disabled, created_at, token_version, must_change_password";

/// Stores `user` with its password hash. Usernames are unique whatever
/// their case, by a unique index: of two concurrent inserts of one name,
/// the second gets [`StorageError::Taken`].
pub async fn insert(db: &Db, user: &User, password_hash: &str) -> Result<(), StorageError> {
    let sql = "INSERT INTO users (id, username, password_hash, role, disabled, created_at, must_change_password) \
               VALUES ($1, $2, $3, $4, $5, $6, $7)";
    let created_at = user.created_at.timestamp_micros();
    let role = user.role.as_str();
    execute_write!(
        db,
        sql,
        &user.id,
        &user.username,
        password_hash,
        role,
        user.disabled,
        created_at,
        user.must_change_password
    )
    .await
    .map(|_| ())
    .map_err(|e| e.taken_as("username", &user.username))
}

/// Every user, by username.
pub async fn list(db: &Db) -> Result<Vec<User>, StorageError> {
    search(db, "").await
}

/// The users whose name holds `text` (any case; every user for ""), by
/// username.
pub async fn search(db: &Db, text: &str) -> Result<Vec<User>, StorageError> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE lower(username) LIKE $1 ESCAPE '\\' ORDER BY lower(username)");
    let pattern = format!("%{}%", wm_storage::query::like_literal(&text.to_lowercase()));
    let rows: Vec<Row> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(pattern).fetch_all(pool).await)?;
    rows.into_iter().map(User::try_from).collect()
}

/// The user named `username` (any case) and their password hash, for a
/// sign-in.
pub async fn find_for_login(db: &Db, username: &str) -> Result<Option<(User, String)>, StorageError> {
    struct WithHash {
        row: Row,
        password_hash: String,
    }
    wm_storage::from_row!(WithHash { ..row, password_hash });
    let sql = format!("SELECT {COLUMNS}, password_hash FROM users WHERE lower(username) = lower($1)");
    let found: Option<WithHash> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(username).fetch_optional(pool).await)?;
    found.map(|f| Ok((User::try_from(f.row)?, f.password_hash))).transpose()
}

/// The user with this id.
pub async fn find(db: &Db, id: &str) -> Result<Option<User>, StorageError> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE id = $1");
    let row: Option<Row> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(pool).await)?;
    row.map(User::try_from).transpose()
}

/// How many enabled admins there are, their rows locked until `tx` ends
/// (PostgreSQL; SQLite's writer lock holds the file): of two admins
/// demoting each other at once, the second sees one admin left.
pub async fn enabled_admins(tx: &mut Tx) -> Result<usize, StorageError> {
    let sql = format!("SELECT id FROM users WHERE role = 'admin' AND NOT disabled{}", tx.lock_rows());
    let ids: Vec<(String,)> =
        with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(&mut **conn).await)?;
    Ok(ids.len())
}

/// The user with this id, locked until `tx` ends.
pub async fn find_in(tx: &mut Tx, id: &str) -> Result<Option<User>, StorageError> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE id = $1{}", tx.lock_rows());
    let row: Option<Row> =
        with_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(&mut **conn).await)?;
    row.map(User::try_from).transpose()
}

/// Stores `user`'s role, state, version and password flag, and the new
/// password's hash if one is given.
pub async fn save(tx: &mut Tx, user: &User, password_hash: Option<&str>) -> Result<(), StorageError> {
    let version = i64::try_from(user.token_version).unwrap_or(i64::MAX);
    execute!(
        tx,
        "UPDATE users SET role = $1, disabled = $2, token_version = $3, must_change_password = $4, \
         password_hash = COALESCE($5, password_hash) WHERE id = $6",
        user.role.as_str(),
        user.disabled,
        version,
        user.must_change_password,
        password_hash,
        &user.id
    )?;
    Ok(())
}

/// The dashboard preferences of the user `id` (the defaults for a user
/// that does not exist).
pub async fn preferences(db: &Db, id: &str) -> Result<Preferences, StorageError> {
    let sql = "SELECT language, theme FROM users WHERE id = $1";
    let row: Option<(Option<String>, String)> =
        with_pool!(db, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)?;
    let Some((language, theme)) = row else { return Ok(Preferences::default()) };
    let corrupt = |field, value: String| StorageError::Corrupt { field, value };
    Ok(Preferences {
        language: language.map(|l| Language::parse(&l).ok_or_else(|| corrupt("language", l.clone()))).transpose()?,
        theme: Theme::parse(&theme).ok_or_else(|| corrupt("theme", theme.clone()))?,
    })
}

/// Stores the user `id`'s dashboard preferences.
pub async fn set_preferences(db: &Db, id: &str, preferences: Preferences) -> Result<(), StorageError> {
    let sql = "UPDATE users SET language = $1, theme = $2 WHERE id = $3";
    let language = preferences.language.map(Language::as_str);
    execute_write!(db, sql, language, preferences.theme.as_str(), id).await?;
    Ok(())
}
