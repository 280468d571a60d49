# Sourced by bench/soak.sh and bench/login-storm.sh: builds `wmeter` with
# $profile (release, or debug to try a script quickly), starts `wmeter
# serve` on free ports with a fresh SQLite database and an admin `bench`,
# and stops it (and every pid in $pids) on exit. Defines $url, $bin, $dir,
# $server, token, p99_ms and rss_mib. WM_BENCH_LOGS (a folder) keeps the
# server's log.

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

if [[ $profile == release ]]; then
  cargo build --release --locked --bin wmeter
  bin=target/release/wmeter
else
  cargo build --locked --bin wmeter
  bin=target/debug/wmeter
fi
[[ -f web/dist/index.html ]] || make web
dir=$(mktemp -d /tmp/wmeter-bench.XXXXXX)
port=$(free_port)
url="http://127.0.0.1:$port"
export WMETER_HTTP__PORT=$port WMETER_MQTT__LISTEN="127.0.0.1:$(free_port)" WMETER_LOG__LEVEL=warn \
  WMETER_DATABASE__URL="sqlite://$dir/wm.db" WMETER_WEB__STATIC_DIR=web/dist WMETER_AUTH__KEY_FILE="$dir/jwt.key" \
  WMETER_MQTT__GATEWAY_PASSWORD=bench-gateway-password \
  WMETER_TELEMETRY__GATEWAY_RATE_PER_SEC=0
# (No per-gateway rate limit: a benchmark's few gateways send as fast as they can.)
password=bench-admin-password
echo "$password" | "$bin" user add --username bench --role admin >/dev/null
"$bin" serve >/dev/null 2>"$dir/serve.log" &
server=$!
pids=()
cleanup() {
  for pid in "${pids[@]}" "$server"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # WM_BENCH_LOGS keeps the server's log (warnings and errors) past the run.
  if [[ -n ${WM_BENCH_LOGS:-} ]]; then
    mkdir -p "$WM_BENCH_LOGS" && cp "$dir/serve.log" "$WM_BENCH_LOGS/serve-$(date -u +%Y%m%dT%H%M%SZ).log" || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 1 150); do curl -fsS "$url/healthz" >/dev/null 2>&1 && break; sleep 0.2; done

token() {
  curl -fsS -H 'Content-Type: application/json' -d "{\"username\":\"bench\",\"password\":\"$password\"}" \
    "$url/api/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])'
}

# p99, in ms, of $1 sequential reads (count, meter list, gateway activity) with token $2.
p99_ms() {
  local n=$1 token=$2 path
  for i in $(seq 1 "$n"); do
    case $((i % 3)) in
      0) path=/api/proxy/gateways/count ;;
      1) path="/api/proxy/wmeters?max=20" ;;
      2) path=/api/proxy/gateways/gateway-activity ;;
    esac
    curl -s -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer $token" "$url$path"
  done | sort -n | awk -v n="$n" '{ v[NR] = $1 } END { printf "%.1f", v[int(n * 0.99)] * 1000 }'
}

rss_mib() {
  awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status"
}

machine() {
  printf '%s, %s cores, %s GiB' "$(uname -m)" "$(nproc)" "$(awk '/MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)"
}
