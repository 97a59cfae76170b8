"""How well a review's winning probability, (score + 1) / 2, predicts the results of Sente's own
games: the games of a tournament with records (each engine move's score, for its mover), the
moves binned by their probability against the share their movers scored, the Brier score, and
the scale of the logistic in the game's unit (centipawns, discs) that fits the results best.

    sente tournament engine:time_limit_ms=50 engine:time_limit_ms=50 --game shogi --games 40 \
        --random-plies 8 --seed 7 --records --max-plies 300 --output shogi.json
    python scripts/review-calibration.py shogi.json cp
    sente tournament engine:time_limit_ms=50 engine:time_limit_ms=50 --game othello --games 60 \
        --random-plies 8 --seed 7 --records --output othello.json
    python scripts/review-calibration.py othello.json discs

Othello's moves carry no discs: they are the score's, undone as the evaluation maps them (a
lead of 16 discs is half way: discs = 16 s / (1 - |s|)). Proven scores (1 and -1) are left out.
"""

import json
import math
import sys


def main():
    path, unit = sys.argv[1], sys.argv[2]
    answer = json.load(open(path))
    rows = []
    for game in answer["records"]:
        first = game["first"]
        other = "B" if first == "A" else "A"
        # The record's moves start with the side to move after the opening, passes among them.
        for index, move in enumerate(game["moves"]):
            if not isinstance(move, dict) or move.get("score") is None or abs(move["score"]) >= 1:
                continue
            mover = first if index % 2 == 0 else other
            scored = 0.5 if game["winner"] is None else float(game["winner"] == mover)
            if unit == "cp":
                units = move.get("cp")
            else:
                s = max(-0.99, min(0.99, move["score"]))
                units = 16 * s / (1 - abs(s))
            if units is not None:
                rows.append(((move["score"] + 1) / 2, scored, units))
    print(f"{len(rows)} moves of {len(answer['records'])} games")
    bins = [[] for _ in range(10)]
    for p, scored, _ in rows:
        bins[min(9, int(p * 10))].append((p, scored))
    for index, moves in enumerate(bins):
        if moves:
            predicted = sum(p for p, _ in moves) / len(moves)
            actual = sum(a for _, a in moves) / len(moves)
            print(f"  {index / 10:.1f}-{(index + 1) / 10:.1f}: {len(moves):5d} moves, predicted {predicted:.3f}, scored {actual:.3f}")
    print(f"  Brier score {sum((p - a) ** 2 for p, a, _ in rows) / len(rows):.4f}")

    def likelihood(probability):
        total = 0.0
        for _, scored, units in rows:
            q = min(max(probability(units), 1e-9), 1 - 1e-9)
            total += scored * math.log(q) + (1 - scored) * math.log(1 - q)
        return total

    review = sum(
        a * math.log(min(max(p, 1e-9), 1 - 1e-9)) + (1 - a) * math.log(min(max(1 - p, 1e-9), 1 - 1e-9))
        for p, a, _ in rows
    )
    scales = range(50, 3001, 10) if unit == "cp" else [k / 4 for k in range(2, 200)]
    best = max((likelihood(lambda units, k=k: 1 / (1 + math.exp(-units / k))), k) for k in scales)
    print(f"  log-likelihood of the review's probabilities {review:.1f}; the best logistic, "
          f"1 / (1 + exp(-{unit} / {best[1]})), {best[0]:.1f}")


if __name__ == "__main__":
    main()
