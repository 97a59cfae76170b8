#!/usr/bin/env bash
# Generations of `sente learn` on a Kubernetes cluster (docs/learning.md#on-a-cluster): each
# generation the four Jobs of deploy/kubernetes/learn-*-job.yaml in turn, each waited for:
# self-play's pieces on 8 pods, the training, the SPRT's pieces on 8 pods, the promotion. Every
# Job is the command one machine runs, split; stopped anywhere, this script run again goes on
# from the first piece not finished.
#
#   scripts/learn-kubernetes.sh GENERATIONS [TIMEOUT]
#
# TIMEOUT is how long each Job may take [24h]. The run's files stay on the volume
# sente-learn-data (kubectl cp them out: report.md, elo.svg, generation-NNN/weights.*).
set -euo pipefail
cd "$(dirname "$0")/.."
generations=$1
timeout=${2:-24h}
for ((generation = 1; generation <= generations; generation++)); do
    for step in selfplay train sprt promote; do
        kubectl delete job "sente-learn-$step" --ignore-not-found --wait=true
        kubectl apply -f "deploy/kubernetes/learn-$step-job.yaml"
        if ! kubectl wait --for=condition=complete "job/sente-learn-$step" --timeout="$timeout"; then
            echo "generation $generation: the $step Job did not complete; run this again to go on" >&2
            exit 1
        fi
    done
done
kubectl delete job sente-learn-selfplay sente-learn-train sente-learn-sprt sente-learn-promote \
    --ignore-not-found
