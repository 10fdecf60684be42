#!/bin/sh
# tests/seal.sh — a Toscana game saved mid-game keeps its deal out of plain
# sight (no stacks, no seed in the record: a Sealed tag instead) and still
# resumes exactly; without the key, or with the tag changed, it is refused.
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
T="$(pwd)/$BUILD/tavoliere"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
P=0
F=0
export LANG=C.UTF-8 NO_COLOR=1 XDG_CONFIG_HOME="$TMP/cfg"
ok() { P=$((P + 1)); }
bad() { F=$((F + 1)); echo "FAIL $*"; }
last_board() { awk '$1 == 17 && $NF == 17 { b = ""; inb = 1 } inb { b = b $0 "\n" } /last move:/ { inb = 0 } END { printf "%s", b }' "$1"; }

# The first placement after black's accept, from the engine with the same deal.
first=$(printf 'newgame toscana seed=5\nplay accept\nmoves\n' | "$T" engine | tail -n 1 | cut -d' ' -f2)
printf 'accept\n%s\nsave %s\nquit\ny\n' "$first" "$TMP/mid.rec" |
    "$T" play toscana seed=5 --white human --black human >"$TMP/first.out" 2>&1
if [ ! -s "$TMP/mid.rec" ]; then
    bad "no record saved"; cat "$TMP/first.out" | tail -5
else
    if grep -q -E 'WhiteStack|BlackStack|seed=|white=|black=' "$TMP/mid.rec"; then bad "the mid-game record names the stacks or the seed"; else ok; fi
    if grep -q -E '[0-9][0-9],[0-9][0-9],' "$TMP/mid.rec"; then bad "the mid-game record holds a list of tile ids"; else ok; fi
    if grep -q '^\[Sealed "[A-Za-z0-9_-]*"\]$' "$TMP/mid.rec"; then ok; else bad "no Sealed tag"; cat "$TMP/mid.rec"; fi
fi
if [ "$(stat -c %a "$TMP/cfg/tavoliere/seal.key" 2>/dev/null)" = 600 ]; then ok; else bad "the key is not a private file"; fi
if "$T" check "$TMP/mid.rec" 2>&1 | grep -q "ok, toscana, 2 moves, unfinished"; then ok; else bad "check on the sealed record"; "$T" check "$TMP/mid.rec"; fi
# Resume: the same board, the same top tiles and stacks.
printf 'quit\ny\n' | "$T" play --load "$TMP/mid.rec" --white human --black human >"$TMP/resumed.out" 2>&1
last_board "$TMP/first.out" >"$TMP/b1"
last_board "$TMP/resumed.out" >"$TMP/b2"
if [ -s "$TMP/b1" ] && cmp -s "$TMP/b1" "$TMP/b2"; then ok; else bad "the resumed game differs:"; diff "$TMP/b1" "$TMP/b2" | head; fi
# The resumed game goes on with the same deal: its next legal moves are the engine's.
exp=$(printf 'newgame toscana seed=5\nplay accept\nplay %s\nmoves\n' "$first" | "$T" engine | tail -n 1 | cut -c1-200)
printf 'moves\nquit\ny\n' | "$T" play --load "$TMP/mid.rec" --white human --black human >"$TMP/moves.out" 2>&1
n_exp=$(echo "$exp" | wc -w)
if grep -q "$((n_exp - 1)) legal move" "$TMP/moves.out"; then ok; else bad "the resumed game has other legal moves"; grep "legal move" "$TMP/moves.out"; fi
# Without the key, or with the seal changed: refused with a reason.
if XDG_CONFIG_HOME="$TMP/other" "$T" check "$TMP/mid.rec" 2>&1 | grep -q "the deal is sealed and cannot be opened here"; then ok; else bad "no key: not refused"; fi
# One character of the sealed text changed (A<->B at the tenth place).
awk '/^\[Sealed "/ { c = substr($0, 18, 1); $0 = substr($0, 1, 17) (c == "A" ? "B" : "A") substr($0, 19) } { print }' \
    "$TMP/mid.rec" >"$TMP/tampered.rec"
if "$T" check "$TMP/tampered.rec" 2>&1 | grep -q "sealed with another key, or the Sealed tag was changed"; then ok; else bad "a changed seal is not refused"; "$T" check "$TMP/tampered.rec"; fi
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
