#!/usr/bin/env bash
# Makes sure the browser the editor test (test/e2e/editorExamples.test.ts) and `npm run screenshots` drive is on
# this machine: Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH), run by playwright-core, which downloads
# no browser of its own. Quiet and quick when it is already there.
set -euo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  exit 0
fi

# shellcheck source=asRoot.sh
source "$(dirname "$0")/asRoot.sh"
as_root_or_stop install-chromium.sh "no Chromium at $chromium" "apt-get install -y chromium"

echo "Installing Chromium (Debian's package) for the editor test..."
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null

if [ ! -x "$chromium" ]; then
  echo "install-chromium.sh: installed chromium, but there is still no browser at $chromium." >&2
  exit 1
fi
echo "Chromium installed: $("$chromium" --version 2>/dev/null || echo "$chromium")"
