#!/usr/bin/env python3
"""Random shogi openings for cshogi's match runner (`python -m cshogi.cli ... --opening FILE`):
COUNT lines of `startpos moves ...`, PLIES random legal moves each, drawn from SEED. The runner
plays each line with both colours, so a match of 2 * COUNT games is paired.

  scripts/shogi-openings.py 5 8 7 > openings.txt    (needs `pip install cshogi`)
"""
import random
import sys

import cshogi


def main():
    count, plies, seed = (int(argument) for argument in sys.argv[1:4])
    rng = random.Random(seed)
    for _ in range(count):
        board = cshogi.Board()
        moves = []
        for _ in range(plies):
            move = rng.choice(list(board.legal_moves))
            moves.append(cshogi.move_to_usi(move))
            board.push(move)
        print("startpos moves " + " ".join(moves))


if __name__ == "__main__":
    main()
