//! The notification service's domain: alarm rules and their deliveries.
//! Pure: nothing here touches storage or the network.

pub mod alarm_rule;
pub mod delivery;
