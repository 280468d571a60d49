-- The network on a map (docs/map.md): the devices counted per cell of a
-- grid at every level (a cell at level L is 360/2^L degrees square), with
-- their health and one of them (the only one, in a cell that holds one);
-- rebuilt from the devices about once a minute, and when that was.
CREATE TABLE map_cells (
    level BIGINT NOT NULL,
    y BIGINT NOT NULL,
    x BIGINT NOT NULL,
    meters BIGINT NOT NULL,
    gateways BIGINT NOT NULL,
    lon_sum DOUBLE PRECISION NOT NULL,
    lat_sum DOUBLE PRECISION NOT NULL,
    lost BIGINT NOT NULL,
    down BIGINT NOT NULL,
    critical BIGINT NOT NULL,
    unhealthy BIGINT NOT NULL,
    min_lon DOUBLE PRECISION NOT NULL,
    min_lat DOUBLE PRECISION NOT NULL,
    max_lon DOUBLE PRECISION NOT NULL,
    max_lat DOUBLE PRECISION NOT NULL,
    sample_id TEXT NOT NULL,
    sample_kind TEXT NOT NULL,
    sample_name TEXT NOT NULL,
    PRIMARY KEY (level, y, x)
);

CREATE TABLE map_refreshed (
    id BIGINT PRIMARY KEY NOT NULL,
    at BIGINT NOT NULL
);

-- A view zoomed in past the finest cells reads the devices themselves, by
-- their cell of the finest level (level 16: 65536/360 cells a degree);
-- storage::map writes the same expressions, which the planner matches.
CREATE INDEX meters_map_cell ON meters (
    (CAST(floor((latitude + 90.0) * 182.04444444444445) AS BIGINT)),
    (CAST(floor((longitude + 180.0) * 182.04444444444445) AS BIGINT))
);
CREATE INDEX gateways_map_cell ON gateways (
    (CAST(floor((latitude + 90.0) * 182.04444444444445) AS BIGINT)),
    (CAST(floor((longitude + 180.0) * 182.04444444444445) AS BIGINT))
);
