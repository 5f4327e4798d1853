#!/usr/bin/env bash
# Debian packages the tests need (real servers and a real browser), installed when missing.
# Usage: scripts/system-deps.sh COMMAND=PACKAGE ...   e.g. redis-server=redis-server
# (a COMMAND starting with / is a file the package installs, e.g. an nginx module)
set -euo pipefail
missing=()
for pair in "$@"; do
  cmd=${pair%%=*}; pkg=${pair#*=}
  if [[ $cmd == /* ]]; then
    [ -e "$cmd" ] || missing+=("$pkg")
  else
    command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "error: need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
