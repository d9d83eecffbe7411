#!/usr/bin/env bash
# `npm run client:generate` (after `npm run build`): the TypeScript client's types
# (clients/typescript/src/generated/openapi.ts) from the gateway's OpenAPI document, written as
# `npm run lint:openapi` writes it (the one /openapi.json serves, built without a server), through
# openapi-typescript, then formatted as the rest of the repository. CI runs it and fails when the
# committed file differs: the client's types never drift from what the service serves.
set -euo pipefail
cd "$(dirname "$0")/../.."
# openapi-typescript reads the document through Redocly's library: no telemetry or update check.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
out=clients/typescript/src/generated/openapi.ts
node dist/tools/openapi/write-openapi.js "$dir/openapi.json"
# --default-non-nullable=false: a request field with a default (`currency`) stays optional, as the
# service fills it in; answers list every field they always carry as required anyway.
npx --no-install openapi-typescript "$dir/openapi.json" --default-non-nullable=false --output "$dir/openapi.ts" >/dev/null
npx --no-install prettier --log-level warn --stdin-filepath "$out" <"$dir/openapi.ts" >"$out"
echo "$out: generated from the served OpenAPI document"
