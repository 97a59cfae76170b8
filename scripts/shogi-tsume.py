#!/usr/bin/env python3
"""Builds Sente's sets of tsume (mating) problems from its own tournament games.

    python3 scripts/shogi-tsume.py RESULTS.json... > data/shogi/tsume.txt
    python3 scripts/shogi-tsume.py --plies 7,9,11,13,15 --each 12 --checks \
        SHARD.json... > data/shogi/tsume-long.txt

RESULTS are the answers of `sente tournament --game shogi --records` (external engines
included), or its shards' results (`--shard I/N --output`). For each game that ended in
checkmate, the positions the given plies before the mate (1, 3 and 5 unless --plies says),
the winner to move, are candidates; with --checks, only those where every one of the winner's
moves to the mate gave check (a tsume: a mate by checks); a candidate is kept when
Fairy-Stockfish (Debian's `fairy-stockfish`, over USI) proves a mate of exactly that many plies
there at depth 20, so that no shorter mate exists (with --at-most M, where it proves a mate of
M plies or more, at that length), until --each are kept of a length. Each line
is the mate's length in plies, a tab, and the moves from the start in USI; the tests
`the_engine_solves_the_tsume_set` and the tsume solver's play them. --checks reads the moves
with cshogi (from PyPI).
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


def all_checks(moves, plies):
    """Whether each of the winner's last moves of `moves` (the final `plies`) gave check."""
    import cshogi

    board = cshogi.Board()
    for index, move in enumerate(moves):
        board.push_usi(move)
        from_end = len(moves) - index
        if from_end <= plies and (plies - from_end) % 2 == 0 and not board.is_check():
            return False
    return True


def main():
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--plies", default="1,3,5")
    parser.add_argument("--each", type=int, default=0, help="at most this many of a length")
    parser.add_argument("--checks", action="store_true", help="only mates by checks")
    parser.add_argument(
        "--at-most",
        type=int,
        default=0,
        help="keep a candidate where the mate proven is shorter, down to this many plies, at "
        "its proven length",
    )
    parser.add_argument("results", nargs="+")
    args = parser.parse_args()
    lengths = [int(plies) for plies in args.plies.split(",")]
    kept = {plies: 0 for plies in lengths}
    usi = Usi()
    seen = set()
    kept_where = (
        f"a mate of {args.at_most} plies or more, at that length,"
        if args.at_most
        else "a mate of exactly that length"
    )
    checks = ", the winner checking at every move" if args.checks else ""
    print(f"# Tsume problems from Sente's own games: the positions {args.plies} plies before a")
    print(f"# checkmate{checks}, kept where Fairy-Stockfish proves {kept_where} at depth 20")
    print("# (scripts/shogi-tsume.py). Plies to mate, a tab, the moves from the start.")
    for path in args.results:
        with open(path) as file:
            answer = json.load(file)
        records = answer.get("records") or answer.get("results", {}).get("records", [])
        if isinstance(records, dict):
            records = [records[index] for index in sorted(records, key=int)]
        for record in records:
            if record.get("ended_by") != "checkmate":
                continue
            moves = [str(m) for m in record.get("opening_moves", [])]
            moves += [str(m["move"]) for m in record["moves"]]
            for plies in lengths:
                if len(moves) <= plies or (args.each and kept[plies] >= args.each):
                    continue
                if args.checks and not all_checks(moves, plies):
                    continue
                before = moves[: len(moves) - plies]
                key = " ".join(before)
                if key in seen:
                    continue
                seen.add(key)
                mate = usi.mate_in(before)
                if args.at_most and mate is not None and args.at_most <= mate <= plies:
                    # The mate Fairy-Stockfish proves, however much shorter than the game's.
                    if mate in kept and (not args.each or kept[mate] < args.each):
                        kept[mate] += 1
                        print(f"{mate}\t{key}", flush=True)
                elif mate == plies:
                    kept[plies] += 1
                    print(f"{plies}\t{key}", flush=True)
            if args.each and all(count >= args.each for count in kept.values()):
                break
    usi.send("quit")


if __name__ == "__main__":
    main()
