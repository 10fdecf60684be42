#!/bin/sh
# tests/runner_check.sh — the test runner tells the truth: fake suites run
# through tests/runlib.sh's own suite(), tally() and finish() (what
# tests/run.sh, and so `make test`, uses), each in a runner of its own; a
# run that holds one bad suite must end non-zero with its failure counted.
# Prints "N passed, N failed".

pp=0
pf=0
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# run_fake EXPECT NAME ALLOW SCRIPT: a runner (TIER=all) with one good suite
# ("3 passed, 0 failed", exit 0) and the fake suite SCRIPT (sh -c), the
# fake allowed to skip under key "fake" when ALLOW is "allow".  EXPECT is
# pass or fail: how the whole run must end (for pass, with the total of
# passes given as a fifth argument).
run_fake() {
    expect=$1
    label=$2
    allow=$3
    script=$4
    if [ "$allow" = allow ]; then skipkey=fake; else skipkey=""; fi
    env TAV_ALLOW_SKIP="$([ "$allow" = allow ] && echo fake)" TIER=all TMP="$W" \
        FAKE="$script" SKIPKEY="$skipkey" sh -c '
        . tests/runlib.sh
        suite all "good" sh -c "echo \"3 passed, 0 failed\""
        suite_may_skip "$SKIPKEY" all "fake" sh -c "$FAKE"
        finish' >"$W/run.out" 2>&1
    st=$?
    last=$(tail -n 1 "$W/run.out")
    if [ "$expect" = fail ]; then
        case $last in
        *" passed, "[1-9]*" failed") okline=1 ;;
        *) okline=0 ;;
        esac
        if [ "$st" -ne 0 ] && [ "$okline" -eq 1 ]; then
            pp=$((pp + 1))
        else
            pf=$((pf + 1))
            echo "FAIL $label: the run ended with status $st and '$last' (a failure expected)"
            sed 's/^/    /' "$W/run.out"
        fi
    else
        if [ "$st" -eq 0 ] && [ "$last" = "$5 passed, 0 failed" ]; then
            pp=$((pp + 1))
        else
            pf=$((pf + 1))
            echo "FAIL $label: the run ended with status $st and '$last' (a pass expected)"
            sed 's/^/    /' "$W/run.out"
        fi
    fi
}

# run_bg EXPECT NAME SCRIPT: the same with the fake suite started in the
# background (suite_start) before the good one runs, and joined after it.
run_bg() {
    expect=$1
    label=$2
    env TIER=all TMP="$W" FAKE="$3" sh -c '
        . tests/runlib.sh
        suite_start all fake sh -c "$FAKE"
        suite all "good" sh -c "echo \"3 passed, 0 failed\""
        suite_join all "fake" fake
        finish' >"$W/run.out" 2>&1
    st=$?
    last=$(tail -n 1 "$W/run.out")
    case $expect in
    fail) [ "$st" -ne 0 ] && case $last in *" passed, "[1-9]*" failed") true ;; *) false ;; esac ;;
    *) [ "$st" -eq 0 ] && [ "$last" = "$expect passed, 0 failed" ] ;;
    esac
    if [ $? -eq 0 ]; then
        pp=$((pp + 1))
    else
        pf=$((pf + 1))
        echo "FAIL $label: the run ended with status $st and '$last' (expected: $expect)"
        sed 's/^/    /' "$W/run.out"
    fi
}

cd "$(dirname "$0")/.." || exit 1
run_fake fail "a crash (SIGSEGV) after its summary" no 'echo "7 passed, 0 failed"; kill -SEGV $$'
run_fake fail "a non-zero exit after 0 passed, 0 failed" no 'echo "0 passed, 0 failed"; exit 1'
run_fake fail "a non-zero exit after its passes" no 'echo "5 passed, 0 failed"; exit 1'
run_fake fail "a sanitizer exit after the summary (status 23)" no 'echo "4 passed, 0 failed"; echo "==1==ERROR: LeakSanitizer: detected memory leaks"; exit 23'
run_fake fail "zero checks, exit 0" no 'echo "0 passed, 0 failed"'
run_fake fail "no summary at all, exit 0" no 'echo "all fine"'
run_fake fail "a skip that is not allowed" no 'echo "skipped: no toolchain"; echo "0 passed, 0 failed"'
run_fake fail "a skip under another key than the one allowed" no 'echo "skipped: x"; echo "0 passed, 0 failed"'
run_fake fail "an allowed suite that ran nothing without saying why" allow 'echo "0 passed, 0 failed"'
run_fake fail "a failed check" no 'echo "FAIL x"; echo "2 passed, 1 failed"; exit 1'
run_fake pass "a skip allowed by TAV_ALLOW_SKIP, saying why" allow 'echo "skipped: no toolchain"; echo "0 passed, 0 failed"' 3
run_fake pass "a suite that passes" no 'echo "2 passed, 0 failed"' 5
run_bg fail "a background suite that crashes after its summary" 'echo "7 passed, 0 failed"; kill -SEGV $$'
run_bg fail "a background suite that runs no check" 'echo "0 passed, 0 failed"'
run_bg fail "a background suite with no summary" 'echo hello'
run_bg 8 "a good background suite, joined after a suite that ran meanwhile" 'sleep 0.3; echo "5 passed, 0 failed"'
echo "$pp passed, $pf failed"
[ "$pf" -eq 0 ]
