#!/bin/sh
# A UCI engine that answers its handshake with endless 60 KB option lines, and never uciok.
long=$(head -c 60000 /dev/zero | tr '\0' a)
while read -r line; do
    case "$line" in
        uci)
            echo "id name options"
            n=0
            while :; do
                n=$((n + 1))
                echo "option name O$n type combo default a var $long" || exit 0
            done
            ;;
        quit) exit 0 ;;
    esac
done
