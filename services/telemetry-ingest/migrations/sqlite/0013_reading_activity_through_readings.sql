-- A reading's activity row is found by meter through its reading, not
-- through an index of its own (docs/performance.md §1): each reading then
-- costs ingest one index by meter and time, `readings_meter`, not two.
--
-- `readings.activity_id` names the activity row of the same uplink, and
-- that row has `via_reading` set; the index by meter of the activity holds
-- only the other rows. Ingest links the two when it writes them together;
-- rows written before, or apart (a rebuild whose batch split an uplink's
-- two events), stay unlinked and in that index. A meter's activity is the
-- newest of both (`storage::reads::meter_activity`).
ALTER TABLE gateway_activity ADD COLUMN via_reading BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE readings ADD COLUMN activity_id TEXT;
CREATE INDEX IF NOT EXISTS gateway_activity_meter_unlinked
    ON gateway_activity (meter_id, occurred_at) WHERE NOT via_reading;
DROP INDEX gateway_activity_meter;
