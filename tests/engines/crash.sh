#!/bin/sh
# A UCI engine that starts properly and dies when asked for a move.
while read -r line; do
    case "$line" in
        uci) echo "id name crash"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) exit 3 ;;
        quit) exit 0 ;;
    esac
done
