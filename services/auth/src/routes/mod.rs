pub mod audit;
pub mod login;
pub mod logout;
pub mod refresh;

/// The auth service's part of the API description.
#[derive(utoipa::OpenApi)]
#[openapi(paths(login::post, refresh::post, logout::post, audit::get))]
pub struct AuthApi;
