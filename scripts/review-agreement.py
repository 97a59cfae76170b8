"""How Sente's game review agrees with an outside judge, on games with known slips.

    python scripts/review-agreement.py chess SENTE [--games N] [--elo E] [--depth D] [--dir DIR] [--reuse]
    python scripts/review-agreement.py shogi SENTE [--games N] [--depth D] [--dir DIR]
    python scripts/review-agreement.py othello SENTE [--games N] [--dir DIR]

chess: N games of Debian's Stockfish 15.1 against itself at UCI_LimitStrength and UCI_Elo E
(weak play, with real slips), 50 ms a move, from the start (its limited strength chooses its
moves at random among its lines, so every game differs); each game written as PGN and given to
`sente review --record` at its default budget. The judge is Stockfish at full strength to a
fixed depth D: each position's score, turned into winning chances as lichess does (2 / (1 +
exp(-0.00368208 cp)) - 1, a mate 1), and each move's drop in the mover's winning chances from
the position's best; lichess's classes from the drop (0.1 inaccuracy, 0.2 mistake, 0.3 blunder).

shogi: the same with Debian's Fairy-Stockfish 11.1 (USI): games at Skill Level 0, 50 ms a move,
up to 160 plies, rules by cshogi; the judge Fairy-Stockfish at full strength to depth D, its
centipawns turned into winning chances by the logistic shogi programs use (2 / (1 + exp(-cp /
600)) - 1, Ponanza's 600); `sente review --moves` at its default budget.

othello: N games of the random player against itself (slips of every size, the result changing
hands in the endgame), from the start; each game reviewed by `sente review`. The judge is
Sente's exact solver (`sente analyze ... solver`, every move's exact final disc margin) in the
last 20 empties: a move is a blunder where it gave away the game's result (a win to a draw or a
loss, a draw to a loss), and lost discs where it lost any against the best.

Reported, with the counts: of the moves the judge classes as blunders, the share the review
classes as mistakes or blunders (the aim: 90%); of the moves the review classes as blunders, the
share the judge classes as mistakes or blunders (in Othello: that lost discs; the aim: 80%).
Each twice, from the same searches: as the review classes the moves (through its game's fitted
probability model, where it has one), and as the score's own map would have classed them
(probability (score + 1) / 2, the review's before the models were fitted); and, for chess and
shogi, once more for each logistic `--models 220,1630` names (centipawns a unit), so that a
model to be fitted is compared with the shipped one on the same searches.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time


def winning_chances(score):
    """Lichess's winning chances (-1 to 1) of a python-chess PovScore's relative score."""
    if score.is_mate():
        return 1.0 if score.mate() > 0 else -1.0
    cp = max(-1000, min(1000, score.score()))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def lichess_class(drop):
    """Lichess's class of a move from its drop in winning chances (lila's Advice.scala)."""
    if drop >= 0.3:
        return "blunder"
    if drop >= 0.2:
        return "mistake"
    if drop >= 0.1:
        return "inaccuracy"
    return "good"


def review_class(loss):
    """The review's class of a move from the probability it lost (0.05, 0.10, 0.15)."""
    return "blunder" if loss >= 0.15 else "mistake" if loss >= 0.10 else "inaccuracy" if loss >= 0.05 else "good"


def score_map_class(ply):
    """The class the review would give the move reading its scores through the score's own map,
    probability (score + 1) / 2 (the review's thresholds: 0.05, 0.10, 0.15 of probability)."""
    if ply["class"] == "best" or "best" not in ply or "played" not in ply:
        return ply["class"]
    loss = max(0.0, (ply["best"]["score"] - ply["played"]["score"]) / 2)
    return review_class(loss)


def logistic_class(ply, unit):
    """The class the review would give the move reading its centipawns through the logistic
    1 / (1 + exp(-cp / unit)) (a proven result a certainty), the review's thresholds."""
    if ply["class"] == "best" or "best" not in ply or "played" not in ply:
        return ply["class"]

    def win(line):
        if line.get("exact") or line.get("cp") is None:
            return (line["score"] + 1) / 2
        return 1 / (1 + math.exp(-line["cp"] / unit))

    loss = max(0.0, win(ply["best"]) - win(ply["played"]))
    return review_class(loss)


def classes(ply, args):
    """The move's classes under the score's own map and under each of `--models`."""
    return (score_map_class(ply), *(logistic_class(ply, unit) for unit in args.models))


