#!/usr/bin/env bash
# make soak (not in CI): a release `wmeter serve` under `wmeter simulate` at
# half of the maximum embedded ingest rate, with 500 SSE clients open, for
# 30 minutes. Every minute it samples the server's resident memory, open
# file descriptors, SQLite file handles (its database connections), the
# size of its database (the SQLite file and its WAL: tables and event log),
# its WAL's median and largest size in the minute (sampled each second),
# the p99 of API reads, the SSE streams still open, the uplinks accepted
# and what the server wrote to disk a second over the minute; on the first
# and the last minute also the database's composition (what the retention
# bounds, what is kept whole, free pages). Then it appends the table, the
# drift (last minute against the first) and the rate taken to
# bench/RESULTS.md. Telemetry is kept SOAK_RETENTION_MINUTES instead of 90
# days, so that the retention (tables and the event log's telemetry
# topics) applies within the soak and the database's size levels off.
#
# The composition reads the whole file in one snapshot: for as long, the
# WAL cannot start over and grows. Sampled each minute on a 7 GiB file it
# halved the rate the server took (docs/performance.md §5), so it is
# sampled on the first and the last minute unless SOAK_COMPOSITION_EVERY
# asks for more.
#
#   SOAK_MINUTES (30)  SOAK_RATE uplinks/s (8400: half of the embedded
#   figure in RESULTS.md)  SOAK_STREAMS (500)  SOAK_RESULTS (bench/RESULTS.md)
#   SOAK_RETENTION_MINUTES (8)  SOAK_COMPOSITION_EVERY (N: also on every
#   Nth minute)  SOAK_PROFILE (release; debug to try the script quickly)
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=${SOAK_MINUTES:-30}
rate=${SOAK_RATE:-8400}
streams=${SOAK_STREAMS:-500}
retention=${SOAK_RETENTION_MINUTES:-8}
composition_every=${SOAK_COMPOSITION_EVERY:-$minutes}
export WMETER_TELEMETRY__RETENTION_MINUTES=$retention
results=${SOAK_RESULTS:-bench/RESULTS.md}
probes=200

profile=${SOAK_PROFILE:-release}
# shellcheck source=bench/serve.sh
source bench/serve.sh

echo "soak: $minutes min at $rate uplinks/s with $streams SSE streams, on $url"
WMETER_SIM_PASSWORD=$password "$bin" simulate --register --api "$url" --username bench \
  --gateways 200 --meters 4000 --rate "$rate" --duration $((minutes * 60 + 300)) >"$dir/simulate.log" 2>&1 &
pids+=($!)

# The SSE clients: one process, each stream a socket that reads forever and
# counts itself alive in a file every few seconds.
python3 - "$port" "$(token)" "$streams" "$dir/streams" <<'PY' &
import asyncio, sys
port, token, count, out = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
alive = 0
async def stream():
    global alive
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET /api/notifications HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    await writer.drain()
    alive += 1
    try:
        while await reader.read(65536):
            pass
    finally:
        alive -= 1
async def main():
    tasks = [asyncio.create_task(stream()) for _ in range(count)]
    while True:
        with open(out, "w") as f:
            f.write(str(alive))
        await asyncio.sleep(5)
asyncio.run(main())
PY
pids+=($!)

