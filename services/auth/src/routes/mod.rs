pub mod account;
pub mod api_keys;
pub mod audit;
pub mod login;
pub mod logout;
pub mod refresh;
pub mod users;

/// The auth service's part of the API description.
#[derive(utoipa::OpenApi)]
#[openapi(paths(
    login::post,
    refresh::post,
    logout::post,
    account::me,
    account::change_password,
    audit::get,
    audit::export,
    users::list,
    users::create,
    users::patch,
    users::reset_password,
    users::revoke_sessions,
    api_keys::list,
    api_keys::create,
    api_keys::revoke,
    account::preferences,
))]
pub struct AuthApi;
