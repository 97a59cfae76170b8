"""Sente's engine as an outside program sees it: `sente uci` driven by python-chess's UCI
driver, first through the protocol's paces, then in a match against Debian's stockfish.

    python scripts/uci-match.py SENTE [--games N] [--elo E] [--movetime S] [--pgn FILE]

The checks: the engine names itself; `go infinite` reports deepening iterations until `stop`,
then answers a legal move; a move at 100 ms comes back with its score (the time it took is
reported, not checked); a mate in one (Qxf7#) is announced as one, and is the first of three
lines with `analyse(multipv=3)`; at UCI_Elo 1200 a legal move comes back within the few nodes (level 4's, the lowest rated)
that strength allows. Then N games (0 for none)
against stockfish with UCI_LimitStrength at UCI_Elo E, each side MOVETIME seconds a move, from
openings of 8 random plies (the same opening twice, colours swapped), each engine pinned to a
core of its own when the machine has two. Games end by the rules (claimed draws count) or at
300 plies as a draw.
"""

import argparse
import os
import random
import sys
import time

import chess
import chess.engine
import chess.pgn


def pinned(command, core):
    """The command run on one core, when there are two or more to share out."""
    if (os.cpu_count() or 1) >= 2 and os.path.exists("/usr/bin/taskset"):
        return ["taskset", "-c", str(core)] + command
    return command


def check_protocol(sente):
    engine = chess.engine.SimpleEngine.popen_uci(pinned([sente, "uci"], 0))
    try:
        assert engine.id["name"].startswith("Sente"), engine.id
        board = chess.Board()
        board.push_uci("e2e4")
        depths = []
        with engine.analysis(board) as analysis:  # go infinite
            for info in analysis:
                if "depth" in info:
                    depths.append(info["depth"])
                if len(depths) >= 6:
                    break
            analysis.stop()
            best = analysis.wait()
        assert depths == sorted(depths) and depths[-1] >= 6, depths
        assert best.move in board.legal_moves, best
        started = time.monotonic()
        played = engine.play(board, chess.engine.Limit(time=0.1), info=chess.engine.INFO_ALL)
        spent = time.monotonic() - started
        # How long it took is reported, not checked: the machines are shared.
        assert played.move in board.legal_moves, played
        assert "score" in played.info and "seldepth" in played.info, played.info
        mate = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        answer = engine.play(mate, chess.engine.Limit(depth=4), info=chess.engine.INFO_ALL)
        assert answer.move == chess.Move.from_uci("h5f7"), answer
        assert answer.info["score"].relative == chess.engine.Mate(1), answer.info
        lines = engine.analyse(mate, chess.engine.Limit(depth=4), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3], lines
        assert lines[0]["pv"][0] == chess.Move.from_uci("h5f7"), lines[0]
        assert lines[0]["score"].relative == chess.engine.Mate(1), lines[0]
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1200})
        weak = engine.play(chess.Board(), chess.engine.Limit(time=1), info=chess.engine.INFO_ALL)
        assert weak.move in chess.Board().legal_moves, weak
        # Below the lowest rated level, level 4: three plies among its best four moves.
        assert weak.info["depth"] <= 3 and weak.info["nodes"] <= 20000, weak.info
        engine.configure({"UCI_LimitStrength": False})
        threads = engine.options["Threads"]
        assert threads.min == 1 and threads.max > 1, threads
        engine.configure({"Threads": 2})
        shared = engine.play(mate, chess.engine.Limit(depth=6), info=chess.engine.INFO_ALL)
        assert shared.move == chess.Move.from_uci("h5f7"), shared
        assert shared.info["score"].relative == chess.engine.Mate(1), shared.info
        deep = engine.play(chess.Board(), chess.engine.Limit(depth=10), info=chess.engine.INFO_ALL)
        assert deep.move in chess.Board().legal_moves and deep.info["depth"] == 10, deep.info
        engine.configure({"Threads": 1})
        print(f"protocol: go infinite gave depths {depths} until stop, then {best.move}; "
              f"a move at 100 ms took {spent * 1000:.0f} ms; Qxf7# announced as mate 1, "
              f"the first of {len(lines)} lines with MultiPV 3; at UCI_Elo 1200, "
              f"{weak.move} after {weak.info['nodes']} nodes; Threads 1 to {threads.max}, "
              f"at 2 the same mate, and depth 10 from the start in {deep.info['nodes']} nodes")
    finally:
        engine.quit()


