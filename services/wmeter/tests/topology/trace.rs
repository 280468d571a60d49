//! Traces, seen arriving: every process exports its spans to an OTLP/HTTP
//! receiver this test runs.
//! - A browser's request (no `traceparent`) is one trace from the gateway to
//!   the registry's request and its transaction, and on through the log to
//!   the projections of ingest and notification.
//! - An uplink is one trace from ingest, through the log, to the
//!   notification's projection and its delivery to an open stream.
//! - A log line logged in a span names the span's trace.

use serde_json::{Value, json};
use wm_test_support::{
    cluster::Via,
    otlp::{Collector, Span},
};

use crate::{
    client::{Operator, Uplink, address, eventually, receives, until_known, until_meter_known},
    cluster::Cluster,
};

/// How long spans may take to arrive: they leave in batches, every 200 ms.
const ARRIVAL_SECS: u64 = 60;

/// The spans of `trace` received so far.
fn trace(collector: &Collector, trace_id: &str) -> Vec<Span> {
    collector.spans().into_iter().filter(|s| s.trace_id == trace_id).collect()
}

fn find<'a>(trace: &'a [Span], service: &str, name: &str) -> Option<&'a Span> {
    trace.iter().find(|s| s.service == service && s.name == name)
}

/// Whether `ancestor` is `span` or above it in `trace`.
fn descends(trace: &[Span], span: &Span, ancestor: &Span) -> bool {
    let mut at = Some(span);
    while let Some(current) = at {
        if current.span_id == ancestor.span_id {
            return true;
        }
        at = trace.iter().find(|s| s.span_id == current.parent_span_id);
    }
    false
}

fn services(trace: &[Span]) -> std::collections::BTreeSet<&str> {
    trace.iter().map(|s| s.service.as_str()).collect()
}

#[tokio::test]
async fn one_trace_follows_a_request_and_an_uplink_across_the_services() {
    let collector = Collector::start();
    let via = Via { otlp: Some(collector.url().to_owned()), ..Via::default() };
    let Some(cluster) = Cluster::start_via(env!("CARGO_BIN_EXE_wmeter").as_ref(), via).await else { return };
    let operator = Operator::create(&cluster, "tia").await;

    // A browser's request: the gateway starts the trace.
    let meter_id = operator.register_meter(1).await;
    let request = eventually("the gateway's span of the registration", ARRIVAL_SECS, || async {
        collector.spans().into_iter().find(|s| {
            s.service == "gateway"
                && s.name == "request"
                && s.attributes.get("method").map(String::as_str) == Some("POST")
                && s.attributes.get("path").map(String::as_str) == Some("/api/proxy/wmeters/")
        })
    })
    .await;
    assert_eq!(request.parent_span_id, "", "no traceparent came with it: the gateway's span is the root");
    let spans = eventually("the registration's trace in the registry, ingest and notification", ARRIVAL_SECS, || {
        let spans = trace(&collector, &request.trace_id);
        let applied = |service| spans.iter().any(|s| s.service == service && s.name == "apply");
        let complete = find(&spans, "device-registry", "transaction").is_some()
            && applied("telemetry-ingest")
            && applied("notification");
        async move { complete.then_some(spans) }
    })
    .await;
    let registry = find(&spans, "device-registry", "request").expect("the registry's request span");
    let forwarded = spans.iter().find(|s| s.span_id == registry.parent_span_id);
    assert!(
        forwarded.is_some_and(|parent| parent.service == "gateway" && descends(&spans, parent, &request)),
        "a span of the gateway's request is the parent of the registry's: {spans:#?}"
    );
    assert_eq!(registry.attributes.get("route").map(String::as_str), Some("/api/proxy/wmeters/"));
    let transaction = find(&spans, "device-registry", "transaction").unwrap();
    assert!(descends(&spans, transaction, registry), "the transaction runs under the request: {spans:#?}");
    assert!(services(&spans).len() >= 4, "gateway, registry, ingest, notification: {:?}", services(&spans));

    // An uplink: ingest starts the trace, and the alert's notification is
    // delivered to the stream open on a notification replica in it.
    let gateway_id = operator.register_gateway(1).await;
    let mut uplink = Uplink::connect(&cluster, "TG00000001").await;
    until_known(&operator, &mut uplink, &gateway_id).await;
    until_meter_known(&operator, &mut uplink, &address(0xC0, 1), &meter_id).await;
    let stream = operator.notifications(&cluster.url("notification-1")).await;
    uplink.send("alert", json!({"meter": address(0xC0, 1), "type": "leak", "state": "raised"})).await;
    receives("notification-1", stream, format!(r#""deviceId":"{meter_id}""#)).await;
    let delivery = eventually("the delivery's span", ARRIVAL_SECS, || async {
        collector.spans().into_iter().find(|s| {
            s.service == "notification"
                && s.name == "deliver"
                && s.attributes.get("notifications").is_some_and(|n| n != "0")
        })
    })
    .await;
    let spans = eventually("the uplink's trace from ingest", ARRIVAL_SECS, || {
        let spans = trace(&collector, &delivery.trace_id);
        async move { find(&spans, "telemetry-ingest", "ingest").is_some().then_some(spans) }
    })
    .await;
    let ingest = find(&spans, "telemetry-ingest", "ingest").unwrap();
    assert_eq!(ingest.parent_span_id, "", "the uplink's batch starts the trace: {spans:#?}");
    let apply = spans
        .iter()
        .find(|s| s.service == "notification" && s.name == "apply" && descends(&spans, &delivery, s))
        .unwrap_or_else(|| panic!("the delivery follows the notification's projection: {spans:#?}"));
    assert_eq!(apply.parent_span_id, ingest.span_id, "notification applies the alert under the ingest span");

    // A log line names its trace: the ingest span's of an uplink refused.
    uplink.send("reading", json!({"meter": "not-an-address", "record": 1, "unit": "L"})).await;
    let line = eventually("the refusal's log line", ARRIVAL_SECS, || async {
        ["telemetry-ingest-1", "telemetry-ingest-2"]
            .iter()
            .flat_map(|name| cluster.log(name).lines().map(str::to_owned).collect::<Vec<_>>())
            .filter_map(|line| serde_json::from_str::<Value>(&line).ok())
            .find(|line| line["message"] == "uplink dead-lettered")
    })
    .await;
    let trace_id = line["trace_id"].as_str().unwrap_or_else(|| panic!("no trace_id: {line}")).to_owned();
    let span_id = line["span_id"].as_str().unwrap_or_else(|| panic!("no span_id: {line}")).to_owned();
    eventually("the refused uplink's span", ARRIVAL_SECS, || {
        let span = trace(&collector, &trace_id).into_iter().find(|s| s.span_id == span_id && s.name == "ingest");
        async move { span }
    })
    .await;
}
