#!/bin/sh
# tests/layers.sh — the arrows between the layers of ARCHITECTURE.md point
# down: a file includes the headers of its own layer and of the layers below
# it only.  From the bottom:
#   0 base      src/base/, and the public base: tavoliere.h, tavoliere_game.h
#   1 games     src/games/
#   2 search    src/search/, tavoliere_search.h   } side by side: neither
#   2 records   src/record/, tavoliere_record.h   } includes the other
#   3 session   src/session/, tavoliere_session.h
#   4 protocol  src/protocol/
#   5 bench     src/bench/ (the benchmark both adapters run)
#   6 cli       src/cli/, and src/wasm/ (the browser's adapter: docs/wasm.md)
#   7 server    src/server/
# One exception: src/cli/main.c, the program's entry point (its table of
# subcommands), starts `serve` too.  The server's own two floors: an edge
# file (src/server/*.[ch]) includes of the core (src/server/core/) its
# public header server/core/core.h only, and the core includes nothing of
# the edge.
# Prints "N passed, N failed".
P=0
F=0

# The layer of a file of the sources (a path from the top of the tree:
# includes are resolved to one first, so "../x.h" is judged by where it is).
layer_of() {
    case $1 in
    src/base/* | include/tavoliere.h | include/tavoliere_game.h) echo 0 ;;
    src/games/*) echo 1 ;;
    src/search/* | include/tavoliere_search.h) echo 2s ;;
    src/record/* | include/tavoliere_record.h) echo 2r ;;
    src/session/* | include/tavoliere_session.h) echo 3 ;;
    src/protocol/*) echo 4 ;;
    src/bench/*) echo 5 ;;
    src/cli/* | src/wasm/*) echo 6 ;;
    src/server/*) echo 7 ;;
    *) echo "" ;;
    esac
}

# An #include "..." resolved as the compiler does (-Iinclude -Isrc): beside
# the including file first, then under include/ and src/; printed as a path
# from the top of the tree, or nothing when no such file exists.
resolve() {
    d=$(dirname "$1")
    for c in "$d/$2" "include/$2" "src/$2"; do
        if [ -f "$c" ]; then
            realpath --relative-to=. "$c"
            return
        fi
    done
}

for f in include/*.h $(find src -name '*.[ch]' | sort); do
    from=$(layer_of "$f")
    if [ -z "$from" ]; then
        F=$((F + 1))
        echo "FAIL $f: in no layer (add its folder to layer_of and to ARCHITECTURE.md)"
        continue
    fi
    for inc in $(sed -n 's/^#[ ]*include[ ]*"\(.*\)".*/\1/p' "$f"); do
        path=$(resolve "$f" "$inc")
        if [ -z "$path" ]; then
            F=$((F + 1))
            echo "FAIL $f includes \"$inc\": no such file beside it, in include/ or in src/"
            continue
        fi
        to=$(layer_of "$path")
        if [ -z "$to" ]; then
            F=$((F + 1))
            echo "FAIL $f includes $inc ($path): a file in no layer"
            continue
        fi
        [ "$f" = src/cli/main.c ] && [ "$path" = src/server/server.h ] && continue
        # The page's engine is no command line: src/wasm includes nothing of src/cli.
        case $f:$path in
        src/wasm/*:src/cli/*)
            F=$((F + 1))
            echo "FAIL $f includes $inc ($path): src/wasm never includes the command line"
            continue
            ;;
        esac
        # The server's floors: the edge sees the core's public header only;
        # the core never sees the edge.
        case $f in
        src/server/core/*)
            case $path in
            src/server/core/*) ;;
            src/server/*)
                F=$((F + 1))
                echo "FAIL $f (core) includes $inc ($path): the core includes nothing of the edge"
                continue
                ;;
            esac
            ;;
        src/server/*)
            case $path in
            src/server/core/core.h) ;;
            src/server/core/*)
                F=$((F + 1))
                echo "FAIL $f (edge) includes $inc ($path): the edge sees server/core/core.h only"
                continue
                ;;
            esac
            ;;
        esac
        a=${from%[sr]}
        b=${to%[sr]}
        # Below, or the same layer; search and records never include each other.
        if [ "$b" -lt "$a" ] || { [ "$b" -eq "$a" ] && { [ "$from" = "$to" ] || [ "$a" != 2 ]; }; }; then
            P=$((P + 1))
        else
            F=$((F + 1))
            echo "FAIL $f (layer $from) includes $inc ($path, layer $to): an arrow up"
        fi
    done
done
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
