-- Alarms (docs/alarms.md): one row per alarm, as its events left it, and
-- its history, one row per event (keyed by event id, so a redelivery or a
-- replay changes nothing). At most one alarm of a type is open (active or
-- acknowledged) per device.
CREATE TABLE alarms (
    alarm_id TEXT PRIMARY KEY NOT NULL,
    device_id TEXT NOT NULL,
    device_kind TEXT NOT NULL,
    alarm_type TEXT NOT NULL,
    severity TEXT NOT NULL,
    status TEXT NOT NULL,
    details TEXT NOT NULL,
    raised_by TEXT NOT NULL,
    raised_at BIGINT NOT NULL,
    assignee TEXT,
    acknowledged_by TEXT,
    acknowledged_at BIGINT,
    cleared_by TEXT,
    cleared_at BIGINT,
    closed_by TEXT,
    closed_at BIGINT,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX alarms_open ON alarms (device_id, alarm_type) WHERE status IN ('active', 'acknowledged');
CREATE INDEX alarms_raised ON alarms (raised_at, alarm_id);
CREATE INDEX alarms_status ON alarms (status, raised_at, alarm_id);
CREATE INDEX alarms_device ON alarms (device_id, raised_at);
CREATE INDEX alarms_assignee ON alarms (assignee, raised_at);

CREATE TABLE alarm_history (
    event_id TEXT PRIMARY KEY NOT NULL,
    alarm_id TEXT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL,
    note TEXT NOT NULL,
    assignee TEXT,
    occurred_at BIGINT NOT NULL
);
CREATE INDEX alarm_history_alarm ON alarm_history (alarm_id, occurred_at);

-- How many alarms are in each status, kept as each moves: the shell polls
-- the count of active ones, and closed alarms pile up.
CREATE TABLE alarm_counts (
    status TEXT PRIMARY KEY NOT NULL,
    alarms BIGINT NOT NULL
);

-- The users alarms can be assigned to and whose names the history shows,
-- from the auth events.
CREATE TABLE ingest_users (
    user_id TEXT PRIMARY KEY NOT NULL,
    username TEXT NOT NULL,
    role TEXT NOT NULL,
    active BOOLEAN NOT NULL
);

-- Each step of a valve command, for its timeline, and who confirmed the
-- shutdown that issued it.
ALTER TABLE valve_commands ADD COLUMN issued_by TEXT NOT NULL DEFAULT '';
ALTER TABLE valve_commands ADD COLUMN resend_of TEXT;
ALTER TABLE valve_commands ADD COLUMN sent_at BIGINT;
ALTER TABLE valve_commands ADD COLUMN settled_at BIGINT;
