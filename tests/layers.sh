#!/bin/sh
# tests/layers.sh — the arrows between the layers of ARCHITECTURE.md point
# down: a file includes the headers of its own layer and of the layers below
# it only.  From the bottom:
#   0 core      src/core/, and the public base: tavoliere.h, tavoliere_game.h
#   1 games     src/games/
#   2 search    src/search/, tavoliere_search.h   } side by side: neither
#   2 records   src/record/, tavoliere_record.h   } includes the other
#   3 session   src/session/, tavoliere_session.h
#   4 protocol  src/protocol/
#   5 cli       src/cli/, and src/wasm/ (the browser's adapter: docs/wasm.md)
#   6 server    src/server/
# One exception: src/cli/main.c, the program's entry point (its table of
# subcommands), starts `serve` too.  (The server's own floors, core and
# edge, are not told apart here.)
# Prints "N passed, N failed".
P=0
F=0

# The layer of a file of the sources, or of a header an #include names.
layer_of() {
    case $1 in
    tavoliere.h | tavoliere_game.h | core/* | src/core/* | include/tavoliere.h | include/tavoliere_game.h) echo 0 ;;
    games.h | epaminondas_core.h | games/* | src/games/*) echo 1 ;;
    tavoliere_search.h | search/* | src/search/* | include/tavoliere_search.h) echo 2s ;;
    tavoliere_record.h | record/* | src/record/* | include/tavoliere_record.h) echo 2r ;;
    tavoliere_session.h | session/* | src/session/* | include/tavoliere_session.h) echo 3 ;;
    protocol/* | src/protocol/*) echo 4 ;;
    cli/* | src/cli/* | wasm/* | src/wasm/*) echo 5 ;;
    server/* | src/server/*) echo 6 ;;
    *) echo "" ;;
    esac
}

for f in include/*.h $(find src -name '*.[ch]' | sort); do
    from=$(layer_of "$f")
    [ -n "$from" ] || continue
    for inc in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do
        to=$(layer_of "$inc")
        [ -n "$to" ] || continue
        [ "$f" = src/cli/main.c ] && [ "$inc" = server/server.h ] && continue
        a=${from%[sr]}
        b=${to%[sr]}
        # Below, or the same layer; search and records never include each other.
        if [ "$b" -lt "$a" ] || { [ "$b" -eq "$a" ] && { [ "$from" = "$to" ] || [ "$a" != 2 ]; }; }; then
            P=$((P + 1))
        else
            F=$((F + 1))
            echo "FAIL $f (layer $from) includes $inc (layer $to): an arrow up"
        fi
    done
done
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
