-- Every table the retention prunes by time has an index on that time
-- (docs/performance.md §8; docs/operations.md, "Telemetry migration 11").
--
-- The retention deletes in batches of a few thousand rows, each batch in a
-- write transaction of its own (`wm_storage::prune`), and finds a batch's
-- rows by their time. The readings, the BLE activity and the discoveries
-- had no index on it, so each batch, and the last one that finds nothing
-- left to delete, read the whole table in the writer's turn: at
-- 10,000,000 readings, 3.97 s from a cold cache, every other write waiting.
-- At DESIGN §10's scale (50,000,000 readings, a file larger than memory)
-- the first sign-in after a start-up failed, most likely from that wait.
--
-- Readings arrive in about the order of their time, so the new entries
-- land on the index's last pages.

CREATE INDEX readings_time ON readings (occurred_at);
CREATE INDEX ble_activity_time ON ble_activity (occurred_at);
CREATE INDEX discoveries_time ON discoveries (occurred_at);
