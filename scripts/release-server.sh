# shellcheck shell=bash
# Sourced by the scripts that exercise the release binary: builds it, starts it on a free port,
# waits until it answers, and stops it (and removes the scratch folder) when the script exits.
#
#   start_server [PREFIX...] -- [SERVE ARGS...]
#
# PREFIX is a command the server runs under (`env RUST_LOG=warn`, `taskset -c 1`); both exec,
# so `$server` is the server's own PID. Sets `port`, `server` and `scratch` (a temporary folder;
# the server's output goes to `$scratch/server.log`).
start_server() {
    local prefix=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        prefix+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    cargo build --release --locked --quiet
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    scratch=$(mktemp -d)
    "${prefix[@]}" target/release/sente serve --addr "127.0.0.1:$port" "$@" >"$scratch/server.log" 2>&1 &
    server=$!
    trap 'kill "$server" 2>/dev/null || true; rm -rf "$scratch"' EXIT
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
}
