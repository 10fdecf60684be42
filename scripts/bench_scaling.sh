#!/bin/sh
# scripts/bench_scaling.sh — issue 43's measurements (results/scaling.md), on
# a quiet machine (nothing else running: check `uptime` first), as root
# (cgroup v1 CPU budgets, scripts/bench_server.mjs --cpu-server/--cpu-client):
#
#  1. Saturation throughput with 1, 2 and 3 instances on one PostgreSQL,
#     each instance confined to $CPU of a core (0.4 by default, as issue 43
#     asks; three instances' budgets then leave the client and PostgreSQL,
#     each in a group of its own, 0.8 of a core), a game's requests all to its
#     owner (--route owner, as nginx's hash sends them); three runs each,
#     alternating.  The client is build/loadgen (--client c, tools/loadgen.c):
#     the node client spent more CPU a move than the server and was the limit.
#     The goal: at least 1.8 times one instance's moves/s with two, 2.5
#     times with three.
#  2. The single instance's p99 at a human pace: 10,000 games (3 moves a
#     player, 0-20 s of thought) on one instance (SQLite), the client in a
#     CPU group of its own (a whole core, so it measures the server and not
#     itself), build/loadgen again; three runs.  The goal: p99 under 50 ms in
#     each.
#
# Usage: [CPU=0.4] sh scripts/bench_scaling.sh [scaling|p99|all] | tee results/scaling-raw.txt
set -e
cd "$(dirname "$0")/.."
what=${1:-all}
cpu=${CPU:-0.4}
run() {
    echo "### $*"
    node scripts/bench_server.mjs "$@" 2>&1 | grep -v '^$'
    echo
}
if [ "$what" = scaling ] || [ "$what" = all ]; then
    for rep in 1 2 3; do
        for k in 1 2 3; do
            run --games 400 --moves 20 --db pg --instances "$k" --route owner --cpu-server "$cpu" --client c
        done
    done
fi
if [ "$what" = p99 ] || [ "$what" = all ]; then
    for rep in 1 2 3; do
        run --games 10000 --moves 3 --think 10000 --db sqlite --instances 1 --cpu-client 1 --client c
    done
fi
