//! Telemetry ingest end to end: real MQTT messages through the embedded
//! broker, seen through the HTTP API.

mod dead_letters;
mod duplicates;
mod every_kind;
mod valve;

use serde_json::Value;
use wm_storage::with_pool;
pub use wm_test_support::gateway::{Gateway, known};

use crate::helpers::{TestApp, eventually};

/// The number in `count` of a `SELECT COUNT(*)`.
pub async fn rows(app: &TestApp, sql: &'static str) -> i64 {
    with_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await).unwrap()
}

/// `path`'s JSON once `ready` holds for it.
pub async fn json_when(app: &TestApp, path: &str, ready: impl Fn(&Value) -> bool) -> Value {
    eventually(path, || async {
        let value = app.json(path, 200).await;
        ready(&value).then_some(value)
    })
    .await
}
