#!/bin/sh
# tests/play_tmux.sh — drive `tavoliere play` in a real terminal (tmux):
# start, a legal move, an illegal one with its help text, undo, save, quit.
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
T="$(pwd)/$BUILD/tavoliere"
S="tavtest$$"
TMP=$(mktemp -d)
P=0
F=0
if ! command -v tmux >/dev/null 2>&1; then
    echo "FAIL tmux is not installed (scripts/setup.sh installs it)"
    echo "0 passed, 1 failed"
    exit 1
fi
screen() { tmux capture-pane -p -t "$S"; }
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
check() {
    if wait_for "$2"; then P=$((P + 1)); else F=$((F + 1)); echo "FAIL play: $1 (screen lacks '$2')"; screen | tail -15; fi
}
tmux new-session -d -s "$S" -x 120 -y 50 "cd $TMP && LANG=C.UTF-8 $T play epaminondas --white human --black random; echo PLAY-EXITED; sleep 30"
check "board drawn" "a b c d e f g h i j k l m n"
check "prompt" "white to move>"
tmux send-keys -t "$S" "a2-a3" Enter
check "legal move answered by the opponent" "black (random) plays"
tmux send-keys -t "$S" "zz9" Enter
check "illegal move explained" "is not a legal move"
tmux send-keys -t "$S" "b2" Enter
check "partial entry lists fitting moves" "Moves that fit"
tmux send-keys -t "$S" "undo" Enter
check "undo" "took back 2 moves"
tmux send-keys -t "$S" "a2-a3" Enter
sleep 0.3
tmux send-keys -t "$S" "save game.rec" Enter
check "save" "saved to game.rec"
tmux send-keys -t "$S" "quit" Enter
check "quit" "PLAY-EXITED"
if [ -f "$TMP/game.rec" ] && "$T" check "$TMP/game.rec" | grep -q "ok, epaminondas, 2 moves"; then
    P=$((P + 1))
else
    F=$((F + 1))
    echo "FAIL play: the saved record does not check out"
    cat "$TMP/game.rec" 2>/dev/null
fi
tmux kill-session -t "$S" 2>/dev/null
rm -rf "$TMP"
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
