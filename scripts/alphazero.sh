#!/usr/bin/env bash
# AlphaZero's loop for one game (docs/alphazero.md): each generation, the best network so far
# plays itself (`sente selfplay`), a candidate is trained on the last WINDOW generations'
# positions, going on from the best (`sente train --from`), and replaces it only if Sente's SPRT
# says it is stronger (`sente tournament --sprt`, the two networks at equal simulations, from
# paired random openings). The first generation plays with random weights, and its network is
# the first best: there is no older one to test it against.
#
#   scripts/alphazero.sh GAME GENERATIONS [DIR]
#
# Settings, by environment (defaults in brackets): GAMES self-play games a generation [2000],
# SIMULATIONS a move [400], HIDDEN width of a new network [128], WINDOW generations trained on
# [4], EPOCHS [10], BATCH [256], RATE Adam's first step [0.002], TEMPERATURE_PLIES [8],
# NOISE_ALPHA [1.0], OPENING_PLIES random plies of the SPRT's openings [4], SPRT_GAMES at most
# [600], THREADS [all cores]. DIR [target/alphazero/GAME] gets data/, the networks, best.net and
# log.tsv: a line a generation, with the hours since the run began.
set -euo pipefail
cd "$(dirname "$0")/.."
game=$1
generations=$2
dir=${3:-target/alphazero/$game}
games=${GAMES:-2000}
simulations=${SIMULATIONS:-400}
hidden=${HIDDEN:-128}
window=${WINDOW:-4}
epochs=${EPOCHS:-10}
batch=${BATCH:-256}
rate=${RATE:-0.002}
temperature_plies=${TEMPERATURE_PLIES:-8}
noise_alpha=${NOISE_ALPHA:-1.0}
opening_plies=${OPENING_PLIES:-4}
sprt_games=${SPRT_GAMES:-600}
threads=${THREADS:-$(nproc)}
sente=${SENTE:-target/release/sente}
[ -x "$sente" ] || cargo build --release --locked
mkdir -p "$dir/data"
log=$dir/log.tsv
if [ ! -f "$log" ]; then
    printf 'generation\thours\tpositions\tvalidation_loss\tsprt\telo\tgames\tbest\n' >"$log"
fi
# A run that goes on from an earlier one counts its hours on from the log's last line.
started=$(date +%s)
before=$(tail -n 1 "$log" | cut -f 2)
[ "$before" = hours ] && before=0
hours() { awk -v s="$started" -v n="$(date +%s)" -v before="$before" \
    'BEGIN { printf "%.3f", before + (n - s) / 3600 }'; }
first=$(($(wc -l <"$log")))
for ((generation = first; generation < first + generations; generation++)); do
    data=$dir/data/gen-$generation.txt
    net_flag=()
    [ -f "$dir/best.net" ] && net_flag=(--net "$dir/best.net")
    "$sente" selfplay --game "$game" "${net_flag[@]}" --games "$games" \
        --simulations "$simulations" --temperature-plies "$temperature_plies" \
        --noise-alpha "$noise_alpha" --seed "$generation" --threads "$threads" \
        --output "$data" >"$dir/selfplay-$generation.json" 2>/dev/null
    recent=()
    for ((past = generation - window + 1; past <= generation; past++)); do
        [ -f "$dir/data/gen-$past.txt" ] && recent+=("$dir/data/gen-$past.txt")
    done
    from_flag=(--hidden "$hidden")
    [ -f "$dir/best.net" ] && from_flag=(--from "$dir/best.net")
    candidate=$dir/net-$generation.net
    "$sente" train --game "$game" "${recent[@]}" "${from_flag[@]}" --output "$candidate" \
        --epochs "$epochs" --batch "$batch" --learning-rate "$rate" --seed "$generation" \
        --threads "$threads" >"$dir/train-$generation.json" 2>/dev/null
    positions=$(jq '.positions + .validation_positions' "$dir/train-$generation.json")
    loss=$(jq '.validation_loss[-1] * 10000 | round / 10000' "$dir/train-$generation.json")
    if [ ! -f "$dir/best.net" ]; then
        cp "$candidate" "$dir/best.net"
        printf '%s\t%s\t%s\t%s\tfirst\t\t\t%s\n' "$generation" "$(hours)" "$positions" "$loss" \
            "$generation" >>"$log"
        continue
    fi
    "$sente" tournament --game "$game" --net "candidate=$candidate" --net "best=$dir/best.net" \
        "alphazero:net=candidate,simulations=$simulations" \
        "alphazero:net=best,simulations=$simulations" --games "$sprt_games" \
        --random-plies "$opening_plies" --seed "$generation" --threads "$threads" \
        --sprt elo0=0,elo1=30 >"$dir/sprt-$generation.json" 2>/dev/null
    # An SPRT still running when its games ran out is undecided: the best stays.
    verdict=$(jq -r '.sprt.verdict | if . == "h0" or . == "h1" then . else "undecided" end' \
        "$dir/sprt-$generation.json")
    elo=$(jq -r '"\(.estimate.elo) [\(.estimate.elo_95[0]), \(.estimate.elo_95[1])]"' \
        "$dir/sprt-$generation.json")
    played=$(jq '.games' "$dir/sprt-$generation.json")
    best=$(tail -n 1 "$log" | cut -f 8)
    if [ "$verdict" = h1 ]; then
        cp "$candidate" "$dir/best.net"
        best=$generation
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$generation" "$(hours)" "$positions" "$loss" \
        "$verdict" "$elo" "$played" "$best" >>"$log"
done
column -t -s $'\t' "$log"
