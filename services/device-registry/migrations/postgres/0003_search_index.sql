-- Substring search without reading the whole table: trigram GIN indexes
-- on each device's search text, which `LIKE '%…%'` uses
-- (docs/performance.md §3). pg_trgm is a trusted extension: the
-- database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX gateways_search_trgm ON gateways USING gin (search_text gin_trgm_ops);
CREATE INDEX meters_search_trgm ON meters USING gin (search_text gin_trgm_ops);
