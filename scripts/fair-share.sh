#!/usr/bin/env bash
# The machine shared between two clients, on the release binary with its default limits: a
# flooder (16 connections of small chess tournaments, from 127.0.0.3) and a polite client (a
# level-8 chess move, then a second's thought, from 127.0.0.2). Fails unless every polite move
# is answered with its p99 within 3x its time alone, the flooder gets work done and is refused
# with 429s that carry Retry-After and the RateLimit fields, nothing times out, and the machine
# stays at least 75% busy (scripts/fair-share.py says how each is measured).
#
# Usage: scripts/fair-share.sh [seconds]   (default 40: under a minute in all)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-40}
# shellcheck source=scripts/release-server.sh
. scripts/release-server.sh
start_server env RUST_LOG=warn --
python3 scripts/fair-share.py "http://127.0.0.1:$port" --seconds "$seconds" --server-pid "$server"
