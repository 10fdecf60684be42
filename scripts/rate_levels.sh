#!/bin/sh
# scripts/rate_levels.sh GAME GAMES FROM TO [SEED] — the level ladder, for the
# ratings of docs/levels.md.  For each level L = FROM .. TO-1 it plays level L+1
# against level L (L = 0: against `random`) for GAMES games, colours
# alternating, each level at its own budget (`match --movetime own`: its playout
# or depth cap and its own time, levels.c), and appends one line per pair to
# results/levels/GAME.csv:
#   a,b,games,wins,draws,losses,seed,commit,date,seconds,jobs
# Lines accumulate across runs (use a new SEED for more games of a pair: the
# same seed replays the same games); scripts/levels_table.mjs turns the file
# into ratings.  JOBS (default 2) games run in parallel; NICE (default 10);
# T the program (default build/tavoliere), COMMIT its source's commit (default
# the checkout's HEAD).
set -e
game=${1:?usage: scripts/rate_levels.sh GAME GAMES FROM TO [SEED]}
games=${2:?games}
from=${3:?from}
to=${4:?to}
seed=${5:-1}
T=${T:-build/tavoliere}
out=results/levels/$game.csv
mkdir -p results/levels
[ -f "$out" ] || echo "a,b,games,wins,draws,losses,seed,commit,date,seconds,jobs" >"$out"
# The source the program was built from: COMMIT when T is a copy built elsewhere.
commit=$COMMIT
[ -n "$commit" ] || commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
l=$from
while [ "$l" -lt "$to" ]; do
    a="ai:level=$((l + 1))"
    if [ "$l" -eq 0 ]; then b=random; else b="ai:level=$l"; fi
    t0=$(date +%s)
    row=$(nice -n "${NICE:-10}" "$T" match "$game" --a "$a" --b "$b" --games "$games" --movetime own \
        --jobs "${JOBS:-2}" --seed "$seed" 2>/dev/null | grep "^| $a |")
    t1=$(date +%s)
    # | A | B | games | wins | draws | losses | ...
    echo "$row" | awk -F'|' -v seed="$seed" -v commit="$commit" -v date="$(date -u +%Y-%m-%d)" -v s=$((t1 - t0)) \
        -v jobs="${JOBS:-2}" \
        '{ gsub(/ /, ""); print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," seed "," commit "," date "," s "," jobs }' >>"$out"
    tail -n 1 "$out"
    l=$((l + 1))
done
