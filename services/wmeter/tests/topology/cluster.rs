//! The deployment the topology test runs ([`wm_test_support::cluster`]),
//! with this binary, and reached by the HTTP suite through its gateway.

use std::sync::Arc;

pub use wm_test_support::cluster::{Cluster, GATEWAY_LOGIN, JWT_KEY};

use crate::suite::target::Target;

/// The five services of this crate's `wmeter`, or `None` when the test
/// servers are not configured.
pub async fn start() -> Option<Cluster> {
    Cluster::start(env!("CARGO_BIN_EXE_wmeter").as_ref()).await
}

/// The deployment through the gateway, as the HTTP suite reaches it.
pub fn target(cluster: &Cluster) -> Target {
    Target::new(cluster.url("gateway"), JWT_KEY, Arc::new(cluster.cli()))
}
