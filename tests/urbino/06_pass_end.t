# Urbino: passing and the end. A player who cannot erect any building,
# whatever repositioning he makes (or who has no buildings left), has one
# legal move, pass; a voluntary pass is never legal. Repositioning is legal
# only as part of a move that then builds. Two passes in a row end the game.

test white has used all 27 buildings: pass is the only move
newgame urbino
position
.........
.........
.........
.........
....A....
....A....
HPHHHHHHH
HHHTHTHTH
PHPHPHPHP
phase=play
tomove=white
passes=0
end
probe supply => white H0 P0 T0 black H18 P6 T3
moves pass
illegal e5-e6,Hd4 Hd4 e5-e6
play pass
state black no none 0:0
illegal pass
legal Hd4 e5-a9,Ha4
play Hd4
expect getposition => position ........./........./........./........./....A..../...hA..../HPHHHHHHH/HHHTHTHTH/PHPHPHPHP/phase=play/tomove=white/passes=0/variant=standard
state white no none 39:0
play pass
state black no none 39:0

test both players without buildings: pass, pass, and the game is over
newgame urbino
position
phphphphp
hhhththth
hphhhhhhh
.........
....A....
....A....
HPHHHHHHH
HHHTHTHTH
PHPHPHPHP
phase=play
tomove=white
passes=0
end
moves pass
play pass
state black no none 0:0
moves pass
play pass
state none yes draw 0:0
count 0
illegal pass
undo
state black no none 0:0
moves pass

test a position after one pass, the other passing too ends the game
newgame urbino
position
phphphphp
hhhththth
hphhhhhhh
.........
....A....
....A....
HPHHHHHHH
HHHTHTHTH
PHPHPHPHP
phase=play
tomove=black
passes=1
end
play pass
state none yes draw 0:0

test a player out of towers builds only houses and palaces
newgame urbino
position
.........
.........
....A....
.........
....A..P.
.........
.........
.........
T.T.T....
phase=play
tomove=white
passes=0
end
probe supply => white H18 P5 T0 black H18 P6 T3
legal He6 Pe6
illegal Te6 Tf5 e7-f7,Te6
play He6
legal Tf6 Pd6
illegal Te6

# The architects on a1 and b1 are walled in by the district a2 b2 c1 c2:
# neither sees a single square, and moving one of them leaves the other
# blind: no building is possible whatever the repositioning, so white passes
# although his supply is full; the architects stay where they are.
test blind architects: pass is forced with a full supply
newgame urbino
position
........h
.........
.........
.........
.........
.........
.........
HHh......
AAh......
phase=play
tomove=white
passes=0
end
probe lots => -
moves pass
illegal a1-e5,He4 b1-e5,Hd5 a1-e5
play pass
probe lots => -
moves pass
play pass
state none yes draw 0:0

# The architect on a1 is walled in by white houses a2 b2 b1: no lot where
# they stand. Every legal move moves the a1 architect and then builds;
# moving the e5 architect leaves a1 blind. No pass, no bare repositioning.
test repositioning is legal only as part of a move that builds
newgame urbino
position
........h
.........
.........
.........
....A....
.........
.........
HH.......
AH.......
phase=play
tomove=black
passes=0
end
probe lots => -
illegal pass He4 e5-e4,Hd4 a1-c3 a1-c3,Ha1
legal a1-e1,He3 a1-a9,Ha5 a1-c3,Td4
count 1722
