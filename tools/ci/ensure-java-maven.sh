#!/usr/bin/env bash
# The Kafka test broker (tools/kafka/start.sh) needs java, and mvn once to fetch its jars:
# installs Debian's OpenJDK 17 and Maven if either is missing.
set -euo pipefail

if command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; then
  echo "java and mvn are installed"
  exit 0
fi
echo "installing Debian's OpenJDK 17 and Maven"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq openjdk-17-jre-headless maven >/dev/null
