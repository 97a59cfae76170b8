#!/usr/bin/env python3
"""Builds Sente's set of tsume (mating) problems from its own tournament games.

    python3 scripts/shogi-tsume.py RESULTS.json... > data/shogi/tsume.txt

RESULTS are the answers of `sente tournament --game shogi --records` (external engines
included). For each game that ended in checkmate, the positions 1, 3 and 5 plies before the
mate, the winner to move, are candidates; a candidate is kept when Fairy-Stockfish (Debian's
`fairy-stockfish`, over USI) proves a mate of exactly that many plies there at depth 20, so
that no shorter mate exists. Each line is the mate's length in plies, a tab, and the moves
from the start in USI; the test `the_engine_solves_the_tsume_set` plays them.
"""

import json
import subprocess
import sys

ENGINE = "/usr/games/fairy-stockfish"
DEPTH = 20


class Usi:
    def __init__(self):
        self.process = subprocess.Popen(
            [ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("usi")
        self.wait("usiok")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def mate_in(self, moves):
        """The plies to mate Fairy-Stockfish proves for the side to move, or None."""
        self.send("usinewgame")
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go depth {DEPTH}")
        mate = None
        for line in self.wait("bestmove"):
            words = line.split()
            if "score" in words:
                at = words.index("score")
                mate = int(words[at + 2]) if words[at + 1] == "mate" else None
        return mate


def main():
    usi = Usi()
    seen = set()
    print("# Tsume problems from Sente's own tournament games: the positions 1, 3 and 5 plies")
    print("# before a checkmate, kept where Fairy-Stockfish proves a mate of exactly that length")
    print("# at depth 20 (scripts/shogi-tsume.py). Plies to mate, a tab, the moves from the start.")
    for path in sys.argv[1:]:
        with open(path) as file:
            answer = json.load(file)
        records = answer.get("records", [])
        for record in records:
            if record.get("ended_by") != "checkmate":
                continue
            moves = [str(m) for m in record.get("opening_moves", [])]
            moves += [str(m["move"]) for m in record["moves"]]
            for plies in (1, 3, 5):
                if len(moves) <= plies:
                    continue
                before = moves[: len(moves) - plies]
                key = " ".join(before)
                if key in seen:
                    continue
                seen.add(key)
                if usi.mate_in(before) == plies:
                    print(f"{plies}\t{key}", flush=True)
    usi.send("quit")


if __name__ == "__main__":
    main()
