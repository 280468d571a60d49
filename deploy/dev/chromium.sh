#!/usr/bin/env bash
# Chromium for the browser tests: Debian's build, never Playwright's download.
#   chromium.sh install   install chromium from Debian when missing
#   chromium.sh path      print the browser's path
set -euo pipefail

find_bin() {
  for bin in /usr/bin/chromium /usr/bin/chromium-browser; do
    [ -x "$bin" ] && { echo "$bin"; return; }
  done
  true
}

case "${1:-}" in
  install)
    if [ -z "$(find_bin)" ]; then
      echo "installing Chromium from Debian"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
    fi
    ;;
  path)
    bin=$(find_bin)
    [ -n "$bin" ] || { echo "Chromium is not installed: run $0 install" >&2; exit 1; }
    echo "$bin"
    ;;
  *) echo "usage: $0 install|path" >&2; exit 2 ;;
esac
