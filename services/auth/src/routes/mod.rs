pub mod audit;
pub mod login;
pub mod logout;
pub mod refresh;

/// The auth service's part of the API description.
#[derive(utoipa::OpenApi)]
#[openapi(paths(login::post, refresh::post, logout::post, audit::get))]
pub struct AuthApi;

use wm_http::ApiError;

/// The one answer to every failed sign-in or refresh: it never says whether
/// the user exists, the password was wrong or the token was replayed.
pub fn invalid_credentials() -> ApiError {
    ApiError::new(actix_web::http::StatusCode::UNAUTHORIZED, "invalid_credentials", "Invalid credentials")
}
