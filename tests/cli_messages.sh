#!/bin/sh
# tests/cli_messages.sh — the messages a newcomer meets first: each names the
# problem once and lists what is accepted.  Prints "N passed, N failed".
BUILD=${BUILD:-build}
T="$BUILD/tavoliere"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
P=0
F=0
# expect NAME STATUS PATTERN COMMAND...: exit status and a line of output.
expect() {
    name=$1 st=$2 pat=$3
    shift 3
    "$@" </dev/null >"$TMP/out" 2>&1
    rc=$?
    if [ "$rc" -eq "$st" ] && grep -q -E -- "$pat" "$TMP/out"; then
        P=$((P + 1))
    else
        F=$((F + 1))
        echo "FAIL $name: status $rc (expected $st), output:"
        head -5 "$TMP/out"
    fi
}
expect "--load of a missing file names it once" 1 '^/nonexist/x\.rec: cannot open \(No such file' \
    "$T" play --load /nonexist/x.rec
if [ "$(grep -o /nonexist/x.rec "$TMP/out" | wc -l)" -eq 1 ]; then P=$((P + 1)); else F=$((F + 1)); echo "FAIL the path is printed more than once"; fi
expect "unknown player lists every accepted player" 2 "unknown player 'foo' .*human, random, ai, ai:level=1\.\.10 or uct" \
    "$T" play epaminondas --black foo
expect "a level out of range is refused" 2 "unknown player 'ai:level=11'" "$T" play epaminondas --white ai:level=11
expect "tavoliere --help" 0 '^usage: tavoliere COMMAND' "$T" --help
expect "tavoliere -h" 0 '^usage: tavoliere COMMAND' "$T" -h
expect "tavoliere help" 0 '^  play ' "$T" help
expect "an unknown command points at help" 2 "unknown command 'frob' \(try: tavoliere help\)" "$T" frob
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
