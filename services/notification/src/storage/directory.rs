//! Users, device names and gateway sightings, as the notification service
//! knows them from other services' events.

use std::collections::{HashMap, HashSet};

use wm_proto::Payload;
use wm_storage::{
    StorageError, Tx,
    bulk::{self, Rows},
    execute,
    query::Bind,
    with_tx,
};

/// Users who may act on a notification: active admins and operators.
pub async fn recipients(tx: &mut Tx) -> Result<Vec<String>, StorageError> {
    let sql = "SELECT user_id FROM notification_users WHERE active = TRUE AND role IN ('admin', 'operator') \
               ORDER BY user_id";
    Ok(with_tx!(tx, conn => sqlx::query_scalar(sql).fetch_all(&mut **conn).await)?)
}

/// A device's display name, or its id when unknown.
pub async fn device_name(tx: &mut Tx, device_id: &str) -> Result<String, StorageError> {
    let sql = "SELECT device_name FROM notification_devices WHERE device_id = $1";
    let name: Option<String> =
        with_tx!(tx, conn => sqlx::query_scalar(sql).bind(device_id).fetch_optional(&mut **conn).await)?;
    Ok(name.unwrap_or_else(|| device_id.to_owned()))
}

/// Applies an auth or registry event.
pub async fn apply(tx: &mut Tx, event: &Payload) -> Result<(), StorageError> {
    match event {
        Payload::UserCreated(u) => {
            let sql = "INSERT INTO notification_users (user_id, role, active) VALUES ($1, $2, TRUE) \
                       ON CONFLICT (user_id) DO UPDATE SET role = excluded.role";
            execute!(tx, sql, &u.user_id, u.role().word())?;
        }
        Payload::UserRoleChanged(u) => {
            execute!(tx, "UPDATE notification_users SET role = $1 WHERE user_id = $2", u.role().word(), &u.user_id)?;
        }
        Payload::UserDisabled(u) => {
            execute!(tx, "UPDATE notification_users SET active = FALSE WHERE user_id = $1", &u.user_id)?;
        }
        Payload::GatewayRegistered(g) => name(tx, &g.id, &g.device_name).await?,
        Payload::MeterRegistered(m) => name(tx, &m.id, &m.device_name).await?,
        Payload::GatewayDeleted(g) => forget(tx, &g.id).await?,
        Payload::MeterDeleted(m) => forget(tx, &m.id).await?,
        _ => {}
    }
    Ok(())
}

/// Loads the names of newly registered devices in a few statements
/// (`COPY` on PostgreSQL): `wmeter seed`.
pub async fn load(tx: &mut Tx, events: &[Payload]) -> Result<(), StorageError> {
    let mut names = Rows::new(2);
    for event in events {
        match event {
            Payload::GatewayRegistered(g) => names.push([(&g.id).into(), (&g.device_name).into()]),
            Payload::MeterRegistered(m) => names.push([(&m.id).into(), (&m.device_name).into()]),
            _ => {}
        }
    }
    bulk::copy(tx, "notification_devices", &["device_id", "device_name"], names).await?;
    Ok(())
}

async fn name(tx: &mut Tx, id: &str, device_name: &str) -> Result<(), StorageError> {
    let sql = "INSERT INTO notification_devices (device_id, device_name) VALUES ($1, $2) \
               ON CONFLICT (device_id) DO UPDATE SET device_name = excluded.device_name";
    execute!(tx, sql, id, device_name)?;
    Ok(())
}

async fn forget(tx: &mut Tx, id: &str) -> Result<(), StorageError> {
    execute!(tx, "DELETE FROM notification_devices WHERE device_id = $1", id)?;
    execute!(tx, "DELETE FROM notification_gateways WHERE gateway_id = $1", id)?;
    Ok(())
}

/// The gateways were heard, each at its latest `at` (µs), in two
/// statements. Returns those that had been declared lost: they are back.
pub async fn gateways_seen(tx: &mut Tx, seen: &HashMap<String, i64>) -> Result<HashSet<String>, StorageError> {
    let ids = seen.keys().map(Bind::from).collect();
    let known: Vec<(String, bool)> =
        bulk::fetch_in(tx, "SELECT gateway_id, lost FROM notification_gateways", "gateway_id", ids).await?;
    let mut rows = Rows::new(3);
    seen.iter().for_each(|(id, at)| rows.push([id.into(), Bind::Int(*at), Bind::Bool(false)]));
    let tail = " ON CONFLICT (gateway_id) DO UPDATE SET lost = FALSE, \
                lastseen = CASE WHEN notification_gateways.lastseen < excluded.lastseen \
                THEN excluded.lastseen ELSE notification_gateways.lastseen END";
    bulk::execute(tx, "INSERT INTO notification_gateways (gateway_id, lastseen, lost)", tail, rows).await?;
    Ok(known.into_iter().filter(|(_, lost)| *lost).map(|(id, _)| id).collect())
}

/// Marks lost the gateways not heard since `before` (µs) that were not yet;
/// returns them with when they were last heard.
pub async fn newly_lost(tx: &mut Tx, before: i64) -> Result<Vec<(String, i64)>, StorageError> {
    let sql = "SELECT gateway_id, lastseen FROM notification_gateways WHERE lost = FALSE AND lastseen < $1 \
               ORDER BY gateway_id";
    let lost: Vec<(String, i64)> = with_tx!(tx, conn => sqlx::query_as(sql).bind(before).fetch_all(&mut **conn).await)?;
    for (gateway, _) in &lost {
        execute!(tx, "UPDATE notification_gateways SET lost = TRUE WHERE gateway_id = $1", gateway)?;
    }
    Ok(lost)
}

/// Forgets everything, before a rebuild.
pub async fn reset(tx: &mut Tx) -> Result<(), StorageError> {
    for table in ["notification_users", "notification_devices", "notification_gateways", "notification_relays"] {
        execute!(tx, sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))?;
    }
    Ok(())
}
