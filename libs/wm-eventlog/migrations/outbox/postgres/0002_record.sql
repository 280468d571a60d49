-- Each staged row carries the record it becomes: its topic and its trace
-- header, worked out when staged. The relay then publishes the envelope's
-- bytes as they were staged, without reading them, so a row it cannot
-- read (a newer build's event, or a corrupt one) neither stops the relay
-- nor loses what this build does not know. Rows staged before this
-- migration have no topic; the relay reads those as before.
ALTER TABLE event_outbox ADD COLUMN topic TEXT;
ALTER TABLE event_outbox ADD COLUMN traceparent TEXT;
