#!/usr/bin/env python3
"""Measures a game's levels (docs/levels.md): every adjacent pair of levels, uniform random
play against level 1 (the scale's zero), and a scripted beginner (one-ply greedy: alphabeta
at depth 1 with the game's evaluation) against each level, all in Sente's own tournaments.

    scripts/levels.py GAME [--games N] [--beginner-games N] [--sente PATH]

Prints a Markdown table: each pair's result from the stronger side, its score, its Elo with
the tournament's interval (pentanomial: each opening is played with both colours), and each
level's Elo on one scale, uniform random play = 0 (the sum of the steps below it). Where the
higher level scores every game, the step is a lower bound (the interval's end), marked so.
`--outside LEVEL@PLAYER` plays a level against an outside player (Stockfish at a UCI_Elo,
GRhino at a level), the table's link to that player's scale.

    scripts/levels.py GAME --references N [--write FILE]

plays every level against the two reference players, the same in every game (a uniform random
mover and the beginner), N games each, prints each level's scores with Wilson's interval and
writes them to FILE as JSON (the game's `levels.json`, which `GET /games` answers with each
level, and whose bands `tests/http/levels.rs` checks).
"""

import argparse
import datetime
import json
import math
import subprocess
import sys

OPENINGS = {
    "tictactoe": "1-2",
    "connect4": "1-3",
    "gomoku": "2-4",
    "othello": "2-4",
    "chess": "2-6",
    "shogi": "2-6",
}


def tournament(sente, game, a, b, games, seed, engines=()):
    command = [
        sente, "tournament", "--game", game, "--games", str(games), "--seed", str(seed),
        "--random-plies", OPENINGS.get(game, "2-4"), "--max-plies", "400", a, b,
    ]
    for engine in engines:
        command += ["--engine", engine]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    first = report["players"][0]
    # One side scoring every game has no estimate: its interval's lower end bounds the step.
    low = elo(first["ci95"][0])
    estimate = report.get("estimate", {"elo": math.inf, "elo_95": [low, math.inf]})
    return first, estimate, report["elapsed_ms"]


def references(args, player):
    """Every level against the random mover and the beginner: its score in each, as JSON."""
    command = f"scripts/levels.py {args.game} --references {args.references}"
    if args.top:
        command += f" --top {args.top}"
    print(f"`{command}`\n")
    print("| level | vs random: W-D-L | score [95%] | vs beginner: W-D-L | score [95%] |")
    print("|---|---|---|---|---|")
    rows = []
    for level in range(1, args.levels + 1):
        row = {"level": level}
        cells = []
        for name, opponent, seed in (
            ("random", "random", 300),
            ("beginner", BEGINNER, 400),
        ):
            first, _, _ = tournament(
                args.sente, args.game, player(level), opponent, args.references,
                args.seed + seed + level,
            )
            w, d, l = first["wins"], first["draws"], first["losses"]
            low, high = first["ci95"]
            row[name] = {
                "games": w + d + l, "wins": w, "draws": d, "losses": l,
                "score": round(first["score_rate"], 3), "ci95": [round(low, 3), round(high, 3)],
            }
            cells.append(f"{w}-{d}-{l} | {first['score_rate']:.2f} [{low:.2f}, {high:.2f}]")
        rows.append(row)
        print(f"| {level} | {' | '.join(cells)} |", flush=True)
    print()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    return {
        "command": command,
        "commit": commit,
        "date": datetime.date.today().isoformat(),
        "levels": rows,
    }


