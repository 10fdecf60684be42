#!/bin/sh
# tests/generic_code.sh — generic code knows no game by name: outside the
# games themselves (src/games), no source file of the session, the records,
# the engine protocol, the command line, the search or the server holds a
# registered game's name as a string or asks a game probe, so that
# everything it needs comes from the game's table (registry, drawing view,
# words for people).  The bench's
# per-game search budgets (src/bench/bench.c) are benchmark configuration, and
# the search profiles (src/search/profiles.c: search tuning per game and
# player, and the levels' measured ratings, keyed by the game's name) search
# configuration: both allowed.
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
T="$(pwd)/$BUILD/tavoliere"
P=0
F=0
names=$(echo newgame | "$T" engine | sed -n 's/^error newgame needs a game: //p' | sed 's/,/ /g; s/ or / /')
if [ -z "$names" ]; then
    echo "FAIL the engine lists no games"
    echo "0 passed, 1 failed"
    exit 0
fi
for g in $names; do
    hits=$(grep -rn "\"$g\"" src/session src/record src/protocol src/cli src/search src/server | grep -v '^src/bench/bench\.c:' | grep -v '^src/search/profiles\.c:')
    if [ -z "$hits" ]; then
        P=$((P + 1))
    else
        F=$((F + 1))
        echo "FAIL generic code names the game $g:"
        echo "$hits"
    fi
done
hits=$(grep -rn -- '->probe(' src/session src/record src/cli src/search src/server)
if [ -z "$hits" ]; then
    P=$((P + 1))
else
    F=$((F + 1))
    echo "FAIL generic code asks game probes (the engine's probe command aside):"
    echo "$hits"
fi
echo "$P passed, $F failed"
