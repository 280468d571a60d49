//! The notification service's tables, written once for both databases.

pub mod directory;
pub mod inbox;
