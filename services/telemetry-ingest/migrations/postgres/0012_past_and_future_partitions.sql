-- The rows of no month go to a range partition at each end, the past and
-- the future, instead of a default partition (docs/architecture.md, "Time
-- series on PostgreSQL"; docs/performance.md §8).
--
-- Why: PostgreSQL reads range partitions in the order of their bounds, and
-- so reads a device's newest rows month by month, newest first, stopping
-- at the page's end, only when the table has no default partition. With
-- one, every page descends into every month (a `Merge Append`): some
-- 10–14 % of the activity page's rows at 50,000,000 readings, 5–7 % of its
-- rate through the API.
--
-- Each table is, from its oldest rows to its newest:
-- - the past, `<table>_past`, from `MINVALUE` to its oldest month (or the
--   partition an upgrade kept, `<table>_before_YYYYMM`, migration 9);
-- - its months, `<table>_mYYYYMM`, one after the other, with no gap;
-- - the future, `<table>_future`, from the end of its newest month to
--   `MAXVALUE`.
-- Every time has a partition, so no row is refused, and the past and the
-- future hold only the rows of a clock far off. Making a month next to
-- either end moves that end: it is detached, gives the month's rows to the
-- new partition, and is attached again with its new bound. Dropping the
-- months past the retention drops the past too, all of whose rows are
-- older still, and makes an empty one up to the oldest month left.
--
-- The upgrade: every gap between the months is filled, the default
-- partition's rows move to the past, the future or the filled months, and
-- it is dropped. It holds only the rows of a clock far off, so this is
-- quick.

-- The range partitions of `parent`, with their bounds in µs since the
-- epoch: NULL for `MINVALUE` (low) or `MAXVALUE` (high). A default
-- partition is left out.
CREATE FUNCTION telemetry_partition_ranges(parent TEXT)
RETURNS TABLE (part TEXT, low BIGINT, high BIGINT)
LANGUAGE sql STABLE AS $$
    SELECT c.relname::TEXT,
           nullif(trim(BOTH '''' FROM b[1]), 'MINVALUE')::BIGINT,
           nullif(trim(BOTH '''' FROM b[2]), 'MAXVALUE')::BIGINT
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid,
    LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid), '^FOR VALUES FROM \((.+)\) TO \((.+)\)$') AS b
    WHERE i.inhparent = to_regclass(parent) AND b IS NOT NULL
$$;

-- The first instant of the month starting on `first_day` (UTC), in µs.
CREATE FUNCTION telemetry_month_start(first_day DATE) RETURNS BIGINT
LANGUAGE sql IMMUTABLE AS $$
    SELECT (extract(epoch FROM first_day::timestamp) * 1000000)::BIGINT
$$;

-- The month holding `at_us` (µs since the epoch), by its first day (UTC).
CREATE FUNCTION telemetry_month_of(at_us BIGINT) RETURNS DATE
LANGUAGE sql IMMUTABLE AS $$
    SELECT date_trunc('month', to_timestamp(floor(at_us / 1000000.0)) AT TIME ZONE 'UTC')::DATE
$$;

-- Moves `parent`'s default partition's rows to range partitions and drops
-- it: the months between its partitions that have none are made first
-- (migration 9's function takes each one's rows from the default), then a
-- past, unless an upgrade kept one, and a future take the rest.
CREATE FUNCTION telemetry_default_to_ends(parent TEXT) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
    old TEXT := parent || '_default';
    kept_end BIGINT;
    oldest BIGINT;
    newest BIGINT;
    first_day DATE;
BEGIN
    SELECT r.high INTO kept_end FROM telemetry_partition_ranges(parent) r WHERE r.low IS NULL;
    SELECT coalesce(kept_end, min(r.low)), max(r.high) INTO oldest, newest FROM telemetry_partition_ranges(parent) r;
    oldest := coalesce(oldest, telemetry_month_start(telemetry_month_of((extract(epoch FROM now()) * 1000000)::BIGINT)));
    newest := coalesce(newest, oldest);
    first_day := telemetry_month_of(oldest);
    WHILE telemetry_month_start(first_day) < newest LOOP
        PERFORM telemetry_month_partition(parent, first_day);
        first_day := first_day + INTERVAL '1 month';
    END LOOP;
    EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', parent, old);
    IF kept_end IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (MINVALUE) TO (%s)', parent || '_past', parent, oldest);
    END IF;
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (MAXVALUE)', parent || '_future', parent, newest);
    EXECUTE format('INSERT INTO %I SELECT * FROM %I', parent, old);
    EXECUTE format('DROP TABLE %I', old);
END $$;

SELECT pg_advisory_xact_lock(hashtext('telemetry_partitions'));
SELECT telemetry_default_to_ends(t) FROM unnest(ARRAY['gateway_activity', 'ble_activity', 'readings']) AS t;
DROP FUNCTION telemetry_default_to_ends(TEXT);
DROP FUNCTION telemetry_month_partition(TEXT, DATE);
DROP FUNCTION telemetry_kept_end(TEXT);

-- Makes `parent`'s partition of the month starting on `first_day` out of
-- `edge`, its past or its future, which the month is next to: the edge is
-- detached, its rows of the month move to the new partition, and it is
-- attached again `FOR VALUES <edge_bound>`. The detach locks the parent
-- for the rest of the transaction; the edge holds the rows of a clock far
-- off, few or none.
CREATE FUNCTION telemetry_month_from(parent TEXT, edge TEXT, first_day DATE, edge_bound TEXT) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
    part TEXT := parent || '_m' || to_char(first_day, 'YYYYMM');
    low BIGINT := telemetry_month_start(first_day);
    high BIGINT := telemetry_month_start((first_day + INTERVAL '1 month')::DATE);
BEGIN
    EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', parent, edge);
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)', part, parent, low, high);
    EXECUTE format(
        'WITH moved AS (DELETE FROM %I WHERE occurred_at >= $1 AND occurred_at < $2 RETURNING *) '
        'INSERT INTO %I SELECT * FROM moved',
        edge, part) USING low, high;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES %s', parent, edge, edge_bound);
