-- A message-id claim also holds the time the gateway observed the message
-- (docs/mqtt.md, `messageId`): a resend carries the same `timestamp`, so it
-- meets its claim; a gateway whose counter started over after a reset
-- reuses an id with a new `timestamp`, and its uplink is new. Before, such
-- uplinks were dropped as resends for as long as the claims are kept.
--
-- Claims made before this migration hold no time (0, as a status without a
-- timestamp does).
ALTER TABLE ingest_messages ADD COLUMN observed_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ingest_messages ALTER COLUMN observed_at DROP DEFAULT;
ALTER TABLE ingest_messages DROP CONSTRAINT ingest_messages_pkey;
ALTER TABLE ingest_messages ADD PRIMARY KEY (gateway_id, message_id, observed_at);
