#!/bin/sh
# A UCI engine that starts a helper in a session of its own (out of the engine's process
# group), then plays moves no position allows.
setsid sleep 4321 < /dev/null > /dev/null 2>&1 &
while read -r line; do
    case "$line" in
        uci) echo "id name setsid"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) echo "bestmove a1a1" ;;
        quit) exit 0 ;;
    esac
done
