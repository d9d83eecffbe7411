#!/usr/bin/env bash
# The browser suites drive Debian's Chromium through playwright-core (README, "Install, run,
# test"): install it when this machine does not have it yet. Prints the executable's path.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  echo "installing Debian's chromium" >&2
  if [[ $(id -u) -eq 0 ]]; then apt-get install -y -q chromium >&2 || { apt-get update -q >&2 && apt-get install -y -q chromium >&2; }
  else sudo apt-get install -y -q chromium >&2 || { sudo apt-get update -q >&2 && sudo apt-get install -y -q chromium >&2; }
  fi
fi
command -v chromium
