#!/bin/sh
# A UCI engine that starts properly and never answers a search.
while read -r line; do
    case "$line" in
        uci) echo "id name hang"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) sleep 1000 ;;  # a child process, which must die with the engine
        quit) exit 0 ;;
    esac
done
