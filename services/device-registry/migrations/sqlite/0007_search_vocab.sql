-- The trigram indexes' own counts of the rows holding each trigram: a
-- substring search asks for its two rarest trigrams only
-- (src/storage/trigrams.rs, docs/performance.md §3). Read-only views.
CREATE VIRTUAL TABLE gateways_search_vocab USING fts5vocab(gateways_search, 'row');
CREATE VIRTUAL TABLE meters_search_vocab USING fts5vocab(meters_search, 'row');
