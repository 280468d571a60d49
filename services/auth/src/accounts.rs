//! Account operations that span tables.

use chrono::Utc;
use wm_storage::Db;

use crate::storage::{
    sessions::{self, SessionError},
    users::{self, User, UserError},
};

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error(transparent)]
    User(#[from] UserError),
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// Disables a user and revokes every session they have, so a stolen or
/// open session cannot outlive the decision. Returns the user and how many
/// live refresh tokens were revoked.
pub async fn disable(db: &Db, username: &str) -> Result<(User, u64), AccountError> {
    let user = users::disable(db, username).await?;
    let revoked = sessions::end_all(db, &user.id, Utc::now()).await?;
    Ok((user, revoked))
}
