#!/bin/sh
# scripts/levels.sh GAME [GAMES] [TOP] — the level ladder: level N+1 against
# level N for N = 1 .. TOP-1 (default 8), GAMES games each (default 40),
# colours alternating, a time cap per move of MOVETIME ms (default 5000, so the
# level's own budget binds).
# Prints one table row per pair (the `match` table format).
set -e
game=${1:?usage: scripts/levels.sh GAME [GAMES] [TOP]}
games=${2:-40}
top=${3:-8}
T=${T:-build/tavoliere}
echo "| player A | player B | games | A wins | draws | A losses | A score | Elo diff | 95% interval |"
echo "|---|---|---|---|---|---|---|---|---|"
n=1
while [ "$n" -lt "$top" ]; do
    m=$((n + 1))
    "$T" match "$game" --a "ai:level=$m" --b "ai:level=$n" --games "$games" --movetime "${MOVETIME:-5000}" \
        --jobs 2 --seed 1 2>/dev/null | grep '^| ai:level'
    n=$m
done
