//! Shutdown requests: one row per request, its status moved by the
//! aggregate's rules (`domain::shutdown`).

use wm_proto::{Payload, v1::ShutdownAnswerStatus};
use wm_storage::{
    Db, StorageError, Tx, execute,
    query::{self, Bind},
    with_tx,
};

use crate::domain::shutdown::{ShutdownRequest, Status};

struct Row {
    request_id: String,
    meter_id: String,
    gateway_id: String,
    status: String,
}
wm_storage::from_row!(Row { request_id, meter_id, gateway_id, status });

impl TryFrom<Row> for ShutdownRequest {
    type Error = StorageError;

    fn try_from(row: Row) -> Result<Self, StorageError> {
        let status = row.status.parse().map_err(|_| StorageError::Corrupt { field: "status", value: row.status })?;
        Ok(ShutdownRequest { request_id: row.request_id, meter_id: row.meter_id, gateway_id: row.gateway_id, status })
    }
}

/// The latest request of a meter, newest by request time.
const LATEST: &str = "SELECT request_id, meter_id, gateway_id, status FROM shutdown_requests WHERE meter_id = $1 \
                      ORDER BY requested_at DESC, request_id DESC LIMIT 1";

/// The meter's latest shutdown request.
pub async fn latest(db: &Db, meter_id: &str) -> Result<Option<ShutdownRequest>, StorageError> {
    let row: Option<Row> = query::fetch_optional(db, LATEST.to_owned(), vec![Bind::from(meter_id)]).await?;
    row.map(ShutdownRequest::try_from).transpose()
}

/// [`latest`], in a write transaction that answers it: on PostgreSQL the
/// row is locked until the transaction ends (SQLite's writer lock already
/// serializes answers).
pub async fn latest_for_answer(tx: &mut Tx, meter_id: &str) -> Result<Option<ShutdownRequest>, StorageError> {
    let lock = if matches!(tx, Tx::Postgres(_)) { " FOR UPDATE" } else { "" };
    let sql = format!("{LATEST}{lock}");
    let row: Option<Row> = with_tx!(tx, conn =>
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(meter_id).fetch_optional(&mut **conn).await)?;
    row.map(ShutdownRequest::try_from).transpose()
}

/// Applies a shutdown event that happened at `at` (µs): a request is kept
/// once, and answered only while it is still requested.
pub async fn persist(tx: &mut Tx, payload: &Payload, at: i64) -> Result<(), StorageError> {
    match payload {
        Payload::ShutdownRequested(s) => {
            let sql = "INSERT INTO shutdown_requests (request_id, meter_id, gateway_id, status, requested_at) \
                       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
            execute!(tx, sql, &s.request_id, &s.meter_id, &s.gateway_id, Status::Requested.as_str(), at)?;
        }
        Payload::ShutdownAnswered(a) => {
            let status = match a.status() {
                ShutdownAnswerStatus::Confirmed => Status::Confirmed,
                _ => Status::Rejected,
            };
            let sql = "UPDATE shutdown_requests SET status = $1, answered_at = $2, answered_by = $3 \
                       WHERE request_id = $4 AND status = $5";
            execute!(tx, sql, status.as_str(), at, &a.answered_by, &a.request_id, Status::Requested.as_str())?;
        }
        _ => {}
    }
    Ok(())
}
