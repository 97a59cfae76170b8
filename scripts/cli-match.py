#!/usr/bin/env python3
"""Plays two Sente binaries against each other through `sente move`, a process a move, for the
games that speak no engine protocol yet (Othello, gomoku): an instrument outside Sente's own
tournament, to compare one build's engine with another's.

Each pair of games starts from the same random opening (a few random plies, the same for both
games of the pair), each binary playing each side once. An SPRT (the GSPRT of fishtest's
trinomial model, alpha = beta = 0.05) stops the match once it decides.

  scripts/cli-match.py --game othello --new target/release/sente --old /path/to/main/sente \
      --player engine:time_limit_ms=100 --games 400 --elo0 0 --elo1 20
"""

import argparse
import concurrent.futures
import json
import math
import random
import subprocess
import sys


def move(binary, game, moves, player, seed=None):
    command = [binary, "move", "--game", game, "--moves", ",".join(moves), player]
    if seed is not None:
        command += ["--seed", str(seed)]
    answer = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(answer.stdout)


def play(args, opening, new_first):
    """One game from `opening`: 1 if the new binary wins, 0.5 a draw, 0 a loss."""
    moves = list(opening)
    players = [args.new, args.old] if new_first else [args.old, args.new]
    turn = len(moves) % 2  # players[0] plays X, at even plies
    while True:
        answer = move(players[turn], args.game, moves, args.player)
        moves.append(answer["move"])
        status = answer["status"]
        if status != "in_progress":
            if not status.endswith("_won"):
                return 0.5, moves
            # X moves at even plies (a pass is a move): the new binary's side is X when it
            # moved first.
            winner_is_x = status == "x_won"
            return (1.0 if winner_is_x == new_first else 0.0), moves
        turn = 1 - turn


def opening(args, index):
    rng = random.Random(args.seed * 1_000_003 + index)
    moves = []
    for _ in range(args.random_plies):
        answer = move(args.old, args.game, moves, "random", seed=rng.randrange(1 << 32))
        moves.append(answer["move"])
        if answer["status"] != "in_progress":
            return None
    return moves


def llr(scores, elo0, elo1):
    """The GSPRT's log-likelihood ratio of the scores under the logistic model."""
    n = len(scores)
    if n < 2:
        return 0.0
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / n
    if variance == 0:
        return 0.0
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def elo(scores):
    n = len(scores)
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / n
    margin = 1.96 * math.sqrt(variance / n)

    def to_elo(score):
        score = min(max(score, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / score - 1)

    return to_elo(mean), to_elo(mean - margin), to_elo(mean + margin)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--new", required=True, help="the binary under test")
    parser.add_argument("--old", required=True, help="the binary it is measured against")
    parser.add_argument("--player", default="engine:time_limit_ms=100")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--elo0", type=float, default=0)
    parser.add_argument("--elo1", type=float, default=20)
    parser.add_argument(
        "--min-games", type=int, default=100,
        help="games before the SPRT may stop: its variance estimate is poor on fewer",
    )
    args = parser.parse_args()
    bound = math.log((1 - 0.05) / 0.05)
    scores = []
    pairs = args.games // 2
    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        index = 0
        while len(scores) < args.games:
            batch = []
            while len(batch) < args.threads and index < pairs * 4:
                line = opening(args, index)
                index += 1
                if line is not None:
                    batch.append(line)
            if not batch:
                break
            futures = [
                pool.submit(play, args, line, first) for line in batch for first in (True, False)
            ]
            for future in futures:
                score, _ = future.result()
                scores.append(score)
            ratio = llr(scores, args.elo0, args.elo1)
            wins, draws = scores.count(1.0), scores.count(0.5)
            losses = len(scores) - wins - draws
            estimate, low, high = elo(scores)
            print(
                f"{len(scores)} games: +{wins} ={draws} -{losses}, "
                f"{estimate:+.0f} [{low:+.0f}, {high:+.0f}] Elo, LLR {ratio:.2f} [{-bound:.2f}, {bound:.2f}]",
                flush=True,
            )
            if len(scores) < args.min_games:
                continue
            if ratio >= bound:
                print("SPRT: H1 accepted (the new binary is stronger)")
                return
            if ratio <= -bound:
                print("SPRT: H0 accepted")
                return
    print("SPRT: undecided at the games asked")


if __name__ == "__main__":
    sys.exit(main())
