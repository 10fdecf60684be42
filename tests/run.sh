#!/bin/sh
# tests/run.sh — run the test suites of Tavoliere and print the total.
#
# Suites: rules fixtures (tests/<game>/*.t), reference traces (tests/ref/*.txt),
# random-playout invariants (selftest), the session API (build/test_session),
# protocol scripts (tests/protocol/*.in with expected *.out), protocol
# robustness (generated bad input), the search service, the timing suite, the
# terminal, records, documents, the server (on SQLite, and again on a throwaway
# PostgreSQL: scripts/pg-throwaway.sh), the page's TypeScript in node and
# the web page.
# Each suite prints its own "N passed, N failed"; the last line is the total.
#
# Tiers (TIER=...; docs/testing.md): every suite below is listed once, with
# the tier it belongs to:
#   check   the fast tier (`make check`, under a minute): fixtures, reference
#           traces, the session API, protocol scripts, public API exports,
#           generic code, layers, the server's C suites when built
#           ($BUILD/test_store, $BUILD/test_core; test_store again on a
#           throwaway PostgreSQL), and the page's unit tests
#           (tests/web/unit, node --test);
#   timing  the timing suite (`make timing`): wall-clock figures, reported,
#           failing only far outside their limits;
#   all     (the default, `make test`) every suite: the fast tier, the timing
#           suite and the rest.
# Usage: BUILD=build [TIER=check|timing|all] sh tests/run.sh
#        (BUILD=build-san for the sanitizer build)

BUILD=${BUILD:-build}
TIER=${TIER:-all}
T="$BUILD/tavoliere"
case $TIER in
check | timing | all) ;;
*)
    echo "TIER=$TIER: not a tier (check, timing or all)"
    echo "0 passed, 1 failed"
    exit 1
    ;;
