#!/bin/sh
# tests/docs_check.sh — the documents stand alone and say what the program does:
#  - every example record in the docs (a fenced block starting with [Game "...")
#    passes `tavoliere check` (except a sealed one, which needs its author's key);
#  - no document and no `tavoliere help` line refers to a file outside the
#    repository (the contract file, seed files, sibling directories), and every
#    relative Markdown link points at a file or directory of the repository;
#  - README.md is a front page: at most 120 lines, none over 120 characters;
#  - the level ratings of docs/levels.md and src/search/profiles.c are the ones
#    results/levels/*.csv give (scripts/levels_table.mjs --check).
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
T="$(pwd)/$BUILD/tavoliere"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
P=0
F=0
pass() { P=$((P + 1)); }
fail() { F=$((F + 1)); echo "FAIL $*"; }

docs=$(ls README.md ARCHITECTURE.md docs/*.md docs/*/*.md 2>/dev/null)

# Example records: each fenced block whose first line is a Game tag.
n=0
for d in $docs; do
    awk -v dir="$TMP" -v base="$(echo "$d" | tr '/' '_')" '
        /^```/ { if (inb) { close(out); inb = 0 } else { fence = 1 } ; next }
        fence { fence = 0; if ($0 ~ /^\[Game "/) { k++; out = dir "/" base "." k ".rec"; inb = 1 } }
        inb { print > out }
    ' "$d"
done
for r in "$TMP"/*.rec; do
    [ -e "$r" ] || continue
    # A sealed example (docs/records.md) opens only with its author's key.
    grep -q '^\[Sealed "' "$r" && continue
    n=$((n + 1))
    if "$T" check "$r" >"$TMP/check.out" 2>&1; then
        pass
    else
        fail "example record $(basename "$r") in the docs does not check:"
        cat "$TMP/check.out"
    fi
done
[ "$n" -gt 0 ] && pass || fail "no example record found in the docs"

# The protocol example (docs/guide.md, linked from the README) is what the
# engine answers: the block after "Playing a game through the protocol" alternates a command, any `info` lines,
# one answer line.  "..." in an answer stands for any text; the figures of
# `info` lines and the move of `bestmove` vary from run to run.
awk '/^## Playing a game through the protocol/ { sec = 1 } sec && /^```/ { if (inb) exit; inb = 1; next } inb' \
    docs/guide.md >"$TMP/readme.block"
awk -v cmds="$TMP/readme.cmds" -v expf="$TMP/readme.exp" '
    !want { print > cmds; want = 1; next }
    { print > expf; if ($0 !~ /^info /) want = 0 }
' "$TMP/readme.block"
if [ ! -s "$TMP/readme.cmds" ]; then
    fail "README has no protocol example"
else
    # `info` lines come in any number (one per half second of search, and a
    # final one): those of the example must be `info` lines of the engine's
    # kind, and the engine's may only come before a `bestmove`.
    "$T" engine <"$TMP/readme.cmds" >"$TMP/readme.all" 2>&1
    if ! awk '/^info / { pend = 1; next } pend && !/^bestmove / { bad = 1 } { pend = 0 } END { exit bad || pend }' \
        "$TMP/readme.all"; then
        fail "the engine printed info lines that do not lead to bestmove"
    fi
    grep -v '^info ' "$TMP/readme.all" >"$TMP/readme.act"
    grep '^info ' "$TMP/readme.exp" | grep -v -E '^info (playouts|depth) ' && fail "README shows an info line of an unknown kind"
    grep -v '^info ' "$TMP/readme.exp" >"$TMP/readme.exp2"
    mv "$TMP/readme.exp2" "$TMP/readme.exp"
    if awk -v actf="$TMP/readme.act" '
        function shape(x) { gsub(/[0-9.]+/, "N", x); return x }
        {
            if ((getline act < actf) <= 0) { print "missing answer for: " $0; bad = 1; exit }
            e = $0
            if (e ~ /^info /) { e = shape(e); act = shape(act) }
            if (e ~ /^bestmove /) { e = "bestmove"; sub(/ .*/, "", act) }
            k = index(e, " ... ")
            if (k > 0) {
                pre = substr(e, 1, k); post = substr(e, k + 4)
                ok = index(act, pre) == 1 && length(act) >= length(e) - 3 &&
                     substr(act, length(act) - length(post) + 1) == post
            } else ok = (e == act)
            if (!ok) { print "README: " $0; print "engine: " substr(act, 1, 200); bad = 1 }
        }
        END { if ((getline act < actf) > 0) { print "extra answer: " act; bad = 1 } ; exit bad }
    ' "$TMP/readme.exp"; then
        pass
    else
        fail "README's protocol example differs from what the engine answers"
    fi
fi

# References to files outside the repository.
"$T" help >"$TMP/help.txt" 2>&1
for f in $docs "$TMP/help.txt"; do
    hits=$(grep -n -E 'SPEC\.md|STYLE\.md|seeds/|[0-9]{3}_[0-9a-f]{16}\.txt|\.\./shared|/work/' "$f")
    if [ -n "$hits" ]; then
        fail "$f refers to files outside the repository:"
        echo "$hits" | head -5
    else
        pass
    fi
done

# Relative Markdown links resolve inside the repository.
for d in $docs; do
    dir=$(dirname "$d")
    bad=""
    for link in $(grep -o -E '\]\([^)#]+' "$d" | sed 's/^](//'); do
        case "$link" in
        http://* | https://* | mailto:*) continue ;;
        esac
        [ -e "$dir/$link" ] || bad="$bad $link"
    done
    if [ -n "$bad" ]; then
        fail "$d links to missing files:$bad"
    else
        pass
    fi
done
# Paths named in `tavoliere help` exist.
for p in $(grep -o -E '(docs|tests|src)/[A-Za-z0-9_./-]+' "$TMP/help.txt" | sed 's/[.)]*$//'); do
    if [ -e "$p" ]; then pass; else fail "tavoliere help names '$p', which is not in the repository"; fi
done

# The ratings shown (docs, menus, server) are those the ladder results give.
if node scripts/levels_table.mjs --check >"$TMP/levels.out" 2>&1; then
    pass
else
    fail "the level ratings are not those of results/levels:"
    cat "$TMP/levels.out"
fi

# README.md: a front page read in two minutes.
lines=$(wc -l <README.md)
if [ "$lines" -le 120 ]; then pass; else fail "README.md has $lines lines (at most 120)"; fi
long=$(awk 'length > 120 { print NR ": " length }' README.md)
if [ -z "$long" ]; then pass; else fail "README.md lines over 120 characters: $long"; fi

echo "$P passed, $F failed"
[ "$F" -eq 0 ]
