-- The delivery of the meter's latest valve command: pending, sent, acked
-- or failed (from the telemetry service's command events).
ALTER TABLE meters ADD COLUMN valve_command_id TEXT;
ALTER TABLE meters ADD COLUMN valve_command_status TEXT;
CREATE INDEX meters_valve_command ON meters (valve_command_id);
