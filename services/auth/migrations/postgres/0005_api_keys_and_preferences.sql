-- API keys (docs/administration.md): a machine's credential, kept only as
-- the SHA-256 digest of the key. Times are microseconds since the epoch.
CREATE TABLE api_keys (
    id                TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    prefix            TEXT NOT NULL UNIQUE,
    key_digest        TEXT NOT NULL UNIQUE,
    role              TEXT NOT NULL CHECK (role IN ('admin', 'operator', 'viewer')),
    created_at        BIGINT NOT NULL,
    created_by        TEXT NOT NULL,
    expires_at        BIGINT NOT NULL,
    revoked_at        BIGINT,
    last_used_at      BIGINT,
    last_used_address TEXT
);
CREATE INDEX api_keys_created ON api_keys (created_at);

-- Each user's dashboard preferences: a language (NULL until chosen) and a
-- theme (system, light or dark).
ALTER TABLE users ADD COLUMN language TEXT CHECK (language IN ('en', 'fr'));
ALTER TABLE users ADD COLUMN theme TEXT NOT NULL DEFAULT 'system' CHECK (theme IN ('system', 'light', 'dark'));
