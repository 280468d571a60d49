//! What a user does to their own notifications: dismiss one device's, or
//! clear them all. Each is applied and recorded on the log in one
//! transaction.

use wm_proto::{
    Envelope, Payload,
    v1::{NotificationDismissed, NotificationsCleared},
};
use wm_storage::StorageError;

use crate::{
    rules,
    state::{NotificationState, stage},
};

/// Removes `user_id`'s notifications about the device `device_name`.
pub async fn dismiss(state: &NotificationState, user_id: &str, device_name: String) -> Result<(), StorageError> {
    let dismissed = NotificationDismissed { user_id: user_id.to_owned(), device_name };
    change(state, user_id, Payload::NotificationDismissed(dismissed)).await
}

/// Removes all of `user_id`'s notifications.
pub async fn clear(state: &NotificationState, user_id: &str) -> Result<(), StorageError> {
    let cleared = NotificationsCleared { user_id: user_id.to_owned() };
    change(state, user_id, Payload::NotificationsCleared(cleared)).await
}

/// Applies a dismissal or clearing and records it, in one transaction.
async fn change(state: &NotificationState, user_id: &str, payload: Payload) -> Result<(), StorageError> {
    let envelope = Envelope::new(user_id, user_id, payload).with_occurred_at(state.clock.now());
    let mut tx = state.db.begin_write().await?;
    rules::persist(&mut tx, &envelope).await?;
    stage(&state.relay, &mut tx, std::slice::from_ref(&envelope)).await?;
    tx.commit().await?;
    state.relay.wake();
    Ok(())
}
