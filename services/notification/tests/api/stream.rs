//! An alert reaches the stream and the list of every operator; a reconnect
//! with Last-Event-ID gets what was missed, exactly once; each user sees
//! only their own; the DELETE calls; 401 and 403.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use wm_eventlog::projection::{self, RunOptions};
use wm_http::auth::Role;
use wm_test_support::sse::{Events, notified};

use crate::{
    events::{alert, meter, until_counted, user},
    helpers::{eventually, projections, spawn_each},
};

const WAIT: Duration = Duration::from_secs(30);

#[tokio::test]
async fn alerts_reach_the_stream_and_the_list() {
    for app in spawn_each(Duration::from_secs(1)).await {
        let ann = user(&app, "ann", Role::Operator).await;
        let bob = user(&app, "bob", Role::Admin).await;
        let vic = user(&app, "vic", Role::Viewer).await;
        let meter = meter(&app, 1).await;
        until_counted(&app, "the meter's name is known", "notification_devices", 1).await;

        let mut stream = Events::open(&app, &ann, None).await;
        app.publish(&[alert(&meter, "leak")]).await;
        let first = stream.next(WAIT).await.expect("the alert arrives on the stream");
        assert_eq!(
            (&first.data["deviceName"], &first.data["event"], &first.data["status"], &first.data["deviceId"]),
            (&json!("W-WM00000001"), &json!("leak alert"), &json!("raised"), &json!(meter))
        );
        assert_eq!(
            (&first.data["kind"], &first.data["params"]),
            (&json!("alert"), &json!({"type": "leak"})),
            "words for any language"
        );
        let listed = app.send_as(Role::Operator, Method::GET, &format!("/api/notifications/{ann}"), None).await;
        assert_eq!(listed.status(), 403, "the token is test-user's, not ann's");
        let own = app
            .client
            .get(format!("{}/api/notifications/{ann}", app.url))
            .bearer_auth(app.token_for(&ann, Role::Operator))
            .send()
            .await
            .unwrap();
        let own: Value = own.json().await.unwrap();
        assert_eq!(own.as_array().unwrap().len(), 1);
        assert_eq!(own[0]["id"], first.data["id"]);

        // Missed while away, delivered once on return.
        drop(stream);
        app.publish(&[alert(&meter, "tamper"), alert(&meter, "burst")]).await;
        let mut resumed = Events::open(&app, &ann, Some(first.id)).await;
        let a = resumed.next(WAIT).await.expect("the first missed");
        let b = resumed.next(WAIT).await.expect("the second missed");
        assert_eq!((a.data["event"].as_str(), b.data["event"].as_str()), (Some("tamper alert"), Some("burst alert")));
        assert!(a.id > first.id && b.id > a.id);
        let rest = resumed.raw_within(Duration::from_millis(2500)).await;
        assert!(!notified(&rest), "nothing twice: {rest}");
        assert!(rest.contains(": heartbeat"), "a heartbeat on a quiet stream: {rest:?}");

        let list = |user: String| {
            let request = app
                .client
                .get(format!("{}/api/notifications/{user}", app.url))
                .bearer_auth(app.token_for(&user, Role::Operator));
            async move { request.send().await.unwrap().json::<Value>().await.unwrap().as_array().unwrap().len() }
        };
        assert_eq!(list(bob.clone()).await, 3, "every admin and operator");
        assert_eq!(list(vic.clone()).await, 0, "viewers may not act, and are not notified");

        let delete = |user: &str, path: &str| {
            let request =
                app.client.delete(format!("{}{path}", app.url)).bearer_auth(app.token_for(user, Role::Operator));
            async move { request.send().await.unwrap().status().as_u16() }
        };
        assert_eq!(delete(&ann, "/api/notifications/W-WM00000001").await, 204);
        assert_eq!(list(ann.clone()).await, 0);
        assert_eq!(list(bob.clone()).await, 3, "only the caller's");
        assert_eq!(delete(&bob, "/api/notifications/user").await, 204);
        assert_eq!(list(bob.clone()).await, 0);

        let anonymous = app.client.get(format!("{}/api/notifications", app.url)).send().await.unwrap();
        assert_eq!(anonymous.status(), 401);
        assert_eq!(anonymous.json::<Value>().await.unwrap()["code"], "unauthorized");

        // A rebuild from the log gives the same inboxes back.
        app.publish(&[alert(&meter, "low-battery")]).await;
        eventually("the last alert is in", || async { (list(ann.clone()).await == 1).then_some(()) }).await;
        let mut watching = Events::open(&app, &ann, None).await;
        let log = app.event_log();
        for p in projections(&app) {
            projection::rebuild(log.as_ref(), p.as_ref(), RunOptions::default()).await.unwrap();
        }
        assert_eq!((list(ann.clone()).await, list(bob.clone()).await), (1, 1), "dismissals and clearing replayed too");
        let during = watching.raw_within(Duration::from_millis(1500)).await;
        assert!(!notified(&during), "a rebuild notifies nobody: {during}");
        app.publish(&[alert(&meter, "leak")]).await;
        let after = watching.next(WAIT).await.expect("notifications go on after a rebuild");
        assert!(after.id > b.id, "new ones come after the rebuilt ones: {} then {}", b.id, after.id);
    }
}
