#!/usr/bin/env bash
# schemathesis against the running API's own OpenAPI document
# (docs/reliability.md, "Hostile input").
#   schemathesis.sh install      a virtualenv in .cache/schemathesis, when missing
#   schemathesis.sh run [N]      wmeter serve (debug build) on a free port with
#                                a fresh SQLite database, then every check,
#                                stateful phase included, as an admin; N
#                                examples per operation (default 30)
# The pass condition: no 5xx and no response that breaks the document.
# schemathesis.toml beside this script lists the two checks turned off for
# one operation each, with why. One worker: hypothesis describes its
# filters through Python's ast module, which CPython 3.11 does not guard
# across threads ("AST constructor recursion depth mismatch").
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

VERSION=4.32.5
venv=$repo/.cache/schemathesis
st=$venv/bin/schemathesis

install() {
  if [ -x "$st" ] && "$st" --version | grep -q "$VERSION"; then return; fi
  echo "installing schemathesis $VERSION into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

run() {
  local examples=${1:-30}
  install
  local port url
  # Global: the EXIT trap reads them after this function returned.
  dir=$(mktemp -d /tmp/wmeter-schemathesis.XXXXXX)
  port=$(free_port)
  url="http://127.0.0.1:$port"
  export WMETER_HTTP__PORT=$port WMETER_MQTT__LISTEN=127.0.0.1:0 WMETER_LOG__LEVEL=warn \
    WMETER_DATABASE__URL="sqlite://$dir/wm.db" WMETER_WEB__STATIC_DIR="$dir" WMETER_AUTH__KEY_FILE="$dir/jwt.key" \
    WMETER_DEVICES__CA_CERT_FILE="$dir/device-ca.crt" WMETER_DEVICES__CA_KEY_FILE="$dir/device-ca.key"
  echo "schemathesis-password" | target/debug/wmeter user add --username st-admin --role admin >/dev/null
  target/debug/wmeter serve >/dev/null 2>"$dir/serve.log" &
  pid=$!
  trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
  for _ in $(seq 1 100); do
    curl -fsS "$url/healthz" >/dev/null 2>&1 && break
    sleep 0.2
  done
  local token
  token=$(curl -fsS -H 'Content-Type: application/json' \
    -d '{"username":"st-admin","password":"schemathesis-password"}' "$url/api/auth/login" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  # Signing in is throttled per address; schemathesis would only measure
  # the throttle, and a logout would end nothing of its own.
  "$st" --config-file deploy/dev/schemathesis.toml run "$url/api/docs/openapi.json" \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "$examples" \
    --seed 20261123 \
    --workers 1 \
    --request-timeout 10 \
    --header "Authorization: Bearer $token" \
    --exclude-path /api/auth/login \
    --exclude-path /api/auth/logout \
    --no-color \
    --report junit --report-dir "$repo/.cache/schemathesis-report" || {
    echo "schemathesis failed; the server's log:" >&2
    tail -50 "$dir/serve.log" >&2
    return 1
  }
}

case "${1:-}" in
  install) install ;;
  run) shift; run "$@" ;;
  *) echo "usage: $0 install | run [examples]" >&2; exit 2 ;;
esac
