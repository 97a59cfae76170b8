"""The best-move benchmark: the share of data/chess/best-moves.epd (positions with one clearly
best move, by stockfish at depth 20: scripts/make-positions.py) in which an engine, given a
time per position, plays the `bm` move.

    python scripts/best-moves.py SENTE [--time 1.0] [--epd data/chess/best-moves.epd] [--phalanx]

Sente is driven through `sente uci`; with --phalanx, Debian's Phalanx (xboard) is measured on
the same positions for comparison. Each engine starts every position afresh (ucinewgame / new)
and runs on one core.
"""

import argparse
import logging
import time

import chess
import chess.engine


def solve(engine, positions, seconds, label):
    found, missed = 0, []
    started = time.monotonic()
    for board, best, name in positions:
        result = engine.play(board, chess.engine.Limit(time=seconds), game=object())
        if result.move in best:
            found += 1
        else:
            missed.append(f"{name} {board.san(result.move)} (bm {' '.join(board.san(m) for m in best)})")
    spent = time.monotonic() - started
    share = 100 * found / len(positions)
    print(f"{label}: {found} of {len(positions)} ({share:.0f}%) at {seconds:g} s a position, {spent:.0f} s in all")
    for line in missed:
        print(f"  missed {line}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sente")
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--epd", default="data/chess/best-moves.epd")
    parser.add_argument("--phalanx", action="store_true")
    args = parser.parse_args()
    # Phalanx chats on its output (time settings, who plays which side), which the driver
    # would log at every position.
    logging.getLogger("chess.engine").setLevel(logging.ERROR)
    positions = []
    for line in open(args.epd):
        if line.strip():
            board, ops = chess.Board.from_epd(line)
            positions.append((board, ops["bm"], ops.get("id", "?")))
    engine = chess.engine.SimpleEngine.popen_uci(["taskset", "-c", "0", args.sente, "uci"])
    try:
        solve(engine, positions, args.time, "Sente")
    finally:
        engine.quit()
    if args.phalanx:
        engine = chess.engine.SimpleEngine.popen_xboard(["taskset", "-c", "0", "/usr/games/phalanx"])
        try:
            solve(engine, positions, args.time, "Phalanx")
        finally:
            engine.quit()


if __name__ == "__main__":
    main()
