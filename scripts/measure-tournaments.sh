#!/usr/bin/env bash
# The tournaments docs/tournaments.md reports, each with Elo, its interval and an SPRT:
#
#   1. MCTS (10,000 simulations) against alphabeta depth 4 on Connect Four;
#   2. the chess engine against itself at a fixed depth (SPRT [0, 5]);
#   3. the chess engine at 100 ms a move against Debian's stockfish at UCI_Elo 1350, 1600 and
#      1900, through --engine (up to 100 games each, SPRT [0, 5]), written as PGN and read back
#      by python-chess (same moves, same results: scripts/check-pgn.py).
#
# Installs stockfish (apt) and python-chess (a virtualenv under target/) when missing. Answers
# and PGN go to target/tournaments/. One thread a tournament, so that timed players are not
# slowed by each other.
#
#   scripts/measure-tournaments.sh [GAMES_AGAINST_STOCKFISH]
set -euo pipefail
cd "$(dirname "$0")/.."
games_vs_stockfish=${1:-100}

. scripts/chess-tools.sh
cargo build --release --locked --quiet
sente=target/release/sente
out=target/tournaments
mkdir -p "$out"

summary() {
    "$venv/bin/python" - "$1" <<'EOF'
import json, math, sys
r = json.load(open(sys.argv[1]))
a, b = r["players"]
e = r.get("estimate")
s = r.get("sprt")
low, high = [b if b is not None else s * math.inf for b, s in zip(e['elo_95'], (-1, 1))] if e else (0, 0)
elo = f"Elo {e['elo']:+.1f} [{low:+.1f}, {high:+.1f}] ({e['variance']})" if e else "no estimate"
sprt = f"; SPRT [{s['elo0']:g}, {s['elo1']:g}] LLR {s['llr']:.2f} in [{s['bounds'][0]:.2f}, {s['bounds'][1]:.2f}]: {s['verdict']}" if s else ""
print(f"{sys.argv[1]}: {r['games']} games, A {a['wins']}/{a['draws']}/{a['losses']}, "
      f"pentanomial {r['pentanomial']}, {elo}{sprt}; endings {r['endings']}")
EOF
}

echo "== Connect Four: mcts (10,000 simulations) against alphabeta depth 4"
$sente tournament mcts:simulations=10000 alphabeta:depth=4 --game connect4 --games 2000 \
    --random-plies 4 --balanced 20 --seed 2026 --sprt elo0=0,elo1=5 --threads 1 \
    --output "$out/connect4-mcts-alphabeta.json"
summary "$out/connect4-mcts-alphabeta.json"

echo "== Chess: the engine against itself at depth 3"
$sente tournament engine:depth=3 engine:depth=3 --game chess --games 2000 \
    --random-plies 8 --balanced 100 --seed 2026 --sprt elo0=0,elo1=5 --max-plies 400 \
    --draw move_number=40,move_count=8,score=10 --resign move_count=3,score=600 --threads 1 \
    --output "$out/chess-self-play.json"
summary "$out/chess-self-play.json"

for elo in 1350 1600 1900; do
    echo "== Chess: the engine at 100 ms a move against stockfish at UCI_Elo $elo"
    $sente tournament engine:tc=0.1/move \
        "stockfish:UCI_LimitStrength=true,UCI_Elo=$elo,tc=0.1/move" \
        --engine stockfish=/usr/games/stockfish --game chess --games "$games_vs_stockfish" \
        --random-plies 8 --balanced 100 --seed 2026 --max-plies 400 --threads 1 \
        --sprt elo0=0,elo1=5 \
        --records --pgn "$out/stockfish-$elo.pgn" --output "$out/stockfish-$elo.json"
    summary "$out/stockfish-$elo.json"
    "$venv/bin/python" scripts/check-pgn.py "$out/stockfish-$elo.pgn" "$out/stockfish-$elo.json"
done
