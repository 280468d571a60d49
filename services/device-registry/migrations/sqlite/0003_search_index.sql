-- Substring search without reading the whole table: an FTS5 index of each
-- device's search text with the trigram tokenizer, kept in step by
-- triggers. A phrase query of three characters or more reads only the
-- rows holding all its trigrams (docs/performance.md §3).
CREATE VIRTUAL TABLE gateways_search USING fts5 (search_text, tokenize = 'trigram', content = 'gateways', content_rowid = 'rowid');
CREATE TRIGGER gateways_search_insert AFTER INSERT ON gateways BEGIN
    INSERT INTO gateways_search (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
CREATE TRIGGER gateways_search_delete AFTER DELETE ON gateways BEGIN
    INSERT INTO gateways_search (gateways_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER gateways_search_update AFTER UPDATE OF search_text ON gateways BEGIN
    INSERT INTO gateways_search (gateways_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
    INSERT INTO gateways_search (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
INSERT INTO gateways_search (gateways_search) VALUES ('rebuild');
CREATE VIRTUAL TABLE meters_search USING fts5 (search_text, tokenize = 'trigram', content = 'meters', content_rowid = 'rowid');
CREATE TRIGGER meters_search_insert AFTER INSERT ON meters BEGIN
    INSERT INTO meters_search (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
CREATE TRIGGER meters_search_delete AFTER DELETE ON meters BEGIN
    INSERT INTO meters_search (meters_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER meters_search_update AFTER UPDATE OF search_text ON meters BEGIN
    INSERT INTO meters_search (meters_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
    INSERT INTO meters_search (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
INSERT INTO meters_search (meters_search) VALUES ('rebuild');
