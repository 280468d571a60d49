//! The embedded broker trusts each gateway only for itself: a gateway signs
//! in with its serial number and its own secret, publishes under its own
//! topics only, subscribes to its own commands only, and a revoked, rotated
//! or deleted credential stops working at once, open connection included.

use super::*;

#[tokio::test]
async fn a_gateway_publishes_and_subscribes_as_itself_only() {
    let app = spawn_app().await;
    let Some(clients) = Clients::of(&app) else { return };
    let ((a, serial_a), (b, serial_b)) = (register(&app, 1).await, register(&app, 2).await);
    let ((_, secret_a), _) = (issue_secret(&app, &a).await, issue_secret(&app, &b).await);
    let login_a = (serial_a.as_str(), serial_a.as_str(), secret_a.as_str());
    let own = format!("wmeter/v1/gw/{serial_a}/heartbeat");
    signs_in(&clients, login_a, &own).await;
    eventually("A's heartbeat is ingested", || async { lastseen(&app, &a).await.is_string().then_some(()) }).await;

    let forged = clients.publish(login_a, &format!("wmeter/v1/gw/{serial_b}/heartbeat"), &heartbeat(2)).await;
    assert!(forged.status.success(), "acknowledged and dropped, as Mosquitto does: {}", said(&forged));
    eventually("the forged publish is counted", || async { (refused(&app, "publish").await == 1).then_some(()) }).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(lastseen(&app, &b).await, Value::Null, "B's forged heartbeat was never ingested");

    for filter in ["#", "wmeter/v1/gw/+/+", &format!("wmeter/v1/gw/{serial_b}/cmd")] {
        let denied = clients.subscribe(login_a, filter, 2).await;
        assert!(said(&denied).contains("denied"), "{filter}: {}", said(&denied));
    }
    assert_eq!(refused(&app, "subscribe").await, 3);
    let own_commands = clients.subscribe(login_a, &format!("wmeter/v1/gw/{serial_a}/cmd"), 1).await;
    assert!(!said(&own_commands).contains("denied"), "{}", said(&own_commands));

    let elsewhere = clients.publish(("another-id", &serial_a, &secret_a), &own, &heartbeat(3)).await;
    assert!(!elsewhere.status.success(), "a gateway's client id is its serial number");
    let as_b = clients.publish((&serial_b, &serial_a, &secret_a), &own, &heartbeat(4)).await;
    assert!(!as_b.status.success(), "nor another gateway's");
    let wrong = clients.publish((&serial_b, &serial_b, &secret_a), &own, &heartbeat(5)).await;
    assert!(!wrong.status.success(), "A's secret is not B's");
    let shared = clients.publish(("x", "gateway", &secret_a), &own, &heartbeat(6)).await;
    assert!(!shared.status.success(), "no shared login but the configured one");
}

#[tokio::test]
async fn a_revoked_or_rotated_secret_stops_working_at_once() {
    let app = spawn_app().await;
    let Some(clients) = Clients::of(&app) else { return };
    let (id, serial) = register(&app, 1).await;
    let (credential, secret) = issue_secret(&app, &id).await;
    let login = (serial.as_str(), serial.as_str(), secret.as_str());
    let own = format!("wmeter/v1/gw/{serial}/heartbeat");
    signs_in(&clients, login, &own).await;

    // A connection that stays open, on its own commands.
    let mut listening = Command::new(&clients.subscribe)
        .args(clients.args(login))
        .args(["-t", &format!("wmeter/v1/gw/{serial}/cmd")])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(listening.try_wait().unwrap().is_none(), "connected and listening");

    let (_, rotated) = issue_secret(&app, &id).await;
    let new_login = (serial.as_str(), serial.as_str(), rotated.as_str());
    signs_in(&clients, new_login, &own).await;
    let old = clients.publish(login, &own, &heartbeat(2)).await;
    assert!(!old.status.success(), "the rotated secret is refused: {}", said(&old));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while listening.try_wait().unwrap().is_none() {
        assert!(tokio::time::Instant::now() < deadline, "the open connection of the rotated secret is closed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let list: Value = app.json(&format!("/api/devices/gateways/{id}/credentials"), 200).await;
    let current = list["credentials"][0]["id"].as_str().unwrap().to_owned();
    assert_ne!(list["credentials"][0]["id"], credential["id"]);
    let revoke = format!("/api/devices/gateways/{id}/credentials/{current}/revoke");
    let response = app.send_as(Role::Admin, Method::POST, &revoke, None).await;
    assert_eq!(response.status(), 204);
    eventually("the revoked secret is refused", || async {
        (!clients.publish(new_login, &own, &heartbeat(3)).await.status.success()).then_some(())
    })
    .await;
}

#[tokio::test]
async fn deleting_a_gateway_closes_its_connection() {
    let app = spawn_app().await;
    let Some(clients) = Clients::of(&app) else { return };
    let (id, serial) = register(&app, 1).await;
    let (_, secret) = issue_secret(&app, &id).await;
    let login = (serial.as_str(), serial.as_str(), secret.as_str());
    // Listening only (never heard from), so it may still be deleted.
    let open = eventually("the gateway signs in", || async {
        let listening = clients.listen_for(login, &format!("wmeter/v1/gw/{serial}/cmd"), 30).await;
        let mut child = listening.child;
        child.try_wait().unwrap().is_none().then_some(child)
    })
    .await;
    let deleted = app.send_as(Role::Operator, Method::DELETE, &format!("/api/proxy/gateways/{id}"), None).await;
    assert_eq!(deleted.status(), 204, "{}", deleted.text().await.unwrap());
    let ended = tokio::time::timeout(Duration::from_secs(5), open.wait_with_output()).await;
    assert!(ended.is_ok(), "the deleted gateway's connection is closed");
}
