-- What a notification says, for the client to word in its language: a
-- kind (alert, shutdown-request, gateway-lost, gateway-back) and its
-- parameters as a JSON object. Older rows keep only event and status.
ALTER TABLE notifications ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE notifications ADD COLUMN params TEXT NOT NULL DEFAULT '{}';
