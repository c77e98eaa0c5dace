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

# shellcheck source=../asRoot.sh
source "$(dirname "$0")/../asRoot.sh"
as_root_or_stop install-services.sh "PostgreSQL server and/or redis-server are missing" "apt-get install -y --no-install-recommends postgresql redis-server"

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