# The scripted beginner: one-ply greedy, alphabeta at depth 1 with the game's evaluation. It
# takes what is there to take and sees nothing coming.
BEGINNER = "alphabeta:depth=1"


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--beginner-games", type=int, default=20)
    parser.add_argument("--levels", type=int, default=8)
    parser.add_argument(
        "--pairs", default="", help="only the pairs whose upper level is in FIRST-LAST (5-8)"
    )
    parser.add_argument(
        "--engine", action="append", default=[], help="an external engine, as the tournament's"
    )
    parser.add_argument(
        "--outside",
        action="append",
        default=[],
        help="LEVEL@PLAYER: the level against an outside player (an --engine's), for its scale",
    )
    parser.add_argument("--sente", default="target/release/sente")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--references", type=int, default=0,
        help="play every level against the random mover and the beginner, N games each",
    )
    parser.add_argument("--write", default="", help="with --references: the JSON file to write")
    parser.add_argument(
        "--top",
        default="",
        help="knobs added to the top level, the full engine on its time (tc=0.1/move)",
    )
    args = parser.parse_args()
    game, levels = args.game, args.levels

    def player(level):
        top = f",{args.top}" if args.top and level == levels else ""
        return f"engine:level={level}{top}"

    if args.references:
        measured = references(args, player)
        if args.write:
            with open(args.write, "w", encoding="utf-8") as file:
                json.dump(measured, file, indent=1)
                file.write("\n")
        return 0

    print(f"### {game}\n")
    top = f" --top {args.top}" if args.top else ""
    print(
        f"`scripts/levels.py {game} --games {args.games} "
        f"--beginner-games {args.beginner_games}{top}`\n"
    )
    print("| pair | games | W-D-L | score | Elo [95%] | level's Elo (random = 0) | s |")
    print("|---|---|---|---|---|---|---|")
    scale = 0.0
    bounded = False

    first_pair, last_pair = 1, levels
    if args.pairs:
        first_pair, last_pair = map(int, args.pairs.split("-"))
    for level in range(1, levels + 1):
        if not first_pair <= level <= last_pair:
            continue
        upper = player(level)
        lower = "random" if level == 1 else player(level - 1)
        first, estimate, ms = tournament(args.sente, game, upper, lower, args.games, args.seed + level)
        w, d, l = first["wins"], first["draws"], first["losses"]
        step = estimate["elo"]
        step_low, step_high = [b if b is not None else s * math.inf for b, s in zip(estimate["elo_95"], (-1, 1))]
        if math.isinf(step):
            # Every game won: the estimate is unbounded; count the interval's lower end.
            step, bounded = step_low, True
        scale += step
        mark = "≥ " if bounded else ""
        name = "random" if level == 1 else f"{level - 1}"
        print(
            f"| {level} vs {name} | {w + d + l} | {w}-{d}-{l} | {first['score_rate']:.3f} "
            f"| {step:+.0f} [{step_low:+.0f}, {step_high:+.0f}] | "
            f"{mark}{scale:.0f} | {ms / 1000:.0f} |",
            flush=True,
        )
    print()
    if args.outside:
        print("| level vs | games | level's W-D-L | level's score | Elo difference [95%] |")
        print("|---|---|---|---|---|")
        for index, spec in enumerate(args.outside):
            level, opponent = spec.split("@", 1)
            first, estimate, _ = tournament(
                args.sente, game, player(int(level)), opponent, args.games,
                args.seed + 200 + index, args.engine,
            )
            w, d, l = first["wins"], first["draws"], first["losses"]
            low, high = [b if b is not None else s * math.inf for b, s in zip(estimate["elo_95"], (-1, 1))]
            print(
                f"| {level} vs `{opponent}` | {w + d + l} | {w}-{d}-{l} | "
                f"{first['score_rate']:.3f} | {estimate['elo']:+.0f} [{low:+.0f}, {high:+.0f}] |",
                flush=True,
            )
        print()
    if args.beginner_games:
        print("| one-ply greedy vs | games | greedy's W-D-L | greedy's score [95%] |")
        print("|---|---|---|---|")
        for level in range(1, levels + 1):
            first, _, _ = tournament(
                args.sente, game, BEGINNER, player(level),
                args.beginner_games, args.seed + 100 + level,
            )
            w, d, l = first["wins"], first["draws"], first["losses"]
            low, high = first["ci95"]
            print(
                f"| level {level} | {w + d + l} | {w}-{d}-{l} | {first['score_rate']:.3f} "
                f"[{low:.3f}, {high:.3f}] |",
                flush=True,
            )
        print()


if __name__ == "__main__":
    sys.exit(main())
