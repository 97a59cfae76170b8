"""What a second thread is worth at equal time, measured by outside runners: `sente uci` at
Threads=2 against `sente uci` at Threads=1 under python-chess, and `sente usi` likewise under
cshogi's runner (`python -m cshogi.cli`).

    python scripts/threads-match.py SENTE chess|shogi [--games N] [--movetime S] [--seed K]

Chess: N games from openings of 8 to 12 random plies drawn from the seed (each twice, colours
swapped), each side MOVETIME seconds a move, ended by the rules (claimed draws count) or at 300
plies as a draw. Shogi: cshogi's runner, N games of a byoyomi of MOVETIME from openings of 8 random plies
drawn from the seed. Prints the games and the score of two threads with its Elo and 95% interval (the
trinomial normal approximation). On a machine of two cores, the engine at two threads has the
whole machine while it thinks: the engines move in turn and neither ponders.
"""

import argparse
import math
import os
import random
import re
import subprocess
import sys
import tempfile

import chess
import chess.engine


def elo(wins, draws, losses):
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games
    margin = 1.96 * math.sqrt(variance / games)

    def rating(p):
        p = min(max(p, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / p - 1)

    return score, rating(score), rating(score - margin), rating(score + margin)


def chess_match(sente, games, movetime, seed):
    rng = random.Random(seed)
    two = chess.engine.SimpleEngine.popen_uci([sente, "uci"])
    one = chess.engine.SimpleEngine.popen_uci([sente, "uci"])
    two.configure({"Threads": 2})
    one.configure({"Threads": 1})
    wins = draws = losses = 0
    try:
        for index in range(games):
            if index % 2 == 0:
                start = chess.Board()
                for _ in range(rng.randint(8, 12)):
                    moves = list(start.legal_moves)
                    if not moves:
                        break
                    start.push(rng.choice(moves))
            two_white = index % 2 == 0
            board = start.copy()
            while not board.is_game_over(claim_draw=True) and board.ply() < 300:
                white = board.turn == chess.WHITE
                engine = two if white == two_white else one
                board.push(engine.play(board, chess.engine.Limit(time=movetime)).move)
            result = board.result(claim_draw=True) if board.is_game_over(claim_draw=True) else "1/2-1/2"
            if result == "1/2-1/2":
                draws += 1
            elif (result == "1-0") == two_white:
                wins += 1
            else:
                losses += 1
            print(f"game {index + 1}: {result} (two threads {'White' if two_white else 'Black'}); "
                  f"+{wins} ={draws} -{losses}", flush=True)
    finally:
        two.quit()
        one.quit()
    return wins, draws, losses


def shogi_match(sente, games, movetime, seed):
    import cshogi

    rng = random.Random(seed)
    directory = tempfile.mkdtemp()
    # Openings of 8 random plies drawn from the seed, each played twice (cshogi's runner takes
    # opening n // 2 for game n, colours swapped).
    openings = os.path.join(directory, "openings.txt")
    with open(openings, "w") as file:
        for _ in range((games + 1) // 2):
            board = cshogi.Board()
            moves = []
            for _ in range(8):
                legal = list(board.legal_moves)
                move = rng.choice(legal)
                moves.append(cshogi.move_to_usi(move))
                board.push(move)
            file.write("startpos moves " + " ".join(moves) + "\n")
    wrapper = os.path.join(directory, "sente-usi")
    with open(wrapper, "w") as file:
        file.write(f"#!/bin/sh\nexec '{os.path.abspath(sente)}' usi\n")
    os.chmod(wrapper, 0o755)
    result = subprocess.run(
        [sys.executable, "-m", "cshogi.cli", wrapper, wrapper,
         "--name1", "two-threads", "--name2", "one-thread",
         "--options1", "Threads:2", "--options2", "Threads:1", "--games", str(games),
         "--byoyomi", str(int(movetime * 1000)), "--opening", openings,
         "--opening-moves", "8", "--opening-seed", str(seed)],
        capture_output=True, text=True, timeout=36000,
    )
    print(result.stdout[-3000:])
    if result.returncode != 0:
        sys.exit(result.stderr[-2000:])
    # cshogi's summary: "two-threads vs one-thread: N-M-D (...)".
    found = re.findall(r"two-threads vs one-thread: (\d+)-(\d+)-(\d+)", result.stdout)
    if not found:
        sys.exit("no summary line in cshogi's output")
    wins, losses, draws = map(int, found[-1])
    return wins, draws, losses


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sente")
    parser.add_argument("game", choices=["chess", "shogi"])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    match = chess_match if args.game == "chess" else shogi_match
    wins, draws, losses = match(args.sente, args.games, args.movetime, args.seed)
    score, rating, low, high = elo(wins, draws, losses)
    print(f"two threads against one, {args.game}, {args.movetime * 1000:.0f} ms a move: "
          f"+{wins} ={draws} -{losses}, {score:.1%}, {rating:+.0f} Elo [{low:+.0f}, {high:+.0f}]")


if __name__ == "__main__":
    main()
