#!/usr/bin/env bash
# Fuzzes the parsers (board text of both games, move sequences, request bodies) with cargo fuzz
# (libFuzzer, AddressSanitizer) for a bounded time. Fails on any crash or failed assertion.
#
# Usage: scripts/fuzz.sh [seconds]   (default 60)
#
# cargo fuzz needs nightly compiler flags; this project builds with the stable toolchain only,
# so RUSTC_BOOTSTRAP=1 lets stable accept them for this build.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! command -v cargo-fuzz >/dev/null; then
    cargo install cargo-fuzz --locked --quiet
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir tests/fuzz parsers -- -max_total_time="$seconds" >"$log" 2>&1 || status=$?
if [ "$status" -eq 0 ]; then
    grep -E "^Done [0-9]+ runs" "$log"
else
    # A crash: libFuzzer's report, with the input that caused it (saved under tests/fuzz/artifacts).
    tail -n 40 "$log" >&2
fi
exit "$status"
