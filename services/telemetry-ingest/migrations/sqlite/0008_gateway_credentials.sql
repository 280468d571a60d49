-- The gateways' MQTT credentials that work, from the registry's events: what
-- the embedded broker signs a gateway in with (docs/device-plane.md). A
-- revoked one is deleted. expires_at is microseconds since the epoch.
CREATE TABLE ingest_gateway_credentials (
    id            TEXT PRIMARY KEY NOT NULL,
    gateway_id    TEXT NOT NULL,
    serial_number TEXT NOT NULL,
    kind          TEXT NOT NULL,
    secret_hash   TEXT NOT NULL,
    fingerprint   TEXT NOT NULL,
    expires_at    BIGINT
);
CREATE INDEX ingest_gateway_credentials_serial ON ingest_gateway_credentials (serial_number);
CREATE INDEX ingest_gateway_credentials_gateway ON ingest_gateway_credentials (gateway_id);
CREATE INDEX ingest_gateway_credentials_fingerprint ON ingest_gateway_credentials (fingerprint);
