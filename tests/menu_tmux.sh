#!/bin/sh
# tests/menu_tmux.sh — the start menu of `tavoliere play` in a real terminal:
# names in any case, numbers, Enter for the default, every bad answer asked
# again, the variants, two people at one screen, end of input.
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
T="$(pwd)/$BUILD/tavoliere"
. tests/tmux_lib.sh

# The bug of issue 13: urbino, b, 3 lost the game name.  Every answer here is
# wrong for its question except the first: each is refused and asked again.
start "$T play"
check "menu: the game question" "game \[1\]:"
type_line "Urbino"
check "menu: a capitalised game name is accepted" "variant \[1\]:"
type_line "b"
check "menu: a bad variant is asked again" "'b' is not one of the choices"
type_line "3"
check "menu: a number out of range is asked again" "'3' is not one of the choices"
type_line "monuments"
check "menu: the opponent question" "players \[1\]:"
type_line ""
check "menu: the side question" "side \[1\]:"
check "menu: Urbino's side question says black moves first" "2) black (moves first)"
check_not "menu: and not white" "white (moves first)"
type_line "purple"
check "menu: a bad side is asked again" "'purple' is not one of the choices"
type_line "b"
check "menu: the level question" "AI level"
check "menu: the levels show their ratings" "level  1 — about [0-9]"
type_line "11"
check "menu: a bad level is asked again" "'11' is not a level"
type_line "3"
check "menu: the game starts with the choices made" "urbino (variant=monuments): white is ai:level=3, black is human"
check "menu: the human (black) places the first architect" "black to move>"
type_line "quit"
type_line "y"
check "menu game: quit" "EXITED 0"

# A mistyped game is asked again instead of leaving; Enter takes the defaults.
start "$T play"
check "menu 2: game question" "game \[1\]:"
type_line "urbinoo"
check "menu 2: a mistyped game is asked again" "'urbinoo' is not one of the choices"
check_not "menu 2: a mistyped game does not exit" "EXITED"
type_line "2"
check "menu 2: epaminondas has no variant question" "players \[1\]:"
type_line ""
check "menu 2: Epaminondas' side question says white moves first" "1) white (moves first)"
type_line ""
type_line ""
check "menu 2: Enter everywhere: human white against level 5" "epaminondas: white is human, black is ai:level=5"
check "menu 2: the board" "white to move>"
type_line "quit"
type_line "y"
check "menu 2: quit" "EXITED 0"

# Cathedral's late opening, two people at one screen.
start "$T play"
check "menu 3: game question" "game \[1\]:"
type_line "cathedral"
check "menu 3: the opening question" "opening \[1\]:"
type_line "late"
check "menu 3: the opponent question" "two people at one screen"
type_line "2"
check "menu 3: two people, late opening" "cathedral (opening=late): white is human, black is human"
type_line "quit"
type_line "y"
check "menu 3: quit" "EXITED 0"

# Toscana by prefix; the end of input at a question leaves quietly.
start "$T play"
check "menu 4: game question" "game \[1\]:"
type_line "tosc"
check "menu 4: a unique prefix is accepted" "players \[1\]:"
send C-d
check "menu 4: end of input leaves with status 0" "EXITED 0"

finish
