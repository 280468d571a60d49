//! Alarm rules at work (docs/integrations.md), with real receivers: alarms
//! raised on the log reach the rules they match, grouped within each
//! rule's window on the app's own clock, and are delivered signed,
//! retried with backoff, or given up with the reason.

mod receiver;
mod smtp;

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;
use wm_proto::{
    Envelope, Payload,
    v1::{AlarmDeviceKind, AlarmRaised, AlarmSeverity, GatewayActivity},
};

use crate::helpers::{TestApp, eventually, spawn_each};
use receiver::{Answer, Receiver};

const SECRET: &str = "a-webhook-secret-of-32-characters";
const METER: &str = "65f0a1b2c3d4e5f6abcdef01";
const OTHER_METER: &str = "65f0a1b2c3d4e5f6abcdef02";
const GATEWAY: &str = "65f0a1b2c3d4e5f601234567";

/// Retries a second apart, given up after `give_up` s, each attempt at
/// most `timeout` s.
fn quick(give_up: u64, timeout: u64) -> impl Fn(&mut wmeter::config::Settings) {
    move |s| {
        s.notifications.deliveries.retry_first_secs = 1;
        s.notifications.deliveries.retry_max_secs = 1;
        s.notifications.deliveries.give_up_after_secs = give_up;
        s.notifications.deliveries.timeout_secs = timeout;
    }
}

async fn create_rule(app: &TestApp, rule: Value) -> String {
    let response = app.send_as(Role::Admin, Method::POST, "/api/admin/rules", Some(rule)).await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().unwrap().to_owned()
}

fn webhook_rule(url: &str, types: &[&str], window: u32) -> Value {
    json!({"name": "Leaks to SCADA", "enabled": true,
           "match": {"types": types, "severities": [], "devices": {"scope": "all"}},
           "channel": {"kind": "webhook", "url": url, "secret": SECRET}, "groupWindowSecs": window})
}

async fn raise(app: &TestApp, alarm_id: &str, device_id: &str, alarm_type: &str, severity: AlarmSeverity) {
    let alarm = AlarmRaised {
        alarm_id: alarm_id.to_owned(),
        device_id: device_id.to_owned(),
        device_kind: AlarmDeviceKind::Meter.into(),
        alarm_type: alarm_type.to_owned(),
        severity: severity.into(),
        details_json: r#"{"gateway":"GTW-AB12CD34EF"}"#.to_owned(),
    };
    let envelope = Envelope::new(device_id, "gateway", Payload::AlarmRaised(alarm));
    wm_eventlog::envelopes::publish(app.event_log().as_ref(), &[envelope]).await.unwrap();
}

async fn deliveries(app: &TestApp, rule_id: &str) -> Vec<Value> {
    let path = format!("/api/admin/rules/{rule_id}/deliveries");
    let body: Value = app.send_as(Role::Admin, Method::GET, &path, None).await.json().await.unwrap();
    body["items"].as_array().unwrap().clone()
}

/// Waits for the rule's newest delivery to satisfy `done`.
async fn delivery_when(app: &TestApp, rule_id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    eventually(what, || async { deliveries(app, rule_id).await.first().filter(|d| done(d)).cloned() }).await
}

