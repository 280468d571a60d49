//! The notification service's tables, written once for both databases.

pub mod alarm_rules;
pub mod deliveries;
pub mod directory;
pub mod inbox;
