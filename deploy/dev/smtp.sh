#!/usr/bin/env bash
# aiosmtpd, a real SMTP server (with STARTTLS) that the alarm-rule email
# tests start on 127.0.0.1 through deploy/dev/smtp-sink.py.
#   smtp.sh install   install aiosmtpd into a venv, pinned by hash
#   smtp.sh python    print the venv's python (it runs smtp-sink.py)
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
venv="${WM_CACHE:-$repo/.cache}/smtp-venv"

installed() {
  [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import aiosmtpd' 2>/dev/null
}

install() {
  installed && return 0
  echo "installing aiosmtpd==1.4.6 into $venv"
  mkdir -p "$(dirname "$venv")"
  if ! python3 -m venv "$venv" 2>/dev/null; then
    echo "python3 cannot make a venv: installing python3-venv from Debian"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  local req
  req=$(mktemp)
  trap 'rm -f "$req"' RETURN
  cat >"$req" <<'REQ'
aiosmtpd==1.4.6 --hash=sha256:72c99179ba5aa9ae0abbda6994668239b64a5ce054471955fe75f581d2592475
atpublic==9.0.0 --hash=sha256:449c3c4f0c74df79749d6fe225ba55e2a2fce34b303f0329211e4d6989ed6f6e
attrs==26.1.0 --hash=sha256:c647aa4a12dfbad9333ca4e71fe62ddc36f4e63b2d260a37a8b83d2f043ac309
REQ
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes \
    --only-binary=:all: -r "$req"
  installed || { echo "aiosmtpd did not install into $venv" >&2; exit 1; }
}

case "${1:-}" in
  install) install ;;
  python)
    installed || { echo "aiosmtpd is not installed: run $0 install" >&2; exit 1; }
    echo "$venv/bin/python"
    ;;
  *) echo "usage: $0 install|python" >&2; exit 2 ;;
esac
