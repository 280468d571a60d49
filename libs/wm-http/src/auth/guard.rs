use actix_web::{
    Error, HttpMessage,
    body::MessageBody,
    dev::{ServiceRequest, ServiceResponse},
    middleware::Next,
};

use super::Caller;

/// The only `/api` routes that answer without an access token: they are how
/// a client gets one.
pub const PUBLIC_ROUTES: &[&str] = &["/api/auth/login", "/api/auth/refresh", "/api/auth/logout"];

/// The API description and its viewer, public like any published contract
/// (a browser cannot send a bearer token to load them).
pub const DOCS: &str = "/api/docs";

/// Middleware: every `/api/...` request but [`PUBLIC_ROUTES`] needs a valid
/// access token, or gets the 401 JSON error before any handler runs; the
/// caller's id goes on the request's span (`user`, [`crate::trace`]).
/// Handlers still take a [`Caller`] to know who calls and check the role;
/// it is the one this middleware found.
pub async fn require_token(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let path = req.path();
    let docs = path.strip_prefix(DOCS).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    let guarded = (path == "/api" || path.starts_with("/api/")) && !PUBLIC_ROUTES.contains(&path) && !docs;
    if guarded {
        match Caller::authenticate(req.request()) {
            Ok(caller) => {
                tracing::Span::current().record("user", caller.user_id.as_str());
                // The handler's `Caller` takes it from here: one token check
                // a request.
                req.extensions_mut().insert(caller);
            }
            // A response, not an error: outer middleware (the security
            // headers) sees it like any other.
            Err(refusal) => return Ok(req.error_response(refusal).map_into_right_body()),
        }
    }
    next.call(req).await.map(ServiceResponse::map_into_left_body)
}
