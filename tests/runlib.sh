# tests/runlib.sh — the test runner's bookkeeping, sourced by tests/run.sh
# (and by tests/runner_check.sh, which runs fake suites through these very
# functions).  Needs TMP (a scratch directory) and TIER set by the caller.
#
# A suite counts as one failure more than it reports when it
#   - exits with a status other than 0 (a crash after its summary, a
#     sanitizer's exit, a suite's own net),
#   - prints no "N passed, N failed" line,
#   - ran no check at all ("0 passed, 0 failed"),
# unless it said "skipped: WHY" and its name is allowed to skip in
# TAV_ALLOW_SKIP (a comma-separated list of suite keys, e.g. "wasm"; CI
# never sets it).  A skip that is not allowed is a failure.

PASS=0
FAIL=0
SUITES_FAILED=""

# note_failed NAME: remember a failed suite for the closing list.
note_failed() {
    SUITES_FAILED="$SUITES_FAILED
  $1"
}

# skip_allowed KEY: whether TAV_ALLOW_SKIP names KEY.
skip_allowed() {
    case ",${TAV_ALLOW_SKIP:-}," in
    *",$1,"*) return 0 ;;
    esac
    return 1
}

# tally OUT NAME STATUS [KEY]: add a suite's closing "N passed, N failed" line
# (the last one in OUT) to the totals, with the suite's exit status.
tally() {
    out=$1
    tname=$2
    tstatus=$3
    tkey=${4:-}
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
    if [ -z "$line" ]; then
        echo "RUNNER: suite $tname printed no summary (exit status $tstatus): counted as one failure"
        FAIL=$((FAIL + 1))
        note_failed "$tname (no summary)"
        return
    fi
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
    PASS=$((PASS + p))
    FAIL=$((FAIL + f))
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        if [ -n "$tkey" ] && skip_allowed "$tkey" && grep -q 'skipped' "$out"; then
            echo "RUNNER: suite $tname skipped, allowed by TAV_ALLOW_SKIP=$TAV_ALLOW_SKIP"
        else
            echo "RUNNER: suite $tname ran no check: counted as one failure"
            FAIL=$((FAIL + 1))
            note_failed "$tname (no check ran)"
            return
        fi
    fi
    if [ "$tstatus" -ne 0 ]; then
        echo "RUNNER: suite $tname exited with status $tstatus: counted as one failure"
        FAIL=$((FAIL + 1))
        note_failed "$tname (exit status $tstatus)"
        return
    fi
    if [ "$f" -ne 0 ]; then
        note_failed "$tname ($f failed)"
    fi
}

# suite TIER NAME COMMAND...: run one suite of that tier when the run takes
# it (TIER=all takes every one); its output is shown, its summary and exit
# status tallied.
suite() {
    suite_may_skip "" "$@"
}

# suite_may_skip KEY TIER NAME COMMAND...: the same for a suite that may
# say "skipped: WHY" and run nothing when TAV_ALLOW_SKIP names KEY.
suite_may_skip() {
    skey=$1
    shift
    stier=$1
    sname=$2
    shift 2
    [ "$TIER" = all ] || [ "$TIER" = "$stier" ] || return 0
    echo "== $sname"
    st0=$(date +%s)
    "$@" >"$TMP/out" 2>&1
    sstatus=$?
    sed 's/^\([0-9]* passed, [0-9]* failed\)$/suite: \1/' "$TMP/out"
    echo "($sname: $(($(date +%s) - st0)) s, exit status $sstatus)"
    tally "$TMP/out" "$sname" "$sstatus" "$skey"
}

# suite_start TIER KEY COMMAND...: start a suite of that tier now, in the
# background (when the run takes that tier), to run beside the suites that
# follow; suite_join shows and tallies it at its own place in the run, as
# suite does (its output, its exit status, its summary).
suite_start() {
    bt=$1
    bk=$2
    shift 2
    [ "$TIER" = all ] || [ "$TIER" = "$bt" ] || return 0
    rm -f "$TMP/bg-$bk.status"
    : >"$TMP/bg-$bk.out"
    ( "$@" >"$TMP/bg-$bk.out" 2>&1
      echo $? >"$TMP/bg-$bk.status.tmp"
      mv "$TMP/bg-$bk.status.tmp" "$TMP/bg-$bk.status" ) &
}

# suite_join TIER NAME KEY: the suite that suite_start began as KEY, once it
# has ended (its status file is polled for), shown and tallied as suite
# would; one never started prints no summary and fails.
suite_join() {
    suite "$1" "$2" bg_result "$3"
}

bg_result() {
    if [ ! -f "$TMP/bg-$1.out" ]; then
        echo "RUNNER: suite $1 was never started"
        return 1
    fi
    while [ ! -f "$TMP/bg-$1.status" ]; do sleep 0.1; done
    cat "$TMP/bg-$1.out"
    return "$(cat "$TMP/bg-$1.status")"
}

# finish: the closing lines (the failed suites, then the total alone on the
# last line) and the run's exit status: 0 only when nothing failed and
# something passed.
finish() {
    if [ -n "$SUITES_FAILED" ]; then
        echo "== suites that failed:$SUITES_FAILED"
    fi
    echo "== total"
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ]
}
