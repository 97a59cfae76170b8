#!/usr/bin/env python3
"""`sente usi` driven by a USI client, as a shogi GUI drives it: cshogi's USI engine driver (from
PyPI) speaks to it, checks its answers with cshogi's own rules, and then plays a match through
cshogi's match runner against Debian's Fairy-Stockfish (100 ms a move), pondering on.

    python3 scripts/usi-session.py SENTE [GAMES]

SENTE is the `sente` binary. Needs `pip install cshogi` (scripts/usi-session.sh makes a venv)
and /usr/games/fairy-stockfish for the match. Exits non-zero at the first answer that is wrong.
"""

import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import cshogi
import cshogi.usi


def main():
    sente = os.path.abspath(sys.argv[1])
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    # cshogi starts an engine from one command: a wrapper that runs `sente usi`.
    wrapper = os.path.join(tempfile.mkdtemp(), "sente-usi")
    with open(wrapper, "w") as file:
        file.write(f"#!/bin/sh\nexec '{sente}' usi\n")
    os.chmod(wrapper, 0o755)

    engine = cshogi.usi.Engine(wrapper)
    print(f"id: {engine.name}")
    engine.setoption("USI_Hash", 16)
    engine.isready()
    engine.usinewgame()

    # A game's first moves: each answer legal by cshogi's rules, each with info lines.
    board = cshogi.Board()
    moves = []
    for ply in range(6):
        infos = []
        engine.position(moves)
        best, _ = engine.go(btime=0, wtime=0, byoyomi=200, listener=infos.append)
        assert best in [cshogi.move_to_usi(m) for m in board.legal_moves], f"{best} is not legal"
        assert any(line.startswith("info depth") for line in infos), infos
        print(f"ply {ply + 1}: {best}  ({infos[-2] if len(infos) > 1 else infos[-1]})")
        board.push_usi(best)
        moves.append(best)

    # `go mate` on the tsume set's first mate in three (data/shogi/tsume.txt), on two threads.
    engine.setoption("Threads", 2)
    engine.isready()
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "data", "shogi", "tsume.txt")) as file:
        line = next(line for line in file if line.startswith("3\t"))
    engine.position(line.split("\t")[1].split())
    answer = engine.go_mate(byoyomi=3000)
    print(f"go mate: {answer}")
    # cshogi answers the mate's moves, or `nomate` or `timeout`.
    assert len(answer.split()) == 3, answer

    # A position after the engine's king may declare the entering-king win: `bestmove win`.
    engine.position(sfen="sfen +R+BGGSS+N+N+L/4K4/+P+P7/9/9/9/9/9/4k4 b RB 1")
    best, _ = engine.go(byoyomi=100)
    print(f"declaration: bestmove {best}")
    assert best == "win", best

    # Hostile positions, as a GUI's bug or a malicious client may send them: more pieces than a
    # set (a capture then overflowed a hand and the engine died), an illegal move. Each is
    # refused in an info string, and the `go` after it is answered for the last position read
    # (never `resign`, which a GUI would take for the engine's), saying so; the engine plays on.
    engine.position(["7g7f"])
    after = cshogi.Board()
    after.push_usi("7g7f")
    for hostile in [
        "sfen 4k4/9/9/9/9/4r4/4G4/9/4K4 b 3R 1 moves 5g5f",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P 1",
        "sfen 4k4/+P+P+P+P+P+P+P+P+P/9/9/9/9/+P+P+P+P+P+P+P+P+P/9/4K4 b 2P 1",
        "startpos moves 7g7e",
    ]:
        infos = []
        engine.position(sfen=hostile)
        best, _ = engine.go(byoyomi=200, listener=infos.append)
        said = [line for line in infos if line.startswith("info string")]
        print(f"hostile {hostile[:40]}...: bestmove {best}, {said[-1][:70] if said else said}")
        assert best in [cshogi.move_to_usi(m) for m in after.legal_moves], (hostile, best, infos)
        assert any("searching the last position read" in line for line in said), (hostile, infos)
    engine.isready()
    engine.position(["7g7f"])
    best, _ = engine.go(byoyomi=200)
    board = cshogi.Board()
    board.push_usi("7g7f")
    assert best in [cshogi.move_to_usi(m) for m in board.legal_moves], best
    print(f"after them, a legal move: {best}")

    # Pondering as cshogi's runner uses it: `go ponder` is answered only after `ponderhit`,
    # then within the byoyomi; `bestmove` names the reply it expects.
    engine.position(["7g7f", "3c3d"])
    pondering = cshogi.Board()
    for move in ["7g7f", "3c3d"]:
        pondering.push_usi(move)
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(engine.go, ponder=True, btime=0, wtime=0, byoyomi=300)
        time.sleep(0.8)
        assert not future.done(), "go ponder answered before ponderhit"
        started = time.monotonic()
        engine.ponderhit()
        best, expected = future.result(timeout=10)
        spent = time.monotonic() - started
    assert best in [cshogi.move_to_usi(m) for m in pondering.legal_moves], best
    assert spent < 1.0, f"{spent:.2f} s after ponderhit on a byoyomi of 300 ms"
    print(f"ponder: bestmove {best} ponder {expected}, {spent * 1000:.0f} ms after ponderhit")
    engine.quit()

    # A match through cshogi's runner: Sente against Fairy-Stockfish at Skill Level 0.
    if games > 0:
        result = subprocess.run(
            [sys.executable, "-m", "cshogi.cli", wrapper, "/usr/games/fairy-stockfish",
             "--options1", "Threads:2",
             "--options2", "Skill Level:0,Threads:1", "--games", str(games),
             "--byoyomi", "100", "--opening-moves", "8", "--opening-seed", "1", "--ponder"],
            capture_output=True, text=True, timeout=1800,
        )
        print(result.stdout[-1500:])
        assert result.returncode == 0, result.stderr[-2000:]


if __name__ == "__main__":
    main()
