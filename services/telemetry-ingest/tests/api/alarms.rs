//! Alarms through ingest's API: gateways' alerts raise and clear them with
//! the severity of their type; operators acknowledge, assign, comment,
//! clear and close them, each audited, and viewers only read; the list
//! filters and pages by keyset; bad filters are named.

use reqwest::Method;
use serde_json::{Value, json};
use wm_domain::Clock;
use wm_http::auth::Role;
use wm_proto::{Payload, topics, v1::Role as UserRole};

use crate::helpers::{
    Gateway, TestApp, address, eventually, gateway, json_when, known, meter, send_for, spawn_each, user,
};

const ANN: (&str, Role) = ("u-ann", Role::Operator);

/// The alarms `query` lists, once there are `n`.
async fn listed(app: &TestApp, query: &str, n: usize) -> Vec<Value> {
    let page =
        json_when(app, &format!("/api/alarms?{query}"), |p| p["items"].as_array().is_some_and(|a| a.len() == n)).await;
    page["items"].as_array().unwrap().clone()
}

/// The alarms `query` lists now, as (type, status) pairs.
async fn kinds(app: &TestApp, query: &str) -> Vec<(String, String)> {
    let page = app.json(&format!("/api/alarms?{query}"), 200).await;
    let items = page["items"].as_array().unwrap();
    items.iter().map(|a| (a["type"].as_str().unwrap().to_owned(), a["status"].as_str().unwrap().to_owned())).collect()
}

fn alert(id: u64, now: &str, meter: u32, kind: &str, state: &str) -> String {
    json!({"messageId": id, "timestamp": now, "meter": address(0xC0, meter), "type": kind, "state": state}).to_string()
}

async fn act(app: &TestApp, who: (&str, Role), alarm: &str, action: &str, body: Value) -> (u16, Value) {
    send_for(app, who, Method::POST, &format!("/api/alarms/{alarm}/{action}"), Some(body)).await
}

