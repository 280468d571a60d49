//! The HTTP API suite against the embedded application: each test on a
//! fresh app per database backend (SQLite with the embedded log, and
//! PostgreSQL with Kafka when those servers are configured).

use crate::{helpers::spawn_each, suite::suite_tests};

macro_rules! embedded {
    ($($module:ident :: $test:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $test() {
                for app in spawn_each(|_| {}).await {
                    crate::suite::$module::$test(&app).await;
                }
            }
        )*
    };
}

suite_tests!(embedded);
