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

# shellcheck source=scripts/release-server.sh
. scripts/release-server.sh
# A short tournament time limit keeps generated tournaments of 100,000 games quick. A single
# search may legitimately take up to its knobs' maxima (a 10,000 ms time limit), hence the
# request timeout of 30 s below.
start_server -- --tournament-time-limit-ms 500

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
if grep -q 'panicked' "$scratch/server.log"; then
    echo "the server panicked:" >&2
    grep -A5 panicked "$scratch/server.log" >&2
    exit 1
fi
