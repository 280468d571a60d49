//! What deploy/monitoring's alerts and dashboards read is what w-meter
//! exports, and the metrics they need move on the real behaviour.

mod promql;
mod sources;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;
use wm_domain::Clock;
use wm_http::auth::Role;

use crate::{
    helpers::{TestApp, eventually, spawn_app, spawn_each, user},
    telemetry::Gateway,
};

/// The value of the series `name` whose labels include `label`
/// (`outcome="failed"`), in `/metrics`.
pub async fn sample(app: &TestApp, name: &str, label: &str) -> Option<f64> {
    value_in(&app.get("/metrics").await.text().await.unwrap(), name, label)
}

/// The value of the first series of `name` whose labels hold `label`, in
/// the scraped `body`.
fn value_in(body: &str, name: &str, label: &str) -> Option<f64> {
    let line = body.lines().find(|l| l.starts_with(&format!("{name}{{")) && l.contains(label))?;
    line.rsplit(' ').next()?.parse().ok()
}

/// The metric names of every series in `/metrics`.
async fn exported(app: &TestApp) -> BTreeSet<String> {
    let body = app.get("/metrics").await.text().await.unwrap();
    body.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(['{', ' ']).next().unwrap().to_owned())
        .collect()
}

/// deploy/monitoring/external-metrics.txt: each metric that comes from
/// outside w-meter, with why it is needed.
fn external_metrics() -> BTreeMap<String, String> {
    let path = sources::monitoring_dir().join("external-metrics.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let entries = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    entries
        .map(|l| {
            let (name, reason) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            assert!(!reason.trim().is_empty(), "{}: {name} needs a reason", path.display());
            (name.to_owned(), reason.trim().to_owned())
        })
        .collect()
}

#[tokio::test]
async fn every_metric_the_alerts_and_dashboards_read_is_exported() {
    let app = spawn_app().await;
    // Series appear once something happened: a request, a projection's
    // first lag reading, a dead letter (a gateway nobody registered).
    assert_eq!(app.get("/healthz").await.status(), 200);
    let mut stranger = Gateway::connect(&app, "ZZ99999999").await;
    let heartbeat = json!({"messageId": 1, "timestamp": app.clock.now().to_rfc3339()});
    stranger.send("heartbeat", heartbeat.to_string()).await;
    stranger.acked(1).await;
    let exported = eventually("a dead letter and a lag reading", || async {
        let names = exported(&app).await;
        let ready = ["wmeter_ingest_dead_letters_total", "wmeter_consumer_lag"].iter().all(|n| names.contains(*n));
        ready.then_some(names)
    })
    .await;

    let external = external_metrics();
    let used: Vec<_> = sources::rule_exprs().into_iter().chain(sources::dashboard_queries()).collect();
    assert!(used.len() > 20, "the rules and dashboards were read: {used:?}");
    let mut missing = Vec::new();
    let mut used_names = BTreeSet::new();
    for (place, expr) in &used {
        let names = promql::metric_names(expr);
        assert!(!names.is_empty(), "{place} reads no metric: {expr}");
        for name in names {
            if !exported.contains(&name) && !external.contains_key(&name) {
                missing.push(format!("{place}: {name}"));
            }
            used_names.insert(name);
        }
    }
    assert!(missing.is_empty(), "read but not exported by w-meter:\n{}\nexported: {exported:?}", missing.join("\n"));
    for name in external.keys() {
        assert!(!exported.contains(name), "{name} is w-meter's own: take it off external-metrics.txt");
        assert!(used_names.contains(name), "{name} is used by no rule or panel: take it off external-metrics.txt");
    }
}

#[tokio::test]
async fn sign_ins_are_counted_by_outcome() {
    for app in spawn_each(|s| s.auth.sessions.max_failures_per_user = 1).await {
        user(&app, "metered", Role::Viewer).await;
        for outcome in ["succeeded", "failed", "throttled", "shed"] {
            assert_eq!(logins(&app, outcome).await, Some(0.0), "{outcome} starts at zero");
        }
        let login = |password: &'static str| {
            let body = json!({"username": "metered", "password": password});
            app.client.post(format!("{}/api/auth/login", app.url)).json(&body).send()
        };
        assert_eq!(login("a-long-password").await.unwrap().status(), 200);
        assert_eq!(login("a wrong password").await.unwrap().status(), 401);
        assert_eq!(login("a wrong password").await.unwrap().status(), 429, "one failure a user at most");
        let counted = [logins(&app, "succeeded").await, logins(&app, "failed").await, logins(&app, "throttled").await];
        assert_eq!(counted, [Some(1.0); 3]);
    }
}

