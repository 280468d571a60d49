-- Leak detectors (docs/analytics.md). Each meter's detectors, as of the
-- hours decided so far (`domain::detect::State` as JSON; `next_hour` is the
-- first hour not decided yet, µs), and the thresholds an operator set for
-- a meter (a NULL follows the network's default).
CREATE TABLE detector_state (
    meter_id TEXT PRIMARY KEY NOT NULL,
    next_hour BIGINT NOT NULL,
    state TEXT NOT NULL
);
CREATE INDEX detector_state_next_hour ON detector_state (next_hour);

CREATE TABLE meter_thresholds (
    meter_id TEXT PRIMARY KEY NOT NULL,
    continuous_flow_hours BIGINT,
    night_flow_ml BIGINT,
    burst_ml BIGINT,
    stuck_days BIGINT,
    updated_by TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
