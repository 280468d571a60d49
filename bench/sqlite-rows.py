#!/usr/bin/env python3
"""Raw SQLite's own rate for the rows a reading needs, with no w-meter code.

The ceiling of embedded ingest (docs/performance.md §1, "The ceiling,
measured"): every accepted reading becomes, on the one SQLite writer, a
message-id claim, a record of the embedded log, a reading and an activity
row (each indexed by device and time, DESIGN §5), and a move of its meter's
state and of its rollup. This writes those rows into tables with the same
keys and indexes (fewer columns, fewer indexes than w-meter's: an upper
bound on what SQLite allows), from Python's sqlite3, in transactions of
`--batch` readings, WAL with synchronous=NORMAL as w-meter runs it, and
prints the readings a second per set of rows as rows of bench/RESULTS.md's
table (the median and the slowest run; no reference: this is one).

    bench/sqlite-rows.py [--gateways 50] [--meters-per-gateway 20]
                         [--readings 100000] [--batch 500] [--runs 3]
"""

import argparse
import os
import sqlite3
import statistics
import tempfile
import time

SCHEMA = """
CREATE TABLE claims (gateway_id TEXT, message_id INTEGER, received_at INTEGER,
  PRIMARY KEY (received_at, gateway_id, message_id)) WITHOUT ROWID;
CREATE TABLE log (record_offset INTEGER PRIMARY KEY, key TEXT, payload BLOB);
CREATE TABLE readings (id INTEGER PRIMARY KEY, meter_id TEXT, gateway_id TEXT, record_ml INTEGER, occurred_at INTEGER);
CREATE TABLE activity (id INTEGER PRIMARY KEY, gateway_id TEXT, meter_id TEXT, occurred_at INTEGER);
CREATE TABLE meter_state (meter_id TEXT PRIMARY KEY, last_at INTEGER, records INTEGER) WITHOUT ROWID;
CREATE TABLE rollups (meter_id TEXT, hour INTEGER, readings INTEGER, volume_ml INTEGER,
  PRIMARY KEY (meter_id, hour)) WITHOUT ROWID;
"""
DEVICE_INDEXES = """
CREATE INDEX readings_meter ON readings (meter_id, occurred_at);
CREATE INDEX activity_gateway ON activity (gateway_id, occurred_at);
"""
WRITES = {
    "claims": ("INSERT INTO claims VALUES (?, ?, ?)", lambda g, m, i, at: (g, i, at)),
    "log": ("INSERT INTO log (key, payload) VALUES (?, ?)", lambda g, m, i, at: (m, PAYLOAD)),
    "readings": ("INSERT INTO readings (meter_id, gateway_id, record_ml, occurred_at) VALUES (?, ?, ?, ?)",
                 lambda g, m, i, at: (m, g, i * 10, at)),
    "activity": ("INSERT INTO activity (gateway_id, meter_id, occurred_at) VALUES (?, ?, ?)",
                 lambda g, m, i, at: (g, m, at)),
    "meter_state": ("INSERT INTO meter_state VALUES (?, ?, 1) ON CONFLICT (meter_id) DO UPDATE"
                    " SET last_at = excluded.last_at, records = records + 1", lambda g, m, i, at: (m, at)),
    "rollups": ("INSERT INTO rollups VALUES (?, ?, 1, 10) ON CONFLICT (meter_id, hour) DO UPDATE"
                " SET readings = readings + 1, volume_ml = volume_ml + 10", lambda g, m, i, at: (m, at // 3_600_000_000)),
}
# An envelope of a reading, as ingest appends it, is some 220 bytes.
PAYLOAD = os.urandom(220)
SETS = [
    ("message-id claim and log record", ["claims", "log"], True),
    ("reading row", ["readings"], True),
    ("activity row", ["activity"], True),
    ("claim, log record, reading and activity (ingest's own turn)", ["claims", "log", "readings", "activity"], True),
    ("a reading's six rows (those, its meter's state and its rollup)", list(WRITES), True),
    ("a reading's six rows, the reading and activity unindexed by device", list(WRITES), False),
]


def batches(args):
    """The readings, `(gateway, meter, message id, time)`, a transaction's worth at a time."""
    gateways = [f"{g:024x}" for g in range(args.gateways)]
    meters = [(g, f"{1_000_000 + i * args.meters_per_gateway + j:024x}")
              for i, g in enumerate(gateways) for j in range(args.meters_per_gateway)]
    readings = [(*meters[n % len(meters)], n + 1, 1_780_000_000_000_000 + (n + 1) * 1_000) for n in range(args.readings)]
    return [readings[at:at + args.batch] for at in range(0, args.readings, args.batch)]


def rate(args, tables, indexed):
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(os.path.join(folder, "raw.db"), isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.executescript(SCHEMA + (DEVICE_INDEXES if indexed else ""))
        # Each transaction's statements and rows are made before the clock
        # starts, so that the rate is SQLite's and not Python's making them.
        writes = [WRITES[table] for table in tables]
        transactions = [[(sql, [row(*reading) for reading in batch]) for sql, row in writes]
                        for batch in batches(args)]
        started = time.perf_counter()
        for transaction in transactions:
            db.execute("BEGIN IMMEDIATE")
            for sql, rows in transaction:
                db.executemany(sql, rows)
            db.execute("COMMIT")
        took = time.perf_counter() - started
        db.close()
        return args.readings / took


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gateways", type=int, default=50)
    parser.add_argument("--meters-per-gateway", type=int, default=20)
    parser.add_argument("--readings", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if min(args.gateways, args.meters_per_gateway, args.readings, args.batch, args.runs) <= 0:
        parser.error("every count must be positive")
    fleet = f"{args.gateways} gateways of {args.meters_per_gateway} meters, {args.batch} a transaction"
    for name, tables, indexed in SETS:
        rates = [rate(args, tables, indexed) for _ in range(args.runs)]
        median, slowest = statistics.median(rates), min(rates)
        print(f"| raw SQLite {sqlite3.sqlite_version}, no w-meter code: {name}, {fleet} "
              f"| {median:.0f} readings/s | {slowest:.0f} readings/s | — | — | — | — |", flush=True)


if __name__ == "__main__":
    main()
