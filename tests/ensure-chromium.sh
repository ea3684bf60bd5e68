#!/usr/bin/env bash
# Finds the Chromium the browser tests drive: $CHROMIUM_PATH, else /usr/bin/chromium. When it is
# missing and we are root, installs Debian's chromium; otherwise stops with the command to run.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] && exit 0
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file." >&2
  exit 1
fi
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium not found: installing Debian's chromium (apt-get install -y chromium)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
  [ -x /usr/bin/chromium ] && exit 0
fi
echo "Chromium is missing: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH) and try again." >&2
exit 1
