#!/usr/bin/env bash
# `second-postgres.sh start <dir>`: a throwaway PostgreSQL cluster in <dir> on a free port of
# 127.0.0.1 (trust auth, user postgres), printing its address as `postgres://…`; `stop <dir>` stops
# it. CI runs the two halves of `npm run test:pg` on two clusters at once: a cluster's feed horizon
# is its oldest transaction in flight in any database, so the halves must not share one. Settings
# as the machine's cluster, except fsync off: nothing in it outlives the run. As root (CI here),
# the server runs as the `postgres` user, which the server's package creates.
set -euo pipefail
command="${1:?start or stop}"
dir="${2:?a directory for the cluster}"

bin="$(dirname "$(command -v initdb 2>/dev/null || ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
as_owner() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "$command" in
  start)
    mkdir -p "$dir"
    # The server's user must reach the directory: a mktemp parent is the caller's alone (mode 700).
    [[ $(id -u) -ne 0 ]] || { chmod 755 "$(dirname "$dir")"; chown postgres "$dir"; }
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log"
    port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
      "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c fsync=off" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port"
    ;;
  stop)
    [[ ! -d $dir/data ]] || as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    ;;
  *)
    echo "usage: $0 start|stop <dir>" >&2
    exit 2
    ;;
esac
