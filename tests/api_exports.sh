#!/bin/sh
# tests/api_exports.sh — the public library exports its public API only.
# Every global symbol defined in $BUILD/libtavoliere.a must be declared in a
# header of include/ and start with tav_; the internals (tavi_*) stay local.
# A program that uses only include/ links against it ($BUILD/test_session).
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
