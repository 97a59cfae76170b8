#!/usr/bin/env bash
# The tournament table of docs/othello.md: Othello's `mobility` evaluation against the
# tutorial's `positional` at equal depth and at equal time, and the engine against positional
# alphabeta and against mcts. Every tournament plays pairs of games from random openings of 8
# plies (each opening with both colours), kept when balanced within 0.2 of Sente's score.
# Answers go to target/othello/; one line a tournament is printed as the table's row.
#
#   scripts/measure-othello.sh [GAMES] [TIMED_GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
timed=${2:-100}
cargo build --release --locked --quiet
sente=target/release/sente
out=target/othello
mkdir -p "$out"
common=(--game othello --random-plies 8 --balanced 20 --seed 2026 --threads 2)

row() {
    python3 - "$1" "$2" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[2]))
a = r["players"][0]
e = r.get("estimate")
if e:
    low, high = [b if b is not None else s * math.inf for b, s in zip(e['elo_95'], (-1, 1))]
    elo = f"{e['elo']:+.0f} [{low:+.0f}, {high:+.0f}]"
else:
    # Every game won (or lost): no estimate, but the score's interval bounds the difference.
    low, high = a["ci95"]
    bound = lambda s: -400 * math.log10(1 / s - 1)
    elo = f"above {bound(low):+.0f}" if low > 0.5 else f"below {bound(high):+.0f}"
print(f"| {sys.argv[1]} | {r['games']} | +{a['wins']} ={a['draws']} -{a['losses']} | {elo} |")
PY
}

play() {
    local name=$1 label=$2 n=$3
    shift 3
    $sente tournament "$@" "${common[@]}" --games "$n" --output "$out/$name.json" 2>/dev/null
    row "$label" "$out/$name.json"
}

echo "| A against B | games | A +W =D -L | Elo difference [95%] |"
echo "|---|---|---|---|"
for depth in 2 4 6; do
    play "depth-$depth" "mobility against positional, alphabeta $depth plies" "$games" \
        "alphabeta:depth=$depth,evaluation=mobility" "alphabeta:depth=$depth"
done
play equal-time "mobility against positional, alphabeta 50 ms a move" "$timed" \
    "alphabeta:evaluation=mobility,tc=0.05/move" "alphabeta:tc=0.05/move"
play engine-alphabeta "engine against positional alphabeta, 100 ms a move" "$timed" \
    engine:tc=0.1/move alphabeta:tc=0.1/move
play engine-mcts "engine against mcts, 100 ms a move" "$timed" \
    engine:tc=0.1/move mcts:tc=0.1/move
play engine-handicap "engine at 10 ms a move against positional alphabeta at 100 ms" "$timed" \
    engine:tc=0.01/move alphabeta:tc=0.1/move
play engine-mcts-handicap "engine at 10 ms a move against mcts at 100 ms" "$timed" \
    engine:tc=0.01/move mcts:tc=0.1/move
