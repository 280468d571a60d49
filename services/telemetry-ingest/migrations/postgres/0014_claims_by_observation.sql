-- A message-id claim also holds the time the gateway observed the message
-- (docs/mqtt.md, `messageId`): a resend carries the same `timestamp`, so it
-- meets its claim; a gateway whose counter started over after a reset
-- reuses an id with a new `timestamp`, and its uplink is new. Before, such
-- uplinks were dropped as resends for as long as the claims are kept.
--
-- The claims start afresh. One made before holds no time, so it could
-- meet only a resend without one (a status, which is idempotent); keeping
-- it would cost an index rebuilt over every claim of the retention period,
-- under a lock that stops ingest. What was stored and not yet
-- acknowledged when the upgrade stopped w-meter is kept twice if its
-- gateway sends it again. The default is for the previous release, which
-- claims without a time while the pods roll (docs/operations.md,
-- "Upgrades").
DROP TABLE ingest_messages;
CREATE TABLE ingest_messages (
    gateway_id TEXT NOT NULL,
    message_id BIGINT NOT NULL,
    observed_at BIGINT NOT NULL DEFAULT 0,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (gateway_id, message_id, observed_at)
);
CREATE INDEX ingest_messages_received ON ingest_messages (received_at);
