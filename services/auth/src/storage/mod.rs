//! The auth service's tables.

pub mod sessions;
pub mod users;
