-- Opaque refresh tokens, stored only as SHA-256 hashes. Each login starts a
-- family; each refresh rotates the token within it. Times are microseconds
-- since the Unix epoch.
CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    family_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id),
    issued_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    rotated_at BIGINT,
    revoked_at BIGINT
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
