#!/usr/bin/env python3
"""Two clients of one service, as a deployment behind front ends has them: a flooder and a
polite one, each on its own loopback address (127.0.0.3 and 127.0.0.2), so that the service
counts them apart.

- The polite client asks for a move at level 8 of chess (`/move`, a second of search), waits
  for it, thinks a second, and asks again.
- The flooder keeps 16 connections busy with small chess tournaments (two games at 100 ms a
  move, cut at 40 plies), each connection sending its next as soon as the last is answered;
  when refused it waits what `Retry-After` says, as a well-behaved client does.

First the polite client's moves are timed alone, then under the flood. Checks: every polite
request answered (200), its p99 within 3x its median alone; the flooder's tournaments played
(its share) and its refusals 429 (or 503) problems with `Retry-After` and the IETF draft's
`RateLimit-Policy` and `RateLimit` fields; no request of either timed out. Prints the table
docs/performance.md shows, and exits 1 where a check fails.

With --server-pid (the server on this machine), also the share of the machine each client had
while both ran: the server's CPU time over the cores' time, the polite client's part being the
time its moves searched (a core each), the flooder's the rest; checked that the machine was
kept at least 75% busy, so that sharing did not leave cores idle while the flooder waited.

Usage: scripts/fair-share.py URL [--seconds 40] [--alone 3] [--timeout 60]
                             [--server-pid PID] [--no-checks]
Standard library only.
"""

import argparse
import http.client
import json
import os
import re
import statistics
import sys
import threading
import time
import urllib.parse

POLITE, FLOODER = "127.0.0.2", "127.0.0.3"
MOVE = {"game": "chess", "moves": ["e4", "e5", "Nf3"], "level": 8}
TOURNAMENT = {
    "game": "chess",
    "players": [
        {"algorithm": "engine", "tc": "0.1/move"},
        {"algorithm": "engine", "tc": "0.1/move"},
    ],
    "games": 2,
    "max_plies": 40,
    "openings": {"random_plies": 4},
}
POLICY_ITEM = re.compile(r'^"[a-z-]+";q=\d+;w=\d+(;qu="[a-z-]+")?$')
STANDING_ITEM = re.compile(r'^"[a-z-]+";r=\d+;t=\d+$')


def post(url, source, path, body, timeout):
    """POSTs `body` from `source`; answers (status, headers, body, seconds), status None on a
    timeout or a broken connection."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=timeout, source_address=(source, 0)
    )
    started = time.monotonic()
    try:
        connection.request(
            "POST", path, json.dumps(body), {"content-type": "application/json"}
        )
        response = connection.getresponse()
        data = response.read()
        return response.status, dict(response.getheaders()), data, time.monotonic() - started
    except OSError as error:
        return None, {}, str(error).encode(), time.monotonic() - started
    finally:
        connection.close()


def header(headers, name):
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def refusal_problems(status, headers, body):
    """What is wrong with a refusal's answer, if anything."""
    problems = []
    retry = header(headers, "retry-after")
    if retry is None or not retry.isdigit() or int(retry) < 1:
        problems.append(f"Retry-After {retry!r}")
    if status == 429:
        policy = header(headers, "ratelimit-policy") or ""
        standing = header(headers, "ratelimit") or ""
        if not all(POLICY_ITEM.match(item.strip()) for item in policy.split(",")):
            problems.append(f"RateLimit-Policy {policy!r}")
        if not all(STANDING_ITEM.match(item.strip()) for item in standing.split(",")):
            problems.append(f"RateLimit {standing!r}")
    try:
        problem = json.loads(body)
        if problem.get("status") != status or not problem.get("type", "").startswith("/problems/"):
            problems.append(f"problem {problem}")
    except ValueError:
        problems.append(f"not a problem: {body[:80]!r}")
    return problems