END $$;

-- Waits for the other replicas' work on the partitions, then makes a lock
-- on a table that is not had within 2 s fail the transaction: a detach or
-- a drop waiting behind a long read would queue every later reader of the
-- table behind it. Returns the lock timeout it replaced, for the caller to
-- put back.
CREATE FUNCTION telemetry_partitions_turn() RETURNS TEXT
LANGUAGE plpgsql AS $$
DECLARE
    waited TEXT := current_setting('lock_timeout');
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('telemetry_partitions'));
    PERFORM set_config('lock_timeout', '2s', true);
    RETURN waited;
END $$;

-- Gives `parent` a partition for each month from the one holding `from_us`
-- to the one holding `to_us` (µs since the epoch), and for each month
-- between those and the months it has, so that its months stay one after
-- the other; returns how many it made. Months are taken from the past
-- downwards, then from the future upwards. A month the rows an upgrade
-- kept cover (`<parent>_before_YYYYMM`, migration 9) is not made: those
-- rows stay where they are until the retention drops them whole.
--
-- One table a call, in a transaction of its own (`storage::partitions`):
-- the table is locked to the end of it, and a transaction that locked two
-- of them could deadlock with ingest, which writes several in one. Takes
-- turns with other replicas; a lock not had within 2 s fails it, and the
-- caller tries again later, the future taking the month's rows meanwhile.
CREATE FUNCTION telemetry_table_cover(parent TEXT, from_us BIGINT, to_us BIGINT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
    waited TEXT := telemetry_partitions_turn();
    first_day DATE := telemetry_month_of(from_us);
    last_day DATE := telemetry_month_of(to_us);
    past TEXT;
    past_end BIGINT;
    future TEXT;
    future_start BIGINT;
    month_day DATE;
    made INTEGER := 0;
BEGIN
    SELECT r.part, r.high INTO past, past_end FROM telemetry_partition_ranges(parent) r WHERE r.low IS NULL;
    SELECT r.part, r.low INTO future, future_start FROM telemetry_partition_ranges(parent) r WHERE r.high IS NULL;
    IF past = parent || '_past' THEN
        month_day := (telemetry_month_of(past_end) - INTERVAL '1 month')::DATE;
        WHILE month_day >= first_day LOOP
            PERFORM telemetry_month_from(parent, past, month_day,
                format('FROM (MINVALUE) TO (%s)', telemetry_month_start(month_day)));
            made := made + 1;
            month_day := (month_day - INTERVAL '1 month')::DATE;
        END LOOP;
    END IF;
    month_day := telemetry_month_of(future_start);
    WHILE month_day <= last_day LOOP
        PERFORM telemetry_month_from(parent, future, month_day,
            format('FROM (%s) TO (MAXVALUE)', telemetry_month_start((month_day + INTERVAL '1 month')::DATE)));
        made := made + 1;
        month_day := (month_day + INTERVAL '1 month')::DATE;
    END LOOP;
    PERFORM set_config('lock_timeout', waited, true);
    RETURN made;
END $$;

-- Drops every partition of `parent` that ends at or before `before_us`
-- once a month or the rows an upgrade kept are among them: those, and the
-- past with them, whose rows are all older still. An empty past is made
-- again up to the oldest partition left. Returns how many it dropped, the
-- past included. One table a call, as `telemetry_table_cover`.
CREATE FUNCTION telemetry_table_drop_before(parent TEXT, before_us BIGINT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
    waited TEXT := telemetry_partitions_turn();
    part TEXT;
    oldest BIGINT;
    dropped INTEGER := 0;
BEGIN
    -- Once a month, not each time the retention's hour comes round while
    -- the past alone has ended: the batched `DELETE`s take its rows
    -- meanwhile.
    IF EXISTS (SELECT 1 FROM telemetry_partition_ranges(parent) r
               WHERE r.high <= before_us AND r.part <> parent || '_past') THEN
        FOR part IN SELECT r.part FROM telemetry_partition_ranges(parent) r WHERE r.high <= before_us LOOP
            EXECUTE format('DROP TABLE %I', part);
            dropped := dropped + 1;
        END LOOP;
        SELECT min(r.low) INTO oldest FROM telemetry_partition_ranges(parent) r;
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (MINVALUE) TO (%s)', parent || '_past', parent, oldest);
    END IF;
    PERFORM set_config('lock_timeout', waited, true);
    RETURN dropped;
END $$;

-- The previous release's calls, every table in one transaction, now in the
-- order ingest writes them, so that they wait for a writer rather than
-- deadlock with it. This release calls the functions above, one table at a
-- time; these go once no pod of the previous release runs.
CREATE OR REPLACE FUNCTION telemetry_partitions_cover(from_us BIGINT, to_us BIGINT) RETURNS INTEGER
LANGUAGE sql AS $$
    SELECT sum(telemetry_table_cover(t, from_us, to_us))::INTEGER
    FROM unnest(ARRAY['gateway_activity', 'ble_activity', 'readings']) AS t
$$;

CREATE OR REPLACE FUNCTION telemetry_partitions_drop_before(before_us BIGINT) RETURNS INTEGER
LANGUAGE sql AS $$
    SELECT sum(telemetry_table_drop_before(t, before_us))::INTEGER
    FROM unnest(ARRAY['gateway_activity', 'ble_activity', 'readings']) AS t
$$;

DROP FUNCTION telemetry_partition_end(TEXT);

-- As migration 9: the month before this one to the one after next.
SELECT telemetry_partitions_cover(
    (extract(epoch FROM now() - INTERVAL '1 month') * 1000000)::BIGINT,
    (extract(epoch FROM now() + INTERVAL '2 months') * 1000000)::BIGINT
);
