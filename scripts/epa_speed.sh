#!/bin/sh
# scripts/epa_speed.sh [ROUNDS] PROGRAM... — the Epaminondas speed figures of
# results/epaminondas.md, for one or more builds of tavoliere side by side:
#   start   processor time of one 1,500,000-node search from the start
#   line    processor time of results/epaminondas-line40.in: 40 searches of
#           30,000 nodes along one recorded game (`go nodes=30000`, then the
#           line's move), the middle game's workload
#   nodes/s and random games/s: `tavoliere bench`'s own figures
# Each program runs ROUNDS times (default 3), taking turns, one at a time;
# the table gives the range over the rounds.  Every program must answer
# the same moves with the same node counts (the searches are deterministic):
# the script says so when they differ.  Run it on a quiet machine.
set -e
rounds=3
case "$1" in [0-9]*) rounds=$1; shift ;; esac
[ $# -ge 1 ] || { echo "usage: scripts/epa_speed.sh [ROUNDS] PROGRAM..." >&2; exit 2; }
dir=$(cd "$(dirname "$0")/.." && pwd)
line=$dir/results/epaminondas-line40.in
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'newgame epaminondas\ngo nodes=1500000\nquit\n' >"$tmp/start.in"
i=0
for p in "$@"; do
    i=$((i + 1))
    r=1
    while [ "$r" -le "$rounds" ]; do
        /usr/bin/time -f %U -o "$tmp/t" "$p" engine <"$tmp/start.in" >"$tmp/start.$i"
        cat "$tmp/t" >>"$tmp/start.t$i"
        /usr/bin/time -f %U -o "$tmp/t" "$p" engine <"$line" >"$tmp/line.$i"
        cat "$tmp/t" >>"$tmp/line.t$i"
        "$p" bench >"$tmp/bench.$i" 2>&1
        awk '$1 == "epaminondas" && $2 == "ai" { print $(NF - 1) }' "$tmp/bench.$i" >>"$tmp/nps.$i"
        awk '$1 == "epaminondas" && $2 ~ /^[0-9]+$/ { print $(NF - 1) }' "$tmp/bench.$i" >>"$tmp/games.$i"
        r=$((r + 1))
    done
    # the same searches: answers and node counts without the times
    for f in start line; do
        sed 's/ time [0-9]*//' "$tmp/$f.$i" >"$tmp/$f.s$i"
        if [ "$i" -gt 1 ] && ! cmp -s "$tmp/$f.s1" "$tmp/$f.s$i"; then
            echo "note: $p searches the $f workload differently from $1"
        fi
    done
done
range() { sort -n "$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (lo == hi) print lo; else print lo "–" hi }'; }
echo "| program | start (s) | line (s) | nodes/s (bench) | random games/s (bench) |"
echo "|---|---|---|---|---|"
i=0
for p in "$@"; do
    i=$((i + 1))
    echo "| $p | $(range "$tmp/start.t$i") | $(range "$tmp/line.t$i") | $(range "$tmp/nps.$i") | $(range "$tmp/games.$i") |"
done
