#!/bin/sh
# tests/play_tmux.sh — drive `tavoliere play` in a real terminal (tmux):
# moves, refused moves explained without redrawing the board, a partial entry,
# undo, save, the confirmations on quit and resign with the offer to save, the
# end screen and another game.  Prints "N passed, N failed".
BUILD=${BUILD:-build}
T="$(pwd)/$BUILD/tavoliere"
. tests/tmux_lib.sh
BOARD="a b c d e f g h i j k l m n"

start "$T play epaminondas --white human --black random"
check "board drawn" "$BOARD"
check "prompt" "white to move>"
type_line "A2-A3"
check "upper-case entry played as the canonical move" "played a2-a3 (moves are written 'a2-a3'"
check "the opponent answers" "black (random) plays"
# Boards drawn so far, counted once the program waits at its prompt (nothing
# of this turn is still to come; an empty prompt is the newest one).
wait_for "white to move>$"
boards=$(count "$BOARD")
type_line "zz9"
check "illegal move explained" "'zz9' is not a legal move"
type_line "help"
check "help answered" "a unique beginning is enough"
type_line "b2"
check "partial entry lists fitting moves" "Moves that fit (3)"
wait_for "white to move>$"   # everything b2 printed is on the screen
if [ "$(count "$BOARD")" -eq "$boards" ]; then P=$((P + 1)); else F=$((F + 1)); echo "FAIL the board was redrawn after help or a refused move"; fi
check_not "the score is printed once per board" "score 28:28"
type_line "moves"
check "moves grouped by rear square" "  a1: a1b2-c3"
type_line "undo"
check "undo" "took back 2 moves"
type_line "a2-a3"
check "move after undo" "black (random) plays"
type_line "save game.rec"
check "save" "saved to game.rec"
type_line "quit"
check "quit asks for confirmation" "Leave this game? y = leave without saving, s = save it first, n = go on"
type_line "n"
check "n goes on playing" "white to move>$"
type_line "quit"
type_line "s"
check "s asks for a file name" "file name \[epaminondas.rec\]:"
type_line "left.rec"
check "saved on leaving" "saved to left.rec"
check "then left" "EXITED 0"
for f in game.rec left.rec; do
    if [ -f "$TMPT/$f" ] && "$T" check "$TMPT/$f" | grep -q "ok, epaminondas, 2 moves"; then
        P=$((P + 1))
    else
        F=$((F + 1))
        echo "FAIL play: the saved record $f does not check out"
        cat "$TMPT/$f" 2>/dev/null
    fi
done

# Resign: confirmation, end screen, another game.
start "$T play epaminondas --white human --black random"
check "resign game: prompt" "white to move>"
type_line "resign"
check "resign asks for confirmation" "Resign this game? y = resign"
type_line "n"
check "n keeps playing" "white to move>$"
type_line "resign"
type_line "y"
check "resignation explained" "white resigned: black wins."
check "another game offered" "n = another game (same players), s = save this game, q = quit"
type_line "n"
check "another game starts" "white to move>$"
type_line "quit"
type_line "y"
check "left after the second game" "EXITED 0"

# Cathedral, two people at one screen: any order of squares, the hand as shapes.
start "$T play cathedral --white human --black human"
check "cathedral: the Cathedral drawn in white's hand" "   Y Y Y"
check "cathedral: counts under the shapes" "x2"
type_line "Y:e8,e7,e6,f6,d6,e5"
check "cathedral: squares in any order are accepted" "played Y:d6,e5,e6,e7,e8,f6"
type_line "quit"
type_line "y"
check "cathedral: left" "EXITED 0"

# Urbino: a tower beside a tower is explained; districts shown during play.
start "$T play urbino --white human --black human"
check "urbino: districts line" "districts: none scores yet"
# Each move once the last one was answered (the screen stays readable).
type_line Ae5
wait_for "last move: Ae5"
type_line Ag3
wait_for "last move: Ag3"
type_line first:white
wait_for "white to move>$"
type_line Tf4
check "urbino: the tower stands" "last move: Tf4"
type_line "e5-e4,Tf5"
check "urbino: tower beside a tower explained" "a tower may not stand beside a tower (f4 has one"
type_line "moves"
check "urbino: moves grouped by architect move" "legal moves, by architect move (or none)"
check "urbino: buildings allowed without moving an architect" "(no architect move): house"
type_line "Ta9"
check "urbino: a square that is no lot explained" "a9 is not a building lot now"
type_line "quit"
type_line "y"
check "urbino: left" "EXITED 0"

# Epaminondas: '-' typed for a capture is answered "did you mean ...x...?",
# not played; an 'x' for a plain move likewise.
cat >"$TMPT/cap.rec" <<'REC'
[Game "epaminondas"]
[White "human"]
[Black "human"]

f1g2-i4 l12l11-l9 m1g1-f1 m11-l11 h2h3-h5 f11-g10 h5i4-j3 k11l10-n8
b2f2-g2 j11-k11 d1c2-a4 d12c11-b10 g1e1-d1 k12e12-d12 i1j2-l4 b11b10-b8
h4-g4 n12n11-n9 k2i4-h5 m12l11-k10 g4-g3 c12j12-m12 h1j3-l5 i12i11-i9
a1f1-g1 k10-k9 l4l5-l6 g10-h10 g2d2-c2 g12h12-i12 d2-e3 a12a11-a9
i4-j4 f12-e12 j4l2-m1 l11-m11 f2-f3 m12-l11 m1j1-h1 k11-l10
e1e3-e4 l12l9xl6 f1e2-c4 g11-f11 e4f3-g2 c11-d10 j1g1-f1 e11d11-b11
d3-e4 b8-a8
REC
start "$T play --load cap.rec"
check "capture: loaded" "white to move>"
type_line "h1e4-a8"
check "capture: '-' for a capture explained" "a capture is written with x: did you mean h1e4xa8?"
type_line "a2xa3"
check "capture: 'x' for a plain move explained" "that move captures nothing: did you mean a2-a3?"
check_not "capture: neither was played" "last move: h1e4xa8"
type_line "h1e4xa8"
check "capture: the capture itself" "last move: h1e4xa8"
type_line "quit"
type_line "y"
check "capture: left" "EXITED 0"

# The end screens explain the result.
start "$T play cathedral --white random --black random"
check "cathedral end: lower score wins" "In Cathedral the lower score wins"
type_line "q"
check "cathedral end: q leaves" "EXITED 0"
start "$T play epaminondas --white random --black random maxplies=60"
check "epaminondas end: explained" "The ply limit was reached\|reached the far row\|has no legal move left"
type_line "q"
check "epaminondas end: q leaves" "EXITED 0"

finish