esac
TMP=$(mktemp -d)
PGDIR=""
# At the end (or on a signal): the throwaway PostgreSQL stopped, the files gone.
cleanup() {
    if [ -n "$PGDIR" ]; then
        sh scripts/pg-throwaway.sh stop "$PGDIR" >/dev/null 2>&1 || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# The bookkeeping (tally, suite, finish): tests/runlib.sh, tested by
# tests/runner_check.sh with fake suites.
. tests/runlib.sh

if [ ! -x "$T" ]; then
    echo "no $T: run make first"
    echo "0 passed, 1 failed"
    exit 1
fi

# The rules fixtures, every tests/<game>/*.t in one run.
fixtures() {
    files=$(ls tests/*/*.t 2>/dev/null)
    if [ -z "$files" ]; then
        echo "FAIL no fixtures found (tests/<game>/*.t)"
        echo "0 passed, 1 failed"
        return 1
    fi
    "$T" test $files
}

# garbage SEED: 3,000 bytes of binary garbage (no NUL, no newline) made
# from SEED, so a failure can be replayed with TAV_PROTO_SEED=SEED.
garbage() {
    LC_ALL=C awk -v seed="$1" 'BEGIN { srand(seed); for (i = 0; i < 3000; i++) {
        c = int(rand() * 254) + 1; if (c == 10) c = 11; printf "%c", c } }'
}

# Protocol scripts: the answers must match the expected output exactly.
# Also the robustness block: generated bad input, one answer line each.
protocol_scripts() {
    PROTO_SEED=${TAV_PROTO_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
    echo "protocol robustness: garbage from seed $PROTO_SEED (replay: TAV_PROTO_SEED=$PROTO_SEED)"
    pp=0
    pf=0
    for in in tests/protocol/*.in; do
        [ -e "$in" ] || continue
        exp=${in%.in}.out
        "$T" engine --seed 1 <"$in" >"$TMP/actual" 2>"$TMP/stderr"
        if [ -f "$exp" ] && cmp -s "$exp" "$TMP/actual"; then
            pp=$((pp + 1))
        else
            pf=$((pf + 1))
            echo "FAIL $in: output differs from $exp"
            diff "$exp" "$TMP/actual" | head -20
        fi
    done
    # Every protocol command appears in some script (coverage).
    for c in $("$T" engine --commands); do
        if grep -qE "^$c( |\$)" tests/protocol/*.in; then
            pp=$((pp + 1))
        else
            pf=$((pf + 1))
            echo "FAIL protocol command '$c' has no script in tests/protocol"
        fi
    done
    # Robustness: a 100 kB line, binary garbage, no trailing newline: one answer
    # line each, and the session keeps working.
    {
        echo "newgame epaminondas"
        head -c 100000 /dev/zero | tr '\0' 'x'
        echo
        garbage "$PROTO_SEED"
        echo
        echo "state"
        printf 'state'
    } >"$TMP/bad.in"
    "$T" engine --seed 1 <"$TMP/bad.in" >"$TMP/bad.out" 2>&1
    lines=$(wc -l <"$TMP/bad.out")
    last=$(tail -n 1 "$TMP/bad.out")
    if [ "$lines" -eq 5 ] && [ "$(sed -n 2p "$TMP/bad.out")" = "error line too long" ] &&
        [ "$last" = "state tomove=white over=no winner=none score=28:28" ]; then
        pp=$((pp + 1))
    else
        pf=$((pf + 1))
        echo "FAIL robustness: unexpected answers to bad input:"
        head -c 2000 "$TMP/bad.out"
    fi
    # A NUL byte is a control character: the line is refused whole and nothing
    # is played; a line of only NUL bytes is not an empty command.
    {
        echo "newgame epaminondas"
        printf 'play a2-a3\000junk\n'
        echo "state"
        printf '\000\000\000\n'
    } >"$TMP/nul.in"
    "$T" engine --seed 1 <"$TMP/nul.in" >"$TMP/nul.out" 2>&1
    printf '%s\n' ok "error control character in command" \
        "state tomove=white over=no winner=none score=28:28" "error control character in command" >"$TMP/nul.exp"
    if cmp -s "$TMP/nul.exp" "$TMP/nul.out"; then
        pp=$((pp + 1))
    else
        pf=$((pf + 1))
        echo "FAIL NUL bytes: unexpected answers:"
        cat "$TMP/nul.out"
    fi
    # The line limit: 65,535 bytes are accepted (also with CR LF), 65,536 are too long.
    {
        head -c 65535 /dev/zero | tr '\0' x
        echo
        head -c 65536 /dev/zero | tr '\0' x
        echo
        head -c 65535 /dev/zero | tr '\0' x
        printf '\r\n'
        printf 'state'
    } >"$TMP/long.in"
    "$T" engine --seed 1 <"$TMP/long.in" | cut -c1-31 >"$TMP/long.out" 2>&1
    printf '%s\n' "error unknown command 'xxxxxxxx" "error line too long" "error unknown command 'xxxxxxxx" \
        "error no game: start one with n" >"$TMP/long.exp"
    if cmp -s "$TMP/long.exp" "$TMP/long.out"; then
        pp=$((pp + 1))
    else
        pf=$((pf + 1))
        echo "FAIL 65,535-byte boundary: unexpected answers:"
        cat "$TMP/long.out"
    fi
    echo "$pp passed, $pf failed"
}

# The suites, in the order they run; the first word is the tier.
# The runner itself first: fake suites (a crash after the summary, a
# non-zero exit, no check, no summary, a skip not allowed) must fail a run.
# The fast tier's longest suites need nothing the others make: they start
# now and run beside them (two cores), each shown and tallied at its place.
suite_start check pageunits env BUILD="$BUILD" timeout 300 node tests/web/unit/run.mjs
suite_start check session "$BUILD/test_session"
suite_start check exports env BUILD="$BUILD" sh tests/api_exports.sh
suite check "runner (fake suites)" sh tests/runner_check.sh
suite check fixtures fixtures
suite check "reference traces" "$T" refcheck tests/ref/*.txt
suite all selftest "$T" selftest ${SELFTEST_ARGS:-}
suite_join check "session API" session
suite_join check "public API exports" exports
suite all "bench signature" env BUILD="$BUILD" sh tests/bench_signature.sh
suite all "search service" "$BUILD/test_service"
# Wall-clock figures (tests/search/test_timing.c): reported with their
# limits; `make timing` (a quiet machine) fails one far outside them, `make
# test` (the machine may be busy) only a search that does not answer right.
suite timing "timing (wall clock)" env TAV_TIMING_STRICT="$([ "$TIER" = timing ] && echo 1 || echo 0)" "$BUILD/test_timing"
suite all "record parser fuzz" "$T" fuzzrecord --seconds ${FUZZ_SECONDS:-5}
suite all "terminal play (tmux)" env BUILD="$BUILD" sh tests/play_tmux.sh
suite all "terminal menu (tmux)" env BUILD="$BUILD" sh tests/menu_tmux.sh
suite all "terminal languages (tmux)" env BUILD="$BUILD" sh tests/lang_tmux.sh
suite check "terminal catalog" node tests/cli_i18n.mjs
suite all "match records" env BUILD="$BUILD" sh tests/match_save.sh
suite all "Toscana evaluation inputs" env BUILD="$BUILD" sh tests/toscana_features.sh
suite all "documents" env BUILD="$BUILD" sh tests/docs_check.sh
suite all "messages" env BUILD="$BUILD" sh tests/cli_messages.sh
suite check "generic code" env BUILD="$BUILD" sh tests/generic_code.sh
suite check "layers" sh tests/layers.sh
suite check "server core floors" env BUILD="$BUILD" node tests/core_floors.mjs
suite all "replay and analyze" env BUILD="$BUILD" sh tests/replay_analyze.sh
suite all "sealed deals" env BUILD="$BUILD" sh tests/seal.sh
suite check "protocol scripts" protocol_scripts
# One throwaway PostgreSQL for the whole run (scripts/pg-throwaway.sh, in
# the check and full tiers): the store conformance suite and the server
# suites run a second time on it.  Without initdb (the Debian package
# postgresql, scripts/setup.sh) that is one failure.
PGURI=""
if [ "$TIER" != timing ]; then
    echo "== PostgreSQL (throwaway)"
    PGDIR=/tmp/tav-pg-$$
    if PGURI=$(sh scripts/pg-throwaway.sh start "$PGDIR" 2>"$TMP/pgerr"); then
        echo "started at $PGURI"
    else
        echo "FAIL no throwaway PostgreSQL (install the Debian package postgresql: sh scripts/setup.sh):"
        cat "$TMP/pgerr"
        FAIL=$((FAIL + 1))
        note_failed "PostgreSQL (throwaway) did not start"
        PGURI=""
    fi
fi

# The server's C suites, in the fast tier once they are built: the store
# conformance suite and the server core's tests; the store's again on
# PostgreSQL (with a restart of the database).
for t in test_store test_core; do
    if [ -x "$BUILD/$t" ]; then
        suite check "server C suite $t" env -u TAV_TEST_PG "$BUILD/$t"
    fi
done
suite check "server C suite test_tournament" "$BUILD/test_tournament"
if [ -n "$PGURI" ] && [ -x "$BUILD/test_store" ]; then
    suite check "server C suite test_store (PostgreSQL)" env TAV_TEST_PG="$PGURI" TAV_TEST_PG_DIR="$PGDIR" "$BUILD/test_store"
fi

# The page's pure TypeScript (web/src: the boards' geometry and input, view
# helpers, meta, the game screen's texts) under node's own test runner, on
# positions played on $BUILD/tavoliere serve (tests/web/unit/run.mjs): node's
# report, then its pass and fail counts as "N passed, N failed".
suite_join check "page units (node --test)" pageunits

# The game server (tests/server/*.mjs, Node): API games checked against the
# engine, live sockets and computer seats, bad input, SIGKILL durability,
# Toscana's hidden information, the load benchmark in its short form, and the
# hardening attacks.
for t in api live badinput durability hidden accounts lobby channel chat moderation pool clocks consent limits bots botcli tournaments; do
    suite all "server $t" env -u TAV_TEST_PG BUILD="$BUILD" timeout 600 node "tests/server/$t.mjs"
done
# The same suites with every server on PostgreSQL (a fresh database each,
# tests/server/lib.mjs).
if [ -n "$PGURI" ]; then
    for t in api live badinput durability hidden accounts lobby channel chat moderation pool clocks consent limits bots botcli tournaments; do
        suite all "server $t (PostgreSQL)" env TAV_TEST_PG="$PGURI" BUILD="$BUILD" timeout 600 node "tests/server/$t.mjs"
    done
fi
# E-mail against a real SMTP server on loopback (python3-aiosmtpd), on SQLite
# and on PostgreSQL.
suite all "server mail" env -u TAV_TEST_PG BUILD="$BUILD" timeout 600 node tests/server/mail.mjs
if [ -n "$PGURI" ]; then
    suite all "server mail (PostgreSQL)" env TAV_TEST_PG="$PGURI" BUILD="$BUILD" timeout 600 node tests/server/mail.mjs
fi
# Several instances on one PostgreSQL behind nginx (deploy/nginx.conf): games
# across instances, a raced ply, the lobby, instances killed mid-game, the
# database restarted (its own PostgreSQL and nginx).
suite all "server cluster (3 instances, nginx, PostgreSQL)" env -u TAV_TEST_PG BUILD="$BUILD" timeout 600 node tests/server/cluster.mjs
# What an operator relies on (docs/deploy.md): make install, the unit,
# health, metrics, signals, a database that comes up late, the guide's
# backup and restore run as written (its own PostgreSQL).
suite all "server operator (install, health, metrics, signals, restore)" env -u TAV_TEST_PG BUILD="$BUILD" timeout 600 node tests/server/operator.mjs
suite all "server load (short)" env BUILD="$BUILD" timeout 300 node scripts/bench_server.mjs --games 50 --moves 6 --check
# The same through the benchmark's C client (tools/loadgen.c), on two
# instances of one PostgreSQL of its own, each game's seats and spectator
# spread over them: every move answered and seen by its spectator.
suite all "server load (short, C client, 2 instances on PostgreSQL)" env BUILD="$BUILD" timeout 300 \
    node scripts/bench_server.mjs --games 50 --moves 6 --check --client c --db pg --instances 2
# The attacks the server was hardened against (scripts/attack.mjs): each
# replayed against servers of its own, one row per attack.
suite all "server attacks" env BUILD="$BUILD" timeout 600 node scripts/attack.mjs --check

# The engine built for the browser (WebAssembly, $BUILD/web/tavoliere.wasm) in
# node against the native engine: seeded random games of every game answer
# the same move lists, states, hashes, positions and views, fixed-budget
# searches the same moves, the benchmark the same signatures
# (tests/wasm/agree.mjs; skipped with its reason without the toolchain).
suite_may_skip wasm all "wasm agrees with native (node)" env BUILD="$BUILD" timeout 600 node tests/wasm/agree.mjs

# The web page in Chromium (tests/web/*.test.mjs through tests/web/run.mjs):
# complete games by clicks and keys against the random player, friend games in
# several browser contexts, reload, stale tab, no console errors; screenshots
# in $BUILD/screenshots/.
suite all "web page (Chromium)" env BUILD="$BUILD" timeout 1800 node tests/web/run.mjs

finish
