# Urbino: sight lines and building lots. Each architect sees along the 8
# directions through empty squares; sight stops before a building, the other
# architect or the edge. A lot is an empty square seen by both.

test PerGioco: architects on f2 and d6, the nine crossings of their sight lines
newgame urbino
play Af2 Ad6 first:black
probe lots => b6 c5 d2 d4 f4 f6 f8 g3 h2
count 27
legal Hb6 Pc5 Td2 Hd4 Pf4 Tf6 Hf8 Pg3 Th2
illegal Hf3 He4 Hd5 Hf2 Hd6 Ha1

test architects on one line: every square between them is a lot
newgame urbino
play Ab2 Ah8 first:white
probe lots => b8 c3 d4 e5 f6 g7 h2

test the other architect blocks sight: nothing beyond it on their line
newgame urbino
play Aa1 Ac1 first:white
probe lots => a3 b1 b2 c3
illegal Hd1 He1 Hd4 Ha2 Hc2

test a building blocks sight; its far side is no lot
position
.........
.........
.........
.........
.........
.........
.........
A.H.A....
.........
phase=play
tomove=black
passes=0
end
probe lots => a6 c4 e6
illegal Hb2 Hd2 Hc2 Pc2

test lots follow the board after each move, repositioning included
newgame urbino
play Ae5 Af2 first:white He3
probe lots => b2 f4 f5 f6 g3 h2 i5
illegal Hd4 He2 e5-e4,Hd4
play e5-e1,Hd2
probe lots => e2 f1 g1
