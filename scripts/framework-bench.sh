#!/usr/bin/env bash
# The trainer chosen (docs/chess.md#the-network): Sente's own loop against a framework, candle,
# on the same net (768 inputs a side -> 128, clipped ReLU, both sides -> 1, Adam) and the same
# count of positions, one epoch each, side by side. candle's program (scripts/framework-bench.rs)
# is built in a crate of its own under target/, so that Sente does not depend on it; its build
# time is reported too.
#
#   scripts/framework-bench.sh POSITIONS_FILE [COUNT]
#
# POSITIONS_FILE is what `sente positions` writes (docs/chess.md#training-data); COUNT positions
# of it (200,000 by default) train one epoch on two threads.
set -euo pipefail
cd "$(dirname "$0")/.."
positions=$1
count=${2:-200000}
bench=target/framework-bench
mkdir -p "$bench/src"
cat >"$bench/Cargo.toml" <<'TOML'
[package]
name = "framework-bench"
version = "0.1.0"
edition = "2021"

[dependencies]
candle-core = "0.9"
candle-nn = "0.9"
rand = "0.8"

[workspace]
TOML
cp scripts/framework-bench.rs "$bench/src/main.rs"
cargo build --release --locked --quiet
echo "== building candle's program"
( cd "$bench" && time cargo build --release --quiet )
head -n "$count" "$positions" >"$bench/positions.txt"
echo "== sente train, one epoch of $count positions"
time target/release/sente train "$bench/positions.txt" --output "$bench/sente.nnue" --epochs 1 \
    --threads 2 >/dev/null
echo "== candle, one epoch of $count positions"
RAYON_NUM_THREADS=2 "$bench/target/release/framework-bench" "$count"
