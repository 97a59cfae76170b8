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
[ -z "${SENTE_PREPARE_ONLY:-}" ] || exit 0 # installed: CI asks no more here (.ci/run)
# The binary the container ships, which CI's earlier steps have built already.
. scripts/release-server.sh
build_release
sente=$binary
out=target/shogi-engines-test
mkdir -p "$out"

"$venv/bin/python" scripts/usi-session.py "$sente" 2

# gpsusi thinks about a second a move whatever it is given: two seconds a move leave it its
# margin. The games are cut at 24 plies (a draw by adjudication): the protocol is what is
# tested here, docs/shogi.md measures strength.
play() {
    local name=$1 engine=$2 tc=$3
    rm -rf "${out:?}/$name"
    "$sente" tournament engine:tc=0.1/move "$name:tc=$tc" --engine "$engine" --game shogi \
        --games 2 --threads 2 --seed 1 --random-plies 4 --max-plies 24 --records \
        --records-dir "$out/$name" --record-format KIF,CSA --output "$out/$name.json"
    python3 - "$out/$name.json" <<'PY'
import json, sys
answer = json.load(open(sys.argv[1]))
endings = answer["endings"]
bad = {e: n for e, n in endings.items() if e in ("engine_crash", "illegal_move")}
assert answer["complete"] and not bad, f"{sys.argv[1]}: {endings}"
print(f"{sys.argv[1]}: {endings}")
PY
    # Each game's .kif (Shift_JIS, as cshogi reads a .kif) and .csa read back by cshogi's
    # parsers: the moves of the answer's record, Sente's evaluations in the comments.
    "$venv/bin/python" - "$out/$name.json" "$out/$name" <<'PY'
import json, os, sys
import cshogi, cshogi.KIF, cshogi.CSA
answer = json.load(open(sys.argv[1]))
for record in answer["records"]:
    base = os.path.join(sys.argv[2], f"game-{record['index'] + 1:04}")
    moves = [str(m) for m in record.get("opening_moves", [])] + [m["move"] for m in record["moves"]]
    kif = cshogi.KIF.Parser.parse_file(base + ".kif")
    assert [cshogi.move_to_usi(m) for m in kif.moves] == moves, f"{base}.kif"
    scored = [m for m in record["moves"] if "cp" in m or "mate" in m]
    comments = [c for c in kif.comments if c and c.startswith("対局")]
    assert len(comments) == len(scored), f"{base}.kif: {len(comments)} comments, {len(scored)} scored moves"
    csa = cshogi.CSA.Parser.parse_file(base + ".csa")[0]
    assert [cshogi.move_to_usi(m) for m in csa.moves] == moves, f"{base}.csa"
    assert csa.names[0] and csa.names[1], f"{base}.csa: {csa.names}"
print(f"{sys.argv[2]}: {len(answer['records'])} games read back by cshogi (KIF and CSA)")
PY
}
play fsf "fsf=/usr/games/fairy-stockfish,protocol=usi,Threads=1,Skill Level=0" 0.3/move
play gps "gps=/usr/games/gpsusi,protocol=usi,Thread=1" 2/move
# GNU Shogi speaks xshogi's protocol; its clock renews every so many moves, so it is given one
# for the whole game, and its first move alone can take a few seconds.
play gnu "gnu=/usr/games/gnushogi,protocol=xshogi,margin_ms=3000" 60+0

# An engine that outlived its tournament is an orphan, taken in by init: engines other programs
# run on the machine meanwhile (a match beside the test) have their parents.
orphans=$(ps -eo ppid=,pid=,args= | awk '$1 == 1 && $3 ~ /\/usr\/games\/(gpsusi|fairy-stockfish|gnushogi)$/')
if [ -n "$orphans" ]; then
    echo "an engine outlived its tournament: $orphans" >&2
    exit 1
fi
echo "shogi engines: all passed"
