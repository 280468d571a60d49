//! JSON log lines carry the trace: a line logged inside a traced span starts
//! with its `trace_id` and `span_id`, so a collector finds every line of a
//! trace, and a trace's spans lead to their lines. The OpenTelemetry layer
//! makes an entered span's context the current one; without an exporter
//! there is no trace, and lines are as before.

use std::fmt;

use opentelemetry::trace::TraceContextExt;
use tracing::{Event, Subscriber};
use tracing_subscriber::{
    fmt::{FmtContext, FormatEvent, FormatFields, format::Writer},
    registry::LookupSpan,
};

/// Wraps a JSON event format (one object per line) and puts the current
/// trace's ids first in each object.
pub struct WithTraceIds<F>(pub F);

impl<S, N, F> FormatEvent<S, N> for WithTraceIds<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(&self, ctx: &FmtContext<'_, S, N>, mut writer: Writer<'_>, event: &Event<'_>) -> fmt::Result {
        let context = opentelemetry::Context::current();
        let span = context.span();
        let ids = span.span_context();
        if !ids.is_valid() {
            return self.0.format_event(ctx, writer, event);
        }
        let mut line = String::new();
        self.0.format_event(ctx, Writer::new(&mut line), event)?;
        match line.strip_prefix('{') {
            Some(rest) => {
                write!(writer, r#"{{"trace_id":"{}","span_id":"{}","#, ids.trace_id(), ids.span_id())?;
                writer.write_str(rest)
            }
            None => writer.write_str(&line),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{
        io,
        sync::{Arc, Mutex},
    };

    use opentelemetry::trace::TracerProvider as _;
    use opentelemetry_sdk::trace::SdkTracerProvider;
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    use tracing_subscriber::{fmt::MakeWriter, layer::SubscriberExt};

    use super::*;

    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl io::Write for Lines {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Lines {
        type Writer = Lines;

        fn make_writer(&'a self) -> Self::Writer {
            self.clone()
        }
    }

    impl Lines {
        fn parsed(&self) -> Vec<serde_json::Value> {
            let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
            text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
        }
    }

    #[test]
    fn a_line_logged_in_a_traced_span_names_its_trace_and_span() {
        let lines = Lines::default();
        let tracer = SdkTracerProvider::builder().build().tracer("test");
        let format = tracing_subscriber::fmt::format().json().flatten_event(true).with_current_span(false);
        let subscriber = tracing_subscriber::registry()
            .with(tracing_subscriber::fmt::layer().json().event_format(WithTraceIds(format)).with_writer(lines.clone()))
            .with(tracing_opentelemetry::layer().with_tracer(tracer));
        let _installed = tracing::subscriber::set_default(subscriber);

        tracing::info!(answer = 42, "outside any span");
        let span = tracing::info_span!("work");
        let ids = span.in_scope(|| {
            tracing::info!(answer = 43, "inside");
            span.context().span().span_context().clone()
        });

        let [outside, inside] = lines.parsed().try_into().unwrap();
        assert_eq!(outside["message"], "outside any span");
        assert_eq!(outside["answer"], 42);
        assert!(outside.get("trace_id").is_none(), "{outside}");
        assert_eq!(inside["message"], "inside");
        assert_eq!(inside["answer"], 43, "the event's own fields are kept: {inside}");
        assert_eq!(inside["trace_id"], ids.trace_id().to_string());
        assert_eq!(inside["span_id"], ids.span_id().to_string());
    }
}
