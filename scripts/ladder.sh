#!/usr/bin/env bash
# The ladder (docs/chess.md#the-ladder): Sente's engine against Debian's chess engines whose
# ratings are published, in Sente's own tournament, and the table: each opponent's score, the
# Elo difference with its 95% interval, and a rating on the CCRL scale from the opponent's
# rating; the combined rating weighs each by its precision (the inverse of its variance).
#
# Openings: data/chess/ladder-openings.txt (balanced by stockfish at depth 16,
# scripts/make-ladder-openings.py), each played with both colours. Sente runs on core 0, the
# opponent on core 1 (CORES), one game at a time; draws and losses adjudicated as rating lists do.
#
#   scripts/ladder.sh [PLAYER] [TC] [GAMES] [OPPONENT...]
#
# PLAYER is Sente's player as the command line writes one (default `engine`, e.g.
# `engine:evaluation=pesto`), TC a time control as tournaments take it (default `0.1/move`;
# `10+0.1` for a clock), GAMES the games an opponent (default 40), the opponents by the names
# below (default all). SENTE=PATH measures that binary rather than this checkout's;
# CORES="1 0" swaps the cores (Sente's, then the opponent's), for a second ladder beside a
# first. Installs the engines (apt) and python-chess (a virtualenv under target/) when missing;
# answers and PGN go to target/ladder/.
set -euo pipefail
cd "$(dirname "$0")/.."
player=${1:-engine}
tc=${2:-0.1/move}
games=${3:-40}
shift 3 || shift $#

# name, Debian package, program and arguments, protocol, rating, options (- for none). The
# ratings are the CCRL 40/15 list's (its 64-bit one-CPU entries, as of 2024), recalled rather
# than fetched: this machine cannot reach the list, so correct them here against it. Glaurung
# starts a thread a core by default, whose helpers spin: pinned to one core, it then loses
# every game on time.
ladder=(
    "fairymax   fairymax       /usr/games/fairymax            xboard 1950 -"
    "phalanx    phalanx        /usr/games/phalanx             xboard 2350 -"
    "gnuchess   gnuchess       /usr/games/gnuchess_--uci      uci    2700 -"
    "glaurung   glaurung       /usr/games/glaurung            uci    2790 Threads=1"
    "toga2      toga2          /usr/games/toga2               uci    2880 -"
    "ethereal   ethereal-chess /usr/games/ethereal-chess      uci    3220 Threads=1"
)
opponents=("$@")
if [ ${#opponents[@]} -eq 0 ]; then
    for rung in "${ladder[@]}"; do
        read -r name _ <<<"$rung"
        opponents+=("$name")
    done
fi

. scripts/chess-tools.sh
missing=()
for rung in "${ladder[@]}"; do
    read -r name package program _ <<<"$rung"
    [ -x "${program%%_*}" ] || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
# SENTE names a binary to measure (an earlier build, say); by default this checkout's, built.
if [ -z "${SENTE:-}" ]; then
    cargo build --release --locked --quiet
    SENTE=target/release/sente
fi
read -r sente_core opponent_core <<<"${CORES:-0 1}"
label=$(printf '%s-%s' "$player" "$tc" | tr -c 'A-Za-z0-9.+=-' '_')
out=target/ladder/$label
mkdir -p "$out"
case $player in
    *:*) sente_player="$player,tc=$tc" ;;
    *) sente_player="$player:tc=$tc" ;;
esac

for name in "${opponents[@]}"; do
    rung=$(printf '%s\n' "${ladder[@]}" | awk -v name="$name" '$1 == name')
    [ -n "$rung" ] || { echo "no opponent $name on the ladder" >&2; exit 2; }
    read -r _ _ program protocol _ options <<<"$rung"
    config="$name=$PWD/$out/$name-pinned,protocol=$protocol"
    [ "$options" = - ] || config="$config,$options"
    # The opponent on the other core: the tournament, pinned to Sente's, starts it through
    # this.
    cat >"$out/$name-pinned" <<SH
#!/bin/sh
exec taskset -c $opponent_core ${program//_/ } "\$@"
SH
    chmod +x "$out/$name-pinned"
    # An xboard engine keeps time by its own clock: at a time per move (which reaches it as a
    # 40-move clock, shared unevenly: Fairy-Max lost half its games on time) it is given a
    # clock that comes to that time a move over 60 moves, half of it as increment.
    opponent_tc=$tc
    if [ "$protocol" = xboard ] && [[ $tc == */move ]]; then
        opponent_tc=$(awk -v t="${tc%/move}" 'BEGIN { printf "%g+%g", 30 * t, t / 2 }')
    fi
    echo "== $sente_player against $name ($opponent_tc, $games games)"
    taskset -c "$sente_core" "$SENTE" tournament "$sente_player" "$name:tc=$opponent_tc" \
        --engine "$config" --game chess \
        --games "$games" --openings data/chess/ladder-openings.txt --threads 1 \
        --max-plies 400 --draw move_number=40,move_count=8,score=10 \
        --resign move_count=3,score=600 --records --pgn "$out/$name.pgn" \
        --output "$out/$name.json"
    "$venv/bin/python" scripts/check-pgn.py "$out/$name.pgn" "$out/$name.json"
done

LADDER=$(printf '%s\n' "${ladder[@]}") "$venv/bin/python" - "$out" "$player" "$tc" "${opponents[@]}" <<'PY'
import json, math, os, sys
out, player, tc, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
ratings = {line.split()[0]: int(line.split()[4]) for line in os.environ["LADDER"].splitlines()}
print(f"Sente ({player}) at {tc}\n")
print("| opponent | CCRL 40/15 | games | Sente +W =D -L | score | Elo difference [95%] | Sente's rating [95%] | endings |")
print("|---|---|---|---|---|---|---|---|")
weights = []
for name in names:
    r = json.load(open(f"{out}/{name}.json"))
    a, e = r["players"][0], r.get("estimate")
    endings = ", ".join(f"{k} {v}" for k, v in sorted(r["endings"].items()))
    if e is None:
        # Every game won or every game lost: no finite difference, and no weight.
        elo = rating = "-"
    else:
        low, high = [b if b is not None else s * math.inf for b, s in zip(e["elo_95"], (-1, 1))]
        weights.append((ratings[name] + e["elo"], (high - low) / (2 * 1.959964)))
        elo = f"{e['elo']:+.0f} [{low:+.0f}, {high:+.0f}]"
        rating = f"{ratings[name] + e['elo']:.0f} [{ratings[name] + low:.0f}, {ratings[name] + high:.0f}]"
    print(f"| {name} | {ratings[name]} | {r['games']} | +{a['wins']} ={a['draws']} -{a['losses']} | "
          f"{a['score_rate'] * 100:.1f}% | {elo} | {rating} | {endings} |")
usable = [(r, s) for r, s in weights if math.isfinite(r) and math.isfinite(s) and s > 0]
if usable:
    total = sum(1 / s ** 2 for _, s in usable)
    mean = sum(r / s ** 2 for r, s in usable) / total
    print(f"\ncombined: {mean:.0f} +- {1.959964 / math.sqrt(total):.0f} (95%) on the CCRL 40/15 scale")
PY