def review(sente, game, record_path):
    started = time.time()
    out = subprocess.run(
        [sente, "review", "--game", game, "--record", record_path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out), time.time() - started


def chess_games(args):
    import chess
    import chess.engine
    import chess.pgn

    rows = []
    weak = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    weak.configure({"UCI_LimitStrength": True, "UCI_Elo": args.elo, "Threads": 1})
    judge = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    judge.configure({"Threads": 1, "Hash": 64})
    seconds = 0.0
    plies_reviewed = 0
    try:
        for number in range(args.games):
            path = os.path.join(args.dir, f"chess-{number + 1}.pgn")
            if args.reuse and os.path.exists(path):
                with open(path) as file:
                    board = chess.pgn.read_game(file).end().board()
            else:
                board = chess.Board()
                while not board.is_game_over(claim_draw=True) and board.ply() < 200:
                    board.push(weak.play(board, chess.engine.Limit(time=0.05)).move)
                game = chess.pgn.Game.from_board(board)
                game.headers["Event"] = f"review agreement {number + 1}"
                with open(path, "w") as file:
                    print(game, file=file)
            # The judge's winning chances for the side to move in each position.
            replay = chess.Board()
            chances = []
            for move in [None] + list(board.move_stack):
                if move is not None:
                    replay.push(move)
                if replay.is_checkmate():
                    chances.append(-1.0)
                elif replay.is_game_over(claim_draw=True):
                    chances.append(0.0)
                else:
                    info = judge.analyse(replay, chess.engine.Limit(depth=args.depth))
                    chances.append(winning_chances(info["score"].relative))
            answer, took = review(args.sente, "chess", path)
            seconds += took
            plies_reviewed += len(answer["plies"])
            for ply in answer["plies"]:
                index = ply["ply"] - 1
                drop = max(0.0, chances[index] + chances[index + 1])
                rows.append((lichess_class(drop), ply["class"], number + 1, ply["ply"], *classes(ply, args)))
            print(f"game {number + 1}: {len(board.move_stack)} plies, review {took:.1f} s", file=sys.stderr)
    finally:
        weak.quit()
        judge.quit()
    judge_name = f"Stockfish 15.1 depth {args.depth}"
    return rows, judge_name, seconds, plies_reviewed


class Usi:
    """A USI engine spoken to line by line: enough for `go` and its last score."""

    def __init__(self, command, options):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait(self, word):
        lines = []
        while True:
            line = self.process.stdout.readline().strip()
            lines.append(line)
            if line.split(" ")[0] == word:
                return lines

    def go(self, moves, limit):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go {limit}")
        lines = self.wait("bestmove")
        score = None
        for line in lines:
            words = line.split()
            if "score" in words:
                kind, value = words[words.index("score") + 1: words.index("score") + 3]
                score = (kind, int(value))
        return lines[-1].split()[1], score

    def quit(self):
        self.send("quit")
        self.process.wait()


def shogi_games(args):
    import cshogi

    def chances(score):
        kind, value = score
        if kind == "mate":
            return 1.0 if value > 0 else -1.0
        return 2 / (1 + math.exp(-value / 600)) - 1

    rows = []
    seconds = 0.0
    plies_reviewed = 0
    weak = Usi(["/usr/games/fairy-stockfish"], {"UCI_Variant": "shogi", "Skill Level": 0, "Threads": 1})
    judge = Usi(["/usr/games/fairy-stockfish"], {"UCI_Variant": "shogi", "Threads": 1, "Hash": 64})
    try:
        for number in range(args.games):
            board = cshogi.Board()
            moves = []
            while not board.is_game_over() and len(moves) < 160 and board.is_draw() != cshogi.REPETITION_DRAW:
                move, _ = weak.go(moves, "movetime 50")
                if move in ("resign", "win"):
                    break
                board.push_usi(move)
                moves.append(move)
            path = os.path.join(args.dir, f"shogi-{number + 1}.usi")
            with open(path, "w") as file:
                print(" ".join(moves), file=file)
            values = []
            replay = cshogi.Board()
            for index in range(len(moves) + 1):
                if index:
                    replay.push_usi(moves[index - 1])
                if replay.is_game_over():
                    values.append(-1.0)
                else:
                    _, score = judge.go(moves[:index], f"depth {args.depth}")
                    values.append(chances(score) if score else 0.0)
            started = time.time()
            answer = json.loads(subprocess.run(
                [args.sente, "review", "--game", "shogi", "--moves", ",".join(moves)],
                check=True, capture_output=True, text=True,
            ).stdout)
            took = time.time() - started
            seconds += took
            plies_reviewed += len(answer["plies"])
            for ply in answer["plies"]:
                index = ply["ply"] - 1
                drop = max(0.0, values[index] + values[index + 1])
                rows.append((lichess_class(drop), ply["class"], number + 1, ply["ply"], *classes(ply, args)))
            print(f"game {number + 1}: {len(moves)} plies, review {took:.1f} s", file=sys.stderr)
    finally:
        weak.quit()
        judge.quit()
    return rows, f"Fairy-Stockfish 11.1 depth {args.depth}", seconds, plies_reviewed


def othello_games(args):
    rows = []
    seconds = 0.0
    plies_reviewed = 0
    rng = random.Random(args.seed)
    for number in range(args.games):
        tournament = subprocess.run(
            [args.sente, "tournament", "random", "random", "--game", "othello",
             "--games", "1", "--seed", str(rng.randrange(1 << 30)), "--records"]
            + ["--first-game", str(number)],
            check=True, capture_output=True, text=True,
        ).stdout
        record = json.loads(tournament)["records"][0]
        moves = [m["move"] if isinstance(m, dict) else m for m in record["moves"]]
        transcript = "".join(m for m in moves if m != "pass")
        path = os.path.join(args.dir, f"othello-{number + 1}.txt")
        with open(path, "w") as file:
            print(transcript, file=file)
        answer, took = review(args.sente, "othello", path)
        seconds += took
        plies_reviewed += len(answer["plies"])
        for ply in answer["plies"]:
            index = ply["ply"] - 1
            empties = 60 - sum(1 for m in moves[:index] if m != "pass")
            if empties > 20 or moves[index] == "pass":
                continue
            exact = json.loads(subprocess.run(
                [args.sente, "analyze", "solver", "--game", "othello", "--no-time-limit",
                 "--moves", ",".join(moves[:index])],
                check=True, capture_output=True, text=True,
            ).stdout)
            margins = {m["move"]: m["margin"] for m in exact["moves"]}
            best = max(margins.values())
            played = margins[moves[index]]
            sign = lambda discs: (discs > 0) - (discs < 0)
            if sign(played) < sign(best):
                judged = "blunder"
            elif played < best:
                judged = "mistake"
            else:
                judged = "good"
            rows.append((judged, ply["class"], number + 1, ply["ply"], *classes(ply, args)))
        print(f"game {number + 1}: {len(moves)} plies, review {took:.1f} s", file=sys.stderr)
    return rows, "Sente's exact solver (last 20 empties)", seconds, plies_reviewed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=["chess", "shogi", "othello"])
    parser.add_argument("sente")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--elo", type=int, default=1350)
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default="target/review-agreement")
    parser.add_argument("--reuse", action="store_true", help="review the chess games already in DIR again rather than play new ones")
    parser.add_argument("--models", type=lambda text: [float(unit) for unit in text.split(",")], default=[],
                        help="chess and shogi: also class each move through these logistics (centipawns a unit, comma-separated)")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    measure = {"chess": chess_games, "shogi": shogi_games, "othello": othello_games}[args.game]
    rows, judge, seconds, plies = measure(args)
    slips = ("mistake", "blunder")
    share = lambda part, whole: f"{len(part)}/{len(whole)} = {100 * len(part) / max(1, len(whole)):.0f}%"
    print(f"{args.game}: {args.games} games, {len(rows)} moves judged by {judge}")
    columns = [("the review's classes", 1), ("the score's own map", 4)]
    columns += [(f"a logistic of {unit:g} centipawns a unit", 5 + i) for i, unit in enumerate(args.models)]
    for name, column in columns:
        judged_blunders = [row for row in rows if row[0] == "blunder"]
        caught = [row for row in judged_blunders if row[column] in slips]
        reviewed_blunders = [row for row in rows if row[column] == "blunder"]
        confirmed = [row for row in reviewed_blunders if row[0] in slips]
        print(f"  {name}:")
        print(f"    the judge's blunders the review calls mistakes or blunders: {share(caught, judged_blunders)}")
        print(f"    the review's blunders the judge calls mistakes or blunders: {share(confirmed, reviewed_blunders)}")
        missed = [row[2:4] for row in judged_blunders if row[column] not in slips]
        disputed = [row[2:4] for row in reviewed_blunders if row[0] not in slips]
        print(f"    missed (game, ply): {missed}")
        print(f"    disputed (game, ply): {disputed}")
    print(f"  review: {plies} plies in {seconds:.0f} s ({plies / max(seconds, 1e-9):.2f} plies/s)")

if __name__ == "__main__":
    main()
