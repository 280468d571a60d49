-- Every table the retention prunes by time has an index on that time
-- (the SQLite migration of the same number says why). On PostgreSQL the
-- months wholly past the retention are dropped whole; without an index,
-- each hour's pruning read the whole of the month that straddles the
-- limit. An index on a partitioned table is made on each partition, and
-- on each partition made later.

CREATE INDEX readings_time ON readings (occurred_at);
CREATE INDEX ble_activity_time ON ble_activity (occurred_at);
CREATE INDEX discoveries_time ON discoveries (occurred_at);
