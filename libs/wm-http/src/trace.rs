//! Every request runs in a `request` span whose parent is the caller's W3C
//! `traceparent`, when it sent one (the gateway passes it on): handlers'
//! spans, and the events they stage, join the caller's trace.

use std::collections::HashMap;

use actix_web::{
    Error,
    body::MessageBody,
    dev::{ServiceRequest, ServiceResponse},
    middleware::Next,
};
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The middleware; install with `App::wrap(from_fn(wm_http::trace::request))`.
pub async fn request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let span = tracing::info_span!("request", method = %req.method(), path = %req.path());
    let carrier: HashMap<String, String> = ["traceparent", "tracestate"]
        .into_iter()
        .filter_map(|name| Some((name.to_owned(), req.headers().get(name)?.to_str().ok()?.to_owned())))
        .collect();
    if !carrier.is_empty() {
        let parent = opentelemetry::global::get_text_map_propagator(|p| p.extract(&carrier));
        let _ = span.set_parent(parent);
    }
    next.call(req).instrument(span).await
}

#[cfg(test)]
mod tests {
    use actix_web::{App, HttpResponse, middleware::from_fn, test, web};
    use opentelemetry::trace::{TraceContextExt, TracerProvider as _};
    use opentelemetry_sdk::{propagation::TraceContextPropagator, trace::SdkTracerProvider};
    use tracing_subscriber::layer::SubscriberExt;

    use super::*;

    /// Answers with the trace id of the span it runs in.
    async fn trace_id() -> HttpResponse {
        let context = tracing::Span::current().context();
        HttpResponse::Ok().body(context.span().span_context().trace_id().to_string())
    }

    #[actix_web::test]
    async fn a_request_joins_the_callers_trace() {
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        let tracer = SdkTracerProvider::builder().build().tracer("test");
        let subscriber = tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(tracer));
        let _traced = tracing::subscriber::set_default(subscriber);
        let app = test::init_service(App::new().wrap(from_fn(request)).route("/", web::get().to(trace_id))).await;

        let traced = test::TestRequest::get()
            .uri("/")
            .insert_header(("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"))
            .to_request();
        let body = test::call_and_read_body(&app, traced).await;
        assert_eq!(body, "0af7651916cd43dd8448eb211c80319c");

        let untraced = test::call_and_read_body(&app, test::TestRequest::get().uri("/").to_request()).await;
        assert_ne!(untraced, body, "without a traceparent a request starts a trace of its own");
    }
}
