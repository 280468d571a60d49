//! An OTLP/HTTP trace receiver on 127.0.0.1, as a collector (the
//! OpenTelemetry Collector, Jaeger) takes traces: `POST /v1/traces` with an
//! `ExportTraceServiceRequest` in Protobuf, decoded with the protocol's own
//! messages. A test points `log.otlp_endpoint` at [`Collector::url`] and
//! reads the spans that arrived. It stops when dropped.

use std::{
    collections::BTreeMap,
    net::TcpListener,
    sync::{Arc, Mutex, PoisonError},
};

use actix_web::{App, HttpResponse, HttpServer, dev::ServerHandle, web};
use opentelemetry_proto::tonic::{
    collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse},
    common::v1::{AnyValue, KeyValue, any_value::Value},
};
use prost::Message;

/// One span as it arrived.
#[derive(Clone, Debug)]
pub struct Span {
    /// The `service.name` of the process that sent it.
    pub service: String,
    pub name: String,
    /// Hex, as in a `traceparent`.
    pub trace_id: String,
    pub span_id: String,
    /// Empty for a root span.
    pub parent_span_id: String,
    /// The span's attributes, as text.
    pub attributes: BTreeMap<String, String>,
}

#[derive(Debug)]
pub struct Collector {
    url: String,
    spans: Arc<Mutex<Vec<Span>>>,
    server: ServerHandle,
}

impl Collector {
    /// Listens on a free port of 127.0.0.1. Call within the runtime.
    pub fn start() -> Collector {
        let spans = Arc::new(Mutex::new(Vec::new()));
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the collector");
        let url = format!("http://{}", listener.local_addr().expect("its address"));
        let received = web::Data::new(spans.clone());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(received.clone())
                .app_data(web::PayloadConfig::new(16 << 20))
                .route("/v1/traces", web::post().to(export))
        })
        .workers(1)
        .listen(listener)
        .expect("the collector listens")
        .run();
        let handle = server.handle();
        tokio::spawn(server);
        Collector { url, spans, server: handle }
    }

    /// What `log.otlp_endpoint` takes.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Every span received so far.
    pub fn spans(&self) -> Vec<Span> {
        self.spans.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

impl Drop for Collector {
    fn drop(&mut self) {
        // The stop is sent now; the server ends on its own.
        drop(self.server.stop(false));
    }
}

async fn export(body: web::Bytes, spans: web::Data<Arc<Mutex<Vec<Span>>>>) -> HttpResponse {
    let request = match ExportTraceServiceRequest::decode(body) {
        Ok(request) => request,
        Err(e) => return HttpResponse::BadRequest().body(format!("not an ExportTraceServiceRequest: {e}")),
    };
    let mut received = Vec::new();
    for resource_spans in request.resource_spans {
        let service = resource_spans
            .resource
            .map(|r| attributes(r.attributes))
            .and_then(|mut a| a.remove("service.name"))
            .unwrap_or_default();
        for span in resource_spans.scope_spans.into_iter().flat_map(|scope| scope.spans) {
            received.push(Span {
                service: service.clone(),
                name: span.name,
                trace_id: hex(&span.trace_id),
                span_id: hex(&span.span_id),
                parent_span_id: hex(&span.parent_span_id),
                attributes: attributes(span.attributes),
            });
        }
    }
    spans.lock().unwrap_or_else(PoisonError::into_inner).extend(received);
    HttpResponse::Ok()
        .content_type("application/x-protobuf")
        .body(ExportTraceServiceResponse::default().encode_to_vec())
}

fn attributes(pairs: Vec<KeyValue>) -> BTreeMap<String, String> {
    pairs.into_iter().map(|kv| (kv.key, kv.value.map(text).unwrap_or_default())).collect()
}

fn text(value: AnyValue) -> String {
    match value.value {
        Some(Value::StringValue(s)) => s,
        Some(Value::BoolValue(b)) => b.to_string(),
        Some(Value::IntValue(i)) => i.to_string(),
        Some(Value::DoubleValue(d)) => d.to_string(),
        other => format!("{other:?}"),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
