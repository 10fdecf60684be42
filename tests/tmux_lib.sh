# tests/tmux_lib.sh — helpers for the terminal tests (sourced): one tmux
# session per scenario, a screen capture, waits and checks that count
# passes and failures in P and F.
S="tavtest$$"
TMPT=$(mktemp -d)
P=0
F=0
if ! command -v tmux >/dev/null 2>&1; then
    echo "FAIL tmux is not installed (scripts/setup.sh installs it)"
    echo "0 passed, 1 failed"
    exit 1
fi
# Our own tmux server (socket named after this run), so other tmux users and
# tests cannot disturb it.
tm() { tmux -L "$S" "$@"; }
# start COMMAND: a fresh 120x50 terminal running COMMAND in the scratch directory;
# when it ends the screen shows "EXITED <status>".  The previous terminal is
# closed only after the new one exists (closing the last one would stop the
# server while the next one connects).
K=0
CUR=""
start() {
    K=$((K + 1))
    old=$CUR
    CUR="t$K"
    tm new-session -d -s "$CUR" -x 120 -y 50 "cd $TMPT && LANG=C.UTF-8 XDG_CONFIG_HOME=$TMPT/cfg $1; echo EXITED \$?; sleep 60"
    [ -n "$old" ] && tm kill-session -t "$old" 2>/dev/null
    return 0
}
screen() { tm capture-pane -p -t "$CUR" -S -200; }
# Wait until the screen shows a pattern (at most ~10 s).
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        if screen | grep -q -- "$1"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# Count how often a pattern is on the screen now.
count() { screen | grep -c -- "$1"; }
send() { tm send-keys -t "$CUR" "$@"; }
# type TEXT: the text and Enter.
type_line() { tm send-keys -t "$CUR" -l -- "$1"; tm send-keys -t "$CUR" Enter; }
check() {
    if wait_for "$2"; then P=$((P + 1)); else F=$((F + 1)); echo "FAIL $1 (screen lacks '$2')"; screen | tail -15; fi
}
# check_not NAME PATTERN: the screen does not show it (now).
check_not() {
    if screen | grep -q -- "$2"; then F=$((F + 1)); echo "FAIL $1 (screen shows '$2')"; screen | tail -15; else P=$((P + 1)); fi
}
finish() {
    tm kill-server 2>/dev/null
    rm -rf "$TMPT"
    echo "$P passed, $F failed"
    [ "$F" -eq 0 ]
}
