"""Reads a tournament's PGN back with python-chess and checks it against the tournament's
answer (with "records": true, or --records): the same games, each with the same moves (every
one legal from the game's FEN) and the same result. A game whose opening was played at random
from the start (--random-plies) is written from the start, the opening's moves first: they must
lead to the opening's position.

    python scripts/check-pgn.py GAMES.pgn ANSWER.json
"""

import json
import sys

import chess
import chess.pgn


def main(pgn_path, answer_path):
    answer = json.load(open(answer_path))
    records = answer["records"]
    games = []
    with open(pgn_path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            if game.errors:
                sys.exit(f"{pgn_path}: game {len(games) + 1}: {game.errors}")
            games.append(game)
    if len(games) != len(records):
        sys.exit(f"{pgn_path}: {len(games)} games, the answer has {len(records)}")
    for game, record in zip(games, records):
        board = game.board()
        opening_moves = record.get("opening_moves", [])
        start = chess.Board() if opening_moves else chess.Board(record["opening"])
        if board.fen() != start.fen():
            sys.exit(f"game {record['index']}: starts from {board.fen()}, not {start.fen()}")
        for move in opening_moves:
            board.push_uci(move)
        if opening_moves and board.fen() != chess.Board(record["opening"]).fen():
            sys.exit(f"game {record['index']}: the opening's moves lead to {board.fen()}, not {record['opening']}")
        moves = [move.uci() for move in game.mainline_moves()]
        recorded = opening_moves + [move["move"] for move in record["moves"]]
        if moves != recorded:
            sys.exit(f"game {record['index']}: PGN moves {moves} differ from {recorded}")
        if game.headers["Result"] != record["result"]:
            sys.exit(f"game {record['index']}: PGN result {game.headers['Result']}, answer {record['result']}")
        if int(game.headers["PlyCount"]) != len(moves):
            sys.exit(f"game {record['index']}: PlyCount {game.headers['PlyCount']}, {len(moves)} moves")
        # A game the rules ended ends as python-chess sees it too.
        if record["ended_by"] == "checkmate" and not game.end().board().is_checkmate():
            sys.exit(f"game {record['index']}: recorded checkmate, python-chess disagrees")
    print(f"{pgn_path}: {len(games)} games read back by python-chess {chess.__version__}: same moves, same results")


if __name__ == "__main__":
    main(*sys.argv[1:])
