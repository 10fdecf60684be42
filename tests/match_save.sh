#!/bin/sh
# tests/match_save.sh — `tavoliere match --save DIR` writes every game as a
# record that `tavoliere check` accepts and that ends as the match counted it.
BUILD=${BUILD:-build}
T="$BUILD/tavoliere"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
p=0
f=0
for g in urbino epaminondas cathedral toscana; do
    if ! "$T" match "$g" --a random --b uct:nodes=20 --games 2 --seed 5 --save "$DIR" >"$DIR/$g.out" 2>/dev/null; then
        echo "FAIL match $g --save: exit status"
        f=$((f + 1))
        continue
    fi
    for i in 0001 0002; do
        rec="$DIR/$g-$i.rec"
        if [ ! -f "$rec" ]; then
            echo "FAIL match $g --save: no $rec"
            f=$((f + 1))
        elif ! "$T" check "$rec" | grep -q "ok, $g, .* finished"; then
            echo "FAIL match $g --save: $rec does not check as a finished game"
            "$T" check "$rec"
            f=$((f + 1))
        else
            p=$((p + 1))
        fi
    done
    # The records' results add up to the match table (player A is White in game 1).
    a1=$(grep -c '^\[Result "white"\]' "$DIR/$g-0001.rec")
    a2=$(grep -c '^\[Result "black"\]' "$DIR/$g-0002.rec")
    wins=$(awk -F'|' '/^\| random/ {gsub(/ /, "", $5); print $5}' "$DIR/$g.out")
    if [ "$((a1 + a2))" = "$wins" ]; then
        p=$((p + 1))
    else
        echo "FAIL match $g --save: records show $((a1 + a2)) wins for A, the table $wins"
        f=$((f + 1))
    fi
    # A's results by colour, as the records show them: White in game 1, Black in game 2.
    wdl() { # record, A's colour -> W-D-L (one game)
        r=$(sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$1")
        case $r in "$2") echo 1-0-0 ;; draw) echo 0-1-0 ;; *) echo 0-0-1 ;; esac
    }
    want="A as white $(wdl "$DIR/$g-0001.rec" white) (.*), as black $(wdl "$DIR/$g-0002.rec" black) (.*)"
    if grep -qx "$want" "$DIR/$g.out"; then
        p=$((p + 1))
    else
        echo "FAIL match $g: the results by colour are not those of the records ($want)"
        grep '^A as' "$DIR/$g.out"
        f=$((f + 1))
    fi
done
# A clean sweep has no finite Elo estimate: it is shown as a bound with an
# open interval, never as a capped exact value.  (The node budget ends each
# search, never the clock: the same games on a busy machine.)
if "$T" match cathedral --a uct:nodes=100 --b random --games 2 --seed 3 --movetime 600000 >"$DIR/sweep.out" 2>/dev/null &&
    grep -q '^| uct:nodes=100 | random | 2 | 2 | 0 | 0 | 100.0% | > -113 | \[-113, +inf) |$' "$DIR/sweep.out"; then
    p=$((p + 1))
else
    echo "FAIL match: a clean sweep is not shown as an open interval"
    cat "$DIR/sweep.out"
    f=$((f + 1))
fi
if "$T" match cathedral --a random --b uct:nodes=100 --games 2 --seed 3 --movetime 600000 >"$DIR/wash.out" 2>/dev/null &&
    grep -q '^| random | uct:nodes=100 | 2 | 0 | 0 | 2 | 0.0% | < +113 | (-inf, +113\] |$' "$DIR/wash.out"; then
    p=$((p + 1))
else
    echo "FAIL match: a whitewash is not shown as an open interval"
    cat "$DIR/wash.out"
    f=$((f + 1))
fi
# --opening N: each pair of games (colours swapped) starts with the same N
# random plies, and different pairs with different ones; the players, which
# play the same deterministic search here, then decide the rest.
moves() { grep -v '^\[' "$1" | grep -v '^#' | tr ' ' '\n' | grep -v '^[0-9]*\.$' | grep -v '^$' | head -n "$2" | tr '\n' ' '; }
OD="$DIR/opening"
if "$T" match epaminondas --a ai:nodes=200 --b ai:nodes=200 --games 4 --opening 6 --seed 9 --save "$OD" \
    >"$DIR/opening.out" 2>/dev/null && grep -q '6 random opening plies' "$DIR/opening.out"; then
    o1=$(moves "$OD/epaminondas-0001.rec" 6)
    o2=$(moves "$OD/epaminondas-0002.rec" 6)
    o3=$(moves "$OD/epaminondas-0003.rec" 6)
    o4=$(moves "$OD/epaminondas-0004.rec" 6)
    n1=$(moves "$OD/epaminondas-0001.rec" 6 | wc -w)
    if [ "$n1" = 6 ] && [ "$o1" = "$o2" ] && [ "$o3" = "$o4" ] && [ "$o1" != "$o3" ]; then
        p=$((p + 1))
    else
        echo "FAIL match --opening: openings '$o1' '$o2' '$o3' '$o4'"
        f=$((f + 1))
    fi
else
    echo "FAIL match --opening: no match or no header"
    cat "$DIR/opening.out"
    f=$((f + 1))
fi
if "$T" match epaminondas --a random --b random --games 2 --opening -1 >/dev/null 2>&1; then
    echo "FAIL match --opening -1 accepted"
    f=$((f + 1))
else
    p=$((p + 1))
fi
# A player's own movetime= overrides --movetime (time-odds matches): with
# 100 s a move for the match but 5 ms for uct, two games of Urbino against
# random (about 32 uct moves) take well under a second; were the match's time
# used, the first uct move alone would take 100 s, so a match not done within
# 60 s (sixty times the expected time: a loaded machine passes) did not use
# the player's movetime.
t0=$(date +%s)
if timeout 60 "$T" match urbino --a uct:movetime=5 --b random --games 2 --movetime 100000 --seed 4 \
    >"$DIR/odds.out" 2>/dev/null && grep -q '^| uct:movetime=5 | random | 2 |' "$DIR/odds.out"; then
    p=$((p + 1))
    echo "match uct:movetime=5: 2 games in $(($(date +%s) - t0)) s"
else
    echo "FAIL match uct:movetime=5: no result within 60 s; the player's movetime was not used"
    cat "$DIR/odds.out"
    f=$((f + 1))
fi
for bad in ai:movetime=0 ai:movetime=x ai:movetime=3600001; do
    if "$T" match urbino --a "$bad" --b random --games 2 >/dev/null 2>&1; then
        echo "FAIL match --a $bad accepted"
        f=$((f + 1))
    else
        p=$((p + 1))
    fi
done
echo "$p passed, $f failed"
