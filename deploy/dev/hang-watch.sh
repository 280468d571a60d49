#!/usr/bin/env bash
# Runs beside the Rust tests (deploy/dev/test.sh): a test process still
# running after four minutes is most likely hung, and nextest ends it at
# five (.config/nextest.toml) with no word on where it waited. This prints
# each such process's thread stacks once, with gdb when it is installed,
# so the log shows the wait.
#   hang-watch.sh [SECONDS]   (240)
set -uo pipefail
after=${1:-240}
command -v gdb >/dev/null || exit 0
seen=" "
while sleep 20; do
  # nextest runs one test per process: `<deps>/<binary> --exact <name> ...`.
  while read -r pid secs args; do
    [[ $seen == *" $pid "* ]] && continue
    seen+="$pid "
    echo "==> hang-watch: a test has run ${secs} s, its threads' stacks follow: ${args:0:200}"
    timeout 120 gdb -batch -p "$pid" -ex 'thread apply all bt 40' 2>&1 | grep -E '^(Thread |#)' || true
    echo "==> hang-watch: end of process $pid's stacks"
  done < <(ps -eo pid=,etimes=,args= | awk -v after="$after" '$2 > after && $3 ~ /\/target\/debug\/deps\// && / --exact / {print}')
done
