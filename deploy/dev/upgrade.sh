#!/usr/bin/env bash
# make test-upgrade: the previous release's `wmeter` against a database this
# release migrated and wrote to (services/wmeter/tests/cli/upgrade.rs). The
# previous release is WM_PREVIOUS_REF (the previous commit by default),
# built once without the Kafka adapter and cached in .cache/previous/<commit>,
# or WM_PREVIOUS_WMETER, a build of it made elsewhere.
set -euo pipefail
given=${WM_PREVIOUS_WMETER:-}
# Relative to the caller's folder, before the cd below.
[ -z "$given" ] || given=$(realpath -m -- "$given")
cd "$(dirname "$0")/../.."

ref=${WM_PREVIOUS_REF:-HEAD~1}
commit=$(git rev-parse --verify --short=12 "$ref^{commit}")
cache=.cache/previous
binary=$cache/$commit/wmeter
if [ -n "$given" ]; then
  # A build of the previous release made elsewhere (a release build kept
  # from a benchmark, say): nothing to build.
  [ -x "$given" ] || { echo "WM_PREVIOUS_WMETER=$given is not an executable" >&2; exit 2; }
  binary=$given
elif [ ! -x "$binary" ]; then
  echo "building the previous release's wmeter ($ref = $commit), once"
  src=$(mktemp -d /tmp/wmeter-previous.XXXXXX)
  trap 'rm -rf "$src"' EXIT
  git archive "$commit" | tar -x -C "$src"
  # One target folder for every previous release: their dependencies build once.
  target=$PWD/$cache/target
  (cd "$src" && CARGO_TARGET_DIR="$target" cargo build --locked --bin wmeter --no-default-features)
  mkdir -p "$cache/$commit"
  cp "$target/debug/wmeter" "$binary"
fi
echo "previous release: $binary"
WM_PREVIOUS_WMETER=$(realpath "$binary")
export WM_PREVIOUS_WMETER
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run -p wmeter --test cli --locked -E 'test(the_previous_release_serves)' --no-capture
else
  cargo test -p wmeter --test cli --locked -- the_previous_release_serves --nocapture
fi
