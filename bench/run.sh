#!/usr/bin/env bash
# make bench (full) and make bench-smoke: every figure of bench/README.md
# beside its raw reference, measured in this run on this machine.
#
#   bench/run.sh full    release build, several runs each; appends to bench/RESULTS.md
#   bench/run.sh smoke   debug build, one tiny run each; writes a temporary file
#                        and checks every row is there, so the harness never rots
#   bench/run.sh scale   release build: the API and the seeder at DESIGN §10's
#                        scale, on SQLite and on PostgreSQL (issue 23, item 6);
#                        hours, not minutes; appends to bench/RESULTS.md.
#                        WM_SCALE="--gateways … --meters … --readings …" sets
#                        another scale; WM_SCALE_ON="sqlite" or "postgres"
#                        runs one database only (default: both, in turn).
# The distributed and PostgreSQL figures need the servers deploy/dev/test.sh
# starts (make bench, bench-smoke and bench-scale run this script through it).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
  full)
    backends=(sqlite)
    profile=release; runs=5; gateways=50; meters=20; messages=100000; cluster_runs=3; replicas=1,2,4; latency=10
    many_gateways=500; many_runs=3
    seed=(--gateways 10000 --meters 1000000 --readings 2000000); clients=32; seconds=10
    streams=10000; h2_streams=50000; per_connection=1000; events=10; uplinks=100000; import_rows=10000
    sqlite_batches=(500 10000) ;;
  smoke)
    backends=(sqlite postgres)
    profile=debug; runs=1; gateways=2; meters=2; messages=200; cluster_runs=1; replicas=2; latency=1
    many_gateways=4; many_runs=1
    seed=(--gateways 3 --meters 30 --readings 100); clients=4; seconds=1
    streams=20; h2_streams=20; per_connection=10; events=2; uplinks=200; import_rows=50
    sqlite_batches=(50) ;;
  scale)
    profile=release; runs=1; clients=32; seconds=10
    read -r -a seed <<< "${WM_SCALE:---gateways 10000 --meters 1000000 --readings 50000000}"
    read -r -a backends <<< "${WM_SCALE_ON:-sqlite postgres}"
    # Hours into a run, a server's log is what says why it failed: keep it.
    export WM_BENCH_LOGS=${WM_BENCH_LOGS:-.cache/bench-scale-logs}
    mkdir -p "$WM_BENCH_LOGS"
    for backend in "${backends[@]}"; do
      [[ $backend == sqlite || $backend == postgres ]] ||
        { echo "WM_SCALE_ON: '$backend' is neither sqlite nor postgres" >&2; exit 2; }
    done ;;
  *) echo "usage: bench/run.sh full|smoke|scale" >&2; exit 2 ;;
esac

if [[ $profile == release ]]; then
  cargo build --release --bin wmeter --bin wm-bench
else
  deploy/dev/binaries.sh
fi
bin=target/$profile
[[ -f web/dist/index.html ]] || make web
deploy/dev/chromium.sh install
export WM_E2E_CHROMIUM
WM_E2E_CHROMIUM=$(deploy/dev/chromium.sh path)

# The gzip size, in KiB, of the files named (relative to web/dist).
gzip_kib() {
  local total=0 file
  for file in "$@"; do
    total=$((total + $(gzip -c "web/dist/$file" | wc -c)))
  done
  awk -v b="$total" 'BEGIN { printf "%.1f", b / 1024 }'
}

web_rows() {
  local initial whole
  # The initial route: index.html and every asset it loads before any lazy chunk.
  mapfile -t initial < <(grep -o '\(src\|href\)="/assets/[^"]*"' web/dist/index.html | sed 's/.*="\/\(.*\)"/\1/')
  mapfile -t whole < <(cd web/dist && find assets -type f \( -name '*.js' -o -name '*.css' \) | sort)
  echo "| web: initial route (index.html and what it loads), gzip | $(gzip_kib index.html "${initial[@]}") KiB | — | — | — | — | ≤ 180 KiB |"
  echo "| web: the whole app (every JS and CSS asset), gzip | $(gzip_kib index.html "${whole[@]}") KiB | — | — | — | — | — |"
}

# Taken before the report starts appending to bench/RESULTS.md, which would
# otherwise count as a change of its own.
commit="$(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes')"

# The API and the seeder on each of `backends`: SQLite only in the full run
# (bench-scale measures PostgreSQL at scale; the smoke run keeps it working).
api_rows() {
  local backend on
  for backend in "${backends[@]}"; do
    on=()
    if [[ $backend == postgres ]]; then on=(--postgres); fi
    "$bin/wm-bench" api --wmeter "$bin/wmeter" "${seed[@]}" --clients "$clients" --seconds "$seconds" "${on[@]}"
  done
}

