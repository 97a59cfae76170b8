"""How far from the start Connect Four's answers are exact: for each number of moves played,
the share of positions whose POST /move (and POST /analyze, every move) the solver proves
within a time limit, and the median and longest time taken.

    python3 scripts/connect4-exact.py [--url http://127.0.0.1:8080] [--per-ply 30]
        [--plies 0-14] [--time-limit-ms 1000] [--analyze]

The positions are the first of each length in Pascal Pons' six test sets
(../shared/data/connect4/), which come from games of varied strength. Start the service first
(`cargo run --release`); it runs one request at a time here, so give it a core of its own.
"""

import argparse
import json
import pathlib
import statistics
import sys
import urllib.request

SETS = ["Test_L1_R1", "Test_L1_R2", "Test_L1_R3", "Test_L2_R1", "Test_L2_R2", "Test_L3_R1"]


def positions(data, plies, count):
    """The first `count` positions of each length in `plies`, spread over the sets."""
    by_length = {0: [[]]}
    for name in SETS:
        for line in (data / name).read_text().splitlines():
            moves = line.split()[0]
            by_length.setdefault(len(moves), []).append([int(c) - 1 for c in moves])
    for length in plies:
        found = by_length.get(length, [])
        step = max(1, len(found) // count)
        yield length, found[::step][:count]


def post(url, path, body):
    request = urllib.request.Request(
        url + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--per-ply", type=int, default=30)
    parser.add_argument("--plies", default="0-14")
    parser.add_argument("--time-limit-ms", type=int, default=1000)
    parser.add_argument("--analyze", action="store_true", help="POST /analyze instead of /move")
    parser.add_argument("--data", default=str(pathlib.Path(__file__).parents[2] / "shared/data/connect4"))
    args = parser.parse_args()
    data = pathlib.Path(args.data)
    if not (data / SETS[0]).exists():
        sys.exit(f"Pons' test sets are not in {data} (give --data)")
    first, last = (int(n) for n in args.plies.split("-"))
    path = "/analyze" if args.analyze else "/move"
    print(f"{path}, solver, time_limit_ms {args.time_limit_ms}")
    print("| moves played | positions | exact | median ms | longest ms |")
    print("|---|---|---|---|---|")
    for length, sample in positions(data, range(first, last + 1), args.per_ply):
        if not sample:
            continue
        exact, times = 0, []
        for moves in sample:
            answer = post(args.url, path, {
                "game": "connect4", "moves": moves, "algorithm": "solver",
                "time_limit_ms": args.time_limit_ms,
            })
            if args.analyze:
                exact += all(move["exact"] for move in answer["moves"])
            else:
                exact += answer["exact"]
            times.append(answer["elapsed_us"] / 1000)
        print(f"| {length} | {len(sample)} | {exact} | {statistics.median(times):.1f} "
              f"| {max(times):.1f} |", flush=True)


if __name__ == "__main__":
    main()
