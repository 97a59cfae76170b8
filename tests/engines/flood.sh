#!/bin/sh
# A UCI engine that answers a search with bytes and never a newline, without end.
while read -r line; do
    case "$line" in
        uci) echo "id name flood"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) exec cat /dev/zero ;;
        quit) exit 0 ;;
    esac
done
