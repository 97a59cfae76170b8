#!/usr/bin/env bash
# Two builds of `sente` side by side, on the machine as it is: the chess engine's nodes a
# second (the bench's five middlegames, a second each, benches/chess.rs), and the speed of the
# searches that stand apart from the engine (tic-tac-toe's minimax, Connect Four's solver,
# chess perft, Othello's solver). Each measure alternates the builds A B B A, ROUNDS times
# (2 by default), and prints B's figure over A's.
#
#   scripts/compare-builds.sh OLD/sente target/release/sente
set -euo pipefail
a=${1:?the first build (the reference)}
b=${2:?the second build}
rounds=${ROUNDS:-2}

# Nodes and microseconds of one answer of `sente move` (or `sente perft`).
measure() {
    "$@" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["nodes"], d["elapsed_us"])'
}

# The chess engine on every middlegame with evaluation $2: the nodes and microseconds summed.
engine() {
    local nodes=0 time=0 n t fen
    for fen in "${middlegames[@]}"; do
        read -r n t < <(measure "$1" move --game chess --board "$fen" \
            "engine:time_limit_ms=1000,evaluation=$2")
        nodes=$((nodes + n)) time=$((time + t))
    done
    echo "$nodes $time"
}

# Runs `ACTION BUILD ARGS` with each build, A B B A, and prints the two totals' ratio; with
# `nps`, nodes a second, else time.
compare() {
    local label=$1 what=$2 action=$3
    shift 3
    local a_nodes=0 a_time=0 b_nodes=0 b_time=0 nodes time
    for _ in $(seq "$rounds"); do
        for build in "$a" "$b" "$b" "$a"; do
            read -r nodes time < <("$action" "$build" "$@")
            if [ "$build" = "$a" ]; then
                a_nodes=$((a_nodes + nodes)) a_time=$((a_time + time))
            else
                b_nodes=$((b_nodes + nodes)) b_time=$((b_time + time))
            fi
        done
    done
    python3 - "$label" "$what" "$a_nodes" "$a_time" "$b_nodes" "$b_time" "$((2 * rounds))" <<'PY'
import sys
label, what = sys.argv[1], sys.argv[2]
a_nodes, a_time, b_nodes, b_time, runs = map(int, sys.argv[3:])
if what == "nps":
    a, b = a_nodes / a_time, b_nodes / b_time
    print(f"{label}: A {a:.3f} M nodes/s, B {b:.3f} M nodes/s, B/A {b / a:.3f}")
else:
    print(f"{label}: A {a_time / 1e3 / runs:.1f} ms, B {b_time / 1e3 / runs:.1f} ms a run, B/A time {b_time / a_time:.3f}")
PY
}

middlegames=(
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
    "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PPQ2PPP/R3KB1R w KQ - 0 9"
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB1QBPPP/2RR2K1 w - - 0 12"
)
for evaluation in nnue pesto; do
    compare "chess engine with $evaluation, five middlegames, a second each" nps engine "$evaluation"
done
compare "tic-tac-toe minimax, the empty board" time measure move --game tictactoe --moves '' \
    --no-time-limit minimax
compare "Connect Four solver, 4 plies in" time measure move --game connect4 --moves 3,3,3,3 \
    --no-time-limit solver
compare "chess perft 5 from the start" time measure perft --game chess \
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' 5
compare "Othello solver, FFO #40 (20 empties)" time measure move --game othello --no-time-limit \
    --board 'O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X' solver