async fn logins(app: &TestApp, outcome: &str) -> Option<f64> {
    sample(app, "wmeter_auth_logins_total", &format!("outcome=\"{outcome}\"")).await
}

#[tokio::test]
async fn the_database_pool_is_read_at_each_scrape() {
    for app in spawn_each(|_| {}).await {
        let max = sample(&app, "wmeter_db_pool_connections_max", "service=").await;
        assert_eq!(max, Some(f64::from(app.db().connections().max)));
        // One scrape: the pool moves between two.
        let body = app.get("/metrics").await.text().await.unwrap();
        let in_use = value_in(&body, "wmeter_db_pool_connections_in_use", "service=").unwrap();
        let idle = value_in(&body, "wmeter_db_pool_connections_idle", "service=").unwrap();
        assert!(in_use + idle >= 1.0 && in_use + idle <= max.unwrap(), "{in_use} in use, {idle} idle");
    }
}

#[tokio::test]
async fn what_waits_in_the_outbox_table_is_counted_as_it_is_relayed() {
    for app in spawn_each(|_| {}).await {
        if app.db().backend() == wm_storage::Backend::Sqlite {
            // The outbox is the embedded log itself: nothing waits in a table.
            continue;
        }
        let registry = "source=\"device-registry\"";
        let relayed = || sample(&app, "wmeter_outbox_relayed_total", registry);
        let before = relayed().await.unwrap_or_default();
        let body = json!({
            "serialNumber": "RL00000001", "imei": "350000000000001", "phoneNumber": "0600000001",
            "bleAddress": "AA:00:00:00:00:01", "macAddress": "AB:00:00:00:00:01", "gpsCoordinates": [4.8, 45.7],
        });
        let created = app.send_as(Role::Operator, reqwest::Method::POST, "/api/proxy/gateways/", Some(body)).await;
        assert_eq!(created.status(), 201);
        let after = eventually("the registration's events relayed", || async {
            relayed().await.filter(|after| *after > before)
        })
        .await;
        let waited = sample(&app, "wmeter_outbox_wait_seconds_total", registry).await.unwrap();
        // Woken at each commit, a relay publishes within moments, not seconds.
        assert!((0.0..1.0).contains(&(waited / after)), "{after} events waited {waited} s in all");
        // Read every 5 s apart from the rounds: nothing waits for long.
        let oldest = sample(&app, "wmeter_outbox_oldest_age_seconds", registry).await.expect("the oldest event's age");
        assert!((0.0..10.0).contains(&oldest), "the oldest event waiting has waited {oldest} s");
    }
}

/// The series of `name` in `/metrics`, as (labels, value).
async fn series(app: &TestApp, name: &str) -> Vec<(String, f64)> {
    let body = app.get("/metrics").await.text().await.unwrap();
    body.lines()
        .filter_map(|l| l.strip_prefix(&format!("{name}{{")))
        .filter_map(|l| {
            let (labels, value) = l.rsplit_once(' ')?;
            Some((labels.to_owned(), value.parse().ok()?))
        })
        .collect()
}

#[tokio::test]
async fn the_sqlite_writer_is_counted_by_the_line_that_takes_each_turn() {
    for app in spawn_each(|_| {}).await {
        let turns = |series: &[(String, f64)], file: &str| -> f64 {
            series.iter().filter(|(labels, _)| labels.contains(&format!("site=\"{file}:"))).map(|(_, v)| v).sum()
        };
        let directory = "services/notification/src/projections.rs";
        let before = series(&app, "wmeter_db_writer_turns_total").await;
        // A new user is a write of auth's, then one of the notification
        // directory's projection, which `user` waits for.
        user(&app, "writer", Role::Viewer).await;
        let after = series(&app, "wmeter_db_writer_turns_total").await;
        let held = series(&app, "wmeter_db_writer_hold_seconds_total").await;
        let waited = series(&app, "wmeter_db_writer_wait_seconds_total").await;
        if app.db().backend() == wm_storage::Backend::Postgres {
            // PostgreSQL has no one writer to queue on.
            assert!(after.is_empty() && held.is_empty() && waited.is_empty(), "{after:?}");
            continue;
        }
        assert!(turns(&after, directory) > turns(&before, directory), "{before:?} then {after:?}");
        for (labels, _) in &after {
            let site = labels.split("site=\"").nth(1).and_then(|s| s.split('"').next()).unwrap();
            let (file, line) = site.rsplit_once(':').unwrap();
            assert!(file.ends_with(".rs") && line.parse::<u32>().is_ok(), "a site is file:line, not {site}");
        }
        assert_eq!(held.len(), after.len(), "held and taken by the same sites");
        assert!(held.iter().all(|(_, seconds)| *seconds > 0.0), "{held:?}");
        assert_eq!(waited.len(), after.len());
    }
}
