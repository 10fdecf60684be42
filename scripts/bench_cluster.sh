#!/bin/sh
# scripts/bench_cluster.sh — the load benchmark of issue 36 (results/cluster.md):
# games at a human pace (each player thinks 0-20 s a move, 3 moves each, a
# spectator socket per game) and at saturation (no thinking), on SQLite and
# on PostgreSQL with one, two and three instances (scripts/bench_server.mjs,
# whose players and spectators of a game speak to different instances).
# Usage: sh scripts/bench_cluster.sh [GAMES ...]   (default 1000 5000 10000)
# Run it on a quiet machine; it prints everything (keep it: tee).
set -e
cd "$(dirname "$0")/.."
sizes=${*:-1000 5000 10000}
run() {
    echo "### $*"
    node scripts/bench_server.mjs "$@" 2>&1 | grep -v '^$'
    echo
}
for n in $sizes; do
    run --games "$n" --moves 3 --think 10000 --db sqlite --instances 1
    for k in 1 2 3; do
        run --games "$n" --moves 3 --think 10000 --db pg --instances "$k"
    done
done
# Saturation: 200 games as fast as they can go.
run --games 200 --moves 20 --db sqlite --instances 1
for k in 1 2 3; do
    run --games 200 --moves 20 --db pg --instances "$k"
done
