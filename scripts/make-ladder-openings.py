"""Makes data/chess/ladder-openings.txt: the openings of the ladder (scripts/ladder.sh),
balanced as rating lists balance their books, by a strong engine's deep search.

    python scripts/make-ladder-openings.py [--count 50] [--seed 2026] [--depth 16] [--within 50]

Each opening is 8 random plies from the start (seeded), kept when Debian's stockfish at
--depth scores it within --within centipawns of equal for the side to move, the position not
in check and no capture possible at once (so that no game begins with a piece hanging). The
engine balances the openings and labels nothing: no position of it trains Sente's networks.
Each opening is written as its moves from the start (UCI), so that engines that cannot be given
a position (Fairy-Max) play them too, after a comment line with its FEN and stockfish's value
(centipawns for the side to move). Deterministic for a seed: one thread, the hash cleared
before each position.
"""

import argparse
import random

import chess
import chess.engine


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--within", type=int, default=50)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--engine", default="/usr/games/stockfish")
    parser.add_argument("--output", default="data/chess/ladder-openings.txt")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": 64})
    kept, seen, tried = [], set(), 0
    while len(kept) < args.count:
        tried += 1
        board = chess.Board()
        for _ in range(args.plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(sorted(moves, key=lambda mv: mv.uci())))
        if board.is_game_over() or board.is_check():
            continue
        if any(board.is_capture(mv) for mv in board.legal_moves):
            continue
        epd = board.epd()
        if epd in seen:
            continue
        seen.add(epd)
        engine.configure({"Clear Hash": None})
        info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
        score = info["score"].relative
        if score.is_mate() or abs(score.score()) > args.within:
            continue
        moves = " ".join(mv.uci() for mv in board.move_stack)
        kept.append(f"# {len(kept) + 1}: {board.fen()}, {score.score():+d} cp\n{moves}")
    engine.quit()
    with open(args.output, "w") as out:
        out.write(f"# The ladder's openings (scripts/ladder.sh): {args.plies} random plies (seed "
                  f"{args.seed}), each within {args.within}\n# centipawns of equal by stockfish at "
                  f"depth {args.depth}; made by scripts/make-ladder-openings.py.\n")
        for line in kept:
            out.write(line + "\n")
    print(f"{len(kept)} openings kept of {tried} drawn, within {args.within} cp at depth "
          f"{args.depth}: {args.output}")


if __name__ == "__main__":
    main()
