#!/usr/bin/env bash
# The first-run figure of make bench: `make run` on a fresh clone of HEAD,
# with empty cargo and npm caches (every crate and package downloaded), timed
# to "w-meter is running", then stopped. Prints one row of bench/RESULTS.md.
# Ports 8080 and 1883 must be free (the demo's defaults).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
log="$work/make-run.log"
pid=
cleanup() {
  [[ -n $pid ]] && kill -- -"$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q . "$work/clone"
start=$(date +%s)
set -m
(cd "$work/clone" && CARGO_HOME="$work/cargo" npm_config_cache="$work/npm" exec make run) >"$log" 2>&1 &
pid=$!
set +m
until grep -q "w-meter is running at" "$log"; do
  kill -0 "$pid" 2>/dev/null || { tail -20 "$log" >&2; echo "first-run: make run ended before serving" >&2; exit 1; }
  (($(date +%s) - start < 1800)) || { echo "first-run: not serving after 30 minutes" >&2; exit 1; }
  sleep 1
done
elapsed=$(($(date +%s) - start))
url=$(grep -o "http://127.0.0.1:[0-9]*" "$log" | head -1)
curl -sf -o /dev/null "$url/" || { echo "first-run: the dashboard at $url did not answer" >&2; exit 1; }
echo "| \`make run\` from a clean clone to a live dashboard, empty caches | $elapsed s | — | — | — | — | ≤ 300 s |"
