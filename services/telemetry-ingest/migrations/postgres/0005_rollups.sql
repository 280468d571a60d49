-- Consumption rollups (docs/analytics.md): sums of readings per meter per
-- UTC hour and per local day, per gateway per day and over the network per
-- day. `bucket` is the bucket's first instant, µs since the epoch. Each
-- reading is counted once: its event id is claimed in the same transaction,
-- and claims are kept two days (a redelivery comes within minutes; a replay
-- empties the rollups first).
CREATE TABLE rollup_claims (
    event_id TEXT PRIMARY KEY NOT NULL,
    claimed_at BIGINT NOT NULL
);
CREATE INDEX rollup_claims_claimed ON rollup_claims (claimed_at);

CREATE TABLE meter_hourly (
    meter_id TEXT NOT NULL,
    bucket BIGINT NOT NULL,
    volume_ml BIGINT NOT NULL,
    readings BIGINT NOT NULL,
    PRIMARY KEY (meter_id, bucket)
);
-- Hourly buckets are deleted with the readings (telemetry.retention_days).
CREATE INDEX meter_hourly_bucket ON meter_hourly (bucket);

CREATE TABLE meter_daily (
    meter_id TEXT NOT NULL,
    bucket BIGINT NOT NULL,
    volume_ml BIGINT NOT NULL,
    readings BIGINT NOT NULL,
    PRIMARY KEY (meter_id, bucket)
);

CREATE TABLE gateway_daily (
    gateway_id TEXT NOT NULL,
    bucket BIGINT NOT NULL,
    volume_ml BIGINT NOT NULL,
    readings BIGINT NOT NULL,
    PRIMARY KEY (gateway_id, bucket)
);

CREATE TABLE network_daily (
    bucket BIGINT PRIMARY KEY NOT NULL,
    volume_ml BIGINT NOT NULL,
    readings BIGINT NOT NULL
);