#[tokio::test]
async fn a_webhook_gets_one_signed_message_per_window_retried_until_it_is_answered() {
    for app in spawn_each(quick(3600, 5)).await {
        let hook = Receiver::start(SECRET, &[Answer::Status(500), Answer::Status(500), Answer::Status(500)]).await;
        let rule = create_rule(&app, webhook_rule(&hook.url, &["leak", "burst"], 60)).await;
        raise(&app, "alarm-1", METER, "leak", AlarmSeverity::Critical).await;
        raise(&app, "alarm-2", OTHER_METER, "burst", AlarmSeverity::Critical).await;
        raise(&app, "alarm-3", METER, "tamper", AlarmSeverity::Major).await;
        raise(&app, "alarm-1", METER, "leak", AlarmSeverity::Critical).await; // redelivered
        let grouped = delivery_when(&app, &rule, "the alarms to be grouped", |d| d["alarmCount"] == 2).await;
        assert_eq!(
            (grouped["status"].as_str(), grouped["attempts"].as_array().map(Vec::len)),
            (Some("pending"), Some(0))
        );
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(hook.received().is_empty(), "nothing goes before the window closes");

        app.clock.advance(chrono::Duration::seconds(61));
        for tried in 1..=3 {
            delivery_when(&app, &rule, "a failed attempt", |d| d["attempts"].as_array().unwrap().len() == tried).await;
            app.clock.advance(chrono::Duration::seconds(1));
        }
        let done = delivery_when(&app, &rule, "the delivery", |d| d["status"] == "delivered").await;
        let attempts = done["attempts"].as_array().unwrap();
        let codes: Vec<&Value> = attempts.iter().map(|a| &a["statusCode"]).collect();
        assert_eq!(codes, [&json!(500), &json!(500), &json!(500), &json!(200)]);
        let outcomes: Vec<&Value> = attempts.iter().map(|a| &a["outcome"]).collect();
        assert_eq!(outcomes, [&json!("failed"), &json!("failed"), &json!("failed"), &json!("ok")]);
        assert_eq!(attempts[0]["error"], "the receiver answered 500 Internal Server Error");
        assert!(attempts.iter().all(|a| a["latencyMs"].is_u64()));
        assert_eq!(deliveries(&app, &rule).await.len(), 1, "one message for the window");

        let received = hook.received();
        assert_eq!(received.len(), 4);
        assert!(received.iter().all(|r| r.signed), "every attempt is signed");
        assert!(received.iter().all(|r| r.delivery == done["id"]), "one delivery id on every retry");
        let body = &received[3].body;
        assert_eq!((body["rule"]["id"].as_str(), body["test"].as_bool()), (Some(rule.as_str()), Some(false)));
        let mut alarms: Vec<(&str, &str)> = body["alarms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| (a["alarmId"].as_str().unwrap(), a["type"].as_str().unwrap()))
            .collect();
        alarms.sort_unstable(); // two devices: no order between them on the log
        assert_eq!(alarms, [("alarm-1", "leak"), ("alarm-2", "burst")]);
        assert!(body["alarms"].as_array().unwrap().iter().all(|a| a["severity"] == "critical"));
        assert!(body["alarms"].as_array().unwrap().iter().all(|a| a["details"]["gateway"] == "GTW-AB12CD34EF"));
        hook.stop().await;
    }
}

#[tokio::test]
async fn a_receiver_that_never_answers_is_given_up_with_the_reason() {
    for app in spawn_each(quick(5, 1)).await {
        let hook = Receiver::start(SECRET, &[Answer::Never, Answer::Never]).await;
        let rule = create_rule(&app, webhook_rule(&hook.url, &[], 0)).await;
        raise(&app, "alarm-9", METER, "leak", AlarmSeverity::Critical).await;
        delivery_when(&app, &rule, "a first attempt", |d| d["attempts"].as_array().unwrap().len() == 1).await;
        app.clock.advance(chrono::Duration::seconds(6));
        let abandoned = delivery_when(&app, &rule, "the delivery to be given up", |d| d["status"] == "abandoned").await;
        let attempts = abandoned["attempts"].as_array().unwrap();
        assert_eq!(attempts.len(), 2);
        assert!(
            attempts.iter().all(|a| a["error"] == "the receiver did not answer in time" && a["statusCode"].is_null())
        );
        assert_eq!(
            abandoned["reason"],
            "Given up after 2 attempts in 6 s; the last one: the receiver did not answer in time"
        );
        assert_eq!(abandoned["nextAttemptAt"], Value::Null);
        hook.stop().await;
    }
}

#[tokio::test]
async fn rules_match_by_type_severity_and_devices_a_gateway_s_meters_included() {
    for app in spawn_each(quick(3600, 5)).await {
        let hook = Receiver::start(SECRET, &[]).await;
        let rule = |name: &str, severities: Value, devices: Value| {
            json!({"name": name, "enabled": true, "match": {"types": [], "severities": severities, "devices": devices},
                   "channel": {"kind": "webhook", "url": hook.url, "secret": SECRET}, "groupWindowSecs": 0})
        };
        let by_gateway =
            create_rule(&app, rule("gateway", json!([]), json!({"scope": "gateway", "gatewayId": GATEWAY}))).await;
        let listed = create_rule(&app, rule("listed", json!([]), json!({"scope": "list", "ids": [OTHER_METER]}))).await;
        let minor = create_rule(&app, rule("minor", json!(["minor"]), json!({"scope": "all"}))).await;
        let mut off = rule("off", json!([]), json!({"scope": "all"}));
        off["enabled"] = json!(false);
        let off = create_rule(&app, off).await;

        // The gateway relays METER: its alarms reach the gateway's rule.
        let heard =
            GatewayActivity { gateway_id: GATEWAY.to_owned(), meter_id: Some(METER.to_owned()), ..Default::default() };
        let activity = Envelope::new(GATEWAY, "gateway", Payload::GatewayActivity(heard));
        wm_eventlog::envelopes::publish(app.event_log().as_ref(), &[activity]).await.unwrap();
        let mut delivered = Vec::new();
        for n in 0..40 {
            raise(&app, &format!("relay-{n}"), METER, "leak", AlarmSeverity::Critical).await;
            delivered = deliveries(&app, &by_gateway).await;
            if !delivered.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        assert!(!delivered.is_empty(), "an alarm of a meter the gateway relays reaches its rule");
        raise(&app, "other-1", OTHER_METER, "tamper", AlarmSeverity::Major).await;
        delivery_when(&app, &listed, "the listed meter's alarm", |d| d["status"] == "delivered").await;
        assert!(deliveries(&app, &minor).await.is_empty(), "no minor alarm was raised");
        assert!(deliveries(&app, &off).await.is_empty(), "a disabled rule sends nothing");
        let gateway_alarms: Vec<String> = hook
            .received()
            .iter()
            .filter(|r| r.body["rule"]["id"] == by_gateway.as_str())
            .flat_map(|r| {
                r.body["alarms"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a["deviceId"].as_str().unwrap().to_owned())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(gateway_alarms.iter().all(|d| d == METER), "{gateway_alarms:?}");
        hook.stop().await;
    }
}

#[tokio::test]
async fn a_test_message_goes_at_once() {
    for app in spawn_each(quick(3600, 5)).await {
        let hook = Receiver::start(SECRET, &[]).await;
        let rule = create_rule(&app, webhook_rule(&hook.url, &[], 0)).await;
        let queued = app.send_as(Role::Admin, Method::POST, &format!("/api/admin/rules/{rule}/test"), None).await;
        assert_eq!(queued.status(), 202);
        let id = queued.json::<Value>().await.unwrap()["deliveryId"].as_str().unwrap().to_owned();
        let sent = delivery_when(&app, &rule, "the test message", |d| d["status"] == "delivered").await;
        assert_eq!(
            (sent["id"].as_str(), sent["test"].as_bool(), sent["alarmCount"].as_u64()),
            (Some(id.as_str()), Some(true), Some(0))
        );
        let received = hook.received();
        assert_eq!(received.len(), 1);
        assert!(received[0].signed && received[0].body["test"] == true);
        hook.stop().await;
    }
}
