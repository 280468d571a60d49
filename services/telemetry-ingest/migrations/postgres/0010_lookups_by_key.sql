-- SQLite rebuilds its directory and message-id claims as `WITHOUT ROWID`
-- tables here, and covers a gateway's activity page with its index (the
-- SQLite migration of the same number). PostgreSQL keeps its tables.
SELECT 1;
