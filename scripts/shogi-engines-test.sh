#!/usr/bin/env bash
# Shogi against Debian's shogi engines. `sente usi` is driven by cshogi's USI client (from PyPI),
# as a shogi GUI drives it, and plays a match through cshogi's match runner against
# Fairy-Stockfish (scripts/usi-session.py); then Sente's tournaments play Fairy-Stockfish and
# gpsshogi (gpsusi) over USI, and GNU Shogi over xshogi's protocol, a pair of games each: every game must end by the rules (no crash
# or illegal move), the KIF must hold every game, and no engine process may outlive its
# tournament. Installs the engines (apt) and cshogi (a virtualenv under target/) when missing.
#
#   scripts/shogi-engines-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/games/fairy-stockfish ] || missing+=(fairy-stockfish)
[ -x /usr/games/gpsusi ] || missing+=(gpsshogi)
[ -x /usr/games/gnushogi ] || missing+=(gnushogi)
if [ ${#missing[@]} -gt 0 ]; then
    sudo_if_needed=()
    [ "$(id -u)" -ne 0 ] && sudo_if_needed=(sudo)
    "${sudo_if_needed[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
venv=target/shogi-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import cshogi' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'cshogi==1.1.0'
fi
cargo build --release --locked --quiet
sente=target/release/sente
out=target/shogi-engines-test
mkdir -p "$out"

"$venv/bin/python" scripts/usi-session.py "$sente" 2

# gpsusi thinks about a second a move whatever it is given: two seconds a move leave it its
# margin. The games are cut at 24 plies (a draw by adjudication): the protocol is what is
# tested here, docs/shogi.md measures strength.
play() {
    local name=$1 engine=$2 tc=$3
    "$sente" tournament engine:tc=0.1/move "$name:tc=$tc" --engine "$engine" --game shogi \
        --games 2 --threads 2 --seed 1 --random-plies 4 --max-plies 24 --records \
        --kif "$out/$name.kif" --output "$out/$name.json"
    python3 - "$out/$name.json" "$out/$name.kif" <<'PY'
import json, sys
answer = json.load(open(sys.argv[1]))
kif = open(sys.argv[2], encoding="utf-8").read()
endings = answer["endings"]
bad = {e: n for e, n in endings.items() if e in ("engine_crash", "illegal_move")}
assert answer["complete"] and not bad, f"{sys.argv[1]}: {endings}"
assert kif.count("手数----指手") == answer["games"], "a KIF game for each game"
print(f"{sys.argv[1]}: {endings}")
PY
    # Each KIF game read back by cshogi's parser, with the moves and the result of the record.
    "$venv/bin/python" - "$out/$name.json" "$out/$name.kif" <<'PY'
import json, sys
import cshogi, cshogi.KIF
answer = json.load(open(sys.argv[1]))
games = open(sys.argv[2], encoding="utf-8").read().strip().split("\n\n")
for record, text in zip(answer["records"], games):
    parsed = cshogi.KIF.Parser.parse_str(text)
    moves = [str(m) for m in record.get("opening_moves", [])] + [m["move"] for m in record["moves"]]
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == moves, f"game {record['index']}"
print(f"{sys.argv[2]}: {len(games)} games read back by cshogi")
PY
}
play fsf "fsf=/usr/games/fairy-stockfish,protocol=usi,Threads=1,Skill Level=0" 0.3/move
play gps "gps=/usr/games/gpsusi,protocol=usi,Thread=1" 2/move
# GNU Shogi speaks xshogi's protocol; its clock renews every so many moves, so it is given one
# for the whole game, and its first move alone can take a few seconds.
play gnu "gnu=/usr/games/gnushogi,protocol=xshogi,margin_ms=3000" 60+0

if pgrep -f /usr/games/gpsusi >/dev/null || pgrep -f /usr/games/fairy-stockfish >/dev/null ||
    pgrep -f /usr/games/gnushogi >/dev/null; then
    echo "an engine outlived its tournament" >&2
    exit 1
fi
echo "shogi engines: all passed"
