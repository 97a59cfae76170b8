#!/usr/bin/env bash
# Clients that ask for the largest answers and never read them (issue 61): CLIENTS connections
# (default 16) each ask for a tournament of as many games as an answer may record
# (`max_recorded_games` in GET /limits), of chess between random players (the longest
# records), with `records: true`, and then read nothing. For DURATION seconds (default 60) the
# script samples the server's resident memory and times GET /healthz and a cheap POST /move
# (tic-tac-toe alphabeta) twice a second. It reports the peak resident memory, the slowest and
# the 99th-percentile cheap answers, any that failed, and how many of the silent clients the
# server has cut off (its write timeout) by the end.
#
# Usage: scripts/slow-readers.sh [clients] [duration]
set -euo pipefail
cd "$(dirname "$0")/.."

clients=${1:-16}
duration=${2:-60}
# shellcheck source=scripts/release-server.sh
. scripts/release-server.sh
# The connections come from one address but stand for many clients: their limits are lifted.
start_server env RUST_LOG=warn -- --requests-per-second none --cpu-seconds-per-minute none \
    --client-queue 64

python3 - "$port" "$server" "$clients" "$duration" <<'PY'
import http.client, json, socket, sys, time

port, server, clients, duration = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])

def rss_mb():
    with open(f"/proc/{server}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

def timed(method, path, body=None):
    started = time.perf_counter()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"content-type": "application/json"} if body else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        connection.close()
        ok = response.status == 200
    except OSError:
        ok = False
    return (time.perf_counter() - started) * 1e3, ok

connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
connection.request("GET", "/limits")
limits = json.loads(connection.getresponse().read())
# A service older than these limits records any number of games: 1000 then, as the limit is
# by default, for a comparison.
games = limits.get("max_recorded_games", 1000)
print(f"limits: {games} recorded games an answer, {limits['heavy_slots']} heavy slots, "
      f"write timeout {limits.get('write_timeout_ms', 'none')} ms")
body = json.dumps({"game": "chess", "players": [{"algorithm": "random"}, {"algorithm": "random"}],
                   "games": games, "records": True}).encode()
request = (f"POST /tournament HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           f"Content-Length: {len(body)}\r\n\r\n").encode() + body

silent = []
for _ in range(clients):
    sock = socket.socket()
    # A small receive window, so that the answer waits in the server, not in this client.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(request)
    silent.append(sock)

start, peak = time.time(), rss_mb()
health, moves = [], []
move = json.dumps({"board": "X.O/.X./..O", "algorithm": "alphabeta"})
while time.time() - start < duration:
    peak = max(peak, rss_mb())
    health.append(timed("GET", "/healthz"))
    moves.append(timed("POST", "/move", move))
    time.sleep(0.5)

cut_off = 0
for sock in silent:
    # The server cut the connection off if, once the answer's bytes already here are read,
    # the stream ends.
    sock.setblocking(False)
    try:
        while True:
            data = sock.recv(1 << 20)
            if not data:
                cut_off += 1
                break
    except BlockingIOError:
        pass
    except OSError:
        cut_off += 1

def report(name, samples):
    times = sorted(ms for ms, _ in samples)
    failed = sum(1 for _, ok in samples if not ok)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{name}: {len(samples)} requests, {failed} failed, p99 {p99:.1f} ms, slowest {times[-1]:.1f} ms")

print(f"{clients} clients that never read, for {duration:.0f} s")
print(f"server's peak resident memory: {peak:.0f} MB")
report("GET /healthz", health)
report("cheap POST /move", moves)
print(f"silent clients cut off by the server by the end: {cut_off}/{clients}")
for sock in silent:
    sock.close()
time.sleep(1)
print(f"resident memory once they are gone: {rss_mb():.0f} MB")
PY
