-- Whether each gateway's MQTT session is up, from its retained status and
-- its last will (GatewayStatusChanged). Valve commands for a gateway whose
-- session is down wait until it comes back; a gateway never heard of has
-- no row and gets its commands.
CREATE TABLE gateway_sessions (
    gateway_id TEXT PRIMARY KEY NOT NULL,
    online BOOLEAN NOT NULL,
    updated_at BIGINT NOT NULL
);
