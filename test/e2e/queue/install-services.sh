#!/usr/bin/env bash
# Makes sure the servers the queue-mode suite runs next to n8n are on this machine: PostgreSQL
# (initdb, pg_ctl, postgres, psql) and redis-server. Missing ones come from Debian's packages, which
# also create the `postgres` system user the suite runs PostgreSQL as when it is root. Quiet and
# quick when everything is already there.
set -euo pipefail

have_postgres() {
  local bin
  for bin in /usr/lib/postgresql/*/bin; do
    [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] && [ -x "$bin/postgres" ] && [ -x "$bin/psql" ] && return 0
  done
  return 1
}
have_redis() { command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; }

if have_postgres && have_redis; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "install-services.sh: PostgreSQL server and/or redis-server are missing, and installing them needs root." >&2
  echo "  Run as root, give this user passwordless sudo, or install them yourself:" >&2
  echo "  apt-get install -y --no-install-recommends postgresql redis-server" >&2
  exit 1
fi

echo "Installing PostgreSQL and Redis (Debian packages) for the queue-mode suite..."
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# The packages' own services are not what the suite uses (it runs its own servers on its own ports),
# but on machines with a service manager they would start: policy-rc.d keeps them down while installing.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
  "${as_root[@]}" chmod +x "$policy"
  trap '"${as_root[@]}" rm -f "$policy"' EXIT
fi
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql redis-server >/dev/null

if ! have_postgres || ! have_redis; then
  echo "install-services.sh: installed postgresql and redis-server, but their binaries are still missing." >&2
  exit 1
fi
echo "PostgreSQL and Redis installed."
