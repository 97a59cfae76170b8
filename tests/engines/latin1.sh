#!/bin/sh
# A UCI engine whose author's name is in Latin-1, not UTF-8 (St\xe9phane), as are its thoughts,
# and which answers every search with a move no position allows: its lines must still be read.
while read -r line; do
    case "$line" in
        uci) printf 'id name latin1\nid author St\351phane\nuciok\n' ;;
        isready) echo "readyok" ;;
        go*) printf 'info string r\351fl\351chit\nbestmove a1a1\n' ;;
        quit) exit 0 ;;
    esac
done