def cpu_seconds(pid):
    """The CPU time (user and system) process `pid` has used, in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def refusals(url):
    """The service's refusals by route and reason, from /metrics, those not zero."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    counted = re.findall(r'sente_refusals_total\{route="([^"]+)",reason="([^"]+)"\} (\d+)', text)
    return {f"{route} {reason}": int(n) for route, reason, n in counted if n != "0"}


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url")
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--alone", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--server-pid", type=int)
    parser.add_argument("--no-checks", action="store_true")
    args = parser.parse_args()

    alone = []
    for _ in range(args.alone):
        status, _, body, seconds = post(args.url, POLITE, "/move", MOVE, args.timeout)
        if status != 200:
            sys.exit(f"the polite client's move alone failed: {status} {body[:200]!r}")
        alone.append(seconds)

    stop = threading.Event()
    lock = threading.Lock()
    flood = {"played": 0, "games": 0, "429": 0, "503": 0, "other": 0, "timeouts": 0,
             "bad refusals": []}

    def flooder(index):
        seed = index * 1000
        while not stop.is_set():
            seed += 1
            status, headers, body, _ = post(
                args.url, FLOODER, "/tournament", dict(TOURNAMENT, seed=seed), args.timeout
            )
            with lock:
                if status == 200:
                    flood["played"] += 1
                    flood["games"] += json.loads(body)["games"]
                elif status in (429, 503):
                    flood[str(status)] += 1
                    flood["bad refusals"] += refusal_problems(status, headers, body)
                elif status is None:
                    flood["timeouts"] += 1
                else:
                    flood["other"] += 1
            if status in (429, 503):
                retry = header(headers, "retry-after")
                stop.wait(int(retry) if retry and retry.isdigit() else 1)

    threads = [threading.Thread(target=flooder, args=(i,), daemon=True)
               for i in range(args.connections)]
    for thread in threads:
        thread.start()
    time.sleep(2)  # the flood under way
    cpu_start, wall_start = (cpu_seconds(args.server_pid) if args.server_pid else 0), time.monotonic()
    polite, polite_failures = [], []
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        status, _, body, seconds = post(args.url, POLITE, "/move", MOVE, args.timeout)
        if status == 200:
            polite.append(seconds)
        else:
            polite_failures.append(f"{status}: {body[:160]!r}")
        time.sleep(1)
    cpu_used = (cpu_seconds(args.server_pid) if args.server_pid else 0) - cpu_start
    wall = time.monotonic() - wall_start
    stop.set()
    for thread in threads:
        thread.join(args.timeout + 5)

    median_alone = statistics.median(alone)
    p50 = statistics.median(polite) if polite else float("nan")
    p99 = percentile(polite, 0.99) if polite else float("nan")
    print(f"polite /move alone: median {median_alone:.2f} s over {len(alone)}")
    print(
        f"polite /move under the flood: {len(polite)} answered, {len(polite_failures)} not; "
        f"p50 {p50:.2f} s, p99 {p99:.2f} s, max {max(polite, default=float('nan')):.2f} s "
        f"(p99 / alone {p99 / median_alone:.2f}x)"
    )
    print(
        f"flooder: {flood['played']} tournaments answered ({flood['games']} games), "
        f"{flood['429']} refused 429, {flood['503']} refused 503, {flood['other']} other, "
        f"{flood['timeouts']} timed out"
    )
    print(f"refusals by route and reason: {refusals(args.url)}")
    failures = []
    if args.server_pid:
        cores = os.cpu_count()
        busy = cpu_used / (wall * cores)
        polite_share = sum(polite) / (wall * cores)
        print(
            f"the machine ({cores} cores) {busy:.0%} busy while both ran: "
            f"the polite client {polite_share:.0%}, the flooder {busy - polite_share:.0%}"
        )
        if busy < 0.75:
            failures.append(f"the machine was only {busy:.0%} busy: cores idle while work waited")
    if polite_failures:
        failures.append(f"polite requests not answered: {polite_failures[:3]}")
    if not polite:
        failures.append("no polite request answered")
    elif p99 > 3 * median_alone:
        failures.append(f"polite p99 {p99:.2f} s is more than 3x its time alone")
    if flood["played"] == 0:
        failures.append("the flooder got nothing done")
    if flood["timeouts"]:
        failures.append(f"{flood['timeouts']} flooder requests timed out")
    if flood["other"]:
        failures.append(f"{flood['other']} flooder requests failed otherwise")
    if flood["bad refusals"]:
        failures.append(f"refusals without their headers: {flood['bad refusals'][:3]}")
    if flood["429"] == 0:
        failures.append("the flooder was never refused 429: no limit held it")
    if failures and not args.no_checks:
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
    print("all checks passed" if not failures else "checks not applied: " + "; ".join(failures))


if __name__ == "__main__":
    main()
