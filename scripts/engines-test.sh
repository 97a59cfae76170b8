#!/usr/bin/env bash
# Tournaments against Debian's chess engines, as external players: stockfish over UCI, Fairy-Max
# and Phalanx over the xboard protocol. Each plays a pair of games on a clock against Sente's
# engine; every game must end by the rules or an adjudication (no crash, illegal move or loss on
# time), the PGN must read back in python-chess with the same moves and results, and no engine
# process may outlive its tournament. Then `sente uci` as python-chess's UCI driver sees it
# (scripts/uci-match.py). Installs the engines (apt) and python-chess (a virtualenv
# under target/) when missing.
#
#   scripts/engines-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for engine in stockfish fairymax phalanx; do
    [ -x "/usr/games/$engine" ] || missing+=("$engine")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_if_needed=()
    [ "$(id -u)" -ne 0 ] && sudo_if_needed=(sudo)
    "${sudo_if_needed[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
venv=target/chess-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import chess' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'chess==1.11.2'
fi
[ -z "${SENTE_PREPARE_ONLY:-}" ] || exit 0 # installed: CI asks no more here (.ci/run)
# The binary the container ships, which CI's earlier steps have built already.
. scripts/release-server.sh
build_release
out=target/engines-test
# Each engine through a link of its own, so that a process still running after its tournament
# is this test's, whatever else runs on the machine.
mkdir -p "$out/bin"
for engine in stockfish fairymax phalanx; do
    ln -sf "/usr/games/$engine" "$out/bin/$engine"
done
bin=$PWD/$out/bin

play() {
    local name=$1 config=$2 player=$3
    "$binary" tournament engine:tc=1+0.05 "$player" --engine "$config" \
        --game chess --games 2 --seed 7 --random-plies 6 --balanced 150 --max-plies 300 \
        --records --pgn "$out/$name.pgn" --output "$out/$name.json"
    "$venv/bin/python" - "$out/$name.json" <<'EOF'
import json, sys
answer = json.load(open(sys.argv[1]))
failed = {"engine_crash", "illegal_move", "time_forfeit"} & answer["endings"].keys()
sente, other = answer["players"]
record = lambda player: f"{player['wins']}/{player['draws']}/{player['losses']}"
print(f"{sys.argv[1]}: {answer['games']} games, Sente {record(sente)}, the engine outside {record(other)} (wins/draws/losses), endings {answer['endings']}")
if answer["games"] != 2 or failed:
    for game in answer["records"]:
        print(f"  game {game['index']}: {game['ended_by']} {game.get('detail', '')}")
    sys.exit(f"{sys.argv[1]}: games lost to {sorted(failed)}")
EOF
    "$venv/bin/python" scripts/check-pgn.py "$out/$name.pgn" "$out/$name.json"
    if pgrep -f "$bin/$name" >/dev/null; then
        echo "$name outlived its tournament" >&2
        exit 1
    fi
}

play stockfish "stockfish=$bin/stockfish,Threads=1" "stockfish:UCI_LimitStrength=true,UCI_Elo=1500,tc=1+0.05"
play fairymax "fairymax=$bin/fairymax,protocol=xboard" fairymax:tc=1+0.05
play phalanx "phalanx=$bin/phalanx,protocol=xboard" phalanx:tc=1+0.05
# And the other way round: Sente's engine as an external engine, `sente uci` driven by
# python-chess, through the protocol's paces and two games against stockfish.
"$venv/bin/python" scripts/uci-match.py "$binary" --games 2 --elo 1500 --movetime 0.05
echo "engines test passed"
