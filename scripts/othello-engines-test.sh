#!/usr/bin/env bash
# Othello against GRhino (Debian's grhino package, its GTP front end gtp-rhino): a tournament of
# Sente's engine against gtp-rhino level 1 over GTP, every game ending by the rules (no crash,
# illegal move or loss on time) and no engine process outliving it; then `sente gtp` driven from
# outside through a whole game against gtp-rhino, whose final score must agree with Sente's, and
# `sente nboard` through the NBoard protocol's example (scripts/othello-sessions.py). Installs
# grhino (apt) when missing.
#
#   scripts/othello-engines-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/games/gtp-rhino ]; then
    sudo_if_needed=()
    [ "$(id -u)" -ne 0 ] && sudo_if_needed=(sudo)
    "${sudo_if_needed[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq grhino >/dev/null
fi
[ -z "${SENTE_PREPARE_ONLY:-}" ] || exit 0 # installed: CI asks no more here (.ci/run)
# The binary the container ships, which CI's earlier steps have built already.
. scripts/release-server.sh
build_release
out=target/othello-engines-test
# The engine through a link of its own, so that a process still running after its tournament
# is this test's, whatever else runs on the machine.
mkdir -p "$out/bin"
ln -sf /usr/games/gtp-rhino "$out/bin/gtp-rhino"
rhino=$PWD/$out/bin/gtp-rhino

"$binary" tournament engine:time_limit_ms=100 rhino:tc=60+0 \
    --engine "rhino=$rhino,protocol=gtp,args=-l 1" \
    --game othello --games 2 --seed 7 --random-plies 6 --records --output "$out/rhino.json"
python3 - "$out/rhino.json" <<'PY'
import json, sys
answer = json.load(open(sys.argv[1]))
failed = {"engine_crash", "illegal_move", "time_forfeit"} & answer["endings"].keys()
sente, other = answer["players"]
record = lambda player: f"{player['wins']}/{player['draws']}/{player['losses']}"
print(f"{sys.argv[1]}: {answer['games']} games, Sente {record(sente)}, gtp-rhino {record(other)} (wins/draws/losses), endings {answer['endings']}")
if answer["games"] != 2 or failed:
    for game in answer["records"]:
        print(f"  game {game['index']}: {game['ended_by']} {game.get('detail', '')}")
    sys.exit(f"{sys.argv[1]}: games lost to {sorted(failed)}")
PY
if pgrep -f "$rhino" >/dev/null; then
    echo "gtp-rhino outlived its tournament" >&2
    exit 1
fi
python3 scripts/othello-sessions.py "$binary" "$rhino" --level 2 --time-limit-ms 100
echo "othello engines test passed"
