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
--
-- An upgrade copies nothing: each table that holds rows becomes, as it is,
-- the partition of everything before next month, `<table>_before_YYYYMM`,
-- dropped whole once the retention has passed its end. It costs one index
-- build (the new key) and one scan (the bound's check) per table, not a copy
-- of every row and every index (docs/operations.md, "Upgrades").

-- Where the partition named `part` ends (µs since the epoch): a month's,
-- `<table>_mYYYYMM`, at the end of that month; the one of the rows kept
-- from before partitioning, `<table>_before_YYYYMM`, at its start. NULL
-- for any other name (the default partition).
CREATE FUNCTION telemetry_partition_end(part TEXT) RETURNS BIGINT
LANGUAGE sql IMMUTABLE AS $$
    SELECT (extract(epoch FROM CASE
        WHEN part ~ '_before_[0-9]{6}$' THEN to_date(right(part, 6), 'YYYYMM')::timestamp
        WHEN part ~ '_m[0-9]{6}$' THEN to_date(right(part, 6), 'YYYYMM') + INTERVAL '1 month'
    END) * 1000000)::BIGINT
$$;

-- Where `parent`'s partition of the rows kept from before partitioning
-- ends, or NULL when it has none.
CREATE FUNCTION telemetry_kept_end(parent TEXT) RETURNS BIGINT
LANGUAGE sql STABLE AS $$
    SELECT max(telemetry_partition_end(c.relname))
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass(parent) AND c.relname ~ '_before_[0-9]{6}$'
$$;

-- Creates `parent`'s partition for the month starting on `first_day`, unless
-- it exists or the rows kept from before partitioning cover that month,
-- moving into it the rows the default partition held for the month. ATTACH
-- takes a lighter lock on the parent than CREATE … PARTITION OF, so writers
-- to the other months carry on.
CREATE FUNCTION telemetry_month_partition(parent TEXT, first_day DATE) RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
DECLARE
    part TEXT := parent || '_m' || to_char(first_day, 'YYYYMM');
    low BIGINT := (extract(epoch FROM first_day::timestamp) * 1000000)::BIGINT;
    high BIGINT := (extract(epoch FROM (first_day + INTERVAL '1 month')::timestamp) * 1000000)::BIGINT;
BEGIN
    IF to_regclass(part) IS NOT NULL OR high <= telemetry_kept_end(parent) THEN
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

-- Drops every partition that ends at or before `before_us`, a month's or
-- the one kept from before partitioning: all its rows are past the
-- retention. Returns how many it dropped.
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
          AND telemetry_partition_end(c.relname) <= before_us
    LOOP
        EXECUTE format('DROP TABLE %I', part.relname);
        dropped := dropped + 1;
    END LOOP;
    RETURN dropped;
END $$;

ALTER TABLE gateway_activity RENAME TO gateway_activity_unpartitioned;
ALTER TABLE ble_activity RENAME TO ble_activity_unpartitioned;
ALTER TABLE readings RENAME TO readings_unpartitioned;
ALTER INDEX gateway_activity_pkey RENAME TO gateway_activity_unpartitioned_pkey;
ALTER INDEX ble_activity_pkey RENAME TO ble_activity_unpartitioned_pkey;
ALTER INDEX readings_pkey RENAME TO readings_unpartitioned_pkey;
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

-- Makes `<parent>_unpartitioned` the partition of `parent` for every row
-- before the month starting on `bound_day`, or drops it when empty. Rows at
-- or after the bound (a clock ahead of time) move to the new table.
-- The old key gives way to `(event_id, occurred_at)`, built once and used as
-- the primary key; the other indexes are the parent's already, so ATTACH
-- takes them as they are, and skips its own scan thanks to the checked
-- bound.
CREATE FUNCTION telemetry_keep_unpartitioned(parent TEXT, bound_day DATE) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
    old TEXT := parent || '_unpartitioned';
    kept TEXT := parent || '_before_' || to_char(bound_day, 'YYYYMM');
    bound BIGINT := (extract(epoch FROM bound_day::timestamp) * 1000000)::BIGINT;
    held BOOLEAN;
    idx TEXT;
    bound_check TEXT := format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (occurred_at < %s)', old, old || '_bound', bound);
BEGIN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', old) INTO held;
    IF NOT held THEN
        EXECUTE format('DROP TABLE %I', old);
        RETURN;
    END IF;
    -- Built beforehand with CONCURRENTLY under this name, it is not built
    -- again (docs/operations.md, "Upgrades").
    EXECUTE format('CREATE UNIQUE INDEX IF NOT EXISTS %I ON %I (event_id, occurred_at)', parent || '_event_time', old);
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', old, old || '_pkey');
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', old, old || '_pkey', parent || '_event_time');
    -- One scan when no row is past the bound, the usual case.
    BEGIN
        EXECUTE bound_check;
    EXCEPTION WHEN check_violation THEN
        EXECUTE format(
            'WITH moved AS (DELETE FROM %I WHERE occurred_at >= $1 RETURNING *) INSERT INTO %I SELECT * FROM moved',
            old, parent) USING bound;
        EXECUTE bound_check;
    END;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%s)', parent, old, bound);
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', old, old || '_bound');
    FOR idx IN SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = old::regclass LOOP
        EXECUTE format('ALTER INDEX %I RENAME TO %I', idx, replace(idx, old, kept));
    END LOOP;
    EXECUTE format('ALTER TABLE %I RENAME TO %I', old, kept);
END $$;

SELECT telemetry_keep_unpartitioned(t, (date_trunc('month', now() AT TIME ZONE 'UTC') + INTERVAL '1 month')::DATE)
FROM unnest(ARRAY['gateway_activity', 'ble_activity', 'readings']) AS t;
DROP FUNCTION telemetry_keep_unpartitioned(TEXT, DATE);

-- The month before this one to the one after next; those the kept rows
-- cover are skipped.
SELECT telemetry_partitions_cover(
    (extract(epoch FROM now() - INTERVAL '1 month') * 1000000)::BIGINT,
    (extract(epoch FROM now() + INTERVAL '2 months') * 1000000)::BIGINT
);
