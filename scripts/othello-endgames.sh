#!/usr/bin/env bash
# Othello's exact solver on endgames drawn fresh for the measurement: 20 of each of 12 to 24
# empty squares (260), from games of 8 to 16 random moves then a two-ply search's
# (src/games/othello/solver/samples.rs), each solved with at most 10 seconds on one thread.
# Prints docs/othello.md's table: how many are exact within the 10 s, the slowest of each.
#
#   scripts/othello-endgames.sh [SEED]     # 2026 unless given; a new seed draws a new set
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --locked --bench othello -- endgames "${1:-2026}"
