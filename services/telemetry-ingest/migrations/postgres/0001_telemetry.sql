-- Telemetry ingest's tables. Times are microseconds since the Unix epoch.

-- The registered devices ingest resolves uplinks against, projected from
-- the registry's events.
CREATE TABLE ingest_gateways (
    id TEXT PRIMARY KEY NOT NULL,
    serial_number TEXT NOT NULL UNIQUE
);
CREATE TABLE ingest_meters (
    id TEXT PRIMARY KEY NOT NULL,
    serial_number TEXT NOT NULL UNIQUE,
    ble_address TEXT NOT NULL UNIQUE,
    device_name TEXT NOT NULL
);

-- Uplinks already accepted, by the gateway's message id: a resend is kept
-- once. Pruned after the retention period.
CREATE TABLE ingest_messages (
    gateway_id TEXT NOT NULL,
    message_id BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (gateway_id, message_id)
);
CREATE INDEX ingest_messages_received ON ingest_messages (received_at);

-- One row per accepted uplink.
CREATE TABLE gateway_activity (
    event_id TEXT PRIMARY KEY NOT NULL,
    gateway_id TEXT NOT NULL,
    meter_id TEXT,
    mqtt_topic TEXT NOT NULL,
    action TEXT NOT NULL,
    occurred_at BIGINT NOT NULL
);
CREATE INDEX gateway_activity_time ON gateway_activity (occurred_at);
CREATE INDEX gateway_activity_gateway ON gateway_activity (gateway_id, occurred_at);
CREATE INDEX gateway_activity_meter ON gateway_activity (meter_id, occurred_at);

CREATE TABLE ble_activity (
    event_id TEXT PRIMARY KEY NOT NULL,
    gateway_id TEXT NOT NULL,
    meter_id TEXT NOT NULL,
    rssi INTEGER NOT NULL,
    occurred_at BIGINT NOT NULL
);
CREATE INDEX ble_activity_gateway ON ble_activity (gateway_id, occurred_at);
CREATE INDEX ble_activity_meter ON ble_activity (meter_id, occurred_at);

-- Consumption records, in millilitres.
CREATE TABLE readings (
    event_id TEXT PRIMARY KEY NOT NULL,
    meter_id TEXT NOT NULL,
    gateway_id TEXT NOT NULL,
    record_ml BIGINT NOT NULL,
    occurred_at BIGINT NOT NULL
);
CREATE INDEX readings_meter ON readings (meter_id, occurred_at);

-- One row per (meter, alert type): its latest state.
CREATE TABLE alerts (
    meter_id TEXT NOT NULL,
    alert_type TEXT NOT NULL,
    raised BOOLEAN NOT NULL,
    received_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (meter_id, alert_type)
);

CREATE TABLE discoveries (
    event_id TEXT PRIMARY KEY NOT NULL,
    gateway_id TEXT NOT NULL,
    device_name TEXT NOT NULL,
    ble_address TEXT NOT NULL,
    occurred_at BIGINT NOT NULL
);
CREATE INDEX discoveries_gateway ON discoveries (gateway_id, occurred_at);

-- Shutdown requests: requested, then confirmed or rejected.
CREATE TABLE shutdown_requests (
    request_id TEXT PRIMARY KEY NOT NULL,
    meter_id TEXT NOT NULL,
    gateway_id TEXT NOT NULL,
    status TEXT NOT NULL,
    requested_at BIGINT NOT NULL,
    answered_at BIGINT,
    answered_by TEXT
);
CREATE INDEX shutdown_requests_meter ON shutdown_requests (meter_id, requested_at);
