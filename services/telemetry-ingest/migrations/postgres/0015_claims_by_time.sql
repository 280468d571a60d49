-- The message-id claims are keyed by the time the gateway observed the
-- message first, then by gateway and id (docs/performance.md §1). Keyed by
-- gateway first, each batch wrote a leaf page of the key per gateway in
-- it; uplinks arrive near the time they were observed, so a batch's claims
-- now land on the key's newest pages, together. A resend carries the same
-- three, and meets its claim wherever it is.
--
-- The claims are kept. The key is built again over them, under a lock
-- that holds ingest back for as long (docs/operations.md, "Upgrades").
ALTER TABLE ingest_messages
    DROP CONSTRAINT ingest_messages_pkey,
    ADD PRIMARY KEY (observed_at, gateway_id, message_id);