def check_exactness(sente):
    """What a GUI leans on, as python-chess reads it: MultiPV under a Skill Level, a mate in N
    moves, a game through a claimable repetition, and pondering with ponderhit."""
    engine = chess.engine.SimpleEngine.popen_uci(pinned([sente, "uci"], 0))
    try:
        # Skill Level 1 is one ply among its best ten: MultiPV 3 shows its lines, all one ply.
        engine.configure({"Skill Level": 1})
        lines = engine.analyse(chess.Board(), chess.engine.Limit(time=0.3), multipv=3)
        assert len(lines) >= 3, lines
        assert all(line["depth"] <= 1 for line in lines), lines
        engine.configure({"Skill Level": 8})
        # go mate 2: a mate in two moves, not two milliseconds.
        back_rank = chess.Board("2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1")
        mate = engine.analyse(back_rank, chess.engine.Limit(mate=2))
        assert mate["score"].relative == chess.engine.Mate(2), mate
        assert mate["pv"][0] == chess.Move.from_uci("d2d8"), mate
        # A game through a threefold repetition nobody claims: the engine plays on.
        board = chess.Board()
        for uci in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split():
            board.push_uci(uci)
        assert board.can_claim_threefold_repetition()
        through = 0
        while not board.is_game_over(claim_draw=False) and through < 12:
            played = engine.play(board, chess.engine.Limit(time=0.05))
            assert played.move in board.legal_moves, (board.fen(), played)
            board.push(played.move)
            through += 1
        # Pondering: each move within its clock, the ponder move sent and hit.
        board = chess.Board()
        clock = dict(white_clock=5.0, black_clock=5.0)
        pondered = 0
        for _ in range(6):
            started = time.monotonic()
            played = engine.play(board, chess.engine.Limit(**clock), ponder=True)
            spent = time.monotonic() - started
            assert played.move in board.legal_moves, played
            assert spent < 2.5, f"a move on a 5 s clock took {spent:.2f} s while pondering"
            pondered += played.ponder is not None
            board.push(played.move)
            if board.is_game_over():
                break
            # The other side plays the expected reply when there is one: a ponderhit.
            reply = played.ponder if played.ponder in board.legal_moves else next(iter(board.legal_moves))
            board.push(reply)
        assert pondered > 0, "no ponder move"
        print(f"exactness: Skill Level 1 with MultiPV 3 gave {len(lines)} lines of depth 1; "
              f"go mate 2 found {mate['pv'][0]} (mate 2); {through} moves played through a "
              f"claimable repetition; 6 moves with ponder on, each within its clock")
    finally:
        engine.quit()


def opening(rng):
    board = chess.Board()
    for _ in range(8):
        moves = list(board.legal_moves)
        board.push(rng.choice(moves))
        if board.is_game_over():
            return opening(rng)
    return board


def play(sente, stockfish, board, sente_white, movetime, elo):
    game = chess.pgn.Game()
    game.setup(board)
    node = game
    white, black = (sente, stockfish) if sente_white else (stockfish, sente)
    game.headers["White"] = "Sente" if sente_white else f"stockfish {elo}"
    game.headers["Black"] = f"stockfish {elo}" if sente_white else "Sente"
    board = board.copy()
    while not board.is_game_over(claim_draw=True) and board.ply() < 300:
        engine = white if board.turn == chess.WHITE else black
        move = engine.play(board, chess.engine.Limit(time=movetime)).move
        board.push(move)
        node = node.add_variation(move)
    result = board.result(claim_draw=True) if board.is_game_over(claim_draw=True) else "1/2-1/2"
    game.headers["Result"] = result
    return game, result


def match(sente, games, elo, movetime, pgn_path, seed):
    rng = random.Random(seed)
    engines = {
        "sente": chess.engine.SimpleEngine.popen_uci(pinned([sente, "uci"], 0)),
        "stockfish": chess.engine.SimpleEngine.popen_uci(pinned(["/usr/games/stockfish"], 1)),
    }
    engines["stockfish"].configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1})
    # Sente's games on two threads: Lazy SMP through a match runner's setoption.
    engines["sente"].configure({"Threads": 2})
    score = {"wins": 0, "draws": 0, "losses": 0}
    out = open(pgn_path, "w") if pgn_path else None
    try:
        for index in range(games):
            if index % 2 == 0:
                start = opening(rng)
            sente_white = index % 2 == 0
            game, result = play(engines["sente"], engines["stockfish"], start, sente_white, movetime, elo)
            game.headers["Round"] = str(index + 1)
            if result == "1/2-1/2":
                score["draws"] += 1
            elif (result == "1-0") == sente_white:
                score["wins"] += 1
            else:
                score["losses"] += 1
            if out:
                print(game, file=out, end="\n\n")
            print(f"game {index + 1}: {result} (Sente {'White' if sente_white else 'Black'}); "
                  f"+{score['wins']} ={score['draws']} -{score['losses']}", flush=True)
    finally:
        for engine in engines.values():
            engine.quit()
        if out:
            out.close()
    return score


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sente")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--elo", type=int, default=1900)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--pgn")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    check_protocol(args.sente)
    check_exactness(args.sente)
    if args.games:
        score = match(args.sente, args.games, args.elo, args.movetime, args.pgn, args.seed)
        print(f"Sente against stockfish at UCI_Elo {args.elo}, {args.movetime * 1000:.0f} ms a move, "
              f"through sente uci: +{score['wins']} ={score['draws']} -{score['losses']}")


if __name__ == "__main__":
    sys.exit(main())
