#!/usr/bin/env bash
# `npm run lint:openapi` (after `npm run build`): writes the gateway's OpenAPI document (the one
# /openapi.json serves) to a temporary file without starting a server, and lints it with an
# independent linter, Redocly CLI, on its recommended rules (redocly.yaml). Fails on any error or
# warning: `redocly lint` itself fails on errors only.
set -euo pipefail
cd "$(dirname "$0")/../.."
# No telemetry or update check: CI reaches the npm registry and nothing else.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
node dist/tools/openapi/write-openapi.js "$dir/openapi.json"

lint() { npx --no-install redocly lint --config redocly.yaml --max-problems 1000 "$@" "$dir/openapi.json"; }
lint --format json >"$dir/report.json" 2>"$dir/stderr.txt" || true
if node -e '
  const totals = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).totals;
  console.log(`openapi.json: ${totals.errors} errors, ${totals.warnings} warnings (redocly recommended)`);
  process.exit(totals.errors === 0 && totals.warnings === 0 ? 0 : 1);
' "$dir/report.json"; then
  exit 0
fi
# Something to fix (or the report was unreadable): the readable report, then fail.
cat "$dir/stderr.txt" >&2
lint --format codeframe || true
exit 1
