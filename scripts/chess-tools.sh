# Sourced by the chess measurement scripts: Debian's stockfish (apt) and python-chess (a
# virtualenv under target/), installed when missing. Sets `venv`, and defines `apt_install`.
# shellcheck shell=bash

# Installs Debian packages, through sudo unless root.
apt_install() {
    local sudo_if_needed=()
    [ "$(id -u)" -ne 0 ] && sudo_if_needed=(sudo)
    "${sudo_if_needed[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq "$@" >/dev/null
}

[ -x /usr/games/stockfish ] || apt_install stockfish
venv=target/chess-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import chess' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'chess==1.11.2'
fi
