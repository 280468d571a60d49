-- More rollups (docs/analytics.md): each gateway's traffic per local day
-- (the uplinks it sent and the meters it heard, each meter once a day:
-- `gateway_meter_days` remembers who was heard, and is deleted with the
-- hourly buckets), and everything each meter ever counted, its index, for
-- the billing export.
CREATE TABLE gateway_traffic (
    gateway_id TEXT NOT NULL,
    bucket BIGINT NOT NULL,
    uplinks BIGINT NOT NULL,
    meters BIGINT NOT NULL,
    PRIMARY KEY (gateway_id, bucket)
);

CREATE TABLE gateway_meter_days (
    gateway_id TEXT NOT NULL,
    bucket BIGINT NOT NULL,
    meter_id TEXT NOT NULL,
    PRIMARY KEY (gateway_id, bucket, meter_id)
);
CREATE INDEX gateway_meter_days_bucket ON gateway_meter_days (bucket);

CREATE TABLE meter_totals (
    meter_id TEXT PRIMARY KEY NOT NULL,
    volume_ml BIGINT NOT NULL,
    readings BIGINT NOT NULL
);

-- The days of every meter, for the top consumers and the exports.
CREATE INDEX meter_daily_bucket ON meter_daily (bucket);
