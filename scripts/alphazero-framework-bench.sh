#!/usr/bin/env bash
# The policy-value network's trainer chosen (docs/alphazero.md#the-network-and-its-trainer):
# Sente's own loop against candle on Connect Four's network, side by side: candle's build time,
# training speed (AlphaZero's loss, Adam) and inference speed one position at a time (as the
# search asks), against `sente train` on self-play positions and `sente move alphazero`'s
# simulations a second. candle's program (scripts/alphazero-framework-bench.rs) is built in a
# crate of its own under target/, so that Sente does not depend on it.
#
#   scripts/alphazero-framework-bench.sh SELFPLAY_FILE [COUNT]
#
# SELFPLAY_FILE is what `sente selfplay --game connect4` writes; COUNT positions of it (200,000
# by default) train one epoch on two threads, as candle trains as many random ones.
set -euo pipefail
cd "$(dirname "$0")/.."
positions=$1
count=${2:-200000}
bench=target/alphazero-framework-bench
mkdir -p "$bench/src"
cat >"$bench/Cargo.toml" <<'TOML'
[package]
name = "alphazero-framework-bench"
version = "0.1.0"
edition = "2021"

[dependencies]
candle-core = "0.9"
candle-nn = "0.9"
rand = "0.8"

[workspace]
TOML
cp scripts/alphazero-framework-bench.rs "$bench/src/main.rs"
cargo build --release --locked --quiet
echo "== building candle's program"
( cd "$bench" && time cargo build --release --quiet )
head -n "$count" "$positions" >"$bench/positions.txt"
echo "== sente train, one epoch of $count positions"
time target/release/sente train --game connect4 "$bench/positions.txt" --output "$bench/sente.net" \
    --epochs 1 --hidden 256 --batch 256 --threads 2 >/dev/null
echo "== candle, one epoch of $count positions, then inference"
RAYON_NUM_THREADS=2 "$bench/target/release/alphazero-framework-bench" "$count"
echo "== sente's search, network included, one thread"
target/release/sente move --game connect4 --moves '' 'alphazero:simulations=100000' | jq '{nodes, nps}'
