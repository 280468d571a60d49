#!/usr/bin/env bash
# Builds the debug wmeter and wm-bench that e2e, schemathesis and the
# benchmark smoke run serve and drive, unless make test's Rust tests just
# built both (deploy/dev/test.sh exports WM_BINARIES_BUILT=1 after them).
# Their integration tests run both binaries, so cargo built them with the
# tests' features; a plain `cargo build` here would unify dependency
# features without the tests' dev-dependencies and recompile some sixty
# crates.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ ${WM_BINARIES_BUILT:-} == 1 ]] || cargo build --locked --bin wmeter --bin wm-bench
