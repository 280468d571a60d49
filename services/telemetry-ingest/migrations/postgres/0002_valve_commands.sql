-- Valve commands, from the confirmed shutdown that caused them to the
-- gateway's acknowledgement: pending (queued), sent (handed to the broker),
-- acked or failed (the gateway's answer).
CREATE TABLE valve_commands (
    command_id TEXT PRIMARY KEY NOT NULL,
    meter_id TEXT NOT NULL,
    gateway_serial TEXT NOT NULL,
    meter_ble_address TEXT NOT NULL,
    request_id TEXT,
    status TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    issued_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX valve_commands_status ON valve_commands (status, issued_at);
CREATE INDEX valve_commands_meter ON valve_commands (meter_id, issued_at);
