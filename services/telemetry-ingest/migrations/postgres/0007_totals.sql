-- Everything each meter ever counted, its index, for the billing export
-- (docs/analytics.md): kept by the rollups beside the buckets.
CREATE TABLE meter_totals (
    meter_id TEXT PRIMARY KEY NOT NULL,
    volume_ml BIGINT NOT NULL,
    readings BIGINT NOT NULL
);

-- The days of every meter, for the top consumers and the exports.
CREATE INDEX meter_daily_bucket ON meter_daily (bucket);
