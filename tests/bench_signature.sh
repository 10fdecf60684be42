#!/bin/sh
# tests/bench_signature.sh — the random-games benchmark's behaviour signature
# (`tavoliere bench --no-search`, the "total" line) must equal the one kept in
# tests/bench_signature.txt: a change of rules behaviour is always deliberate
# (update the file in the same commit, saying why).
BUILD=${BUILD:-build}
T="$BUILD/tavoliere"
want=$(tr -d ' \n' <tests/bench_signature.txt)
got=$("$T" bench --no-search | awk '$1 == "total" { print $3 }')
if [ -n "$got" ] && [ "$got" = "$want" ]; then
    echo "bench signature $got"
    echo "1 passed, 0 failed"
else
    echo "FAIL bench signature '$got', expected '$want' (tests/bench_signature.txt)"
    echo "0 passed, 1 failed"
fi
