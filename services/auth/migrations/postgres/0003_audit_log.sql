-- The audit trail (topic wmeter.audit.v1), kept by the auth service: one
-- row per operator mutation or refused attempt, written by its projection
-- and keyed by the event's id. occurred_at is microseconds since the Unix
-- epoch (UTC). before_json and after_json are NULL when the target did not
-- exist on that side of the change.
CREATE TABLE audit_log (
    event_id TEXT PRIMARY KEY,
    occurred_at BIGINT NOT NULL,
    actor TEXT NOT NULL,
    role TEXT NOT NULL,
    source_ip TEXT NOT NULL,
    action TEXT NOT NULL,
    target_id TEXT NOT NULL,
    before_json TEXT,
    after_json TEXT,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX audit_log_newest ON audit_log (occurred_at DESC, event_id DESC);
