#!/usr/bin/env bash
# Mosquitto for tests. Each test starts a broker of its own (see
# wm_test_support::mqtt), so this only installs it and says where it is.
#   mosquitto.sh install   install mosquitto from Debian when missing
#   mosquitto.sh path      print the mosquitto binary's path
set -euo pipefail

find_bin() {
  command -v mosquitto 2>/dev/null || { [ -x /usr/sbin/mosquitto ] && echo /usr/sbin/mosquitto; } || true
}

case "${1:-}" in
  install)
    if [ -z "$(find_bin)" ] || ! command -v mosquitto_passwd >/dev/null 2>&1; then
      echo "installing Mosquitto from Debian"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto mosquitto-clients >/dev/null
    fi
    ;;
  path)
    bin=$(find_bin)
    [ -n "$bin" ] || { echo "Mosquitto is not installed: run $0 install" >&2; exit 1; }
    echo "$bin"
    ;;
  *) echo "usage: $0 install|path" >&2; exit 2 ;;
esac
