#!/usr/bin/env bash
# make login-storm (not in CI): 200 wrong-password sign-ins a second for
# 60 s against a release `wmeter serve`, twice: from one address at one
# user (the limits answer 429 without hashing), and from a new address at a
# new username each time (a botnet: `http.trust_forwarded_for` on and a
# fresh X-Forwarded-For per request, so every attempt is hashed). Measures the
# p99 of API reads before and during each storm, and the resident memory
# before and after; appends the table to bench/RESULTS.md.
#
#   STORM_RATE (200/s)  STORM_SECONDS (60)  STORM_RESULTS (bench/RESULTS.md)
#   STORM_PROFILE (release; debug to try the script quickly)
set -euo pipefail
cd "$(dirname "$0")/.."

rate=${STORM_RATE:-200}
seconds=${STORM_SECONDS:-60}
results=${STORM_RESULTS:-bench/RESULTS.md}
probes=300
profile=${STORM_PROFILE:-release}
export WMETER_HTTP__TRUST_FORWARDED_FOR=true
# shellcheck source=bench/serve.sh
source bench/serve.sh

# Sends $rate wrong sign-ins a second for $seconds s; "many" gives each a new
# X-Forwarded-For. Prints how many got each status.
storm() {
  python3 - "$port" "$rate" "$seconds" "$1" <<'PY'
import asyncio, collections, sys, time
port, rate, seconds, sources = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
statuses = collections.Counter()
async def attempt(i):
    # One address guesses one user's password; a botnet guesses many users' too.
    user = "victim" if sources == "one" else "user-%d" % i
    body = '{"username":"%s","password":"wrong-%d"}' % (user, i)
    forwarded = "X-Forwarded-For: 10.%d.%d.%d\r\n" % (i >> 16 & 255, i >> 8 & 255, i & 255) if sources == "many" else ""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((f"POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      f"{forwarded}Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}").encode())
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 120)
        statuses[line.split()[1].decode() if len(line.split()) > 1 else "none"] += 1
        writer.close()
    except Exception as e:
        statuses[type(e).__name__] += 1
async def main():
    tasks, start = [], time.monotonic()
    for i in range(rate * seconds):
        tasks.append(asyncio.create_task(attempt(i)))
        await asyncio.sleep(max(0, start + (i + 1) / rate - time.monotonic()))
    await asyncio.gather(*tasks)
    print(" ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
asyncio.run(main())
PY
}

# Signed in before: during a storm from this same address, signing in is
# throttled for everyone here (as it should be); an access token lasts 15 min.
probe_token=$(token)
base=$(p99_ms $probes "$probe_token")
base_rss=$(rss_mib) # after the reads: what the storm adds
rows=()
for sources in one many; do
  storm "$sources" >"$dir/storm-$sources" &
  attack=$!
  pids+=("$attack")
  sleep 5 # into the storm
  during=$(p99_ms $probes "$probe_token")
  wait "$attack"
  rss=$(rss_mib)
  ratio=$(awk -v a="$base" -v b="$during" 'BEGIN { printf "%.2f", b / a }')
  rows+=("| $sources address$([[ $sources == many ]] && echo "es") | $base | $during | ${ratio}× | $base_rss → $rss | $(cat "$dir/storm-$sources") |")
  echo "${rows[-1]}"
  sleep 10 # let the hashing queue drain before the next
done

{
  printf '\n## Login storm, %s (commit %s)\n\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD)"
  printf 'Machine: %s. `wmeter serve` (%s build, SQLite). %s wrong-password sign-ins a second for %s s; p99 of %s sequential API reads before, and during (from the 5th second); resident memory before and after. The goal: p99 during under 2× before, memory bounded.\n\n' \
    "$(machine)" "$profile" "$rate" "$seconds" "$probes"
  echo '| storm from | read p99 before, ms | during, ms | ratio | RSS MiB | sign-in answers |'
  echo '|---|---|---|---|---|---|'
  printf '%s\n' "${rows[@]}"
} >>"$results"
echo "appended to $results"
