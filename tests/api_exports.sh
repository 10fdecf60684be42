#!/bin/sh
# tests/api_exports.sh — the public library exports its public API only.
# Every global symbol defined in $BUILD/libtavoliere.a must be declared in a
# header of include/ and start with tav_; the internals (tavi_*) stay local.
# A program that uses only include/ links against it ($BUILD/test_session),
# and so does a tiny program built with nothing but what pkg-config says
# ($BUILD/tavoliere.pc: PKG_CONFIG_PATH=$BUILD pkg-config --cflags --libs
# tavoliere), whose version is tavoliere.h's.  The headers name no file that
# is not in the repository.
BUILD=${BUILD:-build}
LIB="$BUILD/libtavoliere.a"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

if [ ! -f "$LIB" ]; then
    echo "no $LIB"
    echo "0 passed, 1 failed"
    exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat include/*.h | grep -o '\btav_[a-z_0-9]*' | sort -u >"$TMP/declared"
nm -g --defined-only "$LIB" | awk 'NF == 3 { print $3 }' | sort -u >"$TMP/exported"
n=$(wc -l <"$TMP/exported")
if [ "$n" -ge 40 ]; then ok; else bad "only $n symbols exported (expected the public API)"; fi
for s in $(cat "$TMP/exported"); do
    case $s in
    tav_*) if grep -qx "$s" "$TMP/declared"; then ok; else bad "$s is exported but not declared in include/"; fi ;;
    *) bad "$s is exported but is not public (internals are tavi_* and local)" ;;
    esac
done
# The internals are in the archive, but local.
if nm "$LIB" | grep -q ' [tTdDbBrR] tavi_'; then ok; else bad "no local tavi_ symbol found: is the library built from the internals?"; fi
# Internal names never leak into the public headers.
if grep -n 'tavi_' include/*.h; then bad "include/ names an internal tavi_ symbol"; else ok; fi
# A program over the public API only links against the public library.
if [ -x "$BUILD/test_session" ] && "$BUILD/test_session" >/dev/null 2>&1; then ok; else bad "$BUILD/test_session (linked against $LIB only) does not run"; fi
# pkg-config: the flags it gives build and link a program over the public
# headers against the public library, and it reports tavoliere.h's version.
PC="$BUILD/tavoliere.pc"
if [ ! -f "$PC" ]; then
    bad "no $PC (make writes it)"
elif ! command -v pkg-config >/dev/null 2>&1; then
    bad "no pkg-config to read $PC"
else
    flags=$(PKG_CONFIG_PATH="$BUILD" pkg-config --cflags --libs tavoliere 2>&1)
    for l in -ltavoliere -lm -lpthread; do
        case " $flags " in
        *" $l "*) ok ;;
        *) bad "pkg-config --libs does not name $l: $flags" ;;
        esac
    done
    case " $flags " in
    *" -I$(pwd)/include "*) ok ;;
    *) bad "pkg-config --cflags does not name $(pwd)/include: $flags" ;;
    esac
    want=$(sed -n 's/^#define TAV_VERSION "\(.*\)"$/\1/p' include/tavoliere.h)
    got=$(PKG_CONFIG_PATH="$BUILD" pkg-config --modversion tavoliere 2>&1)
    if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "pkg-config says version '$got', tavoliere.h '$want'"; fi
    cat >"$TMP/hello.c" <<'EOF'
#include <stdio.h>

#include "tavoliere.h"
#include "tavoliere_record.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"

int main(void)
{
    char err[256];
    tav_session *s;
    if (tav_session_new(&s, "urbino", "", 1, err, sizeof err) != TAV_OK)
        return 1;
    tav_status st = tav_session_play_text(s, "a1", err, sizeof err);
    tav_session_free(s);
    printf("%s %d.%d.%d %s %s\n", TAV_VERSION, TAV_VERSION_MAJOR, TAV_VERSION_MINOR,
           TAV_VERSION_PATCH, tav_game_at(0)->name, tav_status_str(st));
    return 0;
}
EOF
    # Nothing but pkg-config's flags (the sanitizer build's .pc names the
    # sanitizers' runtime its archive needs).
    # shellcheck disable=SC2086
    if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$TMP/hello" "$TMP/hello.c" $flags >"$TMP/cc.out" 2>&1; then
        ok
        out=$("$TMP/hello" 2>&1)
        if [ "$out" = "$want $want urbino illegal move" ]; then ok; else bad "the pkg-config program printed '$out'"; fi
    else
        bad "a program does not build with pkg-config's flags ($flags):"
        head -20 "$TMP/cc.out"
    fi
fi

# The headers name only files of the repository: a path (docs/..., src/...,
# or any name with a file extension) exists; a bare file name is a header of
# include/ or a file of the sources, tests, tools or docs (a system header
# of an #include <...> line is not looked at).
missing=""
for h in include/*.h; do
    for f in $(grep -v '^#include <' "$h" |
        grep -oE '[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(md|c|h|txt|sh|mjs|csv|json|pc|in|out|t)\b|\b(docs|src|tests|results|include|tools|scripts|web)/[A-Za-z0-9_./-]*' |
        sort -u); do
        case $f in
        */*) [ -e "$f" ] || missing="$missing $h:$f" ;;
        *) [ -e "include/$f" ] || [ -n "$(find src tests tools docs scripts -name "$f" 2>/dev/null | head -n 1)" ] ||
            missing="$missing $h:$f" ;;
        esac
    done
done
if [ -z "$missing" ]; then ok; else bad "headers name files that are not in the repository:$missing"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
