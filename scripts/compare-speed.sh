#!/usr/bin/env bash
# Compares the figures of `cargo bench --bench speed` between this tree (B) and a git revision
# (A), run alternately A B B A for ROUNDS rounds on this machine, and prints each figure's mean
# for both and the ratio B/A. Shared machines drift by more than the changes worth judging;
# alternating the two builds in one run cancels most of it.
#
#     scripts/compare-speed.sh REV [ROUNDS]     # ROUNDS defaults to 4
#     scripts/compare-speed.sh --binaries A B [ROUNDS]
#
# REV gets a worktree in target/compare-speed/REV with this tree's benches/speed.rs (so a REV
# before it was written can be measured too, if its API takes the same calls). Where the API
# changed, build each side's speed bench itself (`cargo bench --bench speed --no-run` in each)
# and give the two executables with --binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/compare-speed.sh REV [ROUNDS] | --binaries A B [ROUNDS]"
if [ "${1:-}" = --binaries ]; then
    a=${2:?$usage}
    b=${3:?$usage}
    rounds=${4:-4}
else
    rev=${1:?$usage}
    rounds=${2:-4}
fi
root=$PWD

build() { # prints the path of the speed bench built in $1
    (cd "$1" && cargo bench --locked --bench speed --no-run --message-format=json 2>/dev/null) |
        python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "speed" and m.get("executable"):
        print(m["executable"])'
}

if [ -n "${rev:-}" ]; then
    base="$root/target/compare-speed/$rev"
    if [ ! -d "$base" ]; then
        git worktree add --detach "$base" "$rev" >/dev/null
    fi
    cp benches/speed.rs "$base/benches/speed.rs"
    if ! grep -q 'name = "speed"' "$base/Cargo.toml"; then
        printf '\n[[bench]]\nname = "speed"\nharness = false\n' >>"$base/Cargo.toml"
    fi
    # The shared data sits beside the repository: the worktree sees it at the same relative
    # place.
    mkdir -p "$base/../shared" 2>/dev/null || true
    [ -e "$base/../shared/data" ] || ln -s "$root/../shared/data" "$base/../shared/data" 2>/dev/null || true
    a=$(build "$base")
    b=$(build "$root")
fi
out=$(mktemp)
for _ in $(seq "$rounds"); do
    for which in A B B A; do
        if [ "$which" = A ]; then "$a"; else "$b"; fi | sed "s/^/$which /"
    done
done >"$out"
python3 - "$out" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    which, name, value, unit, *_ = line.split()
    runs[(name, unit)][which].append(float(value))
print(f"{'figure':36} {'A':>10} {'B':>10}  B/A")
for (name, unit), by in runs.items():
    a, b = statistics.mean(by["A"]), statistics.mean(by["B"])
    print(f"{name:36} {a:10.3f} {b:10.3f}  {b / a:.3f}  ({unit})")
PY
rm -f "$out"
