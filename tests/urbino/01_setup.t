# Urbino: the setup. Black places an architect anywhere, white the second on
# another empty square, black names who erects the first building; that
# player builds without repositioning; then the other moves and turns alternate.

test black places the first architect on any of the 81 squares
newgame urbino
state black no none 0:0
count 81
legal Aa1 Ae5 Ai9
illegal first:black first:white He5 pass e5-f6,Hd4 A A10 Aj1 Ae0
probe lots => -
probe phase => place1

test white places the second architect on any other empty square
newgame urbino
play Ae5
state white no none 0:0
count 80
legal Af2 Aa1 Ae6
illegal Ae5 first:white Hf2 pass
probe lots => -

test black then chooses who builds first, and nothing else
newgame urbino
play Ae5 Af2
state black no none 0:0
moves first:black first:white
illegal Ag3 Hd4 pass

test first:white gives white the first building
newgame urbino
play Ae5 Af2
play first:white
state white no none 0:0
probe phase => first

test first:black gives black the first building
newgame urbino
play Ae5 Af2
play first:black
state black no none 0:0

test the first building: on a lot, no repositioning, any of the three types
newgame urbino
play Ae5 Af2
play first:white
probe lots => b2 c5 d4 e1 e2 e3 f4 f5 f6 g3 h2 i5
count 36
legal Hb2 Pd4 Tf6
illegal e5-e6,Hd4 f2-g3,Hd4 He5 Hf2 Ha1 pass

test after the first building the other player moves, with repositioning
newgame urbino
play Ae5 Af2
play first:white
play Hd4
state black no none 0:0
probe phase => play
legal He3 Tf5 e5-a1,Hb2 f2-e9,He6
illegal Hb2 Tc5 f2-i9,He6 d4-e6,Hc2 e5-f2,Hb2 e5-e5,Hb2 Hd4 pass e5-a1
play e5-a1,Hb2
state white no none 0:0

test after first:black, black builds, then white
newgame urbino
play Ae5 Af2 first:black He3
state white no none 0:0

test the setup is undone step by step
newgame urbino
play Ae5 Af2 first:white Hd4
undo
state white no none 0:0
undo
state black no none 0:0
count 2
undo
undo
count 81
