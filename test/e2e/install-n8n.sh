#!/usr/bin/env bash
# Installs a pinned real n8n once per machine, in a cache outside the working tree, and links it into
# this clone's .e2e (git-ignored), with Node 24 from this repo's node_modules. Every clone, `npm run dev`
# and CI on the machine reuse it; a bare machine installs it the same way.
#
#   install-n8n.sh     n8n 2.x, pinned in test/e2e/n8n,   linked as .e2e/n8n
#   install-n8n.sh 2   the same
#   install-n8n.sh 1   n8n 1.x, pinned in test/e2e/n8n-1, linked as .e2e/n8n-1
#
# The cache (N8N_E2E_CACHE, else ~/.cache/n8n-nodes-intelliprint) holds one folder per line and key: the
# hash of the pin's package.json and package-lock.json and the Node version sqlite3 is built for. A folder
# counts only when its `.complete` mark (written last) names its key and n8n and its sqlite3 binding are
# there: a half-finished or damaged install is removed and made again. Installs of one line wait for each
# other (flock), so two clones on one machine never write the same folder at once.
#
# Both lines run on the same Node 24: n8n 1.x's newest release asks for Node >=20.19 <=24.x. Which Node 24 (npm's
# package for this machine, or the user's own) is scripts/node24's choice, as everywhere else.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
line="${1:-2}"
case "$line" in
  2) pin="$root/test/e2e/n8n"; link="$root/.e2e/n8n" ;;
  1) pin="$root/test/e2e/n8n-1"; link="$root/.e2e/n8n-1" ;;
  *) echo "install-n8n.sh: unknown n8n line '$line' (1 or 2)" >&2; exit 2 ;;
esac
# Sets NODE24, NODE24_BIN and NODE24_HEADERS, or says what to install and stops.
node24="$(node "$root/scripts/node24/index.mjs" --sh)"
eval "$node24"
# Git Bash on Windows keeps PATH in its own form (/c/…).
if command -v cygpath >/dev/null 2>&1; then NODE24_BIN="$(cygpath -u "$NODE24_BIN")"; fi
export PATH="$NODE24_BIN:$PATH"
# Native modules (sqlite3) build against Node 24's headers, not the machine's own Node (where the package has none,
# as on Windows, node-gyp fetches them).
if [ -n "$NODE24_HEADERS" ]; then export npm_config_nodedir="$NODE24_HEADERS"; fi
cache="${N8N_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-intelliprint}"
# npm's download cache for n8n lives beside the installs: one for both lines (they share most packages).
export npm_config_cache="$cache/npm-cache"
# Run from `npm test`, npm hands this repo's settings (ignore-scripts=true) down to every npm call
# made here; the settings for n8n's folder are given explicitly instead.
unset npm_config_ignore_scripts

wanted="$(node -p "require('$pin/package.json').dependencies.n8n")"
# sha256 of the two files one after the other, by Node (macOS has no sha256sum).
hash="$(node -e 'const hash = require("crypto").createHash("sha256"); for (const file of process.argv.slice(1)) hash.update(require("fs").readFileSync(file)); console.log(hash.digest("hex").slice(0, 16))' "$pin/package.json" "$pin/package-lock.json")"
key="$hash-node$(node --version)"
target="$cache/n8n-$line-$wanted-$key"
binding() { find "$target/node_modules/sqlite3" -name 'node_sqlite3.node' -path '*Release*' 2>/dev/null | head -n 1; }
installed() { node -p "require('$target/node_modules/n8n/package.json').version" 2>/dev/null || true; }
complete() { [ "$(cat "$target/.complete" 2>/dev/null || true)" = "$key" ] && [ "$(installed)" = "$wanted" ] && [ -n "$(binding)" ]; }

mkdir -p "$cache" "$root/.e2e"
exec 9>"$cache/.lock-$line"
# macOS has no flock: there two clones installing the same line at the same moment are not kept apart.
if command -v flock >/dev/null 2>&1; then flock 9; fi

adoptable() { [ -d "$link" ] && [ ! -L "$link" ] && [ "$(node -p "require('$link/node_modules/n8n/package.json').version" 2>/dev/null || true)" = "$wanted" ] \
  && [ -n "$(find "$link/node_modules/sqlite3" -name 'node_sqlite3.node' -path '*Release*' 2>/dev/null | head -n 1)" ]; }

if complete; then
  echo "n8n $wanted already installed in $target"
elif adoptable && [ ! -e "$target" ]; then
  # A clone that installed n8n in its own .e2e before the cache existed: that install moves into the cache.
  mv "$link" "$target"
  echo "$key" > "$target/.complete"
  echo "n8n $wanted moved from $link into $target"
else
  if [ -e "$target" ]; then
    echo "Removing an unfinished or damaged n8n install in $target"
    rm -rf "$target"
  fi
  mkdir -p "$target"
  cp "$pin/package.json" "$pin/package-lock.json" "$target/"
  echo "Installing n8n $wanted into $target (a few minutes, once per machine)..."
  # Install scripts are skipped: one package tries to download a binary from outside the registry.
  (cd "$target" && npm install --ignore-scripts=true --no-audit --no-fund --loglevel=error)
  echo "Building sqlite3 for Node $(node --version)..."
  (cd "$target" && npm rebuild sqlite3 --ignore-scripts=false --loglevel=error)
  if [ -z "$(binding)" ] || [ "$(installed)" != "$wanted" ]; then
    echo "n8n $wanted or its sqlite3 binding did not install: n8n cannot start without them." >&2
    exit 1
  fi
  echo "$key" > "$target/.complete"
  echo "n8n $(installed) ready"
fi

# The clone's .e2e/n8n(-1) points at the cached install (an old clone's own folder is replaced by the link).
if [ -e "$link" ] && [ ! -L "$link" ]; then rm -rf "$link"; fi
# By Node, as a junction on Windows (Git Bash's ln would copy the whole install); a symlink elsewhere.
node -e 'const fs = require("fs"); const [target, link] = process.argv.slice(1); fs.rmSync(link, { force: true }); fs.symlinkSync(target, link, "junction")' "$target" "$link"
