"""The learning curve of an AlphaZero run (docs/alphazero.md#generations): for each network the
run accepted, its Elo against the first generation's (both at 400 simulations, paired random
openings) and the share of Pons' test positions where its raw policy's move is optimal, against
the hours of training; written as a table (curve.tsv beside the run's log) and a plot (SVG).

    python3 scripts/alphazero-curve.py [--dir runs/connect4] [--games 100]
        [--per-set 50] [--svg docs/alphazero-curve.svg]

DIR is a run of `sente learn --game connect4` (docs/learning.md).

Runs `sente tournament` and the `score-connect4` example (build them first: `cargo build
--release --features examples --examples`); Connect Four's run only, whose positions Pons'
sets score.
"""

import argparse
import json
import math
import pathlib
import re
import subprocess


def weights(run, generation):
    return run / f"generation-{generation:03}" / "weights.net"


def accepted(run):
    """The generations the run promoted, with the hours of steps until each: the first best,
    and each whose SPRT said H1 (their rows in generation-NNN/generation.json)."""
    found, hours, generation = [], 0.0, 0
    while (run / f"generation-{generation:03}" / "generation.json").exists():
        row = json.loads((run / f"generation-{generation:03}" / "generation.json").read_text())
        hours += (row["selfplay_s"] + row["training_s"]
                  + (row["sprt"]["seconds"] if row["sprt"] else 0.0)) / 3600
        if row["promoted"]:
            found.append((generation, hours))
        generation += 1
    return found


def elo(sente, run, generation, games, first):
    if generation == first:
        return 0.0, 0.0, 0.0
    answer = subprocess.run(
        [sente, "tournament", "--game", "connect4",
         "--net", f"g={weights(run, generation)}", "--net", f"first={weights(run, first)}",
         "alphazero:net=g,simulations=400", "alphazero:net=first,simulations=400",
         "--games", str(games), "--random-plies", "4", "--seed", "77"],
        check=True, capture_output=True, text=True).stdout
    estimate = json.loads(answer)["estimate"]
    low, high = [b if b is not None else s * math.inf for b, s in zip(estimate["elo_95"], (-1, 1))]
    return estimate["elo"], low, high


def policy_share(scorer, run, generation, per_set):
    table = subprocess.run(
        [scorer, "--net", str(weights(run, generation)), "--per-set", str(per_set),
         "--times-ms", "", "--data", "../shared/data/connect4"],
        check=True, capture_output=True, text=True).stdout
    row = next(line for line in table.splitlines() if line.startswith("| all |"))
    shares = re.findall(r"([\d.]+)%", row)
    return float(shares[0]), float(shares[1])


def plot(points, path):
    """Two panels side by side: Elo against the first, and the raw policy's optimal share."""
    width, height, pad = 360, 240, 44
    panels = [("Elo against generation 1", 2, 3, 4), ("raw policy optimal (%)", 5, None, None)]
    hours = [p[1] for p in points]
    x_max = max(hours) * 1.05 or 1
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * width}" height="{height}" '
           'font-family="sans-serif" font-size="11">']
    for index, (title, column, low, high) in enumerate(panels):
        left = index * width
        values = [p[column] for p in points]
        lows = [p[low] for p in points] if low else values
        highs = [p[high] for p in points] if high else values
        y_min, y_max = min(lows + [0]), max(highs) * 1.05 + 1
        def x(h):
            return left + pad + (width - 2 * pad) * h / x_max
        def y(v):
            return height - pad - (height - 2 * pad) * (v - y_min) / (y_max - y_min)
        svg.append(f'<text x="{left + width / 2}" y="16" text-anchor="middle">{title}</text>')
        svg.append(f'<line x1="{x(0)}" y1="{y(y_min)}" x2="{x(x_max)}" y2="{y(y_min)}" stroke="#888"/>')
        svg.append(f'<line x1="{x(0)}" y1="{y(y_min)}" x2="{x(0)}" y2="{y(y_max)}" stroke="#888"/>')
        svg.append(f'<text x="{left + width / 2}" y="{height - 8}" text-anchor="middle">hours of training</text>')
        for tick in range(5):
            v = y_min + (y_max - y_min) * tick / 4
            svg.append(f'<text x="{x(0) - 4}" y="{y(v) + 4}" text-anchor="end">{v:.0f}</text>')
            h = x_max * tick / 4
            svg.append(f'<text x="{x(h)}" y="{y(y_min) + 14}" text-anchor="middle">{h:.1f}</text>')
        if low:
            for p in points:
                svg.append(f'<line x1="{x(p[1])}" y1="{y(p[low])}" x2="{x(p[1])}" y2="{y(p[high])}" stroke="#9bd"/>')
        line = " ".join(f"{x(p[1]):.1f},{y(p[column]):.1f}" for p in points)
        svg.append(f'<polyline points="{line}" fill="none" stroke="#27c" stroke-width="2"/>')
        for p in points:
            svg.append(f'<circle cx="{x(p[1]):.1f}" cy="{y(p[column]):.1f}" r="3" fill="#27c"/>')
    svg.append("</svg>")
    path.write_text("\n".join(svg) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", default="runs/connect4")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--per-set", type=int, default=50)
    parser.add_argument("--svg", default="docs/alphazero-curve.svg")
    parser.add_argument("--sente", default="target/release/sente")
    parser.add_argument("--scorer", default="target/release/examples/score-connect4")
    args = parser.parse_args()
    run = pathlib.Path(args.dir)
    points = []
    lines = ["generation\thours\telo\telo_low\telo_high\tpolicy_optimal\tvalue_agrees"]
    promoted = accepted(run)
    for generation, hours in promoted:
        e, e_low, e_high = elo(args.sente, run, generation, args.games, promoted[0][0])
        share, value = policy_share(args.scorer, run, generation, args.per_set)
        points.append((generation, hours, e, e_low, e_high, share, value))
        lines.append("\t".join(str(v) for v in points[-1]))
        print(lines[-1], flush=True)
    (run / "curve.tsv").write_text("\n".join(lines) + "\n")
    plot([(g, h, e, lo, hi, s) for g, h, e, lo, hi, s, _ in points], pathlib.Path(args.svg))


if __name__ == "__main__":
    main()
