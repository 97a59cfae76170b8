#!/usr/bin/env bash
# Load test of the release binary, for DURATION (default 60s), with five wrk instances at once,
# each counting its responses by status (wrk does not say which request a response answers):
#   - /move with every algorithm on both games, 16 connections;
#   - /analyze, 4; small tournaments on both games, 4; malformed requests, 4;
#   - cheap /move (tic-tac-toe alphabeta), 8 connections: its latency while the rest runs.
# Reports requests per second, latencies, errors by status, socket errors, and the server's
# peak resident memory. Targets (issue 7): no 5xx, no dropped connections, p99 of cheap /move
# under 10 ms while tournaments run, resident memory under 100 MB.
#
# Usage: scripts/load.sh [duration]   (needs wrk: apt-get install wrk)
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${1:-60s}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
# shellcheck source=scripts/release-server.sh
. scripts/release-server.sh
# wrk from one address stands for many clients: their limits are lifted, so that the figures
# measure the service's capacity rather than one client's share of it.
start_server env RUST_LOG=warn -- --requests-per-second none --cpu-seconds-per-minute none \
    --client-queue 64

# A wrk script that walks a list of (path, body) requests and counts responses by status.
# (wrk does not say which request a response answers, so each route class gets its own wrk.)
script() { # name, then lines of "path<TAB>body"
    local name=$1
    shift
    {
        echo 'local requests = {'
        for line in "$@"; do
            printf '  {"%s", [==[%s]==]},\n' "${line%%	*}" "${line#*	}"
        done
        cat <<'LUA'
}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) index = 0; statuses = {} end
function request()
  index = index % #requests + 1
  local r = requests[index]
  return wrk.format("POST", r[1], {["Content-Type"] = "application/json"}, r[2])
end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + n end
  end
  local line = "  responses by status:"
  local keys = {}
  for status in pairs(total) do table.insert(keys, status) end
  table.sort(keys)
  for _, status in ipairs(keys) do line = line .. string.format(" %d: %d", status, total[status]) end
  io.write(line .. "\n")
  io.write(string.format("  latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
LUA
    } >"$scratch/$name.lua"
}
T=$'\t'
script move \
    "/move${T}"'{"board":"X.O/.X./O..","algorithm":"alphabeta"}' \
    "/move${T}"'{"moves":[4],"algorithm":"minimax"}' \
    "/move${T}"'{"moves":[4,0],"algorithm":"negamax"}' \
    "/move${T}"'{"moves":[],"algorithm":"random"}' \
    "/move${T}"'{"moves":[4],"algorithm":"mcs","playouts":20}' \
    "/move${T}"'{"moves":[4],"algorithm":"mcts","simulations":500}' \
    "/move${T}"'{"moves":[],"algorithm":"solver"}' \
    "/move${T}"'{"game":"connect4","moves":[3,3],"algorithm":"alphabeta","depth":4}' \
    "/move${T}"'{"game":"connect4","moves":[3,3,2],"algorithm":"mcts","simulations":1000}' \
    "/move${T}"'{"game":"connect4","moves":[3,3,2,4,3,3,2,2,4,4,3,3,5,5,1],"algorithm":"solver","time_limit_ms":200}' \
    "/move${T}"'{"game":"connect4","moves":[],"algorithm":"minimax","depth":3}'
script analyze "/analyze${T}"'{"board":"X.O/.X./O..","algorithm":"solver"}' \
    "/analyze${T}"'{"game":"connect4","moves":[3],"algorithm":"alphabeta","depth":3}'
script tournament \
    "/tournament${T}"'{"players":[{"algorithm":"mcts"},{"algorithm":"random"}],"games":20}' \
    "/tournament${T}"'{"game":"connect4","players":[{"algorithm":"mcts","simulations":200},{"algorithm":"alphabeta","depth":2}],"games":4}'
script malformed \
    "/move${T}"'{"board":"XX.OO..Q."}' \
    "/move${T}"'{"board":' \
    "/move${T}"'{"algorithm":"mcts","depth":3}' \
    "/nowhere${T}"'{}'
script cheap "/move${T}"'{"board":"X.O/.X./O..","algorithm":"alphabeta"}'

echo "load for $duration against the release binary on 127.0.0.1:$port"
run() { # name, connections
    wrk -t1 -c"$2" -d"$duration" -s "$scratch/$1.lua" "http://127.0.0.1:$port" >"$scratch/$1.out" 2>&1
}
loads=("move 16" "analyze 4" "tournament 4" "malformed 4" "cheap 8") # name, connections
pids=()
for load in "${loads[@]}"; do
    # shellcheck disable=SC2086 # split into the name and the number of connections
    run $load &
    pids+=($!)
done
# Only the loads: a bare `wait` would wait for the server too.
wait "${pids[@]}"
for load in "${loads[@]}"; do
    name=${load% *}
    echo "== $name"
    grep -E "Requests/sec|Socket errors|requests in" "$scratch/$name.out" | sed 's/^ */  /'
    grep -E "responses by status|latency p50" "$scratch/$name.out"
done
echo "== server"
grep -E "VmHWM|VmRSS" "/proc/$server/status" | sed 's/^/  /'
if grep -hE "responses by status" "$scratch"/*.out | grep -E " 5(0[0-2]|0[4-9]|[1-9][0-9]): "; then
    echo "server errors (5xx other than 503) under load" >&2
    exit 1
fi
