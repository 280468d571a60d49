#!/usr/bin/env bash
# OpenSSL's headers, which the Kafka adapter's librdkafka links against
# (Kafka over TLS). Debian's, not OpenSSL built from source: that build was
# five CPU-minutes of every clean `make test` (docs/performance.md §7).
#   openssl.sh install   install libssl-dev and pkg-config from Debian when missing
set -euo pipefail

case "${1:-}" in
  install)
    if ! pkg-config --exists openssl 2>/dev/null; then
      echo "installing OpenSSL's headers (libssl-dev) and pkg-config from Debian"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libssl-dev pkg-config >/dev/null
    fi
    ;;
  *) echo "usage: $0 install" >&2; exit 2 ;;
esac
