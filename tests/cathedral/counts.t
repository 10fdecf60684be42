# Cathedral: move counts (legal moves, and perft: move sequences of depth D).
# Depth-2 counts from the start were checked against an independent
# brute-force enumeration of the shapes of SPEC.md; the classic and late
# depth-2 counts agree (both count the disjoint Cathedral/building pairs).

test classic start: 224 Cathedral places, then black's buildings
newgame cathedral
count 224
perft 1 224
perft 2 398548

test late start: 2141 buildings, then the Cathedral
newgame cathedral opening=late
count 2141
perft 1 2141
perft 2 398548

test late: after white's Inn in the corner, black's Cathedral, then his building
newgame cathedral opening=late
play I:a2,b1,b2
count 214
perft 2 359411
perft 3 528645794

test classic: after the Cathedral and black's first building
newgame cathedral
play Y:e4,f3,f4,f5,f6,g4
play I:a2,b1,b2
count 1618
perft 2 2310156

test seed diagram 2, black to move (captures in the tree)
newgame cathedral
position
..........
..........
..........
..........
..........
.......CCC
bbbs..BCYC
S..s..BYYY
S.....B.Y.
........Y.
opening=classic
tomove=black
cathedral=board
built=both
passes=0
last=none
end
count 1180
perft 2 1024467
perft 3 804270222

test seed diagram 1, white to move (territory on both sides)
newgame cathedral
position
+SSB...s..
II.B...s..
I..B...tY.
.TSS..YYYY
........Y.
..........
..........
.......bss
.......b--
.......b--
opening=classic
tomove=white
cathedral=board
built=both
passes=0
last=none
end
count 854
perft 2 590505

test near the end: passes in the tree
newgame cathedral
position
....D.Y...
IImDDYYYY.
.ImmDDY.ww
ttmM...wwa
.T.MMSSwaa
ss.M..b.a.
ss..WWbCCT
-i.WWib.C.
iiIW.iiCC.
..II.SS...
opening=classic
tomove=black
cathedral=board
built=both
passes=0
last=T:b6
end
count 1
perft 2 8
perft 3 8
perft 4 8

test the last placements of a game
newgame cathedral
position
-x-mmm..YT
xxxtmBYYYY
.xM..B..Y.
.MMSSB.a.w
iTMSi.aaww
ii.Siiawws
ccc..I..Ws
c.c.II.WW.
QQ.sstWWI.
QQ.....II.
opening=classic
tomove=white
cathedral=board
built=both
passes=0
last=I:a5,a6,b5
end
count 1
perft 2 4
perft 4 4
