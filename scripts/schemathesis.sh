#!/usr/bin/env bash
# Runs schemathesis against the release binary: every operation of openapi.yaml, with valid
# and invalid inputs, checking for server errors, undocumented status codes and content types,
# and responses that do not match their schema. Fails on any finding.
#
# Usage: scripts/schemathesis.sh [max-examples-per-operation]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."

examples=${1:-200}
venv=target/schemathesis-venv
if [ ! -x "$venv/bin/schemathesis" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'schemathesis==4.32.5'
fi
[ -z "${SENTE_PREPARE_ONLY:-}" ] || exit 0 # installed: CI asks no more here (.ci/run)

# shellcheck source=scripts/release-server.sh
. scripts/release-server.sh
# A short tournament time limit keeps generated tournaments of 100,000 games quick. A single
# search may legitimately take up to its knobs' maxima (a 10,000 ms time limit), hence the
# request timeout of 30 s below. The clients' limits are lifted for the two main passes (one
# client sending as fast as it can would otherwise be answered 429 more than anything else),
# then a third pass runs under tight ones, so that the 429s and their headers are checked too.
start_server -- --tournament-time-limit-ms 500 --requests-per-second none \
    --cpu-seconds-per-minute none --client-queue 64

for mode in positive negative; do
    echo "schemathesis: $mode inputs, up to $examples per operation"
    "$venv/bin/schemathesis" run openapi.yaml \
        --url "http://127.0.0.1:$port" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        --mode "$mode" \
        --max-examples "$examples" \
        --request-timeout 30 \
        --generation-database none \
        --no-color
done
kill "$server"
wait "$server" 2>/dev/null || true
if grep -q 'panicked' "$scratch/server.log"; then
    echo "the server panicked:" >&2
    grep -A5 panicked "$scratch/server.log" >&2
    exit 1
fi
"$binary" serve --addr "127.0.0.1:$port" --tournament-time-limit-ms 500 \
    --requests-per-second 5 --cpu-seconds-per-minute 1 >"$scratch/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.1
done
echo "schemathesis: positive inputs under tight limits (5 requests a second, 1 CPU-second a minute)"
"$venv/bin/schemathesis" run openapi.yaml \
    --url "http://127.0.0.1:$port" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --mode positive \
    --max-examples "$((examples / 4 + 1))" \
    --request-timeout 30 \
    --generation-database none \
    --no-color
sleep 1 # a second's requests again, for the metrics' own
refused=$(curl -s "http://127.0.0.1:$port/metrics" |
    grep -cE '^sente_refusals_total\{route="[^"]+",reason="requests"\} [1-9]' || true)
if [ "$refused" -eq 0 ]; then
    echo "no request was refused under the tight limits: the 429s went unchecked" >&2
    exit 1
fi
if grep -q 'panicked' "$scratch/server.log"; then
    echo "the server panicked:" >&2
    grep -A5 panicked "$scratch/server.log" >&2
    exit 1
fi
