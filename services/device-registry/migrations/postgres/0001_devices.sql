-- Gateways and water meters. Times are microseconds since the Unix epoch.
-- The registration columns are written by the registry's own commands (and
-- by a rebuild from its events); the state columns by its projection of
-- telemetry and shutdown events.
CREATE TABLE gateways (
    id TEXT PRIMARY KEY NOT NULL,
    serial_number TEXT NOT NULL,
    device_name TEXT NOT NULL,
    imei TEXT NOT NULL,
    phone_number TEXT NOT NULL,
    ble_address TEXT NOT NULL,
    mac_address TEXT NOT NULL,
    longitude DOUBLE PRECISION,
    latitude DOUBLE PRECISION,
    -- Unique and strictly increasing per kind: the keyset of every list.
    registered_at BIGINT NOT NULL UNIQUE,
    -- Upper case, colons removed: what a search matches a substring of.
    search_text TEXT NOT NULL,
    lastseen BIGINT,
    -- lastseen, or registered_at while never seen: the lost rule's clock.
    last_activity BIGINT NOT NULL,
    session_online BOOLEAN NOT NULL DEFAULT FALSE,
    discovered_peripherals_count BIGINT NOT NULL DEFAULT 0,
    records_count BIGINT NOT NULL DEFAULT 0,
    water_meters_count BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX gateways_last_activity ON gateways (last_activity);
CREATE INDEX gateways_position ON gateways (latitude, longitude);

CREATE TABLE meters (
    id TEXT PRIMARY KEY NOT NULL,
    serial_number TEXT NOT NULL,
    device_name TEXT NOT NULL,
    ble_address TEXT NOT NULL,
    longitude DOUBLE PRECISION,
    latitude DOUBLE PRECISION,
    registered_at BIGINT NOT NULL UNIQUE,
    search_text TEXT NOT NULL,
    lastseen BIGINT,
    last_activity BIGINT NOT NULL,
    total_consumption_ml BIGINT NOT NULL DEFAULT 0,
    raised_alerts BIGINT NOT NULL DEFAULT 0,
    critical BOOLEAN NOT NULL DEFAULT FALSE,
    device_status TEXT NOT NULL DEFAULT 'Up',
    last_gateway_id TEXT
);
CREATE INDEX meters_last_activity ON meters (last_activity);
CREATE INDEX meters_critical ON meters (critical, registered_at);
CREATE INDEX meters_device_status ON meters (device_status, registered_at);
CREATE INDEX meters_position ON meters (latitude, longitude);
CREATE INDEX meters_last_gateway ON meters (last_gateway_id);

-- Every identifier that must be unique across all devices of both kinds:
-- serialNumber, imei, phoneNumber, bleAddress, macAddress. The primary key
-- is what makes two concurrent registrations of one serial give one 201 and
-- one 409.
CREATE TABLE device_identifiers (
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    device_id TEXT NOT NULL,
    PRIMARY KEY (field, value)
);
CREATE INDEX device_identifiers_device ON device_identifiers (device_id);

-- Maintained totals ('gateways', 'meters'), so a count never scans.
CREATE TABLE registry_counters (
    name TEXT PRIMARY KEY NOT NULL,
    value BIGINT NOT NULL
);
INSERT INTO registry_counters (name, value) VALUES ('gateways', 0), ('meters', 0);

-- The last registeredAt handed out per kind: the next is strictly later.
CREATE TABLE registry_clock (
    kind TEXT PRIMARY KEY NOT NULL,
    last_micros BIGINT NOT NULL
);
INSERT INTO registry_clock (kind, last_micros) VALUES ('gateway', 0), ('meter', 0);

-- Raised alerts per meter: a meter is critical while it has one.
CREATE TABLE meter_alerts (
    meter_id TEXT NOT NULL,
    alert_type TEXT NOT NULL,
    PRIMARY KEY (meter_id, alert_type)
);

-- The distinct peripherals each gateway discovered.
CREATE TABLE gateway_peripherals (
    gateway_id TEXT NOT NULL,
    ble_address TEXT NOT NULL,
    PRIMARY KEY (gateway_id, ble_address)
);
