#!/usr/bin/env bash
# The per-step table of docs/chess.md: for each step of the chess engine, the engine against
# itself without that step (the knob `without`), in self-play at a fixed node count per move
# from balanced random openings, paired, with an SPRT [0, 10] that stops the match once it has
# decided, and at most GAMES games (600 by default). Then the evaluation's terms once more at
# 50 ms a move, 80 games on one thread, where what they cost in speed counts as well.
#
# Answers go to target/steps/; one line a step is printed as the table's row.
#
#   scripts/measure-steps.sh [GAMES] [NODES]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-600}
nodes=${2:-20000}
cargo build --release --locked --quiet
sente=target/release/sente
out=target/steps
mkdir -p "$out"

row() {
    python3 - "$1" "$2" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[2]))
e, s = r["estimate"], r.get("sprt")
a = r["players"][0]
sprt = f"{s['verdict']} (LLR {s['llr']:.2f})" if s else "no SPRT"
low, high = [b if b is not None else s * math.inf for b, s in zip(e['elo_95'], (-1, 1))]
print(f"| {sys.argv[1]} | {e['elo']:+.0f} [{low:+.0f}, {high:+.0f}] | "
      f"{r['games']} | +{a['wins']} ={a['draws']} -{a['losses']} | {sprt} |")
PY
}

draw="move_number=40,move_count=8,score=10"
resign="move_count=3,score=600"
common=(--game chess --random-plies 8 --balanced 100 --max-plies 300
        --draw "$draw" --resign "$resign")
for step in aspiration null_move reductions reverse_futility late_move_pruning exchange terms; do
    $sente tournament "engine:nodes=$nodes" "engine:nodes=$nodes,without=$step" \
        "${common[@]}" --seed 2026 --sprt elo0=0,elo1=10 --games "$games" --threads 2 \
        --output "$out/$step.json" 2>/dev/null
    row "$step, $nodes nodes" "$out/$step.json"
done
$sente tournament engine:tc=0.05/move engine:tc=0.05/move,without=terms \
    "${common[@]}" --seed 11 --games 80 --threads 1 --output "$out/terms-time.json" 2>/dev/null
row "terms, 50 ms a move" "$out/terms-time.json"
