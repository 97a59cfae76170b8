#!/usr/bin/env python3
"""Sente's Othello protocols driven from outside, as a controller drives them.

GTP: `sente gtp` plays a whole game against GRhino's `gtp-rhino`, this script the referee
(Quarry's part): each side's `genmove` is told to the other with `play`, a side without a move
answers PASS, after the end the referee passes the turn on (as gogui-twogtp does) and Sente
takes the passes, and both engines' `final_score` must agree, so that GRhino's rules check
Sente's. NBoard: `sente nboard` is given the NBoard protocol's own example game, asked
`go`, `hint 3`, `ping`, and `learn`, and each answer checked for the protocol's form.

    scripts/othello-sessions.py SENTE [GTP_RHINO] [--level N] [--time-limit-ms MS]
"""
import argparse
import re
import subprocess
import sys


class Gtp:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.name = command[0]

    def ask(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if line == "":
                raise SystemExit(f"{self.name} closed its output after {command!r}")
            line = line.rstrip("\n")
            if line == "" and lines:
                break
            if line:
                lines.append(line)
        answer = "\n".join(lines)
        if not answer.startswith("="):
            raise SystemExit(f"{self.name} refused {command!r}: {answer}")
        return answer[1:].strip()

    def close(self):
        self.ask("quit")
        self.process.wait(timeout=10)


def gtp_game(sente, rhino, level, time_limit_ms):
    players = {"black": Gtp([sente, "gtp"]), "white": Gtp([rhino, "-l", str(level)])}
    players["black"].ask(f"sente-time_limit_ms {time_limit_ms}")
    for player in players.values():
        player.ask("boardsize 8")
        player.ask("clear_board")
    side, passes, moves = "black", 0, []
    while passes < 2:
        other = "white" if side == "black" else "black"
        move = players[side].ask(f"genmove {side}").upper()
        moves.append(move)
        if move == "PASS":
            passes += 1
        else:
            passes = 0
            players[other].ask(f"play {side} {move}")
        side = other
    # A referee that passes the turn on after the end (gogui-twogtp's loop): Sente takes the
    # passes, and still answers PASS and the same score.
    players["black"].ask("play white pass")
    players["black"].ask("play black PASS")
    after = players["black"].ask("genmove black").upper()
    if after != "PASS":
        raise SystemExit(f"after the end, genmove answered {after!r}, not PASS")
    scores = {name: player.ask("final_score") for name, player in players.items()}
    for player in players.values():
        player.close()
    print(f"gtp: Sente (black) against gtp-rhino level {level} (white): "
          f"{' '.join(m for m in moves if m != 'PASS')}")
    print(f"gtp: final_score by Sente {scores['black']}, by GRhino {scores['white']}")
    if scores["black"] != scores["white"]:
        raise SystemExit("the two engines disagree on the score: the rules differ")
    placed = sum(1 for m in moves if m != "PASS")
    if placed < 20:
        raise SystemExit(f"the game ended after {placed} discs: not a game")


GAME = ("(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]"
        "TY[8]BO[8 ---------------------------O*------*O--------------------------- *]"
        "B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")


def nboard_session(sente):
    commands = ["nboard 2", f"set game {GAME}", "set depth 8", "ping 1", "go", "hint 3",
                "move d6", "ping 2", "learn", "quit"]
    done = subprocess.run([sente, "nboard"], input="\n".join(commands) + "\n", text=True,
                          capture_output=True, timeout=60, check=True)
    lines = done.stdout.splitlines()
    for line in lines:
        print(f"nboard: > {line}")
    expect = [
        ("set myname Sente", "the engine names itself"),
        ("set myname Sente8", "the depth set"),
        ("pong 1", "ping answered"),
        ("pong 2", "ping answered after a move"),
        ("learned", "learn answered"),
    ]
    for wanted, why in expect:
        if wanted not in lines:
            raise SystemExit(f"no {wanted!r} ({why})")
    go = [line for line in lines if line.startswith("=== ")]
    if len(go) != 1 or not re.fullmatch(r"=== [A-H][1-8]/-?\d+\.\d\d/\d+\.\d\d", go[0]):
        raise SystemExit(f"go is answered === MOVE/EVAL/TIME, not {go}")
    searches = [line for line in lines if line.startswith("search ")]
    if len(searches) != 3 or not all(
            re.fullmatch(r"search ([A-H][1-8]|PA)+ -?\d+\.\d\d 0 \d+", line) for line in searches):
        raise SystemExit(f"hint 3 is answered by 3 search lines, not {searches}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sente")
    parser.add_argument("rhino", nargs="?", default="/usr/games/gtp-rhino")
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--time-limit-ms", type=int, default=100)
    args = parser.parse_args()
    gtp_game(args.sente, args.rhino, args.level, args.time_limit_ms)
    nboard_session(args.sente)
    print("othello sessions: ok")


if __name__ == "__main__":
    sys.exit(main())
