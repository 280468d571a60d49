//! The auth service's tables.

pub mod audit;
pub mod sessions;
pub mod users;
