-- Readings and activity are partitioned by the month of `occurred_at`
-- (UTC), DESIGN §5: a month past the retention is dropped whole instead of
-- deleted row by row, and a device's newest rows are read from the newest
-- partitions first. docs/architecture.md, "Time series on PostgreSQL".
--
-- Each table gets a partition per month, named `<table>_mYYYYMM`, and a
-- default partition for rows of a month that has none yet (a gateway whose
-- clock is years off). The telemetry service creates the coming months
-- ahead of time and drops the expired ones (`storage::partitions`).
--
-- A partitioned table's unique keys must hold its partition key, so the
-- event id is unique with its time: an event delivered again carries the
-- same time, and `ON CONFLICT DO NOTHING` still keeps it once.

-- Creates `parent`'s partition for the month starting on `first_day`, unless
-- it exists, moving into it the rows the default partition held for that
-- month. ATTACH takes a lighter lock on the parent than CREATE … PARTITION
-- OF, so writers to the other months carry on.
CREATE FUNCTION telemetry_month_partition(parent TEXT, first_day DATE) RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
DECLARE
    part TEXT := parent || '_m' || to_char(first_day, 'YYYYMM');
    low BIGINT := (extract(epoch FROM first_day::timestamp) * 1000000)::BIGINT;
    high BIGINT := (extract(epoch FROM (first_day + INTERVAL '1 month')::timestamp) * 1000000)::BIGINT;
BEGIN
    IF to_regclass(part) IS NOT NULL THEN
        RETURN FALSE;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, parent);
    EXECUTE format(
        'WITH moved AS (DELETE FROM %I WHERE occurred_at >= $1 AND occurred_at < $2 RETURNING *) '
        'INSERT INTO %I SELECT * FROM moved',
        parent || '_default', part) USING low, high;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', parent, part, low, high);
    RETURN TRUE;
END $$;

-- Gives every time-series table a partition for each month from the one
-- holding `from_us` to the one holding `to_us` (µs since the epoch);
-- returns how many it created. Replicas doing this at once take turns.
CREATE FUNCTION telemetry_partitions_cover(from_us BIGINT, to_us BIGINT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
    parent TEXT;
    first_day DATE;
    created INTEGER := 0;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('telemetry_partitions'));
    FOREACH parent IN ARRAY ARRAY['readings', 'gateway_activity', 'ble_activity'] LOOP
        first_day := date_trunc('month', to_timestamp(from_us / 1000000.0) AT TIME ZONE 'UTC')::DATE;
        WHILE first_day <= (to_timestamp(to_us / 1000000.0) AT TIME ZONE 'UTC')::DATE LOOP
            IF telemetry_month_partition(parent, first_day) THEN
                created := created + 1;
            END IF;
            first_day := first_day + INTERVAL '1 month';
        END LOOP;
    END LOOP;
    RETURN created;
END $$;

-- Drops every month partition that ends at or before `before_us`: all its
-- rows are past the retention. Returns how many it dropped.
CREATE FUNCTION telemetry_partitions_drop_before(before_us BIGINT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
    part RECORD;
    dropped INTEGER := 0;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('telemetry_partitions'));
    FOR part IN
        SELECT c.relname FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname IN ('readings', 'gateway_activity', 'ble_activity')
          AND p.relnamespace = c.relnamespace
          AND c.relnamespace = to_regnamespace(current_schema())
          AND c.relname ~ '_m[0-9]{6}$'
          AND (extract(epoch FROM to_date(right(c.relname, 6), 'YYYYMM') + INTERVAL '1 month') * 1000000)::BIGINT
              <= before_us
    LOOP
        EXECUTE format('DROP TABLE %I', part.relname);
        dropped := dropped + 1;
    END LOOP;
    RETURN dropped;
END $$;

ALTER TABLE gateway_activity RENAME TO gateway_activity_unpartitioned;
ALTER TABLE ble_activity RENAME TO ble_activity_unpartitioned;
ALTER TABLE readings RENAME TO readings_unpartitioned;
ALTER INDEX gateway_activity_time RENAME TO gateway_activity_unpartitioned_time;
ALTER INDEX gateway_activity_gateway RENAME TO gateway_activity_unpartitioned_gateway;
ALTER INDEX gateway_activity_meter RENAME TO gateway_activity_unpartitioned_meter;
ALTER INDEX ble_activity_gateway RENAME TO ble_activity_unpartitioned_gateway;
ALTER INDEX ble_activity_meter RENAME TO ble_activity_unpartitioned_meter;
ALTER INDEX readings_meter RENAME TO readings_unpartitioned_meter;

CREATE TABLE gateway_activity (
    event_id TEXT NOT NULL,
    gateway_id TEXT NOT NULL,
    meter_id TEXT,
    mqtt_topic TEXT NOT NULL,
    action TEXT NOT NULL,
    occurred_at BIGINT NOT NULL,
    PRIMARY KEY (event_id, occurred_at)
) PARTITION BY RANGE (occurred_at);
CREATE INDEX gateway_activity_time ON gateway_activity (occurred_at);
CREATE INDEX gateway_activity_gateway ON gateway_activity (gateway_id, occurred_at);
CREATE INDEX gateway_activity_meter ON gateway_activity (meter_id, occurred_at);
CREATE TABLE gateway_activity_default PARTITION OF gateway_activity DEFAULT;

CREATE TABLE ble_activity (
    event_id TEXT NOT NULL,
    gateway_id TEXT NOT NULL,
    meter_id TEXT NOT NULL,
    rssi INTEGER NOT NULL,
    occurred_at BIGINT NOT NULL,
    PRIMARY KEY (event_id, occurred_at)
) PARTITION BY RANGE (occurred_at);
CREATE INDEX ble_activity_gateway ON ble_activity (gateway_id, occurred_at);
CREATE INDEX ble_activity_meter ON ble_activity (meter_id, occurred_at);
CREATE TABLE ble_activity_default PARTITION OF ble_activity DEFAULT;

CREATE TABLE readings (
    event_id TEXT NOT NULL,
    meter_id TEXT NOT NULL,
    gateway_id TEXT NOT NULL,
    record_ml BIGINT NOT NULL,
    occurred_at BIGINT NOT NULL,
    PRIMARY KEY (event_id, occurred_at)
) PARTITION BY RANGE (occurred_at);
CREATE INDEX readings_meter ON readings (meter_id, occurred_at);
CREATE TABLE readings_default PARTITION OF readings DEFAULT;

-- The months already holding rows, and the one before this one to the one
-- after next, get their partitions before the rows move in.
SELECT telemetry_partitions_cover(m, m) FROM (
    SELECT DISTINCT occurred_at - occurred_at % 86400000000 AS m FROM (
        SELECT occurred_at FROM gateway_activity_unpartitioned
        UNION ALL SELECT occurred_at FROM ble_activity_unpartitioned
        UNION ALL SELECT occurred_at FROM readings_unpartitioned
    ) t
) days;
SELECT telemetry_partitions_cover(
    (extract(epoch FROM now() - INTERVAL '1 month') * 1000000)::BIGINT,
    (extract(epoch FROM now() + INTERVAL '2 months') * 1000000)::BIGINT
);

INSERT INTO gateway_activity SELECT * FROM gateway_activity_unpartitioned;
INSERT INTO ble_activity SELECT * FROM ble_activity_unpartitioned;
INSERT INTO readings SELECT * FROM readings_unpartitioned;
DROP TABLE gateway_activity_unpartitioned;
DROP TABLE ble_activity_unpartitioned;
DROP TABLE readings_unpartitioned;
