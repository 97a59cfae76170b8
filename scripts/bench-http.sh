#!/usr/bin/env bash
# Throughput of the release binary under wrk: GET /healthz and POST /move with alphabeta on a
# mid-game tic-tac-toe board, each for DURATION with 64 connections, against the same server.
# Prints requests per second and p99 latency of both, and the ratio /move : /healthz (target
# >= 90%).
#
# The pair is measured RUNS times, the order alternating, and the median ratio is reported: on a
# shared machine one pair can be off by ten points either way (a neighbour's burst during one
# of the two loads), while the median of three is steady to a point or two.
# Each load also reports the server's CPU time per request, in user space and in the kernel
# (where the difference between the routes goes), and the CPU time the hypervisor stole from
# this machine meanwhile; the script warns when a load lost more than 5% to it: its figures are
# then the host's, not ours.
#
# With --floor, each round also loads POST /test/move-floor, a hook (feature `test-hooks`, built
# in for the run) that reads /move's body as /move does and answers /move's answer as fixed
# bytes, doing none of /move's own work: its ratio to /healthz is the most /move could reach on
# this stack, and the gap from it to /move's ratio is what decoding, checking, searching and
# encoding cost.
#
# Usage: scripts/bench-http.sh [--floor] [duration] [runs]
#        (default 10s 3; needs wrk: apt-get install wrk)
set -euo pipefail
cd "$(dirname "$0")/.."

floor=false
if [ "${1:-}" = --floor ]; then
    floor=true
    export release_features=test-hooks
    shift
fi
duration=${1:-10s}
runs=${2:-3}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
# With two cores or more, the server and wrk get a core each (taskset) instead of fighting over
# both: the figures then measure the server, and vary much less from run to run.
server_cpus=() client_cpus="" threads=2
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    server_cpus=(taskset -c "1-$(($(nproc) - 1))") client_cpus="taskset -c 0" threads=1
fi
# Per-request log lines are off (RUST_LOG=warn) so the figures measure the service, not the
# terminal; both routes are measured under the same setting.
# shellcheck source=scripts/release-server.sh
. scripts/release-server.sh
# The clients' limits stay on (every answer carries its RateLimit fields, as deployed), but so
# high that wrk, one client of 64 connections, is never refused.
start_server env RUST_LOG=warn "${server_cpus[@]}" -- --requests-per-second 1000000000

cat >"$scratch/move.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"board":"X.O/.X./O..","algorithm":"alphabeta"}'
LUA
curl -sf "http://127.0.0.1:$port/move" -H 'content-type: application/json' \
    -d '{"board":"X.O/.X./O..","algorithm":"alphabeta"}' >/dev/null

# CPU time of the whole machine so far, in ticks: "total steal" (user to steal; guest time is
# already counted in user). Steal is time the hypervisor gave this virtual machine's cores to
# someone else: a round with much of it measures the host, not the service.
cpu_ticks() {
    awk '$1 == "cpu" { total = 0; for (i = 2; i <= 9; i++) total += $i; print total, $9 }' \
        /proc/stat 2>/dev/null || echo 0 0
}
steal_limit=5 # percent

# The server's own CPU time so far, in ticks: "user system" (fields 14 and 15 of its stat).
# Divided by the requests a load served, it says what one request costs the server, and how
# much of that is the service's code (user) and how much the kernel's (system): the ratio of
# the two routes' costs is what the req/s ratio tends to when the server's core is saturated.
server_ticks() {
    awk '{ print $14, $15 }' "/proc/$server/stat" 2>/dev/null || echo 0 0
}
ticks_per_second=$(getconf CLK_TCK)

# Where a load of route keeps its requests per second, for the ratios of its round.
rps_file() { # route
    echo "$scratch/$(echo "$1" | tr -dc '[:lower:]').rps"
}

run() { # name, extra wrk arguments...
    local name=$1
    shift
    local before after user_before sys_before user_after sys_after
    before=$(cpu_ticks)
    read -r user_before sys_before < <(server_ticks)
    $client_cpus wrk -t"$threads" -c64 -d"$duration" --latency "$@" "http://127.0.0.1:$port$name" >"$scratch/out"
    after=$(cpu_ticks)
    read -r user_after sys_after < <(server_ticks)
    local rps requests p99 errors steal cost
    rps=$(awk '/^Requests\/sec/ {print $2}' "$scratch/out")
    requests=$(awk '/ requests in / {print $1}' "$scratch/out")
    cost=$(awk -v user=$((user_after - user_before)) -v sys=$((sys_after - sys_before)) \
        -v requests="${requests:-0}" -v hz="$ticks_per_second" 'BEGIN {
            us = requests > 0 ? 1e6 / hz / requests : 0
            printf "cpu %5.2f us/req (user %5.2f, sys %5.2f)", (user + sys) * us, user * us, sys * us
        }')
    p99=$(awk '$1 == "99%" {print $2}' "$scratch/out")
    errors=$(awk '/Non-2xx|Socket errors/ {print}' "$scratch/out")
    steal=$(echo "$before $after" | awk '{ printf "%.1f", ($3 > $1 ? 100 * ($4 - $2) / ($3 - $1) : 0) }')
    printf '  %-9s %9s req/s   p99 %7s   %s   steal %4s%%   %s\n' \
        "$name" "$rps" "$p99" "$cost" "$steal" "${errors:-no errors}"
    echo "$rps" >"$(rps_file "$name")"
    awk -v steal="$steal" -v limit="$steal_limit" 'BEGIN { exit !(steal > limit) }' && echo "$name" >>"$scratch/stolen"
    true
}

# Prints route's req/s over /healthz's in the round just run, and adds the line to file.
ratio() { # route, file
    awk -v h="$(cat "$(rps_file /healthz)")" -v m="$(cat "$(rps_file "$1")")" \
        -v route="$1" 'BEGIN { printf "  %s : /healthz = %.1f%%\n", route, 100 * m / h }' |
        tee -a "$scratch/$2"
}

echo "wrk -t$threads -c64 -d$duration ${client_cpus:+($client_cpus) }against the release binary${release_features:+ with $release_features}${server_cpus[*]:+ (${server_cpus[*]})}, $runs runs"
for i in $(seq "$runs"); do
    echo "run $i"
    loads=(/healthz /move)
    $floor && loads+=(/test/move-floor)
    if [ $((i % 2)) -eq 0 ]; then # every other round in the reverse order
        for ((j = 0, k = ${#loads[@]} - 1; j < k; j++, k--)); do
            swap=${loads[j]} loads[j]=${loads[k]} loads[k]=$swap
        done
    fi
    for name in "${loads[@]}"; do
        if [ "$name" = /healthz ]; then run "$name"; else run "$name" -s "$scratch/move.lua"; fi
    done
    ratio /move ratios
    $floor && ratio /test/move-floor floor-ratios
done
median() { # file of "... = N%" lines
    sort -t= -k2 -n "$1" | awk -F'= ' '{ ratio[NR] = $2 } END { print ratio[int((NR + 1) / 2)] }'
}
echo "POST /move reaches $(median "$scratch/ratios") of GET /healthz, median of $runs runs" \
    "(target: at least 90%)"
if $floor; then
    echo "POST /test/move-floor (/move's HTTP work alone) reaches $(median "$scratch/floor-ratios")" \
        "of GET /healthz, median of $runs runs"
fi
if [ -s "$scratch/stolen" ]; then
    echo "warning: in $(wc -l <"$scratch/stolen") of the $((${#loads[@]} * runs)) loads the hypervisor took more than" \
        "$steal_limit% of the CPU time (steal): those figures measure the host rather than the service;" \
        "run again later" >&2
fi
