//! The auth service's tables.

pub mod users;
