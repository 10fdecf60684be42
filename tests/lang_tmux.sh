#!/bin/sh
# tests/lang_tmux.sh — `tavoliere play` in both languages (SPEC "Languages"),
# driven in a real terminal (tmux): Italian under LANG=it_IT.UTF-8 (the
# menus, the prompt, a refused move, the help, the confirmation on quit, a
# resignation's end message), under LC_MESSAGES=it_IT with LANG=C, and with
# --lang it; the library's explanations and status lines, and whole games
# of the four, in Italian; English under LANG=C and when LC_ALL=C overrides
# an Italian LANG.  Then the catalog's own check (tests/cli_i18n.mjs).  Prints "N
# passed, N failed".
BUILD=${BUILD:-build}
T="$(pwd)/$BUILD/tavoliere"
. tests/tmux_lib.sh

# Italian, through the menus.
start "env LANG=it_IT.UTF-8 $T play"
check "it: the game menu" "Tavoliere — quale gioco?"
type_line "epaminondas"
check "it: who plays" "Chi gioca?"
type_line "1"
check "it: which side" "Con quale colore giochi?"
type_line "1"
check "it: the levels" "livello  1 — "
check "it: the level question" "livello del computer, da 1 (il più debole) a 10 (il più forte) \[5\]:"
type_line "1"
check "it: the start line" "il Bianco è una persona, il Nero è ai:level=1. Scrivi 'help' per l'aiuto."
check "it: the prompt" "muove il Bianco>"
check "it: the hands" "Bianco: 28 pedine sul tavoliere, 0 perse"
check "it: the score line" "punteggio Bianco 28, Nero 28"
type_line "zz9"
check "it: a refused move explained" "'zz9' non è una mossa valida"
type_line "help"
check "it: the help" "basta un inizio che la identifichi"
type_line "a2-a3"
check "it: the computer's move" "il Nero (ai:level=1) gioca"
type_line "quit"
check "it: quit asks" "Lasci la partita? y = esci senza salvare, s = prima salvala, n = continua \[n\]:"
type_line "y"
check "it: left" "EXITED 0"

# Italian resignation; LC_MESSAGES alone is enough.
start "env LANG=C LC_MESSAGES=it_IT.UTF-8 $T play epaminondas --white human --black random"
check "LC_MESSAGES=it: Italian" "muove il Bianco>"
type_line "resign"
check "it: resign asks" "Abbandoni la partita?"
type_line "y"
check "it: the end message" "il Bianco abbandona: vince il Nero."
check "it: another game?" "n = un'altra partita (stessi giocatori), s = salva questa partita, q = esci \[q\]:"
type_line "q"
check "it: left after the end" "EXITED 0"

# --lang it under an English locale; Toscana's words.
start "env LANG=C $T play toscana --lang it --white human --black human"
check "--lang it: Italian" "muove il Nero>"
check "--lang it: Toscana's stacks" "tessera in cima"
check "--lang it: the veto's decision explained" "Decisione del Nero: il Bianco sta per posare la tessera"
type_line "quit"
type_line "y"
check "--lang it: left" "EXITED 0"

# The library's own sentences in Italian (src/cli/i18n_lib.c): a move
# understood another way, a building refused with the reason, the status
# line of the position.
start "env LANG=it_IT.UTF-8 $T play urbino --white human --black human"
check "it: Urbino's status line" "standard, 0 lotti, passaggi 0; ultima mossa: -"
check "it: Urbino's districts" "quartieri: nessuno fa ancora punti"
type_line "ae5"
check "it: letter case explained" "giocata Ae5 (le mosse si scrivono 'Ae5' (maiuscole e minuscole contano))"
type_line "Af2"
type_line "first:white"
type_line "He5"
check "it: a taken square explained" "'He5' non è una mossa valida: e5 è occupata"
type_line "Tb7"
check "it: a square that is no lot explained" "b7 ora non è un lotto"
check_not "it: no English explanation" "is taken"
type_line "quit"
type_line "y"

# Whole games, computer against computer, in Italian: how each was won, and
# every status line, without a sentence of the library left in English.
for g in urbino cathedral epaminondas toscana; do
    out=$(env LANG=it_IT.UTF-8 timeout 120 "$T" play "$g" --white random --black random </dev/null 2>&1)
    if printf '%s\n' "$out" | grep -q "Partita finita"; then P=$((P + 1)); else F=$((F + 1)); echo "FAIL it: a whole $g game ends in Italian"; fi
    left=$(printf '%s\n' "$out" | grep -nE " is won by|the lower score wins|reached the far row|legal move left|Pieces left|tiles placed|in a row|lots, passes|claims (on|off)|far row white|districts|who scores| white=| -> (white|black|none)" | head -3)
    if [ -z "$left" ]; then P=$((P + 1)); else F=$((F + 1)); echo "FAIL it: $g: the library's English left: $left"; fi
done

# English: LANG=C, and LC_ALL=C over an Italian LANG.
start "env LANG=C $T play epaminondas --white human --black random"
check "LANG=C: English prompt" "white to move>"
type_line "zz9"
check "LANG=C: English refusal" "'zz9' is not a legal move"
type_line "quit"
type_line "y"
start "env LANG=it_IT.UTF-8 LC_ALL=C $T play epaminondas --white human --black random"
check "LC_ALL=C over LANG=it: English" "white to move>"
check_not "LC_ALL=C over LANG=it: no Italian" "muove il"
type_line "quit"
type_line "y"

if node tests/cli_i18n.mjs >/dev/null; then P=$((P + 1)); else F=$((F + 1)); echo "FAIL tests/cli_i18n.mjs"; node tests/cli_i18n.mjs | grep FAIL; fi
finish
