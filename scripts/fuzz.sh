#!/usr/bin/env bash
# Fuzzes the parsers (board text of both games, move sequences, request bodies) with cargo fuzz
# (libFuzzer; no sanitizer, see below) for a bounded time. Fails on any crash or failed assertion.
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
# Without a sanitizer: the parsers are safe Rust, and what is sought is a panic or a failed
# assertion, which libFuzzer catches by itself (cargo-fuzz's issue 158); AddressSanitizer finds
# memory errors, which safe code cannot make, at several times the cost of each run. And with
# codegen units: cargo-fuzz builds with one by default, which fuzzes a little faster and builds
# much slower, the trade its `--codegen-units` flag was added for in short runs like this one
# (cargo-fuzz's pull request 416). docs/testing.md has what each costs.
build=(--sanitizer none --codegen-units 16 --fuzz-dir tests/fuzz parsers)
if [ -n "${SENTE_PREPARE_ONLY:-}" ]; then
    # Built, not run: CI builds the target while the tests compile (.ci/run).
    RUSTC_BOOTSTRAP=1 cargo fuzz build "${build[@]}"
    exit 0
fi
RUSTC_BOOTSTRAP=1 cargo fuzz run "${build[@]}" -- -max_total_time="$seconds" >"$log" 2>&1 || status=$?
if [ "$status" -eq 0 ]; then
    grep -E "^Done [0-9]+ runs" "$log"
else
    # A crash: libFuzzer's report, with the input that caused it (saved under tests/fuzz/artifacts).
    tail -n 40 "$log" >&2
fi
exit "$status"
