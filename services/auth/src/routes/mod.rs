pub mod login;
pub mod logout;
pub mod refresh;

/// The auth service's part of the API description.
#[derive(utoipa::OpenApi)]
#[openapi(paths(login::post, refresh::post, logout::post))]
pub struct AuthApi;

use wm_http::ApiError;

/// The one answer to every failed sign-in or refresh: it never says whether
/// the user exists, the password was wrong or the token was replayed.
pub fn invalid_credentials() -> ApiError {
    ApiError::new(actix_web::http::StatusCode::UNAUTHORIZED, "invalid_credentials", "Invalid credentials")
}

/// Storage failures: 503 when the database is unreachable, 500 otherwise.
pub fn storage_failure(e: &(dyn std::error::Error + 'static)) -> ApiError {
    let mut source = Some(e);
    while let Some(err) = source {
        if let Some(sqlx) = err.downcast_ref::<sqlx::Error>()
            && wm_storage::is_unavailable(sqlx)
        {
            return ApiError::unavailable("The database is unavailable; try again shortly");
        }
        source = err.source();
    }
    ApiError::internal(e)
}
