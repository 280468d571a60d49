//! The audit trail: every operator mutation and every refused attempt is
//! recorded with who, role, when, where from, before and after, and
//! outcome; admins read it at `GET /api/audit`, page by page.

use chrono::DateTime;
use reqwest::Method;
use serde_json::{Value, json};
use wm_http::auth::Role;

use super::{eventually, gateway_body, register, target::Target};

/// The trail as an admin reads it.
async fn page(t: &Target, query: &str) -> Value {
    let response = t.get_as(Role::Admin, &format!("/api/audit{query}")).await;
    assert_eq!(response.status(), 200, "GET /api/audit{query}");
    response.json().await.unwrap()
}

/// The entries about `target`, oldest first, once there are `count`.
pub(super) async fn entries_about(t: &Target, target: &str, count: usize) -> Vec<Value> {
    eventually(&format!("{count} audit entries about {target}"), || async {
        let trail = page(t, "?max=500").await;
        let mut about: Vec<Value> =
            trail["entries"].as_array().unwrap().iter().filter(|e| e["target"] == target).cloned().collect();
        about.reverse();
        (about.len() >= count).then_some(about)
    })
    .await
}

pub async fn every_device_change_and_refusal_is_audited(t: &Target) {
    let n = t.n(1);
    let id = register(t, "gateways", gateway_body(n)).await;
    let path = format!("/api/proxy/gateways/{id}");
    assert_eq!(t.send_as(Role::Viewer, Method::DELETE, &path, None).await.status(), 403);
    let phone = format!("07{n:08}");
    let edited = t.send_as(Role::Operator, Method::PATCH, &path, Some(json!({"phoneNumber": phone}))).await;
    assert_eq!(edited.status(), 200);
    let refused = t.send_as(Role::Operator, Method::PATCH, &path, Some(json!({"phoneNumber": "12"}))).await;
    assert_eq!(refused.status(), 400);
    assert_eq!(t.send_as(Role::Operator, Method::DELETE, &path, None).await.status(), 204);

    let trail = entries_about(t, &id, 5).await;
    let summary: Vec<(&str, &str, &str)> = trail
        .iter()
        .map(|e| (e["action"].as_str().unwrap(), e["role"].as_str().unwrap(), e["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            ("gateway.register", "operator", "ok"),
            ("gateway.delete", "viewer", "forbidden"),
            ("gateway.edit", "operator", "ok"),
            ("gateway.edit", "operator", "validation_failed"),
            ("gateway.delete", "operator", "ok"),
        ]
    );
    let [registered, denied, edit, bad_edit, deleted] = &trail[..] else { unreachable!() };
    for entry in &trail {
        assert_eq!(entry["actor"], "test-user");
        assert!(!entry["sourceIp"].as_str().unwrap().is_empty(), "{entry}");
        let at = entry["at"].as_str().unwrap();
        assert!(at.ends_with('Z') && DateTime::parse_from_rfc3339(at).is_ok(), "UTC ISO 8601: {at}");
    }
    assert_eq!(
        (&registered["before"], &registered["after"]["serialNumber"]),
        (&Value::Null, &json!(format!("GW{n:08}")))
    );
    assert!(denied["detail"].as_str().unwrap().contains("role"), "{denied}");
    assert_eq!((&denied["before"], &denied["after"]), (&Value::Null, &Value::Null));
    assert_eq!(edit["before"]["phoneNumber"], format!("06{n:08}"));
    assert_eq!(edit["after"]["phoneNumber"], phone);
    assert!(bad_edit["detail"].as_str().unwrap().contains("phoneNumber"), "the field's message: {bad_edit}");
    assert_eq!(deleted["before"]["phoneNumber"], phone);
    assert_eq!(deleted["after"], Value::Null);
}

pub async fn user_changes_are_audited(t: &Target) {
    let username = format!("audited-{}", t.n(1));
    t.add_user(&username, "password-audited", Role::Viewer).await;
    t.disable_user(&username).await;
    let (created, disabled) = eventually("the user's audit entries", || async {
        let trail = page(t, "?max=500").await;
        let about = |action: &str| {
            trail["entries"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["action"] == action && e["after"]["username"] == username)
                .cloned()
        };
        Some((about("user.create")?, about("user.disable")?))
    })
    .await;
    assert_eq!(
        (&created["actor"], &created["outcome"], &created["before"]),
        (&json!("cli"), &json!("ok"), &Value::Null)
    );
    assert_eq!(created["after"]["role"], "viewer");
    assert!(created["after"].get("password").is_none() && created["after"].get("passwordHash").is_none());
    assert_eq!((&disabled["before"]["disabled"], &disabled["after"]["disabled"]), (&json!(false), &json!(true)));
    assert_eq!(created["target"], disabled["target"]);
}

pub async fn only_admins_read_the_trail_page_by_page(t: &Target) {
    register(t, "gateways", gateway_body(t.n(1))).await;
    register(t, "gateways", gateway_body(t.n(2))).await;
    for role in [Role::Operator, Role::Viewer] {
        let response = t.get_as(role, "/api/audit").await;
        assert_eq!(response.status(), 403, "{role:?}");
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "forbidden");
    }
    // Other tests may add entries meanwhile: a pair read with one total
    // saw the same trail.
    let (first, second) = eventually("two pages of one trail", || async {
        let first = page(t, "?max=1").await;
        let second = page(t, "?max=1&page=2").await;
        (first["total"] == second["total"] && first["total"].as_i64().unwrap() >= 2).then_some((first, second))
    })
    .await;
    assert_eq!((&first["page"], &first["max"], &second["page"]), (&json!(1), &json!(1), &json!(2)));
    let (a, b) = (&first["entries"].as_array().unwrap()[..], &second["entries"].as_array().unwrap()[..]);
    assert_eq!((a.len(), b.len()), (1, 1));
    assert_ne!(a[0]["id"], b[0]["id"]);
    assert!(a[0]["at"].as_str() >= b[0]["at"].as_str(), "newest first");
    assert_eq!(page(t, "").await["max"], 50, "the default page size");
    for bad in ["?page=0", "?page=x", "?max=0", "?max=501"] {
        let response = t.get_as(Role::Admin, &format!("/api/audit{bad}")).await;
        assert_eq!(response.status(), 400, "{bad}");
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "validation_failed", "{bad}");
    }
}

