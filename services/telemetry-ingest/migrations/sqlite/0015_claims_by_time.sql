-- The message-id claims are keyed by the time the gateway observed the
-- message first, then by gateway and id (docs/performance.md §1). Keyed by
-- gateway first, each batch wrote a leaf page of the key per gateway in
-- it: at 500 gateways, some 18 % of the pages a commit wrote. Uplinks
-- arrive near the time they were observed, so a batch's claims now land on
-- the key's newest pages, together. A resend carries the same three, and
-- meets its claim wherever it is.
--
-- The claims are kept: copied in the new key's order, so that a resend of
-- an uplink claimed before the upgrade is still a resend after it.
CREATE TABLE ingest_messages_by_time (
    gateway_id TEXT NOT NULL,
    message_id BIGINT NOT NULL,
    observed_at BIGINT NOT NULL DEFAULT 0,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (observed_at, gateway_id, message_id)
) WITHOUT ROWID;
INSERT INTO ingest_messages_by_time (gateway_id, message_id, observed_at, received_at)
    SELECT gateway_id, message_id, observed_at, received_at FROM ingest_messages
    ORDER BY observed_at, gateway_id, message_id;
DROP TABLE ingest_messages;
ALTER TABLE ingest_messages_by_time RENAME TO ingest_messages;
CREATE INDEX ingest_messages_received ON ingest_messages (received_at);
