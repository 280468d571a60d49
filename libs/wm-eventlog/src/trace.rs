//! The W3C trace context across the log. An event staged inside a traced
//! request carries its `traceparent` (in the envelope's correlation id, and
//! so in the record's header), and a projection applies a batch in a span
//! whose parent is the trace of the batch's first event: one trace spans
//! HTTP → log → projection. Without an OTLP exporter there is no trace to
//! carry, and nothing is added.

use std::collections::HashMap;

use tracing_opentelemetry::OpenTelemetrySpanExt;

use crate::{Record, envelopes::TRACEPARENT};

/// The current span's `traceparent`, when it belongs to a trace.
pub fn current_traceparent() -> Option<String> {
    let context = tracing::Span::current().context();
    let mut carrier = HashMap::new();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&context, &mut carrier));
    carrier.remove(TRACEPARENT)
}

/// Makes `span` a child of the trace of the first record that carries one.
pub fn follow(span: &tracing::Span, records: &[Record]) {
    let Some(traceparent) = records.iter().find_map(|r| r.header(TRACEPARENT)) else { return };
    let Ok(traceparent) = std::str::from_utf8(traceparent) else { return };
    continue_trace(span, traceparent);
}

/// Makes `span` a child of the span `traceparent` names (an event's
/// correlation id); a malformed or empty one leaves `span` a root.
pub fn continue_trace(span: &tracing::Span, traceparent: &str) {
    if traceparent.is_empty() {
        return;
    }
    let carrier = HashMap::from([(TRACEPARENT.to_owned(), traceparent.to_owned())]);
    let parent = opentelemetry::global::get_text_map_propagator(|p| p.extract(&carrier));
    let _ = span.set_parent(parent);
}
