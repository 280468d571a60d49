-- PostgreSQL partitions its time series by month here (the PostgreSQL
-- migration of the same number); SQLite keeps each in one table.
SELECT 1;
