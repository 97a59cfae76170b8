#!/bin/sh
# A UCI engine whose every bestmove is 60 KB of garbage.
long=$(head -c 60000 /dev/zero | tr '\0' z)
while read -r line; do
    case "$line" in
        uci) echo "id name garbage"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) echo "bestmove $long" ;;
        quit) exit 0 ;;
    esac
done
