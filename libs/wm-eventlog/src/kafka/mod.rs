//! The event log on Kafka (or Redpanda, or any Kafka-protocol broker). The
//! settings are always here, so a configuration parses the same in every
//! build; the clients need the `kafka` feature (librdkafka, built from
//! source), which `make run`'s demo build leaves out.

#[cfg(feature = "kafka")]
mod admin;
#[cfg(feature = "kafka")]
mod clients;
mod config;
#[cfg(feature = "kafka")]
mod consumer;
#[cfg(feature = "kafka")]
mod log;
pub mod plan;
#[cfg(feature = "kafka")]
mod producer;
mod security;

#[cfg(feature = "kafka")]
pub use self::consumer::closing;
#[cfg(feature = "kafka")]
pub use self::log::KafkaLog;
pub use self::{config::KafkaSettings, security::KafkaSecurity};
