//! The event-log contract, run against both implementations.
//!
//! Every contract test is one `async fn(Harness)`; [`contract!`] turns it
//! into `<name>::embedded` and `<name>::kafka`. The Kafka variants need a
//! broker at `WM_TEST_KAFKA_BROKERS` (see `deploy/dev/tansu.sh`): without it
//! they are skipped, or fail when `WM_REQUIRE_SERVERS=1`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking, helpers included

mod harness;

mod basics;
mod batch;
mod delivery;
mod groups;
mod headers;
mod lag;
mod namespace;
mod ordering;
mod outbox;
mod projection;
mod properties;
mod replay;
mod topic_plan;
mod trace;

/// Runs each named contract test against the embedded log and against Kafka.
macro_rules! contract {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn embedded() {
                super::$name($crate::harness::Harness::embedded().await).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn kafka() {
                if let Some(harness) = $crate::harness::Harness::kafka().await {
                    super::$name(harness).await;
                }
            }
        }
    )+};
}
pub(crate) use contract;
