-- The transactional outbox: events staged in the same transaction as the
-- state change they describe, published to the log in seq order by the
-- source's relay, then deleted.
CREATE TABLE event_outbox (
    seq BIGSERIAL PRIMARY KEY,
    source TEXT NOT NULL,
    record_key TEXT NOT NULL,
    -- A protobuf wmeter.v1.Envelope.
    envelope BYTEA NOT NULL,
    staged_at_ms BIGINT NOT NULL
);
CREATE INDEX event_outbox_source ON event_outbox (source, seq);
