-- SQLite's trigram indexes get views of their counts here (the SQLite
-- migration of the same number); PostgreSQL's pg_trgm plans from its own
-- statistics, so there is nothing to add.
SELECT 1;
