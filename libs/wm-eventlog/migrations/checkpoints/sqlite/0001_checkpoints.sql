-- For each projection and partition, the offset after the last record the
-- projection applied, written in the projection's own transaction: a
-- redelivered record below it is skipped, so effects happen once.
CREATE TABLE projection_checkpoints (
    projection TEXT NOT NULL,
    topic TEXT NOT NULL,
    partition_id INTEGER NOT NULL,
    next_offset BIGINT NOT NULL,
    PRIMARY KEY (projection, topic, partition_id)
);
