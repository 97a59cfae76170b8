#!/usr/bin/env bash
# The playground page in a real browser: Debian's chromium driven by playwright-core (from npm;
# no browser is downloaded). Installs what is missing, starts the release binary, and runs
# tests/browser/playground.mjs against it. Screenshots go to target/screenshots/, with the game
# of shogi the page downloaded as KIF, which cshogi's parser (PyPI, in a venv) then reads back,
# and the game of chess it downloaded as PGN, which python-chess reads back.
#
#   scripts/browser-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null; then
    sudo_if_needed=()
    [ "$(id -u)" -ne 0 ] && sudo_if_needed=(sudo)
    "${sudo_if_needed[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq chromium >/dev/null
fi
# Shogi's kanji and the move list's ▲ and △ need a Japanese font, or the screenshots show boxes.
if ! fc-list :lang=ja | grep -q .; then
    sudo_if_needed=()
    [ "$(id -u)" -ne 0 ] && sudo_if_needed=(sudo)
    "${sudo_if_needed[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq fonts-noto-cjk >/dev/null
fi
(cd tests/browser && npm ci --no-audit --no-fund --silent)
# cshogi and python-chess read back what the page downloads (below).
venv=target/shogi-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import cshogi, chess' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'cshogi==1.1.0' 'chess==1.11.2'
fi
[ -z "${SENTE_PREPARE_ONLY:-}" ] || exit 0 # installed: CI asks no more here (.ci/run)

. scripts/release-server.sh
start_server --
node tests/browser/playground.mjs "http://127.0.0.1:$port" target/screenshots

# The KIF the page downloaded, read by cshogi as a .kif is read (Shift_JIS): the page's moves.
"$venv/bin/python" - target/screenshots/shogi-game.kif target/screenshots/shogi-game.json <<'PY'
import json, sys
import cshogi, cshogi.KIF
kif = cshogi.KIF.Parser.parse_file(sys.argv[1])
played = json.load(open(sys.argv[2]))
assert [cshogi.move_to_usi(m) for m in kif.moves] == played, (kif.moves, played)
assert kif.names == ["You", "Sente (engine)"], kif.names
assert kif.endgame == "%CHUDAN", kif.endgame
assert any(c and "評価値" in c for c in kif.comments), kif.comments
print(f"{sys.argv[1]}: {len(played)} moves read back by cshogi, with the engine's evaluations")
PY

# The PGN the page downloaded, read by python-chess: the page's moves, the engine's evaluation.
"$venv/bin/python" - target/screenshots/chess-game.pgn target/screenshots/chess-game.json <<'PY'
import json, re, sys
import chess.pgn
game = chess.pgn.read_game(open(sys.argv[1], encoding="utf-8"))
played = json.load(open(sys.argv[2]))
assert not game.errors, game.errors
assert [move.uci() for move in game.mainline_moves()] == played, (list(game.mainline_moves()), played)
assert game.headers["Black"] == "You" and game.headers["Result"] == "*", game.headers
assert any(re.match(r"[+-]\d+\.\d\d/\d+ ", node.comment) for node in game.mainline()), "the engine's evaluation"
print(f"{sys.argv[1]}: {len(played)} moves read back by python-chess, with the engine's evaluation")
PY
