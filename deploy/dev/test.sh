#!/usr/bin/env bash
# The body of `make test`: starts the real servers on loopback, runs the
# suites, and always stops the servers.
#   test.sh all | rust | web | e2e | faults | schemathesis | fuzz-smoke | bench-smoke | bench | bench-scale | lint
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
what=${1:-all}

step() { printf '\n==> [%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

# Every web package, the test and lint tools included (the Makefile's recipe:
# `make run` installs only what the build needs).
web_packages() { make --no-print-directory web/node_modules/.installed-all; }

# The fault scenarios, by test name (also part of the Rust tests of `all`).
FAULTS='test(faults::) | test(a_killed_server) | test(replaying_every_projection) | test(a_killed_ingest_replica) | test(registry_outage) | test(offline_gateway) | test(cannot_be_audited)'


servers_dir=$(mktemp -d /tmp/wmeter-test.XXXXXX)
# PostgreSQL runs as its own user, which must reach its data folder.
chmod 755 "$servers_dir"
background=()
stop_servers() {
  for pid in "${background[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
  deploy/dev/postgres.sh stop "$servers_dir/pg" || true
  deploy/dev/tansu.sh stop "$servers_dir/kafka" || true
  rm -rf "$servers_dir"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

start_servers() {
  trap stop_servers EXIT
  step "starting PostgreSQL and the Kafka-protocol broker on 127.0.0.1; finding Mosquitto"
  export WM_TEST_PG_URL
  WM_TEST_PG_URL=$(deploy/dev/postgres.sh start "$(free_port)" "$servers_dir/pg")
  # The CA of its TLS certificate, for the sslmode=verify-full test.
  export WM_TEST_PG_CA="$servers_dir/pg/ca.crt"
  local kafka_port
  kafka_port=$(free_port)
  deploy/dev/tansu.sh start "$kafka_port" "$servers_dir/kafka"
  export WM_TEST_KAFKA_BROKERS="127.0.0.1:$kafka_port"
  # The broker-outage test runs a broker of its own with this binary.
  export WM_TEST_TANSU
  WM_TEST_TANSU=$(deploy/dev/tansu.sh bin)
  # Each test that needs Mosquitto starts one of its own with this binary.
  export WM_TEST_MOSQUITTO
  WM_TEST_MOSQUITTO=$(deploy/dev/mosquitto.sh path)
  # Each alarm-rule email test starts an SMTP server with this python.
  export WM_TEST_SMTP_PYTHON
  WM_TEST_SMTP_PYTHON=$(deploy/dev/smtp.sh python)
  # A test that cannot find a server fails instead of skipping.
  export WM_REQUIRE_SERVERS=1
  echo "PostgreSQL: $WM_TEST_PG_URL  Kafka: $WM_TEST_KAFKA_BROKERS  Mosquitto: $WM_TEST_MOSQUITTO"
}

# `lint` runs clippy on its own (`make lint`); `all` has the Rust tests'
# build run it instead (with_clippy).
lint() {
  local clippy=${1:-clippy}
  step "the service shape (deploy/dev/shape.sh)"
  deploy/dev/shape.sh
  step "rustfmt"
  cargo fmt --all -- --check
  if [ "$clippy" = clippy ]; then
    step "clippy"
    cargo clippy --workspace --all-targets --locked -- -D warnings
  fi
  if [ -f web/node_modules/.installed-all ]; then
    step "web: eslint and typecheck"
    (cd web && npm run --silent lint && npm run --silent typecheck)
  fi
}

validate_deploy() {
  # Compose file and Kubernetes manifests, offline; then proof that broken
  # copies are rejected (deploy/dev/validate-deploy.sh).
  deploy/dev/validate-deploy.sh check
  deploy/dev/validate-deploy.sh selftest
}

# Clippy's lints, with -D warnings, on the workspace's crates as the test
# build compiles them: `cargo clippy` is this same driver as cargo's
# RUSTC_WORKSPACE_WRAPPER over a check build, and a separate check build
# of every dependency cost `make test` 11 of its minutes
# (docs/development.md). The tests build every target clippy's
# --all-targets lints: libraries, binaries and tests (no benches or
# examples).
with_clippy() {
  local driver=
  if command -v rustup >/dev/null 2>&1; then driver=$(dirname "$(rustup which cargo)")/clippy-driver; fi
  [ -x "$driver" ] || driver=$(command -v clippy-driver || true)
  [ -n "$driver" ] || { echo "clippy-driver is missing: rustup component add clippy" >&2; exit 1; }
  step "clippy: its lints, -D warnings, run by the Rust tests' build below"
  build_env=(RUSTC_WORKSPACE_WRAPPER="$driver" CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__)
}
# What the Rust tests' build runs with: with_clippy's driver, or nothing.
build_env=()

rust_tests() {
  step "Rust tests (unit, storage on both backends, event-log contract on both logs, API)"
  setsid deploy/dev/hang-watch.sh &
  local watch=$!
  background+=("$watch")
  if cargo nextest --version >/dev/null 2>&1; then
    env "${build_env[@]}" cargo nextest run --workspace --locked --no-fail-fast
  else
    env "${build_env[@]}" cargo test --workspace --locked --no-fail-fast
  fi
  kill -- "-$watch" 2>/dev/null || true
  export WM_BINARIES_BUILT=1
}

web_tests() {
  step "web unit tests"
  web_packages
  (cd web && npm test)
  step "web build"
  (cd web && npm run build)
}

e2e_tests() {
  step "browser end-to-end tests: wmeter serve fed by wmeter simulate, in Chromium"
  deploy/dev/binaries.sh
  web_packages
  [ -f web/dist/index.html ] || (cd web && npm run build)
  export WM_E2E_CHROMIUM WM_E2E_MOSQUITTO_PUB
  WM_E2E_CHROMIUM=$(deploy/dev/chromium.sh path)
  WM_E2E_MOSQUITTO_PUB=$(command -v mosquitto_pub)
  (cd web && npm run --silent e2e)
}

fault_tests() {
  step "fault scenarios (docs/reliability.md): database and broker outages, replay, redelivery, offline gateway, audit fail-closed"
  cargo nextest run --workspace --locked --no-fail-fast -E "$FAULTS"
}

schemathesis_run() {
  step "schemathesis: every check against the OpenAPI document, on wmeter serve"
  deploy/dev/binaries.sh
  deploy/dev/schemathesis.sh run 20
}

fuzz_step="fuzz smoke run: every cargo fuzz target for 20 s (make fuzz runs them longer)"
fuzz_smoke() {
  step "$fuzz_step"
  deploy/dev/fuzz.sh run 20
}

# schemathesis keeps one core busy (it runs one worker), so the fuzz smoke
# run builds beside it, its output shown once both are done.
schemathesis_and_fuzz_smoke() {
  local log=$servers_dir/fuzz-smoke.log
  step "$fuzz_step: started beside schemathesis, its output follows"
  setsid deploy/dev/fuzz.sh run 20 >"$log" 2>&1 &
  background+=($!)
  schemathesis_run
  step "$fuzz_step"
  local status=0
  wait "${background[-1]}" || status=$?
  grep -vE '^\s+(Compiling|Downloaded|Downloading)' "$log" || true
  return "$status"
}

bench_smoke() {
  step "benchmark smoke run: every figure of make bench, tiny, so the harness never rots"
  bench/run.sh smoke
}

bench_full() {
  step "benchmarks: every figure against its raw reference (release build); appending to bench/RESULTS.md"
  bench/run.sh full
}

bench_scale() {
  step "benchmarks at DESIGN §10's scale, SQLite and PostgreSQL (release build, hours); appending to bench/RESULTS.md"
  bench/run.sh scale
}

case "$what" in
  all)
    validate_deploy
    web_packages
    lint without-clippy
    web_tests
    start_servers
    with_clippy
    rust_tests
    e2e_tests
    schemathesis_and_fuzz_smoke
    bench_smoke
    ;;
  rust) start_servers; rust_tests ;;
  web) web_tests ;;
  e2e) e2e_tests ;;
  fuzz-smoke) fuzz_smoke ;;
  faults) start_servers; fault_tests ;;
  schemathesis) schemathesis_run ;;
  bench-smoke) start_servers; bench_smoke ;;
  bench) start_servers; bench_full ;;
  bench-scale) start_servers; bench_scale ;;
  lint) lint ;;
  *) echo "usage: $0 all|rust|web|e2e|faults|schemathesis|fuzz-smoke|bench-smoke|bench|bench-scale|lint" >&2; exit 2 ;;
esac
step "all green ($what)"
