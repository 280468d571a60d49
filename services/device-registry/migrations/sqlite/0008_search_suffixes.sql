-- Substring search through an index of suffixes, instead of FTS5's
-- trigrams (docs/performance.md §3). A device's search text is its
-- identifiers, upper case, joined by `|`; the index holds every suffix of
-- three characters or more of each of them, beside the device's
-- registeredAt (unique per kind). The devices whose search text holds a
-- term are then the rows of one index range: the suffixes that start with
-- it. A trigram index read posting lists of thousands of rows for a
-- partial serial; this reads the few that hold it.
DROP TABLE gateways_search_vocab;
DROP TABLE meters_search_vocab;
DROP TRIGGER gateways_search_insert;
DROP TRIGGER gateways_search_delete;
DROP TRIGGER gateways_search_update;
DROP TRIGGER meters_search_insert;
DROP TRIGGER meters_search_delete;
DROP TRIGGER meters_search_update;
DROP TABLE gateways_search;
DROP TABLE meters_search;

-- Where a suffix may start: a search text is 78 characters at most (every
-- identifier has a fixed length), so this is ample.
CREATE TABLE search_positions (n INTEGER PRIMARY KEY);
INSERT INTO search_positions (n)
    WITH RECURSIVE k (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 512) SELECT n FROM k;

-- Each device's suffixes, as the triggers below keep them: from each
-- position, the rest of the identifier it is in (a name repeats its
-- serial, so some come twice: `OR IGNORE`).
CREATE VIEW gateways_suffixes_of AS
    SELECT substr(rest, 1, instr(rest || '|', '|') - 1) AS suffix, registered_at
    FROM (SELECT substr(g.search_text, p.n) AS rest, g.registered_at
          FROM gateways g JOIN search_positions p ON p.n <= length(g.search_text) - 2)
    WHERE instr(rest || '|', '|') > 3;
CREATE VIEW meters_suffixes_of AS
    SELECT substr(rest, 1, instr(rest || '|', '|') - 1) AS suffix, registered_at
    FROM (SELECT substr(m.search_text, p.n) AS rest, m.registered_at
          FROM meters m JOIN search_positions p ON p.n <= length(m.search_text) - 2)
    WHERE instr(rest || '|', '|') > 3;

CREATE TABLE gateways_suffixes (
    suffix TEXT NOT NULL,
    registered_at BIGINT NOT NULL,
    PRIMARY KEY (suffix, registered_at)
) WITHOUT ROWID;
CREATE TABLE meters_suffixes (
    suffix TEXT NOT NULL,
    registered_at BIGINT NOT NULL,
    PRIMARY KEY (suffix, registered_at)
) WITHOUT ROWID;

-- A device's suffixes go before its row does (while the view still sees
-- it) and come after it is written.
CREATE TRIGGER gateways_suffixes_insert AFTER INSERT ON gateways BEGIN
    INSERT OR IGNORE INTO gateways_suffixes (suffix, registered_at)
        SELECT suffix, registered_at FROM gateways_suffixes_of WHERE registered_at = new.registered_at;
END;
CREATE TRIGGER gateways_suffixes_delete BEFORE DELETE ON gateways BEGIN
    DELETE FROM gateways_suffixes WHERE registered_at = old.registered_at AND suffix IN
        (SELECT suffix FROM gateways_suffixes_of WHERE registered_at = old.registered_at);
END;
CREATE TRIGGER gateways_suffixes_forget BEFORE UPDATE OF search_text, registered_at ON gateways
    WHEN old.search_text IS NOT new.search_text OR old.registered_at <> new.registered_at BEGIN
    DELETE FROM gateways_suffixes WHERE registered_at = old.registered_at AND suffix IN
        (SELECT suffix FROM gateways_suffixes_of WHERE registered_at = old.registered_at);
END;
CREATE TRIGGER gateways_suffixes_update AFTER UPDATE OF search_text, registered_at ON gateways
    WHEN old.search_text IS NOT new.search_text OR old.registered_at <> new.registered_at BEGIN
    INSERT OR IGNORE INTO gateways_suffixes (suffix, registered_at)
        SELECT suffix, registered_at FROM gateways_suffixes_of WHERE registered_at = new.registered_at;
END;
CREATE TRIGGER meters_suffixes_insert AFTER INSERT ON meters BEGIN
    INSERT OR IGNORE INTO meters_suffixes (suffix, registered_at)
        SELECT suffix, registered_at FROM meters_suffixes_of WHERE registered_at = new.registered_at;
END;
CREATE TRIGGER meters_suffixes_delete BEFORE DELETE ON meters BEGIN
    DELETE FROM meters_suffixes WHERE registered_at = old.registered_at AND suffix IN
        (SELECT suffix FROM meters_suffixes_of WHERE registered_at = old.registered_at);
END;
CREATE TRIGGER meters_suffixes_forget BEFORE UPDATE OF search_text, registered_at ON meters
    WHEN old.search_text IS NOT new.search_text OR old.registered_at <> new.registered_at BEGIN
    DELETE FROM meters_suffixes WHERE registered_at = old.registered_at AND suffix IN
        (SELECT suffix FROM meters_suffixes_of WHERE registered_at = old.registered_at);
END;
CREATE TRIGGER meters_suffixes_update AFTER UPDATE OF search_text, registered_at ON meters
    WHEN old.search_text IS NOT new.search_text OR old.registered_at <> new.registered_at BEGIN
    INSERT OR IGNORE INTO meters_suffixes (suffix, registered_at)
        SELECT suffix, registered_at FROM meters_suffixes_of WHERE registered_at = new.registered_at;
END;

INSERT OR IGNORE INTO gateways_suffixes (suffix, registered_at) SELECT suffix, registered_at FROM gateways_suffixes_of;
INSERT OR IGNORE INTO meters_suffixes (suffix, registered_at) SELECT suffix, registered_at FROM meters_suffixes_of;
