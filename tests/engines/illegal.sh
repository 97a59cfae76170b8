#!/bin/sh
# A UCI engine that answers every search with a move no position allows.
while read -r line; do
    case "$line" in
        uci) echo "id name illegal"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) echo "info depth 1 score cp 20 nodes 1"; echo "bestmove a1a1" ;;
        quit) exit 0 ;;
    esac
done
