-- Account administration (docs/administration.md). token_version goes up
-- with every change that ends a user's sessions; access tokens carry the
-- version they were issued at, and older ones are refused.
ALTER TABLE users ADD COLUMN token_version BIGINT NOT NULL DEFAULT 0;
-- A one-time password set by an admin, to be changed at the next sign-in.
ALTER TABLE users ADD COLUMN must_change_password BOOLEAN NOT NULL DEFAULT FALSE;
