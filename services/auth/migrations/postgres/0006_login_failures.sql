-- Failed sign-ins of the last minute, per client address (`ip:…`) and per
-- username (`user:…`): the login throttle, shared by every auth replica
-- (docs/reliability.md). `at` is microseconds since the epoch; rows older
-- than the window are deleted as new failures come.
CREATE TABLE login_failures (
    key TEXT NOT NULL,
    at  BIGINT NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);
CREATE INDEX login_failures_at ON login_failures (at);
