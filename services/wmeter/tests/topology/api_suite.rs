//! The HTTP API suite of the embedded application, run unchanged against
//! the distributed gateway: one deployment, each test in its own block of
//! device identifiers.

use crate::{cluster, suite::suite_tests};

macro_rules! through_the_gateway {
    ($($module:ident :: $test:ident),* $(,)?) => {
        #[tokio::test]
        async fn the_http_api_suite_passes_through_the_gateway() {
            let Some(cluster) = cluster::start().await else { return };
            let target = cluster::target(&cluster);
            let mut block = 0;
            $(
                block += 1000;
                eprintln!("suite: {}::{}", stringify!($module), stringify!($test));
                crate::suite::$module::$test(&target.with_block(block)).await;
            )*
        }
    };
}

suite_tests!(through_the_gateway);
