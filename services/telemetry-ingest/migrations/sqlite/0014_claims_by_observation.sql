-- A message-id claim also holds the time the gateway observed the message
-- (docs/mqtt.md, `messageId`): a resend carries the same `timestamp`, so it
-- meets its claim; a gateway whose counter started over after a reset
-- reuses an id with a new `timestamp`, and its uplink is new. Before, such
-- uplinks were dropped as resends for as long as the claims are kept.
--
-- Claims made before this migration hold no time (0, as a status without a
-- timestamp does). SQLite changes a primary key only by rebuilding the
-- table, as migration 10 did.
ALTER TABLE ingest_messages RENAME TO ingest_messages_by_id;
DROP INDEX ingest_messages_received;
CREATE TABLE ingest_messages (
    gateway_id TEXT NOT NULL,
    message_id BIGINT NOT NULL,
    observed_at BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (gateway_id, message_id, observed_at)
) WITHOUT ROWID;
INSERT INTO ingest_messages (gateway_id, message_id, observed_at, received_at)
    SELECT gateway_id, message_id, 0, received_at FROM ingest_messages_by_id ORDER BY gateway_id, message_id;
DROP TABLE ingest_messages_by_id;
CREATE INDEX ingest_messages_received ON ingest_messages (received_at);
