-- Substring search through an index of suffixes, instead of pg_trgm's
-- trigrams (docs/performance.md §3). A device's search text is its
-- identifiers, upper case, joined by `|`; the index holds every suffix of
-- three characters or more of each of them, beside the device's
-- registeredAt (unique per kind). The devices whose search text holds a
-- term are then the rows of one index range: the suffixes that start with
-- it, compared byte by byte (`COLLATE "C"`). The trigram index read
-- posting lists of thousands of rows for a partial serial, and kept no
-- counts to choose the rarest by; this reads the few rows that hold it.
DROP INDEX gateways_search_trgm;
DROP INDEX meters_search_trgm;

-- A search text's suffixes: from each position, the rest of the
-- identifier it is in (a name repeats its serial, so some come twice).
CREATE FUNCTION search_suffixes(search_text TEXT) RETURNS SETOF TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT split_part(substr(search_text, n), '|', 1)
    FROM generate_series(1, length(search_text) - 2) AS n
    WHERE length(split_part(substr(search_text, n), '|', 1)) >= 3
$$;

CREATE TABLE gateways_suffixes (
    suffix TEXT COLLATE "C" NOT NULL,
    registered_at BIGINT NOT NULL,
    PRIMARY KEY (suffix, registered_at)
);
CREATE TABLE meters_suffixes (
    suffix TEXT COLLATE "C" NOT NULL,
    registered_at BIGINT NOT NULL,
    PRIMARY KEY (suffix, registered_at)
);

-- Keeps a device's suffixes in step with its row: the old ones go, the
-- new ones come.
CREATE FUNCTION search_suffixes_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'gateways' THEN
        IF TG_OP <> 'INSERT' THEN
            DELETE FROM gateways_suffixes
            WHERE registered_at = OLD.registered_at AND suffix IN (SELECT search_suffixes(OLD.search_text));
        END IF;
        IF TG_OP <> 'DELETE' THEN
            INSERT INTO gateways_suffixes (suffix, registered_at)
            SELECT search_suffixes(NEW.search_text), NEW.registered_at ON CONFLICT DO NOTHING;
        END IF;
    ELSE
        IF TG_OP <> 'INSERT' THEN
            DELETE FROM meters_suffixes
            WHERE registered_at = OLD.registered_at AND suffix IN (SELECT search_suffixes(OLD.search_text));
        END IF;
        IF TG_OP <> 'DELETE' THEN
            INSERT INTO meters_suffixes (suffix, registered_at)
            SELECT search_suffixes(NEW.search_text), NEW.registered_at ON CONFLICT DO NOTHING;
        END IF;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER gateways_suffixes AFTER INSERT OR DELETE ON gateways
    FOR EACH ROW EXECUTE FUNCTION search_suffixes_follow();
CREATE TRIGGER gateways_suffixes_update AFTER UPDATE OF search_text, registered_at ON gateways
    FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text OR OLD.registered_at <> NEW.registered_at)
    EXECUTE FUNCTION search_suffixes_follow();
CREATE TRIGGER meters_suffixes AFTER INSERT OR DELETE ON meters
    FOR EACH ROW EXECUTE FUNCTION search_suffixes_follow();
CREATE TRIGGER meters_suffixes_update AFTER UPDATE OF search_text, registered_at ON meters
    FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text OR OLD.registered_at <> NEW.registered_at)
    EXECUTE FUNCTION search_suffixes_follow();

INSERT INTO gateways_suffixes (suffix, registered_at)
    SELECT search_suffixes(search_text), registered_at FROM gateways ON CONFLICT DO NOTHING;
INSERT INTO meters_suffixes (suffix, registered_at)
    SELECT search_suffixes(search_text), registered_at FROM meters ON CONFLICT DO NOTHING;
