//! What other services tell the notification service, as events on its
//! log, and its stream as a client reads it.

use wm_domain::DeviceId;
use wm_http::auth::Role;
use wm_proto::{
    Envelope, Payload,
    v1::{self, AlertRaised, UserCreated},
};
use wm_storage::with_pool;
use wm_test_support::devices::{gateway_registered, meter_registered};

use crate::helpers::{TestApp, eventually};

/// Creates a user as the auth service does (its event reaches the
/// notification service) and waits until notifications know it.
pub async fn user(app: &TestApp, name: &str, role: Role) -> String {
    let id = DeviceId::new().to_string();
    let role = match role {
        Role::Admin => v1::Role::Admin,
        Role::Operator => v1::Role::Operator,
        Role::Viewer => v1::Role::Viewer,
    };
    let created = UserCreated { user_id: id.clone(), username: name.to_owned(), role: role.into() };
    app.publish(&[Envelope::new(&id, "cli", Payload::UserCreated(created))]).await;
    eventually("notifications know the user", || async {
        let sql = "SELECT COUNT(*) FROM notification_users WHERE user_id = $1";
        let n: i64 = with_pool!(app.db(), pool => sqlx::query_scalar(sql).bind(&id).fetch_one(pool).await).unwrap();
        (n == 1).then_some(())
    })
    .await;
    id
}

/// Registers meter `WM{n:08}` as the registry does; returns its id.
pub async fn meter(app: &TestApp, n: u32) -> String {
    let (id, registered) = meter_registered(n);
    app.publish(&[registered]).await;
    id
}

/// Waits until `table` (one of the service's own) holds `rows` rows.
pub async fn until_counted(app: &TestApp, what: &str, table: &str, rows: i64) {
    let sql = format!("SELECT COUNT(*) FROM {table}");
    eventually(what, || async {
        let sql = sqlx::AssertSqlSafe(sql.clone());
        let n: i64 = with_pool!(app.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap();
        (n == rows).then_some(())
    })
    .await;
}

/// Registers gateway `GW{n:08}` as the registry does; returns its id.
pub async fn gateway(app: &TestApp, n: u32) -> String {
    let (id, registered) = gateway_registered(n);
    app.publish(&[registered]).await;
    id
}

/// An alert raised on `meter`.
pub fn alert(meter: &str, kind: &str) -> Envelope {
    let raised = AlertRaised { meter_id: meter.into(), alert_type: kind.into(), gateway_id: "g".into(), message_id: 1 };
    Envelope::new(meter, "gateway:test", Payload::AlertRaised(raised))
}
