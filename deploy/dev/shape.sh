#!/usr/bin/env bash
# The service shape (docs/architecture.md, "Service shape"), checked on the
# tracked sources: part of `make lint`, so of `make test`.
#   - handlers build no ApiError by hand, and routes see no raw sqlx::Error;
#   - no SQL in any service's routes/ (storage/ holds it);
#   - every handler the API description documents runs in a span of its own;
#   - no source file is over 400 lines (a longer one becomes a folder), but
#     for generated code (`*/src/generated/*`, written by a tool, never by hand);
#   - no import cycle between the files of a crate (deploy/dev/cycles.py).
# Prints every breach, then fails if there was one.
set -euo pipefail
cd "$(dirname "$0")/../.."

failed=0
breach() {
  echo "shape: $*" >&2
  failed=1
}

while IFS= read -r hit; do
  breach "an ApiError built by hand in a handler's map_err: $hit"
done < <(grep -rn 'map_err(|e| ApiError' services/*/src || true)

while IFS= read -r hit; do
  breach "a raw sqlx::Error in routes: $hit"
done < <(grep -rn 'sqlx::Error' services/*/src/routes || true)

while IFS= read -r hit; do
  breach "SQL in routes (it belongs in storage/): $hit"
done < <(grep -rnwE 'SELECT|INSERT|UPDATE|DELETE' services/*/src/routes | grep -v '^\S*:[0-9]*:\s*//' || true)

# A #[utoipa::path] must be followed by #[tracing::instrument] before its fn.
while IFS= read -r hit; do
  breach "a documented handler without #[tracing::instrument]: $hit"
done < <(awk '
  FNR == 1 { open = 0 }
  /#\[utoipa::path/ { open = 1; where = FILENAME ":" FNR; traced = 0; next }
  open && /#\[tracing::instrument/ { traced = 1 }
  open && /(^|[^a-z_])fn / { if (!traced) print where; open = 0 }
' $(git ls-files 'services/*/src/*.rs' 'services/*/src/**/*.rs'))

while read -r lines file; do
  [ "$file" = total ] && continue
  if [ "$lines" -gt 400 ]; then
    breach "$file has $lines lines (at most 400: make it a folder module)"
  fi
done < <(git ls-files -- '*.rs' '*.ts' '*.tsx' '*.js' '*.mjs' '*.sh' '*.py' '*.css' '*.sql' '*.proto' ':!:*/src/generated/*' | xargs wc -l)

python3 deploy/dev/cycles.py || failed=1

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "shape: ok"