# The database's pages in three parts (MiB): what the telemetry retention
# bounds (the telemetry tables, the claims against redelivery and the
# event log's telemetry topics, their indexes included), what is kept whole
# (registry, alarms, commands, notifications, users and the other topics),
# and the free pages SQLite will reuse. The log's pages are split between
# its topics in proportion to their records' bytes.
composition() {
  python3 - "$1" <<'PY'
import sqlite3, sys
BOUNDED = {"gateway_activity", "ble_activity", "readings", "discoveries", "ingest_messages", "meter_hourly",
           "rollup_claims", "registry_applied_readings"}
# wm_proto::topics::TELEMETRY
TELEMETRY = {f"wmeter.telemetry.{t}.v1" for t in
             ("gateway-status", "gateway-activity", "ble-activity", "readings", "alerts", "discoveries")}
TELEMETRY.add("wmeter.dead-letters.v1")
db = sqlite3.connect(sys.argv[1], timeout=30)
owner = dict(db.execute("SELECT name, tbl_name FROM sqlite_schema"))
pages = {}
for name, size in db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
    table = owner.get(name, name)
    pages[table] = pages.get(table, 0) + size
log = pages.pop("event_log_records", 0)
topics = db.execute("SELECT topic, SUM(LENGTH(payload) + LENGTH(headers)) FROM event_log_records GROUP BY topic").fetchall()
total_bytes = sum(b or 0 for _, b in topics) or 1
telemetry_bytes = sum(b or 0 for t, b in topics if t in TELEMETRY)
bounded = sum(v for k, v in pages.items() if k in BOUNDED) + log * telemetry_bytes / total_bytes
kept = sum(v for k, v in pages.items() if k not in BOUNDED) + log * (1 - telemetry_bytes / total_bytes)
free = db.execute("PRAGMA freelist_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
mib = 1 << 20
print(f"{bounded / mib:.0f} | {kept / mib:.0f} | {free / mib:.0f}")
PY
}

sampled_composition() {
  if (($1 == 1 || $1 == minutes || $1 % composition_every == 0)); then composition "$dir/wm.db"; else echo "– | – | –"; fi
}

accepted() {
  curl -s "$url/metrics" | awk '/^wmeter_ingest_uplinks_total\{.*outcome="accepted"/ { s += $NF } END { printf "%d", s }'
}

# The WAL's size each second, its median and largest in each minute then
# reported: it grows while a long read holds a snapshot (this script's own
# composition reads the whole file) and is cut back within seconds after,
# which a sample a minute would miss.
while sleep 1; do stat -c %s "$dir/wm.db-wal" 2>/dev/null >>"$dir/wal.sizes" || true; done &
pids+=($!)
wal_mib() {
  sort -n "$dir/wal.sizes" 2>/dev/null | awk '{ v[NR] = $1 } END { printf "%d | %d", v[int((NR + 1) / 2)] / 1048576, v[NR] / 1048576 }'
  : >"$dir/wal.sizes"
}

# Sets $written_mib_s: what the server wrote to disk a second, in MiB,
# since the last call (since it started, at the first).
written_at=$SECONDS written=0 written_mib_s=0
sample_written() {
  local now=$SECONDS bytes
  bytes=$(awk '/^write_bytes/ { print $2 }' "/proc/$server/io")
  written_mib_s=$(awk -v b="$((bytes - written))" -v s="$((now - written_at))" \
    'BEGIN { printf "%.0f", (s > 0 ? b / s / 1048576 : 0) }')
  written=$bytes written_at=$now
}

rows=()
# Each sample on the minute since the start: a sample takes seconds (the
# composition reads the whole file), which must not push the last ones
# past the load (the simulator runs five spare minutes, then is stopped).
started=$SECONDS
for minute in $(seq 1 "$minutes"); do
  wait_s=$((started + minute * 60 - SECONDS))
  sleep $((wait_s > 0 ? wait_s : 0))
  kill -0 "$server" 2>/dev/null || { echo "wmeter serve died; its log:" >&2; tail -30 "$dir/serve.log" >&2; exit 1; }
  rss=$(rss_mib)
  fds=$({ find "/proc/$server/fd" -mindepth 1 -maxdepth 1 2>/dev/null || true; } | wc -l)
  db=$({ find "/proc/$server/fd" -mindepth 1 -maxdepth 1 -lname "$dir/wm.db*" 2>/dev/null || true; } | wc -l)
  size=$(du -cm "$dir"/wm.db "$dir"/wm.db-wal 2>/dev/null | awk 'END { print $1 }')
  sample_written
  row="| $minute | $rss | $fds | $db | $size | $(wal_mib) | $(sampled_composition "$minute") | $(p99_ms $probes "$(token)") | $(cat "$dir/streams" 2>/dev/null || echo 0) | $(accepted) | $written_mib_s |"
  rows+=("$row")
  echo "$row"
done

cell() { echo "$1" | awk -F'|' -v c="$2" '{ gsub(/ /, "", $c); print $c }'; }
first=${rows[0]} last=${rows[-1]}
drift() { awk -v a="$(cell "$first" "$1")" -v b="$(cell "$last" "$1")" 'BEGIN { printf "%+g (%s → %s)", b - a, a, b }'; }
# Uplinks taken a second from row $1 (0-based) to the last.
taken() { awk -v a="$(cell "${rows[$1]}" 14)" -v b="$(cell "$last" 14)" -v s=$(((${#rows[@]} - 1 - $1) * 60)) 'BEGIN { printf "%d", (s > 0 ? (b - a) / s : 0) }'; }
# The last third's first row: at least one minute before the last.
n=${#rows[@]}
third=$((n * 2 / 3))
((third <= n - 2)) || third=$((n > 1 ? n - 2 : 0))
taken_last=$(taken "$third")
# KiB the server wrote to disk per uplink taken, over the last third: the
# rows after its first, whose writes each cover the minute before them.
per_uplink() {
  printf '%s\n' "${rows[@]:$((third + 1))}" | awk -F'|' -v t="$taken_last" '{ gsub(/ /, "", $15); s += $15; n++ } END { printf "%.1f", (n > 0 && t > 0 ? s / n * 1024 / t : 0) }'
}
{
  printf '\n## Soak, %s (commit %s)\n\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD)"
  printf 'Machine: %s. `wmeter serve` (%s build, SQLite, embedded log and broker) under `wmeter simulate` at %s uplinks/s (200 gateways, 4,000 meters) with %s SSE streams open, for %s minutes, telemetry kept %s minutes; sampled each minute, the composition on the first and the last minute and every %s minutes. Database: the SQLite file and its WAL. p99: %s sequential reads (count, meter list, gateway activity) with a fresh token.\n\n' \
    "$(machine)" "$profile" "$rate" "$streams" "$minutes" "$retention" "$composition_every" "$probes"
  echo '| minute | RSS MiB | open fds | SQLite file handles | database MiB | WAL MiB, median in the minute | largest | of which bounded by retention | kept whole | free pages | read p99 ms | SSE streams open | uplinks accepted | written MiB/s |'
  echo '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|'
  printf '%s\n' "${rows[@]}"
  printf '\nDrift, last minute against the first: RSS %s MiB; open fds %s; SQLite file handles %s; database %s MiB (WAL median %s, largest %s, bounded by retention %s, kept whole %s, free %s); read p99 %s ms.\n' \
    "$(drift 3)" "$(drift 4)" "$(drift 5)" "$(drift 6)" "$(drift 7)" "$(drift 8)" "$(drift 9)" "$(drift 10)" "$(drift 11)" "$(drift 12)"
  printf '\nUplinks taken a second, of %s offered: %s from minute 1 to %s, %s over the last third (from minute %s), with %s KiB written to disk per uplink.\n' \
    "$rate" "$(taken 0)" "$minutes" "$taken_last" "$((third + 1))" "$(per_uplink)"
} >>"$results"
echo "appended to $results"
