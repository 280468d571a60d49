#!/usr/bin/env bash
# The cargo fuzz targets of fuzz/ (docs/reliability.md, "Hostile input").
#   fuzz.sh install          cargo-fuzz, when missing
#   fuzz.sh run SECONDS      build every target, then fuzz each for SECONDS
# A smoke run (make test) starts from an empty corpus in a temp dir and
# builds unoptimised: minutes less to build, a twentieth of the runs, which
# is plenty to prove each target runs. A long run (make fuzz) builds
# optimised and keeps its corpus in .cache/fuzz so each run goes deeper.
# A crash fails the run and leaves its input in .cache/fuzz/artifacts.
set -euo pipefail
cd "$(dirname "$0")/../.."

CARGO_FUZZ_VERSION=0.13.2
TARGETS=(uplink identifiers auth_headers)
# Debug assertions on (overflow is a crash); 16 codegen units build in
# half the time for a small loss of speed. Stable Rust: no sanitizer, as
# the code under test is safe Rust.
BUILD_FLAGS=(--fuzz-dir fuzz --target-dir target/fuzz -s none --debug-assertions --codegen-units 16)

install() {
  if cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then return; fi
  echo "installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION"
}

run() {
  local seconds=$1 corpus_root=$2
  shift 2
  BUILD_FLAGS+=("$@")
  # Its own lock file: refuse to run on one that no longer matches.
  cargo metadata --locked --format-version 1 --manifest-path fuzz/Cargo.toml >/dev/null
  cargo fuzz build "${BUILD_FLAGS[@]}"
  mkdir -p .cache/fuzz/artifacts
  for target in "${TARGETS[@]}"; do
    mkdir -p "$corpus_root/$target"
    echo "fuzzing $target for ${seconds}s"
    cargo fuzz run "${BUILD_FLAGS[@]}" "$target" "$corpus_root/$target" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$PWD/.cache/fuzz/artifacts/$target-" -print_final_stats=1 2>&1 |
      grep -E '^(Done|stat::number_of_executed_units|thread|SUMMARY)|==[0-9]+== ERROR|panicked|Test unit written' || true
    # grep hides the progress lines; the pipeline's status is libFuzzer's.
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz target $target failed; its input is in .cache/fuzz/artifacts" >&2; exit 1; }
  done
}

case "${1:-}" in
  install) install ;;
  run)
    seconds=${2:?usage: $0 run SECONDS}
    if [ "${3:-}" = keep ]; then
      run "$seconds" .cache/fuzz/corpus
    else
      corpus=$(mktemp -d /tmp/wmeter-fuzz.XXXXXX)
      trap 'rm -rf "$corpus"' EXIT
      run "$seconds" "$corpus" --dev
    fi
    ;;
  *) echo "usage: $0 install | run SECONDS [keep]" >&2; exit 2 ;;
esac
