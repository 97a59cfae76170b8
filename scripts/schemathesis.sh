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

cargo build --release --locked --quiet
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
# A short tournament time limit keeps generated tournaments of 100,000 games quick. A single
# search may legitimately take up to its knobs' maxima (a 10,000 ms time limit), hence the
# request timeout of 30 s below.
target/release/sente serve --addr "127.0.0.1:$port" --tournament-time-limit-ms 500 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
python3 - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("the server did not start")
PY

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
if grep -q 'panicked' "$log"; then
    echo "the server panicked:" >&2
    grep -A5 panicked "$log" >&2
    exit 1
fi
