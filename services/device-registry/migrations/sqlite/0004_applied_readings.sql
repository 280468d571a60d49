-- The reading events already added to the totals, by event id. An event
-- the outbox relay sent twice (a crash between its send and its delete
-- puts it in the log again, at a new offset) is added once. Kept a day:
-- a relay sends its leftovers again as soon as it restarts.
CREATE TABLE registry_applied_readings (
    event_id TEXT PRIMARY KEY NOT NULL,
    applied_at BIGINT NOT NULL
);
CREATE INDEX registry_applied_readings_time ON registry_applied_readings (applied_at);
