//! The test broker's housekeeping: it keeps every record in memory.

use std::time::Duration;

use rdkafka::{
    ClientConfig,
    admin::{AdminClient, AdminOptions},
    client::DefaultClientContext,
};

/// How long each request to the broker may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Deletes the topics of `brokers` whose names start with `prefix`, and
/// waits for the broker's answer. A failure is printed, not raised: the
/// test that made them is over.
pub fn delete_topics(brokers: &str, prefix: &str) {
    let admin: AdminClient<DefaultClientContext> = match ClientConfig::new().set("bootstrap.servers", brokers).create()
    {
        Ok(admin) => admin,
        Err(e) => return eprintln!("cannot delete the topics {prefix}*: {e}"),
    };
    let metadata = match admin.inner().fetch_metadata(None, TIMEOUT) {
        Ok(metadata) => metadata,
        Err(e) => return eprintln!("cannot list the topics {prefix}*: {e}"),
    };
    let topics: Vec<&str> = metadata.topics().iter().map(|t| t.name()).filter(|t| t.starts_with(prefix)).collect();
    if topics.is_empty() {
        return;
    }
    // The admin client answers from a thread of its own: no runtime needed.
    let options = AdminOptions::new().request_timeout(Some(TIMEOUT)).operation_timeout(Some(TIMEOUT));
    match futures::executor::block_on(admin.delete_topics(&topics, &options)) {
        Ok(results) => {
            for (topic, code) in results.into_iter().filter_map(Result::err) {
                eprintln!("cannot delete the topic {topic}: {code}");
            }
        }
        Err(e) => eprintln!("cannot delete the topics {prefix}*: {e}"),
    }
}
