#!/usr/bin/env python3
"""Where Sente's lost games turned, read from the CSA records cshogi's match runner writes
(`python -m cshogi.cli ... --csa DIR`): each engine's score, from Black's side, follows each
of its moves as a `'** SCORE PV` comment. For each game Sente lost, the plies from the
opponent's last score under +1,000 for itself to the end, and from Sente's own last score
above -500 to the end; their medians, and how many of the losses Sente saw coming 5 plies or
fewer before the end.

  scripts/shogi-turns.py DIR...
"""
import glob
import os
import statistics
import sys


def moves_and_scores(path):
    """The plies played, Sente's side ('+' or '-'), and each move's score from Sente's side,
    by the side that made it: [(ply, side, score)]."""
    with open(path, encoding="utf-8", errors="replace") as record:
        lines = record.read().split("\n")
    sente = "+" if any(line.startswith("N+Sente") for line in lines[:4]) else "-"
    ply, mover, scores = 0, None, []
    for line in lines:
        if line[:1] in "+-" and len(line) == 7:
            ply, mover = ply + 1, line[0]
        elif line.startswith("'**") and mover is not None:
            score = int(line.split()[1])
            scores.append((ply, mover, score if sente == "+" else -score))
    resigned = any(line.startswith("%TORYO") for line in lines)
    return ply, sente, scores, resigned


def main():
    turned, unseen = [], []
    for folder in sys.argv[1:]:
        for path in sorted(glob.glob(os.path.join(folder, "*.csa"))):
            plies, sente, scores, resigned = moves_and_scores(path)
            to_move = "+" if plies % 2 == 0 else "-"
            if not resigned or to_move != sente:
                continue  # a game Sente won, or one that did not end by resigning
            theirs = [ply for ply, side, score in scores if side != sente and score > -1000]
            ours = [ply for ply, side, score in scores if side == sente and score > -500]
            turned.append(plies - max(theirs, default=0))
            unseen.append(plies - max(ours, default=0))
    if not turned:
        sys.exit("no game Sente lost in " + " ".join(sys.argv[1:]))
    print(f"{len(turned)} games lost")
    print(f"the opponent's score past +1,000 for good: a median of {statistics.median(turned)} plies before the end")
    print(f"Sente's own above -500: until a median of {statistics.median(unseen)} plies before the end")
    print(f"Sente above -500 at 5 plies or fewer before the end: {sum(1 for n in unseen if n <= 5)}")


if __name__ == "__main__":
    main()
