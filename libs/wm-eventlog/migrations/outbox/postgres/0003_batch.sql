-- One row per staging, not per event: its records together, each whole
-- (topic, key, envelope, headers), in a protobuf batch (outbox/staged.rs).
-- One insert and one delete per staging instead of two per event. The
-- relay drains `event_outbox` too, where builds before staged one row per
-- event; their relays never read this table, so a batch waits for a relay
-- that can split it.
CREATE TABLE event_outbox_batch (
    seq BIGSERIAL PRIMARY KEY,
    source TEXT NOT NULL,
    records BYTEA NOT NULL,
    -- How many records the batch holds, for the metrics and the vacuum.
    events INTEGER NOT NULL,
    staged_at_ms BIGINT NOT NULL
);
CREATE INDEX event_outbox_batch_source ON event_outbox_batch (source, seq);
-- Out of line and not compressed: a batch is written once and read once,
-- and PostgreSQL's CPU, not its disk, bounds the distributed ingest.
ALTER TABLE event_outbox_batch ALTER COLUMN records SET STORAGE EXTERNAL;
