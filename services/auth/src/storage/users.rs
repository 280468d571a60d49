//! The users table: who may sign in, with which role.

use chrono::DateTime;
use wm_storage::{Db, StorageError, with_pool};

use crate::domain::user::User;

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    username: String,
    role: String,
    disabled: bool,
    created_at: i64,
}

impl TryFrom<Row> for User {
    type Error = StorageError;

    fn try_from(row: Row) -> Result<User, StorageError> {
        let corrupt = |field, value: String| StorageError::Corrupt { field, value };
        Ok(User {
            role: row.role.parse().map_err(|_| corrupt("role", row.role.clone()))?,
            created_at: DateTime::from_timestamp_micros(row.created_at)
                .ok_or_else(|| corrupt("created_at", row.created_at.to_string()))?,
            id: row.id,
            username: row.username,
            disabled: row.disabled,
        })
    }
}

const COLUMNS: &str = "id, username, role, disabled, created_at";

/// Stores `user` with its password hash. Usernames are unique whatever
/// their case, by a unique index: of two concurrent inserts of one name,
/// the second gets [`StorageError::Taken`].
pub async fn insert(db: &Db, user: &User, password_hash: &str) -> Result<(), StorageError> {
    let sql =
        "INSERT INTO users (id, username, password_hash, role, disabled, created_at) VALUES ($1, $2, $3, $4, $5, $6)";
    with_pool!(db, pool => sqlx::query(sql)
        .bind(&user.id)
        .bind(&user.username)
        .bind(password_hash)
        .bind(user.role.as_str())
        .bind(user.disabled)
        .bind(user.created_at.timestamp_micros())
        .execute(pool)
        .await
        .map(|_| ()))
    .map_err(|e| StorageError::from(e).taken_as("username", &user.username))
}

/// Every user, by username.
pub async fn list(db: &Db) -> Result<Vec<User>, StorageError> {
    let sql = format!("SELECT {COLUMNS} FROM users ORDER BY lower(username)");
    let rows: Vec<Row> = with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await)?;
    rows.into_iter().map(User::try_from).collect()
}

/// Marks the user `username` (any case) disabled and returns them; `None`
/// when nobody has that name.
pub async fn disable(db: &Db, username: &str) -> Result<Option<User>, StorageError> {
    let sql = format!("UPDATE users SET disabled = TRUE WHERE lower(username) = lower($1) RETURNING {COLUMNS}");
    let row: Option<Row> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(username).fetch_optional(pool).await)?;
    row.map(User::try_from).transpose()
}

/// The user named `username` (any case) and their password hash, for a
/// sign-in.
pub async fn find_for_login(db: &Db, username: &str) -> Result<Option<(User, String)>, StorageError> {
    #[derive(sqlx::FromRow)]
    struct WithHash {
        #[sqlx(flatten)]
        row: Row,
        password_hash: String,
    }
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
