"""Makes data/chess/best-moves.epd: middlegame positions with one clearly best move, as
Debian's stockfish sees it at depth 20, for the best-move benchmark (scripts/best-moves.py).

    python scripts/make-positions.py [--count 100] [--seed 2026] [--depth 20]

Positions come from games that begin with 8 random plies and go on with stockfish at depth 6
for a random 8 to 40 plies more, so that they are of the kind real games reach. A position is
kept when, searched with two lines (MultiPV 2) at --depth, its best move is at least 150
centipawns better than the second (or the only move that does not lose a mate), it is not
already decided (the best line within 600 centipawns, or a mate in three or more moves to
find), it is not in check (a check leaves few moves), and the best move is not the recapture
of a piece that just took on its square (the easiest of clear moves). A shallow search at depth 10 screens
the candidates first. Each EPD line carries `bm` (the best move in SAN), `ce` (its value in
centipawns for the side to move; mates as stockfish gives them, 32000 less the plies), `acd`
(the depth), `c0` (the gap to the second move) and `id`. Deterministic for a seed: one thread
and a hash cleared before each position.
"""

import argparse
import random

import chess
import chess.engine

GAP = 150
DECIDED = 600


def two_lines(engine, board, depth):
    engine.configure({"Clear Hash": None})
    infos = engine.analyse(board, chess.engine.Limit(depth=depth), multipv=2)
    return [(info["pv"][0], info["score"].relative) for info in infos if "pv" in info]


def clear(lines):
    """The gap between the best move and the second, in centipawns, if the best is clear."""
    if len(lines) < 2:
        return None
    (_, best), (_, second) = lines[0], lines[1]
    if best.is_mate():
        # A mate to find, not one already on the board, against a move that does not mate.
        if best.mate() is not None and best.mate() >= 3 and not second.is_mate():
            return DECIDED
        return None
    if abs(best.score()) > DECIDED or second.is_mate():
        return None
    gap = best.score() - second.score(mate_score=100_000)
    return gap if gap >= GAP else None


def candidate(engine, rng):
    board = chess.Board()
    for _ in range(8):
        board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            return None
    for _ in range(rng.randint(8, 40)):
        if board.is_game_over():
            return None
        board.push(engine.play(board, chess.engine.Limit(depth=6)).move)
    if board.is_game_over() or board.is_check():
        return None
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--output", default="data/chess/best-moves.epd")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    engine.configure({"Threads": 1, "Hash": 64})
    kept, seen = [], set()
    try:
        while len(kept) < args.count:
            board = candidate(engine, rng)
            if board is None or board.board_fen() in seen:
                continue
            seen.add(board.board_fen())
            shallow = two_lines(engine, board, 10)
            if clear(shallow) is None:
                continue
            if board.is_capture(shallow[0][0]) and shallow[0][0].to_square == board.peek().to_square:
                continue
            lines = two_lines(engine, board, args.depth)
            gap = clear(lines)
            if gap is None:
                continue
            move, score = lines[0]
            if board.is_capture(move) and move.to_square == board.peek().to_square:
                continue
            ce = score.score(mate_score=32000)
            kept.append(board.epd(bm=[move], ce=ce, acd=args.depth, c0=f"gap {gap}",
                                  id=f"sente.{len(kept) + 1}"))
            print(kept[-1], flush=True)
    finally:
        engine.quit()
    with open(args.output, "w") as out:
        out.write("\n".join(kept) + "\n")


if __name__ == "__main__":
    main()
