#!/usr/bin/env bash
# Starts a real single-node Apache Kafka broker (KRaft) for tests, without Docker, and prints its
# bootstrap address (127.0.0.1:<port>) on stdout; everything else goes to stderr.
#
#   npm run kafka:start            # or: bash tools/kafka/start.sh
#   KAFKA_BROKERS="$(bash tools/kafka/start.sh)" npm run test:kafka
#   npm run kafka:stop
#
# The first run downloads Kafka's jars from Maven Central with Maven (tools/kafka/pom.xml) into
# .cache/kafka/lib; later runs reuse them. Data is fresh on each start. If the broker this script
# started is still running, it says so and prints the address again.
#
# KAFKA_PORT (default 19092; 0 picks free ports), KAFKA_CONTROLLER_PORT (default KAFKA_PORT + 1),
# KAFKA_START_TIMEOUT seconds (default 120), KAFKA_CACHE_DIR (default <repo>/.cache/kafka).
# Needs java (11+; 17 here) and, for the first run only, mvn.
set -euo pipefail

# shellcheck source=tools/kafka/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

port="${KAFKA_PORT:-19092}"
[[ $port =~ ^[0-9]+$ ]] || die "KAFKA_PORT must be a port number (0: any free port), got '$port'"
controller_port="${KAFKA_CONTROLLER_PORT:-}"
[[ -z $controller_port || $controller_port =~ ^[0-9]+$ ]] ||
  die "KAFKA_CONTROLLER_PORT must be a port number, got '$controller_port'"
timeout="${KAFKA_START_TIMEOUT:-120}"

command -v java >/dev/null 2>&1 || die "java is needed (Java 11 or newer) to run the Kafka broker"

take_lock

pid="$(broker_pid)"
if [[ -n $pid ]]; then
  running="$(cat "$kafka_addressfile" 2>/dev/null || echo "an unknown address")"
  if [[ $port != 0 && $running != "127.0.0.1:$port" ]]; then
    die "a broker started by this script is already running on $running (pid $pid), not on 127.0.0.1:$port: run tools/kafka/stop.sh first"
  fi
  say "already running (pid $pid) on $running, log $kafka_log"
  echo "$running"
  exit 0
fi

# KAFKA_PORT=0 (CI): two free ports, so a broker someone left running on 19092 is no obstacle.
if [[ $port == 0 ]]; then
  read -r port free_controller_port < <(node -e '
    const net = require("net");
    const a = net.createServer().listen(0, "127.0.0.1", () => {
      const b = net.createServer().listen(0, "127.0.0.1", () => {
        // Printed once both are closed: the port check below must not find our own listeners.
        const ports = `${a.address().port} ${b.address().port}`;
        a.close(() => b.close(() => console.log(ports)));
      });
    });') || die "KAFKA_PORT=0 needs node to pick free ports"
  controller_port="${controller_port:-$free_controller_port}"
fi
controller_port="${controller_port:-$((port + 1))}"
address="127.0.0.1:$port"

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$port" "$controller_port"; do
  if port_in_use "$p"; then
    die "port 127.0.0.1:$p is in use by another process; choose others with KAFKA_PORT (and KAFKA_CONTROLLER_PORT)"
  fi
done

# 1. Jars: fetched once; the stamp names the pom they came from, so editing the pom refetches.
stamp="$kafka_lib/.fetched-from-pom"
want="$(cksum <"$kafka_here/pom.xml")"
if [[ ! -f $stamp || "$(cat "$stamp")" != "$want" ]]; then
  command -v mvn >/dev/null 2>&1 || die "mvn (Maven) is needed once, to download Kafka's jars from Maven Central"
  say "downloading Apache Kafka's jars from Maven Central into $kafka_lib (first run only)"
  rm -rf "$kafka_lib"
  if ! mvn -q -B -Dstyle.color=never -f "$kafka_here/pom.xml" -Dkafka.lib="$kafka_lib" dependency:copy-dependencies \
    >"$kafka_cache/mvn.log" 2>&1; then
    cat "$kafka_cache/mvn.log" >&2
    die "mvn could not fetch the Kafka jars (output above, also in $kafka_cache/mvn.log)"
  fi
  ls "$kafka_lib"/kafka_2.13-*.jar >/dev/null 2>&1 || die "mvn finished but $kafka_lib has no kafka_2.13 jar"
  echo "$want" >"$stamp"
fi

java_cmd=(java -Xmx512m -Djava.awt.headless=true -XX:+ExitOnOutOfMemoryError
  "-Dlog4j.configuration=file:$kafka_here/log4j.properties" -cp "$kafka_lib/*")

# 2. Fresh properties and storage.
rm -rf "$kafka_run"
mkdir -p "$kafka_run/data"
: >"$kafka_log"
rm -f "$kafka_pidfile" "$kafka_addressfile"
sed -e "s|@KAFKA_PORT@|$port|g" -e "s|@CONTROLLER_PORT@|$controller_port|g" -e "s|@DATA_DIR@|$kafka_run/data|g" \
  "$kafka_here/server.properties" >"$kafka_run/server.properties"
cluster_id="$("${java_cmd[@]}" kafka.tools.StorageTool random-uuid 2>>"$kafka_log")" ||
  { log_tail; die "kafka.tools.StorageTool random-uuid failed"; }
"${java_cmd[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$kafka_run/server.properties" >>"$kafka_log" 2>&1 ||
  { log_tail; die "kafka.tools.StorageTool format failed"; }

# 3. The broker, in the background in its own session (a closed terminal does not take it down).
# The wrapper writes its own PID, then becomes java: the saved PID is the broker's.
detach=()
if command -v setsid >/dev/null 2>&1; then detach=(setsid); fi
${detach[@]+"${detach[@]}"} bash -c 'echo $$ >"$0"; exec "$@"' "$kafka_pidfile" \
  "${java_cmd[@]}" kafka.Kafka "$kafka_run/server.properties" </dev/null >>"$kafka_log" 2>&1 9>&- &
for _ in $(seq 1 50); do
  [[ -s $kafka_pidfile ]] && break
  sleep 0.1
done
pid="$(cat "$kafka_pidfile" 2>/dev/null || true)"
[[ -n $pid ]] || { log_tail; die "the broker process did not start"; }
echo "$address" >"$kafka_addressfile"

# 4. Ready when the broker says so (an open port is not enough).
deadline=$((SECONDS + timeout))
until grep -q 'Kafka Server started' "$kafka_log"; do
  if ! alive "$pid"; then
    log_tail
    rm -f "$kafka_pidfile" "$kafka_addressfile"
    die "the broker exited during start-up (log above, full log in $kafka_log)"
  fi
  if ((SECONDS >= deadline)); then
    log_tail
    stop_pid "$pid"
    die "the broker was not ready after ${timeout}s (no 'Kafka Server started' in $kafka_log); stopped it"
  fi
  sleep 0.2
done

say "ready on $address (pid $pid, log $kafka_log); stop it with: npm run kafka:stop"
echo "$address"
