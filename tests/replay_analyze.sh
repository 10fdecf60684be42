#!/bin/sh
# tests/replay_analyze.sh — `replay` draws the same board as `play`, and
# `analyze` reports its progress one line per move when stderr is no
# terminal.  Prints "N passed, N failed".
BUILD=${BUILD:-build}
T="$(pwd)/$BUILD/tavoliere"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
P=0
F=0
export LANG=C.UTF-8 NO_COLOR=1 XDG_CONFIG_HOME="$TMP/cfg"
# Last board of an output: from the top rank's line to the "last move" line.
last_board() { awk -v top="$2" '$1 == top && $NF == top { b = "" ; inb = 1 } inb { b = b $0 "\n" } /last move:/ { inb = 0 } END { printf "%s", b }' "$1"; }
for spec in "epaminondas 12 a2-a3 a11-a10" "urbino 9 Ae5 Ag3 first:white Hf4" "cathedral 10 Y:d6,e5,e6,e7,e8,f6 T:a1" \
    "toscana 17 accept"; do
    set -- $spec
    g=$1 top=$2
    shift 2
    { for m in "$@"; do echo "$m"; done; echo "save $TMP/$g.rec"; echo quit; echo y; } >"$TMP/$g.in"
    "$T" play "$g" --white human --black human <"$TMP/$g.in" >"$TMP/$g.play" 2>&1
    "$T" replay "$TMP/$g.rec" >"$TMP/$g.replay" 2>&1
    last_board "$TMP/$g.play" "$top" >"$TMP/$g.pb"
    last_board "$TMP/$g.replay" "$top" >"$TMP/$g.rb"
    if [ -s "$TMP/$g.pb" ] && cmp -s "$TMP/$g.pb" "$TMP/$g.rb"; then
        P=$((P + 1))
    else
        F=$((F + 1))
        echo "FAIL replay $g: the final board differs from play's"
        diff "$TMP/$g.pb" "$TMP/$g.rb" | head -20
    fi
done
"$T" analyze "$TMP/epaminondas.rec" --movetime 20 >"$TMP/an.out" 2>"$TMP/an.err"
if printf 'analysed 1/2\nanalysed 2/2\n' | cmp -s - "$TMP/an.err"; then
    P=$((P + 1))
else
    F=$((F + 1))
    echo "FAIL analyze: progress on a non-terminal stderr is not one line per move:"
    od -c "$TMP/an.err" | head -5
fi
if grep -q '^; mistakes: white' "$TMP/an.out"; then P=$((P + 1)); else F=$((F + 1)); echo "FAIL analyze: no summary"; fi
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
