#!/usr/bin/env bash
# Builds Sente's container image and tries it for real: build the static binary, build the
# Dockerfile's final stage from it with podman, run it with a published port, exercise
# /healthz, the playground page, /move and /tournament through the port and the image's HEALTHCHECK, then send
# SIGTERM and check that the container stops within 2 s with exit code 0.
#
# This machine can pull no base image, so the image is built with --build-arg BINARY=prebuilt
# from the binary built here (see the Dockerfile). Podman is set up as
# ../shared/notes/containers.md describes: runc with explicit ulimits, storage in a scratch
# folder. Installs podman with apt when it is missing (needs root).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
    echo "installing podman"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah runc fuse-overlayfs slirp4netns uidmap >/dev/null
fi
[ -z "${SENTE_PREPARE_ONLY:-}" ] || exit 0 # installed: CI asks no more here (.ci/run)

# The same build as the Dockerfile's build stage (static C runtime, no debug information), and
# the binary the other scripts test, so CI reuses it.
# shellcheck source=scripts/release-server.sh
. scripts/release-server.sh
build_release
if readelf -d "$binary" | grep -q NEEDED; then
    echo "$binary needs shared libraries: it would not run on an empty image" >&2
    readelf -d "$binary" | grep NEEDED >&2
    exit 1
fi

scratch=$(mktemp -d)
name=sente-smoke-$$
cleanup() {
    podman rm -f "$name" >/dev/null 2>&1 || true
    podman rmi -f localhost/sente:smoke >/dev/null 2>&1 || true
    rm -rf "$scratch"
}
trap cleanup EXIT
cat >"$scratch/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
cat >"$scratch/storage.conf" <<CONF
[storage]
driver = "overlay"
graphroot = "$scratch/storage"
runroot = "$scratch/runroot"
CONF
export CONTAINERS_CONF=$scratch/containers.conf CONTAINERS_STORAGE_CONF=$scratch/storage.conf

mkdir "$scratch/context"
cp Dockerfile "$scratch/context/"
cp "$binary" "$scratch/context/sente"
# The docker format keeps the HEALTHCHECK (OCI images have no place for it).
podman build --quiet --format docker --build-arg BINARY=prebuilt -t localhost/sente:smoke "$scratch/context" >/dev/null
size=$(podman image inspect --format '{{.Size}}' localhost/sente:smoke)
user=$(podman image inspect --format '{{.Config.User}}' localhost/sente:smoke)
echo "image: $((size / 1024)) KiB ($(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1e6 }')), user $user"
[ "$user" = "65534:65534" ] || { echo "the image must not run as root" >&2; exit 1; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# No periodic health checks: they need systemd timers, which this machine has not; the
# check is run once by hand below.
podman run -d --name "$name" --health-interval disable -p "127.0.0.1:$port:8080" localhost/sente:smoke >/dev/null

python3 - "$port" <<'PY'
import json, sys, time, urllib.error, urllib.request

base = f"http://127.0.0.1:{sys.argv[1]}"

def call(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.load(response)

for _ in range(100):
    try:
        status, health = call("/healthz")
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("the container never answered /healthz")
assert (status, health) == (200, {"status": "ok"}), health
status, move = call("/move", {"board": "XX.OO....", "algorithm": "alphabeta"})
assert status == 200 and move["move"] == 2 and move["score"] == 1.0, move
status, tournament = call("/tournament", {"players": [{"algorithm": "mcts"}, {"algorithm": "random"}], "games": 100, "seed": 1})
assert status == 200 and tournament["games"] == 100 and tournament["complete"], tournament
with urllib.request.urlopen(base + "/", timeout=10) as response:
    page = response.read().decode()
    assert response.headers["content-type"].startswith("text/html"), response.headers
    assert "Sente playground" in page
try:
    call("/test/panic")
    sys.exit("the release image answers the test-only panic hook")
except urllib.error.HTTPError as error:
    assert error.code == 404, error.code
print(f"through the port: /healthz ok, the playground page ({len(page):,} bytes), /move {move['move']} (score {move['score']}), "
      f"/tournament {tournament['games']} games, mcts scored {tournament['players'][0]['score_rate']:.2f}")
PY

if ! podman healthcheck run "$name"; then
    echo "the image's HEALTHCHECK (sente healthcheck) failed" >&2
    exit 1
fi
echo "HEALTHCHECK (sente healthcheck inside the container): healthy"

started=$(date +%s.%N)
# podman reports failing to remove a health-check timer it never made (no systemd here).
podman stop --time 10 "$name" >/dev/null 2> >(grep -v "unable to get systemd connection" >&2)
stopped=$(date +%s.%N)
code=$(podman inspect --format '{{.State.ExitCode}}' "$name")
seconds=$(awk -v a="$started" -v b="$stopped" 'BEGIN { printf "%.2f", b - a }')
echo "SIGTERM: stopped in ${seconds} s with exit code $code"
[ "$code" = 0 ] || { echo "expected exit code 0" >&2; podman logs "$name" >&2; exit 1; }
awk -v s="$seconds" 'BEGIN { exit !(s < 2) }' || { echo "expected to stop within 2 s" >&2; exit 1; }
podman logs "$name" 2>&1 | tail -3
echo "container smoke test passed"
