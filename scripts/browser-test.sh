#!/usr/bin/env bash
# The playground page in a real browser: Debian's chromium driven by playwright-core (from npm;
# no browser is downloaded). Installs what is missing, starts the release binary, and runs
# tests/browser/playground.mjs against it. Screenshots go to target/screenshots/.
#
#   scripts/browser-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null; then
    sudo_if_needed=()
    [ "$(id -u)" -ne 0 ] && sudo_if_needed=(sudo)
    "${sudo_if_needed[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq chromium >/dev/null
fi
(cd tests/browser && npm ci --no-audit --no-fund --silent)

. scripts/release-server.sh
start_server --
node tests/browser/playground.mjs "http://127.0.0.1:$port" target/screenshots
