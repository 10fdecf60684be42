#!/bin/sh
# tests/toscana_features.sh — the inputs of Toscana's fitted evaluation
# (tavi_toscana_features, through build/tosfeat), against values worked out
# by hand on a short record.
#
# White's first tile (01) on i9-l8 with its off squares i9, j9: white's
# region k9 l9 i8 j8 k8 l8 has 9 usable frontier squares (k10 l10 m9 m8 i7
# j7 k7 l7 h8) and 42 coverable empty squares within 3 steps (9 + 14 + 19);
# black's region i9 j9 has 3 (i10 j10 h9) and 18 (3 + 6 + 9).  Both areas
# touch one tile, neither colour has a second region, both vetoes can still be
# used.  So, white minus black: area 0, second area 0, front sqrt 9 - sqrt 3,
# dead 0, reach sqrt 42 - sqrt 18, grow sqrt 9 - sqrt 3, veto 0; times the
# phase 31/32; black places next (turn -1).  White then vetoes black's tile
# (veto -1), and black's next tile (02) on i11-l10, off squares i11 and k11,
# joins black's i9 j9: black's area touches 2 tiles, white has three regions of
# one tile (second area 1); white's largest (the one with the most usable
# frontier: m9 m8 i7 j7 k7 l7 h8, 7) against black's 6 (h9 h10 m10 m11 j12
# l12); white places next (turn +1), phase 30/32.
BUILD=${BUILD:-build}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cat >"$DIR/t.rec" <<'REC'
[Game "toscana"]
[WhiteStack "01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34"]
[BlackStack "01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34"]

1. accept
2. i9-l8:i9,j9
3. veto
4. i11-l10:i11,k11
REC
p=0
f=0
# ply left | the 16 inputs (columns 6 on of tosfeat's lines)
check() {
    got=$(sed -n "$1p" "$DIR/out" | cut -d, -f2,6-)
    if [ "$got" = "$2" ]; then
        p=$((p + 1))
    else
        echo "FAIL position $1: got      $got"
        echo "     expected $2"
        f=$((f + 1))
    fi
}
if ! "$BUILD/tosfeat" "$DIR/t.rec" >"$DIR/out"; then
    echo "FAIL tosfeat exit status"
    f=$((f + 1))
fi
check 1 "32,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,1.0000,1.0000"
check 3 "31,0.0000,0.0000,1.2679,0.0000,2.2381,1.2679,0.0000,0.0000,0.0000,1.2283,0.0000,2.1682,1.2283,0.0000,-1.0000,-0.9688"
check 4 "31,0.0000,0.0000,1.2679,0.0000,2.2381,1.2679,-1.0000,0.0000,0.0000,1.2283,0.0000,2.1682,1.2283,-0.9688,-1.0000,-0.9688"
# position 5: area -1, second area +1, front sqrt 7 - sqrt 6 = 0.1963, veto -1, turn +1
line=$(sed -n 5p "$DIR/out" | cut -d, -f2,6,7,8,9,12,20)
if [ "$line" = "30,-1.0000,1.0000,0.1963,0.0000,-1.0000,1.0000" ]; then
    p=$((p + 1))
else
    echo "FAIL position 5: got $line"
    f=$((f + 1))
fi
n=$(wc -l <"$DIR/out")
if [ "$n" -eq 5 ]; then p=$((p + 1)); else echo "FAIL $n lines, expected 5"; f=$((f + 1)); fi
echo "$p passed, $f failed"