pub async fn the_trail_is_filtered_and_exported_as_csv(t: &Target) {
    let id = register(t, "gateways", gateway_body(t.n(2))).await;
    let path = format!("/api/proxy/gateways/{id}");
    assert_eq!(t.send_as(Role::Viewer, Method::DELETE, &path, None).await.status(), 403);
    let about = format!("?target={id}");
    let trail = eventually("both entries", || async { Some(page(t, &about).await).filter(|p| p["total"] == 2) }).await;
    let actions: Vec<_> = trail["entries"].as_array().unwrap().iter().map(|e| e["action"].clone()).collect();
    assert_eq!(actions, [json!("gateway.delete"), json!("gateway.register")], "newest first");
    let refused = page(t, &format!("{about}&outcome=refused")).await;
    assert_eq!((refused["total"].clone(), refused["entries"][0]["outcome"].clone()), (json!(1), json!("forbidden")));
    assert_eq!(page(t, &format!("{about}&outcome=forbidden")).await["total"], 1);
    assert_eq!(
        page(t, &format!("{about}&outcome=ok&action=gateway")).await["entries"][0]["action"],
        "gateway.register"
    );
    assert_eq!(page(t, &format!("{about}&action=gateway.reg")).await["total"], 0, "a part of a word is no prefix");
    assert_eq!(page(t, &format!("{about}&actor=test-user&from=2000-01-01")).await["total"], 2);
    assert_eq!(page(t, &format!("{about}&to=2000-01-01T00:00:00Z")).await["total"], 0);
    let bad = t.get_as(Role::Admin, "/api/audit?from=yesterday").await;
    assert_eq!(bad.status(), 400);
    assert!(bad.json::<Value>().await.unwrap()["fields"]["from"].as_str().unwrap().contains("ISO 8601"));
    assert_eq!(t.get_as(Role::Admin, "/api/audit?to=").await.status(), 400, "an empty time is a bad one");
    let backwards = t.get_as(Role::Admin, "/api/audit?from=2026-01-02&to=2026-01-01").await;
    assert_eq!(backwards.json::<Value>().await.unwrap()["fields"]["from"], "from must come before to");

    let export = t.get_as(Role::Admin, &format!("/api/audit/export{about}")).await;
    assert_eq!(export.status(), 200);
    assert!(export.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let text = export.text().await.unwrap();
    let mut lines = text.split("\r\n").filter(|l| !l.is_empty());
    assert_eq!(lines.next(), Some("at,actor,username,role,source_ip,action,target,outcome,detail,before,after"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows[0].contains(",gateway.delete,") && rows[0].contains(&id), "{}", rows[0]);
    assert_eq!(t.get_as(Role::Operator, "/api/audit/export").await.status(), 403);
}
