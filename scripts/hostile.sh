#!/usr/bin/env bash
# Tries a sente binary as a hostile client, operator and engine would: shogi positions with more
# pieces than a set, a network whose weights overflow, /dev/zero and FIFOs as input files, an
# engine with endless options, tables of a gigabyte inside a clock. Each case runs under a
# timeout, with /usr/bin/time for its peak memory; a line a case: what it answered, exit status,
# seconds and peak resident MB. Run it on two builds to compare them:
#
#   scripts/hostile.sh target/release/sente
#   scripts/hostile.sh /path/to/an/older/sente
set -uo pipefail
sente=$(realpath "${1:-target/release/sente}")
cd "$(dirname "$0")/.." || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
limit=8

# Runs a case under the timeout: its name, then the command; prints a table row.
measure() {
    local name=$1
    shift
    local started ended status memory said
    started=$(date +%s.%N)
    /usr/bin/time -f '%M' -o "$work/time" timeout "$limit" "$@" >"$work/out" 2>"$work/err" </dev/null
    status=$?
    ended=$(date +%s.%N)
    memory=$(tail -1 "$work/time" 2>/dev/null | grep -E '^[0-9]+$' || echo 0)
    said=$(grep -v '^Command\|^\s' "$work/err" | tail -1 | cut -c1-90)
    [ -z "$said" ] && said=$(tail -1 "$work/out" | cut -c1-90)
    [ "$status" = 124 ] && said="(killed after ${limit} s) $said"
    printf '| %s | %s | %.2f | %d | %s |\n' "$name" "$status" "$(echo "$ended - $started" | bc)" \
        $((memory / 1024)) "$said"
}

four_rooks='4k4/9/9/9/9/4r4/4G4/9/4K4 b 3R 1'
printf '| case | exit | seconds | peak MB | last line |\n|---|---|---|---|---|\n'
measure "shogi move, four rooks" "$sente" move --game shogi --board "$four_rooks"
measure "shogi tournament, four rooks" "$sente" tournament engine:depth=1 random --game shogi \
    --board "$four_rooks" --games 2
printf 'position sfen %s moves 5g5f\ngo depth 3\nisready\n' "$four_rooks" >"$work/usi"
(cat "$work/usi"; sleep 2; echo quit) >"$work/usi-session"
measure "sente usi, four rooks then go" bash -c "exec '$sente' usi < '$work/usi-session'"

# A Connect Four network whose second layer holds 3.4e38s.
python3 - "$work/huge.net" <<'EOF'
import random, struct, sys
inputs, hidden, moves = 84, 128, 7
total = inputs * hidden + hidden + hidden * hidden + hidden + moves * hidden + moves + hidden + 1
random.seed(1)
weights = [random.uniform(-0.1, 0.1) for _ in range(total)]
w2 = inputs * hidden + hidden
for i in range(w2, w2 + 256):
    weights[i] = struct.unpack('<f', b'\x7f\x7f\x7f\x7f')[0]
name = b'connect4'
with open(sys.argv[1], 'wb') as f:
    f.write(b'SENTEPV1' + bytes([len(name)]) + name + struct.pack('<3I', inputs, hidden, moves))
    f.write(struct.pack('<%df' % total, *weights))
EOF
measure "selfplay --net huge.net" "$sente" selfplay --game connect4 --games 2 --simulations 50 \
    --net "$work/huge.net" --output "$work/sp.txt"
measure "tournament alphazero:net=bad" "$sente" tournament alphazero:net=bad,time_limit_ms=100 \
    random --game connect4 --games 2 --net "bad=$work/huge.net"
"$sente" selfplay --game connect4 --games 8 --simulations 10 --output "$work/c4.txt" \
    >/dev/null 2>&1
measure "train --from huge.net" "$sente" train --game connect4 "$work/c4.txt" \
    --from "$work/huge.net" --output "$work/out.net" --epochs 1

measure "train data /dev/zero" "$sente" train --game chess /dev/zero --output "$work/z.nnue"
measure "selfplay --net /dev/zero" "$sente" selfplay --game connect4 --games 1 --net /dev/zero \
    --output "$work/z.txt"