#[tokio::test]
async fn alerts_raise_alarms_that_operators_take_through_their_lifecycle() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        let meters = [meter(&app, 1).await, meter(&app, 2).await];
        known(&app, 1, 2).await;
        user(&app, "u-ann", "ann", UserRole::Operator).await;
        user(&app, "u-vic", "vic", UserRole::Viewer).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let now = app.clock.now().to_rfc3339();
        let alerts =
            [(1, "leak", "raised"), (2, "tamper", "raised"), (1, "low-battery", "raised"), (2, "door", "raised")];
        for (n, (meter, kind, state)) in (1..).zip(alerts) {
            gw.send("alert", alert(n, &now, meter, kind, state)).await;
        }
        gw.send("alert", alert(5, &now, 1, "low-battery", "cleared")).await;
        gw.acked(5).await;

        let all = listed(&app, "sort=severity&order=asc", 4).await;
        let severities: Vec<_> =
            all.iter().map(|a| (a["type"].as_str().unwrap(), a["severity"].as_str().unwrap())).collect();
        assert_eq!(
            severities,
            [("leak", "critical"), ("tamper", "major"), ("low-battery", "minor"), ("door", "warning")]
        );
        let leak = &all[0];
        assert_eq!(
            (&leak["deviceId"], &leak["deviceName"], &leak["deviceKind"]),
            (&json!(meters[0]), &json!("W-WM00000001"), &json!("meter"))
        );
        assert_eq!(
            (&leak["raisedBy"]["name"], &leak["details"]["gateway"]),
            (&json!("GTW-GW00000001"), &json!("GW00000001"))
        );
        assert_eq!(all[2]["status"], "cleared", "the gateway's clear clears it");
        let counts = app.json("/api/alarms/counts", 200).await;
        assert_eq!(counts, json!({"active": 3, "acknowledged": 0, "cleared": 1, "closed": 0}));
        let on_meter = app.json(&format!("/api/alarms/counts?device={}", meters[1]), 200).await;
        assert_eq!(on_meter, json!({"active": 2, "acknowledged": 0, "cleared": 0, "closed": 0}));

        let leak = leak["id"].as_str().unwrap().to_owned();
        let (status, body) = act(&app, ("u-vic", Role::Viewer), &leak, "acknowledge", json!({})).await;
        assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")), "viewers read only");
        let (status, body) = act(&app, ANN, &leak, "acknowledge", json!({"note": " crew sent "})).await;
        assert_eq!(
            (status, &body["status"], &body["acknowledgedBy"]["name"]),
            (200, &json!("acknowledged"), &json!("ann"))
        );
        let (status, body) = act(&app, ANN, &leak, "acknowledge", json!({})).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("alarm_not_active")));
        let (status, body) = act(&app, ANN, &leak, "assign", json!({"assignee": "u-vic"})).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("not_assignable")));
        assert_eq!(body["fields"]["assignee"], "u-vic is not an active admin or operator");
        let (status, body) = act(&app, ANN, &leak, "assign", json!({"assignee": "u-ann"})).await;
        assert_eq!((status, &body["assignee"]), (200, &json!({"id": "u-ann", "name": "ann"})));
        let (status, body) = act(&app, ANN, &leak, "comment", json!({"text": "  "})).await;
        assert_eq!((status, body["fields"]["text"].as_str()), (400, Some("A comment needs some text")));
        let (status, body) = act(&app, ANN, &leak, "comment", json!({"text": "x".repeat(2001)})).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("validation_failed")));
        assert_eq!(act(&app, ANN, &leak, "comment", json!({"text": "valve replaced"})).await.0, 200);
        let (status, body) = act(&app, ANN, &leak, "close", json!({})).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("alarm_not_cleared")));
        assert_eq!(act(&app, ANN, &leak, "clear", json!({"note": "dry now"})).await.0, 200);
        let (status, closed) = act(&app, ANN, &leak, "close", json!({"note": "billed"})).await;
        assert_eq!((status, &closed["status"], &closed["closedBy"]["name"]), (200, &json!("closed"), &json!("ann")));
        let (status, body) = act(&app, ANN, &leak, "assign", json!({"assignee": null})).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("alarm_closed")));
        let (status, body) = act(&app, ANN, "000000000000000000000000", "clear", json!({})).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));

        let detail = app.json(&format!("/api/alarms/{leak}"), 200).await;
        let history: Vec<_> = detail["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["action"].as_str().unwrap(), h["actor"]["name"].as_str().unwrap(), h["note"].as_str().unwrap()))
            .collect();
        assert_eq!(
            history,
            [
                ("raised", "GTW-GW00000001", ""),
                ("acknowledged", "ann", "crew sent"),
                ("assigned", "ann", ""),
                ("commented", "ann", "valve replaced"),
                ("cleared", "ann", "dry now"),
                ("closed", "ann", "billed"),
            ]
        );
        assert_eq!(detail["history"][2]["assignee"]["name"], "ann");

        // The gateway raises a leak again: a new alarm, the closed one stays.
        let later = (app.clock.now() + chrono::Duration::seconds(5)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        gw.send("alert", alert(6, &later, 1, "leak", "raised")).await;
        gw.acked(1).await;
        let leaks = listed(&app, "type=leak", 2).await;
        assert_eq!((&leaks[0]["status"], &leaks[1]["status"]), (&json!("active"), &json!("closed")), "newest first");

        // Filters.
        let device = format!("device={}", meters[1]);
        let mut on_device = kinds(&app, &device).await;
        on_device.sort(); // raised at the same time: their order is their ids'
        assert_eq!(on_device, [("door".into(), "active".into()), ("tamper".into(), "active".into())]);
        assert_eq!(
            kinds(&app, "status=closed,cleared&sort=severity&order=asc").await,
            [("leak".into(), "closed".into()), ("low-battery".into(), "cleared".into())]
        );
        assert_eq!(kinds(&app, "severity=major,minor&order=asc").await.len(), 2);
        assert_eq!(kinds(&app, "assignee=u-ann").await, [("leak".into(), "closed".into())]);
        assert_eq!(kinds(&app, "assignee=none&type=leak").await, [("leak".into(), "active".into())]);
        assert_eq!(kinds(&app, &format!("from={later}&type=leak")).await, [("leak".into(), "active".into())]);
        assert_eq!(kinds(&app, &format!("to={later}&type=leak")).await, [("leak".into(), "closed".into())]);

        // Bulk acknowledgement: each that can be, the others said why.
        let open: Vec<String> =
            listed(&app, "status=active", 3).await.iter().map(|a| a["id"].as_str().unwrap().to_owned()).collect();
        let mut ids = open.clone();
        ids.extend([leak.clone(), "000000000000000000000000".to_owned()]);
        let (status, outcome) =
            send_for(&app, ANN, Method::POST, "/api/alarms/acknowledge", Some(json!({"ids": ids, "note": "on it"})))
                .await;
        assert_eq!((status, &outcome["acknowledged"]), (200, &json!(open)));
        let skipped: Vec<_> =
            outcome["skipped"].as_array().unwrap().iter().map(|s| s["code"].as_str().unwrap()).collect();
        assert_eq!(skipped, ["alarm_not_active", "not_found"]);
        let (status, body) =
            send_for(&app, ANN, Method::POST, "/api/alarms/acknowledge", Some(json!({"ids": []}))).await;
        assert_eq!((status, body["fields"]["ids"].is_string()), (400, true));
        let counts = app.json("/api/alarms/counts", 200).await;
        assert_eq!(counts, json!({"active": 0, "acknowledged": 3, "cleared": 1, "closed": 1}));

        // Every change is an event on the alarms topic, every action audited.
        let events = eventually("the alarm events", || async {
            let events = app.events(topics::ALARMS).await;
            (events.len() == 14).then_some(events)
        })
        .await;
        let raised = events.iter().filter(|e| matches!(e.payload, Some(Payload::AlarmRaised(_)))).count();
        assert_eq!(raised, 5);
        let audited = eventually("the alarm actions' audit records", || async {
            let mut records: Vec<(String, String)> = app
                .events(topics::AUDIT)
                .await
                .into_iter()
                .filter_map(|e| match e.payload {
                    Some(Payload::AuditRecorded(r)) if r.action.starts_with("alarm.") => Some((r.action, r.outcome)),
                    _ => None,
                })
                .collect();
            records.sort();
            (records.len() >= 17).then_some(records)
        })
        .await;
        assert!(audited.contains(&("alarm.acknowledge".to_owned(), "forbidden".to_owned())), "{audited:?}");
        assert!(audited.contains(&("alarm.close".to_owned(), "ok".to_owned())), "{audited:?}");
        let skipped = ("alarm.acknowledge".to_owned(), "alarm_not_active".to_owned());
        assert_eq!(audited.iter().filter(|r| **r == skipped).count(), 2, "the single and the bulk refusal");
    }
}

