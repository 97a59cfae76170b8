#!/bin/sh
# A UCI engine that lists option after option, each short, without end.
while read -r line; do
    case "$line" in
        uci)
            echo "id name many"
            n=0
            while :; do
                n=$((n + 1))
                echo "option name Option$n type spin default 1 min 0 max 9" || exit 0
            done
            ;;
        quit) exit 0 ;;
    esac
done
