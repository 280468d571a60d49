//! The deployment the topology test runs ([`wm_test_support::cluster`]),
//! with this binary, and reached by the HTTP suite through its gateway.

use std::sync::Arc;

use futures::future::BoxFuture;
use wm_http::auth::Role;
pub use wm_test_support::cluster::{Cli, Cluster, GATEWAY_LOGIN, JWT_KEY};

use crate::suite::target::{Target, Users};

/// The five services of this crate's `wmeter`, or `None` when the test
/// servers are not configured.
pub async fn start() -> Option<Cluster> {
    Cluster::start(env!("CARGO_BIN_EXE_wmeter").as_ref()).await
}

/// The deployment through the gateway, as the HTTP suite reaches it.
pub fn target(cluster: &Cluster) -> Target {
    Target::new(cluster.url("gateway"), JWT_KEY, Arc::new(cluster.cli()))
}

impl Users for Cli {
    fn add<'a>(&'a self, username: &'a str, password: &'a str, role: Role) -> BoxFuture<'a, ()> {
        // The other processes answer while this one blocks: nothing runs
        // in this test's runtime but the test.
        Box::pin(async move {
            self.run(&["user", "add", "--username", username, "--role", role.as_str()], Some(password));
        })
    }

    fn disable<'a>(&'a self, username: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            self.run(&["user", "disable", username], None);
        })
    }
}
