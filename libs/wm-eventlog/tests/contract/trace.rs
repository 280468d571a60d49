//! One trace spans HTTP → log → projection: an event staged in a traced span
//! carries its `traceparent`, and a projection applies it in a span of the
//! same trace. The OpenTelemetry layer here has no exporter; only the ids
//! are checked.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use async_trait::async_trait;
use opentelemetry::trace::{TraceContextExt, TraceId, TracerProvider as _};
use opentelemetry_sdk::{propagation::TraceContextPropagator, trace::SdkTracerProvider};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;
use wm_eventlog::{
    OutgoingRecord, Record,
    envelopes::TRACEPARENT,
    outbox,
    projection::{self, ApplyError, Effects, LagMetric, Projection, RunOptions},
};
use wm_proto::{Envelope, Payload, v1::MeterDeleted};
use wm_storage::with_pool;
use wm_test_support::TestDb;

use crate::harness::{Harness, WAIT, group, poll_count};

const TRACE: &str = "0af7651916cd43dd8448eb211c80319c";
const TRACEPARENT_IN: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

/// A subscriber with an OpenTelemetry layer, for this thread.
fn traced() -> tracing::subscriber::DefaultGuard {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let tracer = SdkTracerProvider::builder().build().tracer("test");
    let subscriber = tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(tracer));
    tracing::subscriber::set_default(subscriber)
}

fn remote_parent() -> opentelemetry::Context {
    let carrier = HashMap::from([(TRACEPARENT.to_owned(), TRACEPARENT_IN.to_owned())]);
    opentelemetry::global::get_text_map_propagator(|p| p.extract(&carrier))
}

#[tokio::test]
async fn an_event_staged_in_a_traced_request_carries_its_trace() {
    let _traced = traced();
    let db = TestDb::sqlite().await;
    db.db().migrate(&outbox::MIGRATIONS).await.unwrap();
    // A log in another database: the events wait in this one's table.
    let elsewhere = Harness::embedded().await;
    let relay = outbox::Relay::new(db.db().clone(), elsewhere.log.clone(), "test");
    let span = tracing::info_span!("request");
    let _ = span.set_parent(remote_parent());
    async {
        let mut tx = db.db().begin_write().await.unwrap();
        let event =
            Envelope::new("aaaaaaaaaaaaaaaaaaaaaaaa", "test", Payload::MeterDeleted(MeterDeleted { id: "a".into() }));
        relay.stage(&mut tx, None, &[event]).await.unwrap();
        tx.commit().await.unwrap();
    }
    .instrument(span)
    .await;

    let bytes: Vec<u8> =
        with_pool!(db.db(), pool => sqlx::query_scalar("SELECT records FROM event_outbox_batch").fetch_one(pool).await)
            .unwrap();
    let staged = Envelope::from_bytes(&outbox::staged::decode(bytes, 1, 1).into_records()[0].payload).unwrap();
    assert!(staged.correlation_id.starts_with(&format!("00-{TRACE}-")), "{}", staged.correlation_id);
    assert_ne!(staged.correlation_id, TRACEPARENT_IN, "a span of its own in the caller's trace");

    assert_eq!(relay.flush().await.unwrap(), 1);
    let mut consumer = elsewhere.subscribe(&group("traced"), wm_proto::topics::REGISTRY).await;
    let records = poll_count(consumer.as_mut(), "the event", 1).await;
    let header = records[0].headers.iter().find(|(name, _)| name == TRACEPARENT).map(|(_, v)| v.as_slice());
    assert_eq!(header, Some(staged.correlation_id.as_bytes()), "the record carries the trace as a header");
}

#[derive(Debug)]
struct TraceRecorder {
    name: &'static str,
    topics: &'static [&'static str],
    seen: Mutex<Vec<TraceId>>,
}

#[async_trait]
impl Projection for TraceRecorder {
    fn name(&self) -> &'static str {
        self.name
    }
    fn topics(&self) -> &'static [&'static str] {
        self.topics
    }
    async fn apply(&self, _records: &[Record], _effects: Effects) -> Result<(), ApplyError> {
        let context = tracing::Span::current().context();
        self.seen.lock().unwrap().push(context.span().span_context().trace_id());
        Ok(())
    }
    async fn reset(&self) -> Result<(), ApplyError> {
        Ok(())
    }
}

#[tokio::test]
async fn a_projection_applies_an_event_in_the_trace_that_produced_it() {
    let _traced = traced();
    let harness = Harness::embedded().await;
    let topic = harness.topic("trace").await;
    let record = OutgoingRecord::new(&topic, "device-1", b"traced".to_vec()).with_header(TRACEPARENT, TRACEPARENT_IN);
    harness.append_all(vec![record]).await;
    let recorder = Arc::new(TraceRecorder {
        name: Box::leak(group("trace").into_boxed_str()),
        topics: Box::leak(vec![&*Box::leak(topic.into_boxed_str())].into_boxed_slice()),
        seen: Mutex::default(),
    });

    let stop = CancellationToken::new();
    let (log, running, token) = (harness.log.clone(), recorder.clone(), stop.clone());
    let task = tokio::spawn(
        async move {
            projection::run(
                log.as_ref(),
                running.as_ref(),
                RunOptions::default(),
                &LagMetric::default(),
                &Default::default(),
                token,
            )
            .await
        }
        .in_current_span(),
    );
    let deadline = tokio::time::Instant::now() + WAIT;
    while recorder.seen.lock().unwrap().is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "the record was never applied");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    stop.cancel();
    task.await.unwrap();
    assert_eq!(recorder.seen.lock().unwrap()[0], TraceId::from_hex(TRACE).unwrap());
}
