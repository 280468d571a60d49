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

/// Waits until every consumer this process dropped has closed, so has left
/// its group, or `within` passed; whether they all did. Each closes on a
/// thread of its own ([`closing`]), which dies with the process: a process
/// about to exit waits here, so that its partitions go to the members still
/// running at once, not after its session times out. Without the `kafka`
/// feature there are none.
pub async fn until_closed(within: std::time::Duration) -> bool {
    #[cfg(feature = "kafka")]
    {
        let deadline = tokio::time::Instant::now() + within;
        while closing() > 0 {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }
    #[cfg(not(feature = "kafka"))]
    let _ = within;
    true
}
