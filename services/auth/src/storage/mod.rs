//! The auth service's tables.

pub mod api_keys;
pub mod audit;
pub mod sessions;
pub mod users;
