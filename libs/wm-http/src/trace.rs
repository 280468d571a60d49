//! Every request runs in a `request` span whose parent is the caller's W3C
//! `traceparent`, when it sent one (the API gateway passes it on):
//! handlers' spans, the storage work under them and the events they stage
//! join the caller's trace. The span names the route template (`route`,
//! never the raw path's ids), the signed-in user (`user`, recorded by
//! [`require_token`](crate::auth::require_token)) and the answer's
//! `status`. The route is recorded with the answer, once the router has
//! matched it: before routing, finding it means trying the app's routes
//! one by one, a second routing that cost some 5 % of a request's CPU
//! (docs/performance.md §3). [`propagate`] makes the current span the
//! parent of an outgoing request (the gateway's call to a service).

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
    let span = tracing::info_span!(
        "request",
        method = %req.method(),
        path = %req.path(),
        route = tracing::field::Empty,
        user = tracing::field::Empty,
        status = tracing::field::Empty,
    );
    let carrier: HashMap<String, String> = ["traceparent", "tracestate"]
        .into_iter()
        .filter_map(|name| Some((name.to_owned(), req.headers().get(name)?.to_str().ok()?.to_owned())))
        .collect();
    if !carrier.is_empty() {
        let parent = opentelemetry::global::get_text_map_propagator(|p| p.extract(&carrier));
        let _ = span.set_parent(parent);
    }
    let response = next.call(req).instrument(span.clone()).await;
    let status = match &response {
        Ok(response) => {
            // Routed: the matched resource's pattern, found by its index.
            let route = response.request().match_pattern();
            span.record("route", route.as_deref().unwrap_or("unmatched"));
            response.status()
        }
        Err(e) => e.as_response_error().status_code(),
    };
    span.record("status", status.as_u16());
    response
}

/// Sets `traceparent` (and `tracestate`) of `headers` to the current span,
/// so that the service called joins this trace under this span. Outside a
/// trace (no exporter), `headers` is left as it is: a caller's trace
/// headers pass through.
pub fn propagate(headers: &mut reqwest::header::HeaderMap) {
    let context = tracing::Span::current().context();
    if !opentelemetry::trace::TraceContextExt::span(&context).span_context().is_valid() {
        return;
    }
    let mut carrier = HashMap::new();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&context, &mut carrier));
    headers.remove("tracestate");
    for (name, value) in carrier {
        if let (Ok(name), Ok(value)) =
            (reqwest::header::HeaderName::try_from(name), reqwest::header::HeaderValue::try_from(value))
        {
            headers.insert(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use actix_web::{App, HttpResponse, middleware::from_fn, test, web};
    use opentelemetry::trace::{TraceContextExt, TracerProvider as _};
    use opentelemetry_sdk::{propagation::TraceContextPropagator, trace::SdkTracerProvider};
    use tracing::span;
    use tracing_subscriber::{
        Layer,
        layer::{Context, SubscriberExt},
    };

    use super::*;
    use crate::auth::{AccessTokens, JwtSettings, Role, Subject, require_token};

    /// Answers with the trace id of the span it runs in.
    async fn trace_id() -> HttpResponse {
        let context = tracing::Span::current().context();
        HttpResponse::Ok().body(context.span().span_context().trace_id().to_string())
    }

    /// The fields recorded on `request` spans, by name.
    #[derive(Clone, Default)]
    struct RequestFields(Arc<Mutex<HashMap<String, String>>>);

    impl tracing::field::Visit for RequestFields {
        fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
            self.0.lock().unwrap().insert(field.name().to_owned(), format!("{value:?}").trim_matches('"').to_owned());
        }
    }

    impl<S: tracing::Subscriber> Layer<S> for RequestFields {
        fn on_new_span(&self, attrs: &span::Attributes<'_>, _: &span::Id, _: Context<'_, S>) {
            if attrs.metadata().name() == "request" {
                attrs.record(&mut self.clone());
            }
        }

        fn on_record(&self, _: &span::Id, values: &span::Record<'_>, _: Context<'_, S>) {
            values.record(&mut self.clone());
        }
    }

    #[actix_web::test]
    async fn a_request_span_names_its_route_user_and_status() {
        let fields = RequestFields::default();
        let _traced = tracing::subscriber::set_default(tracing_subscriber::registry().with(fields.clone()));
        let tokens = AccessTokens::new(b"test-key-test-key-test-key-test-key", JwtSettings::default()).unwrap();
        let token = tokens.issue(&Subject::new("6740a1b2c3d4e5f600000042", Role::Operator)).unwrap();
        let app = test::init_service(
            App::new()
                .app_data(web::Data::new(tokens))
                .wrap(from_fn(require_token))
                .wrap(from_fn(request))
                .route("/api/things/{id}", web::get().to(HttpResponse::Ok)),
        )
        .await;
        let request = test::TestRequest::get()
            .uri("/api/things/0123")
            .insert_header(("authorization", format!("Bearer {token}")));
        assert_eq!(test::call_service(&app, request.to_request()).await.status(), 200);
        let seen = fields.0.lock().unwrap().clone();
        assert_eq!(seen.get("route").map(String::as_str), Some("/api/things/{id}"), "{seen:?}");
        assert_eq!(seen.get("user").map(String::as_str), Some("6740a1b2c3d4e5f600000042"), "{seen:?}");
        assert_eq!(seen.get("status").map(String::as_str), Some("200"), "{seen:?}");

        let anonymous = test::TestRequest::get().uri("/api/things/0123").to_request();
        let refused = test::call_service(&app, anonymous).await;
        assert_eq!(refused.status(), 401, "no token: refused before the handler, as a response");
        let seen = fields.0.lock().unwrap().clone();
        assert_eq!(seen.get("status").map(String::as_str), Some("401"), "{seen:?}");
        assert_eq!(seen.get("route").map(String::as_str), Some("/api/things/{id}"), "named though never routed");

        let nowhere = test::TestRequest::get().uri("/elsewhere").to_request();
        assert_eq!(test::call_service(&app, nowhere).await.status(), 404);
        assert_eq!(fields.0.lock().unwrap().get("route").map(String::as_str), Some("unmatched"));
    }

    #[actix_web::test]
    async fn an_outgoing_request_continues_the_trace_under_the_current_span() {
        const CALLER: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert("traceparent", CALLER.parse().unwrap());
        propagate(&mut headers);
        assert_eq!(headers["traceparent"], CALLER, "not traced: the caller's header passes as is");

        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        let tracer = SdkTracerProvider::builder().build().tracer("test");
        let subscriber = tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(tracer));
        let _traced = tracing::subscriber::set_default(subscriber);
        let span = tracing::info_span!("request");
        let carrier = HashMap::from([("traceparent".to_owned(), CALLER.to_owned())]);
        let _ = span.set_parent(opentelemetry::global::get_text_map_propagator(|p| p.extract(&carrier)));
        let own_span = span.context().span().span_context().span_id().to_string();
        span.in_scope(|| propagate(&mut headers));
        let sent = headers["traceparent"].to_str().unwrap();
        assert_eq!(sent, format!("00-0af7651916cd43dd8448eb211c80319c-{own_span}-01"), "same trace, this span");
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
