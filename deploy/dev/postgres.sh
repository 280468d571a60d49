#!/usr/bin/env bash
# A throwaway PostgreSQL for tests, on 127.0.0.1 only.
#   postgres.sh install          install the server from Debian when missing
#   postgres.sh start PORT DIR   initdb in DIR and start on 127.0.0.1:PORT
#   postgres.sh stop DIR         stop it
# It also speaks TLS, with a certificate for 127.0.0.1 signed by a test CA
# of its own (DIR/ca.crt), for the sslmode=verify-full test. The URL it
# prints says sslmode=disable: the other tests need no TLS.
# The server refuses to run as root, so as root it runs as the `postgres` user.
set -euo pipefail

bin_dir() {
  local initdb
  initdb=$(command -v initdb 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$initdb" ] && dirname "$(readlink -f "$initdb")"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  install)
    if [ -z "$(bin_dir)" ]; then
      echo "installing PostgreSQL from Debian"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    ;;
  start)
    port=${2:?port}; dir=${3:?dir}
    bin=$(bin_dir) || { echo "PostgreSQL is not installed: run $0 install" >&2; exit 1; }
    mkdir -p "$dir"; chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    if [ ! -f "$dir/ca.crt" ]; then
      tls="$dir/tls"; mkdir -p "$tls"
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj "/CN=w-meter test CA" \
        -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
        -keyout "$dir/data/server.key" -out "$tls/server.csr" 2>/dev/null
      printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$tls/san.ext"
      openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial -days 30 \
        -extfile "$tls/san.ext" -out "$dir/data/server.crt" 2>/dev/null
      chmod 600 "$dir/data/server.key"
      [ "$(id -u)" = 0 ] && chown postgres: "$dir/data/server.key" "$dir/data/server.crt"
      cp "$tls/ca.crt" "$dir/ca.crt"
    fi
    # Durability is pointless for a throwaway test server; speed is not.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 start -o \
      "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c ssl=on" \
      >/dev/null || { tail -n 30 "$dir/postgres.log" >&2; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
    ;;
  stop)
    dir=${2:?dir}
    bin=$(bin_dir) || exit 0
    [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null || true
    ;;
  *)
    echo "usage: $0 install | start PORT DIR | stop DIR" >&2; exit 2 ;;
esac
