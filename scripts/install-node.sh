#!/usr/bin/env bash
# Installs the Node.js of .nvmrc (the current LTS the project runs on) into .tools/node-<version>
# from the npm registry's `node-<os>-<arch>` package, for machines whose `node` is older (Node 20
# reached its end of life in April 2026) and which cannot download from nodejs.org. Nothing is
# installed system-wide; the last line printed is the PATH to use:
#   export PATH="$(bash scripts/install-node.sh | tail -1):$PATH"
# `.ci/run` does this itself. The package bundles no npm: the machine's npm runs under it.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(tr -d ' \n\r' < .nvmrc)"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
dest="$PWD/.tools/node-$version"
if [ ! -x "$dest/bin/node" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "Fetching node-$os-$arch@$version from the npm registry…" >&2
  (cd "$work" && npm pack "node-$os-$arch@$version" --silent --prefer-offline >/dev/null)
  mkdir -p "$dest.partial"
  tar xzf "$work"/node-*.tgz -C "$dest.partial" --strip-components=1
  "$dest.partial/bin/node" -v >/dev/null # runs here, or the install fails
  rm -rf "$dest" && mv "$dest.partial" "$dest"
fi
echo "$dest/bin"
