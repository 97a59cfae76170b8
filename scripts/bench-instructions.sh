#!/usr/bin/env bash
# Instructions the server executes per request, counted by valgrind: GET /healthz and POST /move
# with alphabeta on the mid-game board that scripts/bench-http.sh loads, over one keep-alive
# connection.
#
# Why: bench-http.sh measures what the target is stated in (requests per second), but on a
# shared virtual machine its figures move by ten points from one minute to the next. Counting
# instructions is exact and repeatable, so two builds can be compared to the instruction, and the
# difference between the routes can be taken apart by function (run the server under
# `valgrind --tool=callgrind` the same way and read it with callgrind_annotate). What it does not
# see: the kernel's time (system calls, waking the client) and the cost of cache misses.
#
# Each route is counted twice, after FEW and after MANY requests; the difference divided by
# MANY - FEW is the cost of one request, with start-up and shutdown cancelled out.
#
# With --floor, it also counts POST /test/move-floor, the hook that reads /move's body and
# answers /move's answer without doing /move's own work (see scripts/bench-http.sh), in a build
# with the `test-hooks` feature: /move's cost over /healthz then splits into the HTTP work of a
# body in and a longer answer out, and the route's own.
#
# Usage: scripts/bench-instructions.sh [--floor] [many]
#        (default 2000; needs valgrind: apt-get install valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."

floor=false
if [ "${1:-}" = --floor ]; then
    floor=true
    export release_features=test-hooks
    shift
fi
many=${1:-2000}
few=$((many / 10))
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
# shellcheck source=scripts/release-server.sh
. scripts/release-server.sh
build_release
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cat >"$scratch/client.py" <<'PY'
import http.client, socket, sys, time

port, route, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for _ in range(300):  # valgrind starts the server in a second or two
    try:
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("the server did not start")
connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
# Each request goes out in one write, head and body together, with the headers wrk sends, so
# that the server does the work wrk's requests cost it. (http.client writes the body apart from
# the head, and adds headers of its own.)
body = b'{"board":"X.O/.X./O..","algorithm":"alphabeta"}'
if route != "/healthz":  # /move, or the hook that reads its body
    head = (
        f"POST {route} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    request = head.encode() + body
else:
    request = f"GET {route} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
for _ in range(count):
    connection.sendall(request)
    response = http.client.HTTPResponse(connection)
    response.begin()
    response.read()
    if response.status != 200:
        sys.exit(f"{route} answered {response.status}")
PY

# Instructions executed by a server that answered `count` requests of `route` (and shut down).
instructions() { # route, count
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    RUST_LOG=warn valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$binary" serve --addr "127.0.0.1:$port" --requests-per-second 1000000000 \
        >/dev/null 2>"$scratch/valgrind.log" &
    local server=$!
    python3 "$scratch/client.py" "$port" "$1" "$2" || { kill "$server"; exit 1; }
    kill -INT "$server"
    wait "$server"
    awk '/I[[:space:]]+refs:/ { gsub(",", "", $NF); print $NF }' "$scratch/valgrind.log"
}

# Instructions one request of `route` costs: start-up and shutdown cancel out.
per_request() { # route
    local low high
    low=$(instructions "$1" "$few")
    high=$(instructions "$1" "$many")
    echo $(((high - low) / (many - few)))
}

echo "instructions per request (valgrind, $few and $many requests over one connection)"
healthz=$(per_request /healthz)
printf '  %-16s %8d\n' /healthz "$healthz"
move=$(per_request /move)
printf '  %-16s %8d\n' /move "$move"
printf '  /move executes %d more than /healthz (%.2f times as many)\n' \
    "$((move - healthz))" "$(awk -v m="$move" -v h="$healthz" 'BEGIN { print m / h }')"
if $floor; then
    floor_cost=$(per_request /test/move-floor)
    printf '  %-16s %8d\n' /test/move-floor "$floor_cost"
    printf '  of the %d more: %d carrying the body and the longer answer (the floor), %d the route'"'"'s own work\n' \
        "$((move - healthz))" "$((floor_cost - healthz))" "$((move - floor_cost))"
fi
