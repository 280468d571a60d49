-- Alarm rules and their deliveries (docs/integrations.md). Times are
-- microseconds since the Unix epoch.

-- A rule: what alarms it matches (match_json) and where it sends them
-- (channel_json: email recipients or a webhook URL). The webhook secret is
-- kept apart and never read back by the API.
CREATE TABLE alarm_rules (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    enabled BOOLEAN NOT NULL,
    match_json TEXT NOT NULL,
    channel_json TEXT NOT NULL,
    secret TEXT,
    group_window_secs BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- The outbox of messages: one per rule and group of alarms (or a test).
-- due_at is when to try next; lease_until keeps two senders apart.
CREATE TABLE deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    rule_id TEXT NOT NULL,
    test BOOLEAN NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'abandoned')),
    alarms_json TEXT NOT NULL,
    alarm_count BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    group_until BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    lease_until BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    reason TEXT
);
CREATE INDEX deliveries_due ON deliveries (status, due_at);
CREATE INDEX deliveries_rule ON deliveries (rule_id, created_at);

-- Every attempt of a delivery: the delivery log.
CREATE TABLE delivery_attempts (
    delivery_id TEXT NOT NULL,
    n BIGINT NOT NULL,
    at BIGINT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'failed')),
    status_code BIGINT,
    latency_ms BIGINT NOT NULL,
    error TEXT,
    PRIMARY KEY (delivery_id, n)
);

-- Which alarms each rule has sent: an alarm delivered again (a redelivered
-- event) joins no second message.
CREATE TABLE delivery_alarms (
    rule_id TEXT NOT NULL,
    alarm_id TEXT NOT NULL,
    delivery_id TEXT NOT NULL,
    PRIMARY KEY (rule_id, alarm_id)
);

-- The gateway that last relayed each meter: a rule on a gateway's meters.
CREATE TABLE notification_relays (
    meter_id TEXT PRIMARY KEY NOT NULL,
    gateway_id TEXT NOT NULL
);
