# Epaminondas: the initial position, options and the shape of the notation.

test initial position: 114 moves, white to move, 28 pieces each
newgame epaminondas
count 114
state white no none 28:28
probe home => 0:0
probe pieces => 28:28
probe plies => 0
probe maxplies => 500

test initial moves: pairs forward 1-2 squares, diagonals, no sideways moves
newgame epaminondas
legal a2-a3 a1a2-a3 a1a2-a4 n1n2-n4 a2-b3 a1b2-c3 a1b2-d4 n2-m3 n1m2-l3 n1m2-k4
legal l1m2-n3 c1b2-a3 m2-n3 b2-a3
# the edge: a diagonal pair can not run off the board
illegal l1m2-o4 n2-o3 c1b2-z4 a2-a1 a1-b1
# blocked by own pieces: the horizontal ranks of 14 can not move sideways
illegal a1n1-o1 n1a1-z1 n2a2-a3 a1a2-a5 b1b2xb3 a2xa3

test initial position, black: the mirror image
newgame epaminondas
play a2-a3
state black no none 28:28
count 114
legal n11-n10 n12n11-n10 n12n11-n9 a12b11-c10 b12c11-d10 m12l11-k10

test options: maxplies is validated strictly
newgame epaminondas maxplies=1
probe maxplies => 1
newgame epaminondas maxplies=100000
probe maxplies => 100000
error newgame epaminondas maxplies=0
error newgame epaminondas maxplies=100001
error newgame epaminondas maxplies=-3
error newgame epaminondas maxplies=12x
error newgame epaminondas maxply=10
error newgame epaminondas variant=standard
expect newgame epaminondas foo=1 => error unknown option 'foo' (expected maxplies=N, 1..100000)

test notation: rear square then front square, whatever the direction
newgame epaminondas
play a1a2-a4
# black moves down: rear n12, front n11
legal n12n11-n9
illegal n11n12-n9 n11-n9 n12-n10
play n12n11-n9
state white no none 28:28
probe plies => 2
