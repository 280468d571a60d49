-- The embedded event log, modelled on Kafka: a topic has a fixed number of
-- partitions, and each record has an offset within its partition, counted
-- from 0 without gaps. Consumer-group membership lives in memory; only the
-- offsets each group has committed are stored.

CREATE TABLE event_log_topics (
    topic TEXT PRIMARY KEY NOT NULL,
    partitions INTEGER NOT NULL CHECK (partitions > 0)
);

CREATE TABLE event_log_records (
    topic TEXT NOT NULL,
    partition_id INTEGER NOT NULL,
    record_offset INTEGER NOT NULL,
    record_key TEXT NOT NULL,
    payload BLOB NOT NULL,
    -- Length-prefixed (name, value) pairs; see src/embedded/codec.rs.
    headers BLOB NOT NULL,
    appended_at_ms INTEGER NOT NULL,
    PRIMARY KEY (topic, partition_id, record_offset)
);

-- The next offset each group will read: every record below it is processed.
CREATE TABLE event_log_group_offsets (
    group_id TEXT NOT NULL,
    topic TEXT NOT NULL,
    partition_id INTEGER NOT NULL,
    committed_offset INTEGER NOT NULL,
    committed_at_ms INTEGER NOT NULL,
    PRIMARY KEY (group_id, topic, partition_id)
) WITHOUT ROWID;
