#!/bin/sh
# A UCI engine that reads its commands and never answers `uci`.
while read -r line; do
    case "$line" in
        quit) exit 0 ;;
    esac
done
