//! A meter's shutdown request through ingest's API: none, then requested by
//! its gateway; a viewer and a wrong word are refused; a confirmation is
//! answered once and sends the gateway a close command, a rejection sends
//! nothing; every answer and refusal is on the log.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_http::auth::Role;
use wm_proto::{
    Payload, topics,
    v1::{ShutdownAnswerStatus, ShutdownAnswered},
};

use crate::helpers::{Gateway, TestApp, address, eventually, gateway, json_when, known, meter, spawn_each};

fn path(meter: &str) -> String {
    format!("/api/proxy/wmeters/shutdown-requests/{meter}")
}

async fn answer(app: &TestApp, role: Role, meter: &str, status: &str) -> (u16, Value) {
    let response = app.send_as(role, Method::PATCH, &path(meter), Some(json!({"status": status}))).await;
    (response.status().as_u16(), response.json().await.unwrap())
}

#[tokio::test]
async fn a_request_is_answered_once_and_only_a_confirmation_closes_the_valve() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let meters = [meter(&app, 1).await, meter(&app, 2).await];
        known(&app, 1, 2).await;
        assert_eq!(app.json(&path(&meters[0]), 200).await, json!({"status": null}));
        let (status, body) = answer(&app, Role::Operator, &meters[0], "confirmed").await;
        assert_eq!((status, body["message"].as_str()), (404, Some("This meter has no shutdown request")));

        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let now = app.clock.now().to_rfc3339();
        for n in 1..=2_u32 {
            let ble = address(0xC0, n);
            gw.send("ble", json!({"messageId": n, "timestamp": now, "meter": ble, "rssi": -60}).to_string()).await;
            let request = json!({"messageId": 10 + n, "timestamp": now, "meter": ble, "requestId": format!("r-{n}")});
            gw.send("shutdown-request", request.to_string()).await;
        }
        gw.acked(4).await;
        for meter in &meters {
            json_when(&app, &path(meter), |s| s["status"] == "requested").await;
        }

        let (status, body) = answer(&app, Role::Viewer, &meters[0], "confirmed").await;
        assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")));
        let (status, body) = answer(&app, Role::Operator, &meters[0], "requested").await;
        assert_eq!((status, body["code"].as_str()), (400, Some("validation_failed")));
        assert_eq!(app.json(&path(&meters[0]), 200).await["status"], "requested", "refusals change nothing");

        let (status, body) = answer(&app, Role::Operator, &meters[0], "confirmed").await;
        assert_eq!((status, &body["status"]), (200, &json!("confirmed")));
        let command = gw.command().await;
        assert_eq!(body["valveCommandId"], command["commandId"], "the answer names the command sent");
        assert_eq!(
            (&command["action"], &command["meter"], &command["requestId"]),
            (&json!("close"), &json!("C0:00:00:00:00:01"), &json!("r-1"))
        );
        let (status, body) = answer(&app, Role::Operator, &meters[0], "rejected").await;
        assert_eq!((status, body["code"].as_str()), (409, Some("not_pending")));
        assert_eq!(body["message"], "The shutdown request was already confirmed");

        assert_eq!(answer(&app, Role::Operator, &meters[1], "rejected").await, (200, json!({"status": "rejected"})));
        gw.no_command_within(Duration::from_secs(2)).await;
        assert_eq!(app.json(&path(&meters[1]), 200).await, json!({"status": "rejected"}));

        let mut answers: Vec<ShutdownAnswered> = eventually("both answers are on the log", || async {
            let answers: Vec<_> = app
                .events(topics::SHUTDOWN)
                .await
                .into_iter()
                .filter_map(|e| match e.payload {
                    Some(Payload::ShutdownAnswered(a)) => Some(a),
                    _ => None,
                })
                .collect();
            (answers.len() == 2).then_some(answers)
        })
        .await;
        // Each meter's events are ordered; the two meters' may be in two partitions.
        answers.sort_by(|a, b| a.request_id.cmp(&b.request_id));
        let seen: Vec<_> =
            answers.iter().map(|a| (a.request_id.as_str(), a.status(), a.answered_by.as_str())).collect();
        assert_eq!(
            seen,
            [
                ("r-1", ShutdownAnswerStatus::Confirmed, "test-user"),
                ("r-2", ShutdownAnswerStatus::Rejected, "test-user")
            ]
        );
        let outcomes = eventually("every answer and refusal is audited", || async {
            let mut outcomes: Vec<(String, String)> = app
                .events(topics::AUDIT)
                .await
                .into_iter()
                .filter_map(|e| match e.payload {
                    Some(Payload::AuditRecorded(r)) => Some((r.action, r.outcome)),
                    _ => None,
                })
                .collect();
            outcomes.sort();
            (outcomes.len() == 6).then_some(outcomes)
        })
        .await;
        let expected = [
            ("shutdown.answer", "validation_failed"),
            ("shutdown.confirm", "forbidden"),
            ("shutdown.confirm", "not_found"),
            ("shutdown.confirm", "ok"),
            ("shutdown.reject", "not_pending"),
            ("shutdown.reject", "ok"),
        ];
        assert_eq!(outcomes, expected.map(|(a, o)| (a.to_owned(), o.to_owned())));
    }
}

#[tokio::test]
async fn a_sent_command_is_settled_by_the_gateway_s_ack() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let meter = meter(&app, 1).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let (now, ble) = (app.clock.now().to_rfc3339(), address(0xC0, 1));
        gw.send("ble", json!({"messageId": 1, "timestamp": now, "meter": ble, "rssi": -60}).to_string()).await;
        let request = json!({"messageId": 2, "timestamp": now, "meter": ble, "requestId": "r-1"});
        gw.send("shutdown-request", request.to_string()).await;
        gw.acked(2).await;
        json_when(&app, &path(&meter), |s| s["status"] == "requested").await;
        assert_eq!(answer(&app, Role::Operator, &meter, "confirmed").await.0, 200);
        let command_id = gw.command().await["commandId"].as_str().unwrap().to_owned();
        assert_eq!(steps(&app, &command_id, 2).await, ["issued", "sent"]);
        let ack = json!({"messageId": 3, "timestamp": now, "commandId": command_id, "ok": true});
        gw.send("ack", ack.to_string()).await;
        gw.acked(1).await;
        assert_eq!(steps(&app, &command_id, 3).await, ["issued", "sent", "acked"], "each step once, in order");
    }
}

/// The first `n` steps of the command `command_id` on the log.
async fn steps(app: &TestApp, command_id: &str, n: usize) -> Vec<&'static str> {
    eventually("the command's steps", || async {
        let steps: Vec<&'static str> = app
            .events(topics::COMMANDS)
            .await
            .into_iter()
            .filter_map(|e| match e.payload {
                Some(Payload::ValveCommandIssued(c)) if c.command_id == command_id => Some("issued"),
                Some(Payload::ValveCommandSent(c)) if c.command_id == command_id => Some("sent"),
                Some(Payload::CommandAcknowledged(a)) if a.command_id == command_id && a.ok => Some("acked"),
                _ => None,
            })
            .collect();
        (steps.len() == n).then_some(steps)
    })
    .await
}