# The API on a database seeded before the run (`wm-bench api --database`,
# for measuring a database at scale again without its hour-long seed): the
# smoke run keeps that path working.
existing_rows() {
  local dir
  dir=$(mktemp -d)
  WMETER_DATABASE__URL="sqlite://$dir/wmeter.db" WMETER_LOG__LEVEL=warn "$bin/wmeter" seed "${seed[@]}" > /dev/null
  "$bin/wm-bench" api --wmeter "$bin/wmeter" "${seed[@]}" --clients "$clients" --seconds "$seconds" \
    --database "sqlite://$dir/wmeter.db" --endpoints detail
  rm -rf "$dir"
}

header() {
  echo
  echo "## $(date -u +%Y-%m-%dT%H:%MZ) · $mode · commit $commit"
  echo
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo). Build: $profile. Runs per figure: $runs."
  echo
  echo "| figure | median | p99 | raw median | raw p99 | ratio | goal |"
  echo "|---|---|---|---|---|---|---|"
}

report() {
  header
  "$bin/wm-bench" ingest --wmeter "$bin/wmeter" --runs "$runs" --latency-seconds "$latency" \
    --gateways "$gateways" --meters-per-gateway "$meters" --messages "$messages"
  # The same meters from ten times the gateways: what the B-trees keyed by a
  # gateway cost, which the 50 above hide (docs/performance.md §1).
  "$bin/wm-bench" ingest --wmeter "$bin/wmeter" --runs "$many_runs" --latency-seconds "$latency" \
    --gateways "$many_gateways" --meters-per-gateway "$((meters * gateways / many_gateways))" --messages "$messages"
  # The writer's ceiling: SQLite alone writing the rows a reading needs, at
  # ingest's batch and at the largest the settings allow (docs/performance.md §1).
  for batch in "${sqlite_batches[@]}"; do
    bench/sqlite-rows.py --gateways "$gateways" --meters-per-gateway "$meters" --readings "$messages" \
      --batch "$batch" --runs "$runs"
  done
  "$bin/wm-bench" distributed --wmeter "$bin/wmeter" --runs "$cluster_runs" --latency-seconds "$latency" \
    --gateways "$gateways" --meters-per-gateway "$meters" --messages "$messages" --replicas "$replicas"
  api_rows
  if [[ $mode == smoke ]]; then existing_rows; fi
  "$bin/wm-bench" projection --uplinks "$uplinks" --runs "$runs"
  "$bin/wm-bench" sse --wmeter "$bin/wmeter" --streams "$streams" --events "$events"
  "$bin/wm-bench" sse --wmeter "$bin/wmeter" --streams "$h2_streams" --http2 "$per_connection" --events "$events"
  "$bin/wm-bench" import --wmeter "$bin/wmeter" --rows "$import_rows" --runs "$runs"
  web_rows
  "$bin/wm-bench" lcp --wmeter "$bin/wmeter" --runs "$runs"
  "$bin/wm-bench" lcp --wmeter "$bin/wmeter" --runs "$runs" --line 20,40
}

if [[ $mode == full ]]; then
  { report; bench/first-run.sh; } | tee -a bench/RESULTS.md
elif [[ $mode == scale ]]; then
  { header; api_rows; } | tee -a bench/RESULTS.md
else
  out=$(mktemp)
  trap 'rm -f "$out"' EXIT
  report | tee "$out"
  for figure in "MQTT → committed projection, embedded" "peak RSS" "MQTT → visible in the API, embedded" \
    "MQTT → visible in the API, embedded, $many_gateways gateways of" "… of which until ingest committed it" "… the SQLite writer held" \
    "raw SQLite .*: a reading's six rows (" \
    "MQTT → committed projection, distributed" "… CPU a reading, distributed.*w-meter" "… CPU a reading, distributed.*PostgreSQL" \
    "… the rate .* cores allow at that CPU, distributed" "MQTT → visible in the API, distributed" "API list" "API detail" "API count" \
    "API search" "API activity" "API mixed reads" "API detail.*seeded before the run" \
    "API list.*PostgreSQL" "API search.*PostgreSQL" \
    "\`wmeter seed\`.*SQLite.*multi-row" "\`wmeter seed\`.*PostgreSQL.*multi-row" "\`wmeter seed\`.*against COPY" \
    "… until the rollups" "API a year of one meter" \
    "API 30 days of the network" "API a map view" "billing export" "server memory growth while the export" \
    "projection writes" "SSE: alert.*streams |" "SSE: memory.*streams |" \
    "SSE: alert.*HTTP/2" "SSE: memory.*HTTP/2" "import: " \
    "web: initial route" "web: the whole app" "web: LCP of" "web: LCP over"; do
    grep -q "^| $figure.* | [0-9.]\+ [^|]* |" "$out" || { echo "bench-smoke: no figure for '$figure'" >&2; exit 1; }
  done
  echo "bench-smoke: every figure measured"
fi
