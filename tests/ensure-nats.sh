#!/usr/bin/env bash
# Finds the nats-server the cluster tests start: $NATS_SERVER, else Debian's /usr/sbin/nats-server.
# When it is missing and we are root, installs Debian's nats-server; otherwise stops with the command to run.
set -euo pipefail
if [ -n "${NATS_SERVER:-}" ]; then
  [ -x "$NATS_SERVER" ] && exit 0
  echo "NATS_SERVER=$NATS_SERVER is not an executable file." >&2
  exit 1
fi
for p in /usr/sbin/nats-server /usr/bin/nats-server /usr/local/bin/nats-server; do [ -x "$p" ] && exit 0; done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "nats-server not found: installing Debian's nats-server (apt-get install -y nats-server)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq nats-server >/dev/null
  [ -x /usr/sbin/nats-server ] && exit 0
fi
echo "nats-server is missing: run 'sudo apt-get install -y nats-server' (or set NATS_SERVER) and try again." >&2
exit 1
