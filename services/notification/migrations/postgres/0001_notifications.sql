-- The notification service's tables. Times are microseconds since the
-- Unix epoch.

-- Who may be notified: users projected from the auth service's events.
CREATE TABLE notification_users (
    user_id TEXT PRIMARY KEY NOT NULL,
    role TEXT NOT NULL,
    active BOOLEAN NOT NULL
);

-- Device names, from the registry's events.
CREATE TABLE notification_devices (
    device_id TEXT PRIMARY KEY NOT NULL,
    device_name TEXT NOT NULL
);

-- When each gateway was last heard, and whether it was declared lost.
CREATE TABLE notification_gateways (
    gateway_id TEXT PRIMARY KEY NOT NULL,
    lastseen BIGINT NOT NULL,
    lost BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX notification_gateways_lastseen ON notification_gateways (lost, lastseen);

-- Each user's notifications. seq orders them and is the SSE event id, so a
-- client resumes with Last-Event-ID.
CREATE TABLE notifications (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    device_name TEXT NOT NULL,
    device_id TEXT NOT NULL,
    -- `meter` or `gateway`.
    device_kind TEXT NOT NULL,
    event TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX notifications_user ON notifications (user_id, seq);
