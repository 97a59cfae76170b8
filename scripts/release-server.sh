# shellcheck shell=bash
# Sourced by the scripts that exercise the release binary. Defines two functions:
#
#   build_release
#
# builds the binary the container image ships, as the Dockerfile's build stage does
# (static C runtime, no debug information, stripped), and sets `binary` to its path. The
# scripts measure and test that binary rather than `target/release/sente`, so what they report
# is what is deployed, and CI builds the release binary once, not once per kind. With
# `release_features` set (`test-hooks`, for a measurement that needs a hook route), the same
# build has those features too.
#
#   start_server [PREFIX...] -- [SERVE ARGS...]
#
# builds it, starts it on a free port, waits until it answers, and stops it (and removes the
# scratch folder) when the script exits. PREFIX is a command the server runs under
# (`env RUST_LOG=warn`, `taskset -c 1`); both exec, so `$server` is the server's own PID. Sets
# `port`, `server` and `scratch` (a temporary folder; the server's output goes to
# `$scratch/server.log`).
build_release() {
    # This machine's own target, named: with --target, RUSTFLAGS stay off the build scripts
    # and proc macros, which cannot be static. (The Dockerfile names x86_64-unknown-linux-gnu.)
    # A target folder of its own: its flags share no unit with `cargo test --release`'s, and
    # apart from it the two builds can run at once (CI builds this one while the tests compile)
    # instead of waiting on each other's lock.
    local target
    target=$(rustc -vV | sed -n 's/^host: //p')
    RUSTFLAGS='-C target-feature=+crt-static' CARGO_PROFILE_RELEASE_DEBUG=false \
        CARGO_PROFILE_RELEASE_STRIP=true CARGO_TARGET_DIR=target/container \
        cargo build --release --locked --quiet --target "$target" \
        ${release_features:+--features "$release_features"}
    binary=target/container/$target/release/sente
}

start_server() {
    local prefix=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        prefix+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    build_release
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    scratch=$(mktemp -d)
    "${prefix[@]}" "$binary" serve --addr "127.0.0.1:$port" "$@" >"$scratch/server.log" 2>&1 &
    server=$!
    trap 'kill "$server" 2>/dev/null || true; rm -rf "$scratch"' EXIT
    python3 - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("the server did not start")
PY
}