measure "positions /dev/zero" "$sente" positions /dev/zero
measure "merge /dev/zero" "$sente" tournament merge /dev/zero
printf 'uci\nsetoption name EvalFile value /dev/zero\nisready\nquit\n' >"$work/uci"
measure "uci EvalFile /dev/zero" bash -c "exec '$sente' uci < '$work/uci'"
mkfifo "$work/fifo"
measure "train data a FIFO" "$sente" train --game chess "$work/fifo" --output "$work/f.nnue"

echo precious >"$work/keep.txt"
"$sente" selfplay --game tictactoe --games 2 --net typo.net --output "$work/keep.txt" 2>/dev/null
printf '| selfplay --net typo.net --output keep.txt | | | | keep.txt: %s |\n' \
    "$(tr -d '\n' <"$work/keep.txt" | cut -c1-30)"

measure "tournament vs endless 60 KB options" "$sente" tournament random opt:tc=1/move \
    --engine "opt=$PWD/tests/engines/options.sh" --games 2

# A GTP engine whose answer never ends (its move, then lines without the empty line): a
# tournament against it, from the command line.
measure "tournament vs a GTP answer without end" "$sente" tournament random flood:tc=5/move \
    --game othello --engine "flood=$PWD/tests/engines/gtp-flood.sh,protocol=gtp" --games 2

# Clocks too large to read, then the end of the input: the search must stop within a second.
measure "gtp: time_settings 1e30 0 0, genmove, end of input" bash -c \
    "printf 'time_settings 1e30 0 0\ngenmove b\n' | exec '$sente' gtp"
measure "gtp: time_settings 1e23, time_left 0 0, genmove" bash -c \
    "printf 'time_settings 1e23 0 0\ntime_left black 0 0\ngenmove b\nquit\n' | exec '$sente' gtp"
measure "uci: go wtime 99999999999999999999 btime 1, end" bash -c \
    "printf 'position startpos\ngo wtime 99999999999999999999 btime 1\n' | exec '$sente' uci"
measure "nboard: go, end of input" bash -c "printf 'nboard 2\ngo\n' | exec '$sente' nboard"

# A gigabyte's table inside the clock: the time from `go` to `bestmove` at a byoyomi of 1 s.
usi_time() {
    python3 - "$sente" <<'EOF'
import subprocess, sys, time
engine = subprocess.Popen([sys.argv[1], 'usi'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)
def say(line): engine.stdin.write(line + '\n'); engine.stdin.flush()
def until(word):
    while True:
        line = engine.stdout.readline()
        if not line or line.startswith(word): return line
say('usi'); until('usiok')
say('setoption name USI_Hash value 1024'); say('isready'); until('readyok')
say('usinewgame')
times = []
for moves in ['', ' moves 7g7f 3c3d', ' moves 7g7f 3c3d 2g2f 8c8d']:
    say('position startpos' + moves)
    started = time.monotonic()
    say('go btime 0 wtime 0 byoyomi 1000')
    until('bestmove')
    times.append(time.monotonic() - started)
say('quit')
print(' '.join('%.2f' % t for t in times))
EOF
}
printf '| usi, USI_Hash 1024, byoyomi 1000: go to bestmove (s) | | | | %s |\n' "$(usi_time)"

# The same over HTTP: /move with hash_mb 256 and a second to think, total time of each answer.
port=$((20000 + RANDOM % 20000))
"$sente" serve --addr "127.0.0.1:$port" >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
times=""
for game in chess shogi chess shogi; do
    took=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port/move" \
        -H 'content-type: application/json' \
        -d "{\"game\": \"$game\", \"moves\": [], \"algorithm\": \"engine\", \"hash_mb\": 256, \"time_limit_ms\": 1000}")
    times="$times $game $took"
done
kill "$server"
printf '| HTTP /move, hash_mb 256, 1000 ms: total (s) | | | | %s |\n' "$times"

# A tournament player with a 256 MiB table on 1 s a move: its first move on time?
measure "tournament engine:hash_mb=256,tc=1/move" "$sente" tournament \
    engine:hash_mb=256,tc=1/move random:tc=1/move --game chess --games 2 --max-plies 6
grep -o '"time_forfeit": [0-9]*\|"max_plies": [0-9]*' "$work/out" | tr '\n' ' '
echo
