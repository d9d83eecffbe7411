#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:5432 with trust auth for `postgres`:
# starts the machine's cluster if it is down, installs Debian's server if there is none.
set -euo pipefail

ready() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }

if ready; then echo "PostgreSQL is up"; exit 0; fi

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "no PostgreSQL server installed: installing Debian's"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  # Local test server only: trust connections from this machine.
  sed -i -E 's/^(host\s+all\s+all\s+127\.0\.0\.1\/32\s+)\S+/\1trust/; s/^(local\s+all\s+(all|postgres)\s+)\S+/\1trust/' "$hba"
fi

version="$(ls /etc/postgresql | sort -V | tail -n 1)"
echo "starting PostgreSQL $version"
pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
for _ in $(seq 1 60); do
  if ready; then echo "PostgreSQL is up"; exit 0; fi
  sleep 1
done
echo "PostgreSQL did not come up on 127.0.0.1:5432" >&2
exit 1
