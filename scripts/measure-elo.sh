#!/usr/bin/env bash
# The engine's rating on stockfish's UCI_Elo scale (docs/chess.md#elo-against-stockfish): Sente's
# engine at 100 ms a move against Debian's stockfish with UCI_LimitStrength at each level (1900,
# 2200 and 2500 by default), 100 ms a move too, GAMES games a level (100 by default) from
# balanced random openings played with both colours, through Sente's own tournament. Sente runs
# on core 0 and stockfish on core 1, one game at a time. Each level gives a rating, the level
# plus the Elo difference, with its 95% interval; the combined figure weighs each by its
# precision (the inverse of its variance).
#
# Installs stockfish (apt) and python-chess (a virtualenv under target/) when missing; answers
# and PGN go to target/elo/. About 25 minutes a level.
#
#   scripts/measure-elo.sh [GAMES] [LEVEL...]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
shift || true
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(1900 2200 2500)

. scripts/chess-tools.sh
cargo build --release --locked --quiet
out=target/elo
mkdir -p "$out"
# Stockfish on a core of its own: the tournament, pinned to core 0, starts it through this.
cat > "$out/stockfish-core-1" <<'SH'
#!/bin/sh
exec taskset -c 1 /usr/games/stockfish "$@"
SH
chmod +x "$out/stockfish-core-1"

for elo in "${levels[@]}"; do
    echo "== the engine at 100 ms a move against stockfish at UCI_Elo $elo"
    taskset -c 0 target/release/sente tournament engine:tc=0.1/move \
        "stockfish:UCI_LimitStrength=true,UCI_Elo=$elo,tc=0.1/move" \
        --engine "stockfish=$PWD/$out/stockfish-core-1" --game chess --games "$games" \
        --random-plies 8 --balanced 100 --seed 2026 --max-plies 400 --threads 1 \
        --draw move_number=40,move_count=8,score=10 --resign move_count=3,score=600 \
        --records --pgn "$out/stockfish-$elo.pgn" --output "$out/stockfish-$elo.json"
    "$venv/bin/python" scripts/check-pgn.py "$out/stockfish-$elo.pgn" "$out/stockfish-$elo.json"
done

"$venv/bin/python" - "$out" "${levels[@]}" <<'PY'
import json, math, sys
out, levels = sys.argv[1], sys.argv[2:]
print("| stockfish UCI_Elo | games | Sente +W =D -L | Elo difference [95%] | Sente's rating [95%] |")
print("|---|---|---|---|---|")
weights = []
times = []
for level in levels:
    r = json.load(open(f"{out}/stockfish-{level}.json"))
    for game in r["records"]:
        own = 0 if game["first"] == "A" else 1
        times += [move["time_ms"] for move in game["moves"][own::2]]
    a, e = r["players"][0], r["estimate"]
    low, high = [b if b is not None else s * math.inf for b, s in zip(e["elo_95"], (-1, 1))]
    rating = int(level) + e["elo"]
    sigma = (high - low) / (2 * 1.959964)
    weights.append((rating, sigma))
    print(f"| {level} | {r['games']} | +{a['wins']} ={a['draws']} -{a['losses']} | "
          f"{e['elo']:+.0f} [{low:+.0f}, {high:+.0f}] | {rating:.0f} [{int(level) + low:.0f}, {int(level) + high:.0f}] |")
total = sum(1 / s ** 2 for _, s in weights)
mean = sum(r / s ** 2 for r, s in weights) / total
half = 1.959964 / math.sqrt(total)
print(f"\ncombined: {mean:.0f} +- {half:.0f} (95%)")
times.sort()
print(f"Sente's moves at 100 ms, from request to answer: {len(times)} moves, median "
      f"{times[len(times) // 2]:.1f} ms, 99th percentile {times[len(times) * 99 // 100]:.1f} ms, "
      f"longest {times[-1]:.1f} ms")
PY
