-- Lookups by key read one B-tree, not two (docs/performance.md §3).
--
-- The directory and the message-id claims become `WITHOUT ROWID` tables:
-- a rowid table with a text key holds its rows in one B-tree and the key
-- in another, so a lookup by id descended both, and one by a unique
-- column (ingest finds a meter by its BLE address or serial) read the id
-- from the table after the index. Now a row sits in its key's B-tree, and
-- a unique column's index holds the key, so it alone answers. Unique
-- columns get named indexes, not `UNIQUE` constraints: SQLite 3.51 still
-- reads the table after a constraint's index, not after a named one.
-- A claim was three B-trees (rows, key, time); now two.
--
-- A gateway's activity page reads the index by gateway alone: it now
-- holds every column the page shows, so its newest 20 rows are one or two
-- pages of the index instead of 20 pages of the table, one descent each.
-- The readings and the BLE activity keep their rowid tables: clustered by
-- device, with every secondary index carrying that longer key, they cost
-- ingest some 13 % (measured, docs/performance.md §3).
--
-- Each table is copied once, in key order. PostgreSQL keeps its tables
-- (the migration of the same number).

ALTER TABLE ingest_gateways RENAME TO ingest_gateways_by_rowid;
CREATE TABLE ingest_gateways (
    id TEXT PRIMARY KEY NOT NULL,
    serial_number TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO ingest_gateways (id, serial_number)
    SELECT id, serial_number FROM ingest_gateways_by_rowid ORDER BY id;
DROP TABLE ingest_gateways_by_rowid;
CREATE UNIQUE INDEX ingest_gateways_serial ON ingest_gateways (serial_number);

ALTER TABLE ingest_meters RENAME TO ingest_meters_by_rowid;
CREATE TABLE ingest_meters (
    id TEXT PRIMARY KEY NOT NULL,
    serial_number TEXT NOT NULL,
    ble_address TEXT NOT NULL,
    device_name TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO ingest_meters (id, serial_number, ble_address, device_name)
    SELECT id, serial_number, ble_address, device_name FROM ingest_meters_by_rowid ORDER BY id;
DROP TABLE ingest_meters_by_rowid;
CREATE UNIQUE INDEX ingest_meters_serial ON ingest_meters (serial_number);
CREATE UNIQUE INDEX ingest_meters_ble ON ingest_meters (ble_address);

ALTER TABLE ingest_messages RENAME TO ingest_messages_by_rowid;
DROP INDEX ingest_messages_received;
CREATE TABLE ingest_messages (
    gateway_id TEXT NOT NULL,
    message_id BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (gateway_id, message_id)
) WITHOUT ROWID;
INSERT INTO ingest_messages (gateway_id, message_id, received_at)
    SELECT gateway_id, message_id, received_at FROM ingest_messages_by_rowid ORDER BY gateway_id, message_id;
DROP TABLE ingest_messages_by_rowid;
CREATE INDEX ingest_messages_received ON ingest_messages (received_at);

DROP INDEX gateway_activity_gateway;
CREATE INDEX gateway_activity_gateway
    ON gateway_activity (gateway_id, occurred_at, event_id, meter_id, mqtt_topic, action);
