//! Users: who may sign in, with which role.

use chrono::{DateTime, Utc};
use wm_domain::DeviceId;
use wm_http::auth::Role;
use wm_storage::{Db, with_pool};

use crate::password::{self, PasswordError};

/// The longest username accepted.
pub const MAX_USERNAME_CHARS: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub username: String,
    pub role: Role,
    pub disabled: bool,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, thiserror::Error)]
pub enum UserError {
    #[error("the username must be 1 to {MAX_USERNAME_CHARS} characters, without control characters")]
    InvalidUsername,
    #[error("the username '{0}' is taken")]
    Taken(String),
    #[error("no user is named '{0}'")]
    NotFound(String),
    #[error(transparent)]
    Password(#[from] PasswordError),
    #[error("a stored user is corrupt: {0}")]
    Corrupt(String),
    #[error("user storage failed")]
    Database(#[from] sqlx::Error),
    #[error("password hashing was interrupted")]
    Interrupted(#[from] tokio::task::JoinError),
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    username: String,
    role: String,
    disabled: bool,
    created_at: i64,
}

impl TryFrom<Row> for User {
    type Error = UserError;

    fn try_from(row: Row) -> Result<User, UserError> {
        Ok(User {
            role: row.role.parse().map_err(UserError::Corrupt)?,
            created_at: DateTime::from_timestamp_micros(row.created_at)
                .ok_or_else(|| UserError::Corrupt(format!("created_at {}", row.created_at)))?,
            id: row.id,
            username: row.username,
            disabled: row.disabled,
        })
    }
}

const COLUMNS: &str = "id, username, role, disabled, created_at";

/// The username as stored: trimmed (the spec trims it at sign-in too).
pub fn normalize_username(username: &str) -> Result<&str, UserError> {
    let username = username.trim();
    let chars = username.chars().count();
    if chars == 0 || chars > MAX_USERNAME_CHARS || username.chars().any(char::is_control) {
        return Err(UserError::InvalidUsername);
    }
    Ok(username)
}

/// Creates a user. Usernames are unique regardless of case, enforced by the
/// database so that two concurrent creations cannot both succeed.
pub async fn create(db: &Db, username: &str, password: &str, role: Role) -> Result<User, UserError> {
    let username = normalize_username(username)?.to_owned();
    let password = password.to_owned();
    let hash = tokio::task::spawn_blocking(move || password::hash(&password)).await??;
    let user = User {
        id: DeviceId::new().to_string(),
        username,
        role,
        disabled: false,
        created_at: DateTime::from_timestamp_micros(Utc::now().timestamp_micros()).unwrap_or_default(),
    };
    let sql =
        "INSERT INTO users (id, username, password_hash, role, disabled, created_at) VALUES ($1, $2, $3, $4, $5, $6)";
    let inserted = with_pool!(db, pool => sqlx::query(sql)
        .bind(&user.id)
        .bind(&user.username)
        .bind(&hash)
        .bind(user.role.as_str())
        .bind(user.disabled)
        .bind(user.created_at.timestamp_micros())
        .execute(pool)
        .await
        .map(|_| ()));
    match inserted {
        Ok(()) => Ok(user),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(UserError::Taken(user.username)),
        Err(e) => Err(e.into()),
    }
}

/// Every user, by username.
pub async fn list(db: &Db) -> Result<Vec<User>, UserError> {
    let sql = format!("SELECT {COLUMNS} FROM users ORDER BY lower(username)");
    let rows: Vec<Row> = with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await)?;
    rows.into_iter().map(User::try_from).collect()
}

/// Marks a user disabled: they can no longer sign in.
pub async fn disable(db: &Db, username: &str) -> Result<User, UserError> {
    let username = normalize_username(username)?;
    let sql = format!("UPDATE users SET disabled = TRUE WHERE lower(username) = lower($1) RETURNING {COLUMNS}");
    let row: Option<Row> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(username).fetch_optional(pool).await)?;
    row.ok_or_else(|| UserError::NotFound(username.to_owned()))?.try_into()
}

/// The user named `username` (any case) and their password hash, for a
/// sign-in.
pub async fn find_for_login(db: &Db, username: &str) -> Result<Option<(User, String)>, UserError> {
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
pub async fn find(db: &Db, id: &str) -> Result<Option<User>, UserError> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE id = $1");
    let row: Option<Row> =
        with_pool!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(pool).await)?;
    row.map(User::try_from).transpose()
}
