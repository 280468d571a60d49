-- PostgreSQL gives its month partitions a past and a future here (the
-- PostgreSQL migration of the same number); SQLite keeps each series in
-- one table.
SELECT 1;
