CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'operator', 'viewer')),
    disabled BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL
);
-- Usernames are unique whatever their case: 'Admin' and 'admin' are one user.
CREATE UNIQUE INDEX users_username ON users (lower(username));
