-- One row per staging, not per event: its records together, each whole
-- (topic, key, envelope, headers), in a protobuf batch (outbox/staged.rs).
-- One insert and one delete per staging instead of two per event. The
-- relay drains `event_outbox` too, where builds before staged one row per
-- event; their relays never read this table, so a batch waits for a relay
-- that can split it.
CREATE TABLE event_outbox_batch (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL,
    records BLOB NOT NULL,
    -- How many records the batch holds, for the metrics.
    events INTEGER NOT NULL,
    staged_at_ms BIGINT NOT NULL
);
CREATE INDEX event_outbox_batch_source ON event_outbox_batch (source, seq);
