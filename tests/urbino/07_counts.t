# Urbino: move counts (legal moves, and perft: move sequences of depth D).
# The depth-2 counts after the setup were checked against a brute-force
# enumeration (every architect configuration, every square seen by both,
# every type, the board rules re-checked from scratch after placing).

test the setup: 81 x 80 architect pairs, then two choices
newgame urbino
count 81
perft 1 81
perft 2 6480
perft 3 12960
perft 4 267456

test after Ae5 Af2: the choice, then 12 lots x 3 types for either player
newgame urbino
play Ae5 Af2
perft 1 2
perft 2 72
perft 3 220886

test the first building (perft 2 from a setup position)
newgame urbino
play Ae5 Af2 first:white
count 36
perft 2 110443

test after the first building: repositionings
newgame urbino
play Ae5 Af2 first:white Hd4
count 2928
perft 2 7124406

test the monuments variant has the same moves
newgame urbino variant=monuments
play Ae5 Af2 first:white Hd4
count 2928

test a reference game after six plies (counts as in tests/ref/urbino.txt)
newgame urbino
play Ai9 Af5 first:black He5
count 2526
play i9-d5,Pe6 d5-a8,Hf8
count 1892
perft 2 3274587
