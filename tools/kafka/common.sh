# Shared by tools/kafka/start.sh and stop.sh (sourced, not run). Paths, the saved PID, the lock.
# shellcheck shell=bash

kafka_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kafka_root="$(cd "$kafka_here/../.." && pwd)"
# Git-ignored. Holds lib/ (the jars), run/ (properties and data, wiped on each start), kafka.log,
# kafka.pid and kafka.address.
kafka_cache="${KAFKA_CACHE_DIR:-$kafka_root/.cache/kafka}"
kafka_lib="$kafka_cache/lib"
kafka_run="$kafka_cache/run"
kafka_log="$kafka_cache/kafka.log"
kafka_pidfile="$kafka_cache/kafka.pid"
kafka_addressfile="$kafka_cache/kafka.address"

say() { printf 'kafka: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}
log_tail() {
  if [[ -f $kafka_log ]]; then
    printf -- '--- last 40 lines of %s ---\n' "$kafka_log" >&2
    tail -n 40 "$kafka_log" >&2
    printf -- '---\n' >&2
  fi
}

# A process that has exited but is not reaped yet (a zombie) does not count as alive.
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  case "$(ps -p "$1" -o stat= 2>/dev/null || true)" in
    Z*) return 1 ;;
  esac
}

# The PID of the broker this script started, if it is still running; nothing otherwise. Checks the
# command line too, so a PID reused by another process is never taken for the broker.
broker_pid() {
  [[ -f $kafka_pidfile ]] || return 0
  local pid
  pid="$(cat "$kafka_pidfile" 2>/dev/null || true)"
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  alive "$pid" || return 0
  case "$(ps -p "$pid" -o args= 2>/dev/null || true)" in
    *kafka.Kafka*"$kafka_run/server.properties"*) echo "$pid" ;;
  esac
}

# SIGTERM, wait until it has exited, SIGKILL after KAFKA_STOP_TIMEOUT seconds (default 30).
stop_pid() {
  local pid=$1 limit=${KAFKA_STOP_TIMEOUT:-30}
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + limit))
  while alive "$pid"; do
    if ((SECONDS >= deadline)); then
      say "still running after ${limit}s: killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    sleep 0.2
  done
  rm -f "$kafka_pidfile" "$kafka_addressfile"
}

# One start or stop at a time per cache dir (when flock exists; the broker itself does not hold it).
take_lock() {
  mkdir -p "$kafka_cache"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$kafka_cache/.lock"
    flock -w 300 9 || die "another kafka start/stop holds $kafka_cache/.lock"
  fi
}