#[tokio::test]
async fn keyset_paging_sees_each_of_250_alarms_exactly_once() {
    for app in spawn_each().await {
        gateway(&app, 1).await;
        meter(&app, 1).await;
        known(&app, 1, 1).await;
        let mut gw = Gateway::connect(&app, "GW00000001").await;
        let start = app.clock.now();
        for n in 0..250_u64 {
            // Ten alarms share each second: ties are broken by id.
            let at = (start + chrono::Duration::seconds(i64::try_from(n / 10).unwrap())).to_rfc3339();
            gw.send("alert", alert(n + 1, &at, 1, &format!("kind-{n:03}"), "raised")).await;
        }
        gw.acked(250).await;
        listed(&app, "max=500", 250).await;

        for (sort, order, max) in [("raisedAt", "desc", 7), ("raisedAt", "asc", 50), ("severity", "asc", 33)] {
            let (mut seen, mut after, mut pages) = (Vec::new(), None::<String>, 0);
            loop {
                let cursor = after.as_deref().map(|c| format!("&after={c}")).unwrap_or_default();
                let page = app.json(&format!("/api/alarms?sort={sort}&order={order}&max={max}{cursor}"), 200).await;
                let items = page["items"].as_array().unwrap();
                seen.extend(
                    items
                        .iter()
                        .map(|a| (a["raisedAt"].as_str().unwrap().to_owned(), a["id"].as_str().unwrap().to_owned())),
                );
                pages += 1;
                match page["next"].as_str() {
                    Some(next) => after = Some(next.to_owned()),
                    None => break,
                }
            }
            let mut unique = seen.clone();
            unique.sort();
            unique.dedup();
            assert_eq!((seen.len(), unique.len()), (250, 250), "{sort} {order}: each once");
            assert_eq!(pages, 250_usize.div_ceil(max), "{sort} {order}: no empty last page");
            if order == "asc" {
                assert_eq!(seen, unique, "{sort} ascending is by time, then id");
            }
        }
    }
}

#[tokio::test]
async fn bad_filters_are_refused_with_the_field_named() {
    for app in spawn_each().await {
        let bad = [
            ("status=open", "status"),
            ("severity=huge", "severity"),
            ("device=xyz", "device"),
            ("from=yesterday", "from"),
            ("sort=name", "sort"),
            ("order=up", "order"),
            ("after=major.1.zz", "after"),
            ("after=r.1.000000000000000000000000", "after"),
            ("max=0", "max"),
            ("max=501", "max"),
        ];
        for (query, field) in bad {
            let response = app.get_as(Role::Viewer, &format!("/api/alarms?{query}")).await;
            assert_eq!(response.status(), 400, "{query}");
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["code"], "validation_failed", "{query}");
            assert!(body["fields"][field].is_string(), "{query}: {body}");
        }
        let inverted = "/api/alarms?from=2026-01-02&to=2026-01-01";
        assert_eq!(
            app.json(inverted, 200).await,
            json!({"items": [], "next": null}),
            "an inverted range selects nothing"
        );
        let response = app.get_as(Role::Viewer, "/api/alarms/counts?device=nope").await;
        assert_eq!(response.status(), 400);
        assert_eq!(
            app.json("/api/alarms?status=active,closed&severity=critical&type=leak", 200).await,
            json!({"items": [], "next": null})
        );
    }
}
