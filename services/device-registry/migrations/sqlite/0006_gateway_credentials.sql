-- Each gateway's MQTT credentials (docs/device-plane.md): a secret, kept
-- only as its hash in Mosquitto's password-file format, or a client
-- certificate, kept only as its fingerprint. Times are microseconds since
-- the epoch. A revoked credential is kept, for the gateway's history, until
-- the gateway is deleted.
CREATE TABLE gateway_credentials (
    id            TEXT PRIMARY KEY NOT NULL,
    gateway_id    TEXT NOT NULL,
    serial_number TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('secret', 'certificate')),
    secret_hash   TEXT NOT NULL,
    fingerprint   TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT,
    revoked_at    BIGINT
);
CREATE INDEX gateway_credentials_gateway ON gateway_credentials (gateway_id, created_at);
