#!/usr/bin/env bash
# Stops the Kafka broker that tools/kafka/start.sh started, by its saved PID; waits until it has
# exited (SIGKILL after KAFKA_STOP_TIMEOUT seconds, default 30). Succeeds if none is running.
set -euo pipefail

# shellcheck source=tools/kafka/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

take_lock

pid="$(broker_pid)"
if [[ -z $pid ]]; then
  rm -f "$kafka_pidfile" "$kafka_addressfile"
  say "not running"
  exit 0
fi

say "stopping the broker (pid $pid)"
stop_pid "$pid"
say "stopped"
