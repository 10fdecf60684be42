# Cathedral: territory, the examples of the PerGioco newsletter (seed 002),
# redrawn as positions.  Board letters: white upper case, black lower case,
# Y the Cathedral, + white territory, - black territory, . empty.

test seed diagram 1: a10 and the bottom-right are controlled, b8-c8-c9 leaks diagonally
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
state white no none 36:39
probe territory => white=a10 black=i1,i2,j1,j2
# black controls the bottom-right corner: white may not build there
illegal T:j1 S:i1,i2 Q:i1,i2,j1,j2
# a8 and b7 touch only at a corner: b8-c8-c9 is not white's, black may build there
legal T:c8
# the top-right area is closed by black and the Cathedral: not black's, white may build
legal T:i10 I:i9,j8,j9
# a Tavern on b8 closes the wall: c8-c9 become white's
play T:b8
probe territory => white=a10,c8,c9 black=i1,i2,j1,j2
illegal T:c8 T:c9 T:a10
# black closes the top-right with a building (the Cathedral is no wall): i10-j10
play I:i9,j8,j9
probe territory => white=a10,c8,c9 black=i1,i2,i10,j1,j2,j10
illegal T:i10 T:j10
state white no none 35:36

test seed diagram 1: the Cathedral is never part of a wall
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
tomove=black
cathedral=board
built=both
passes=0
last=none
end
# black builds elsewhere: every region is examined, i9-i10-j8-j9-j10 is not his
play T:e5
probe territory black => i1,i2,j1,j2
legal T:j10
play T:j10
probe territory black => i1,i2,j1,j2

test seed diagram 2: black's Inn d2-e2-e1 encloses the bottom-left and captures the Stable a2-a3
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
state black no none 37:42
probe hand white => TTSIIQMADXW
play I:d2,e1,e2
# the Stable went back to white's hand and the region is black's
probe territory => white=- black=a1,a2,a3,b1,b2,b3,c1,c2,c3,d1
probe hand white => TTSSIIQMADXW
state white no none 39:39
illegal S:a2,a3 T:a1 T:d1
# the captured Stable may be placed again
legal S:e5,f5 S:a5,a6

test seed diagram 2: white's Tavern on g1 captures the Cathedral, which leaves the game
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
tomove=white
cathedral=board
built=both
passes=0
last=none
end
probe cathedral => board
play T:g1
probe cathedral => captured
probe territory => white=h1,h2,h3,i1,i2,i3,i4,j1,j2,j3 black=-
state black no none 36:42
illegal T:i1 T:h2 Y:h3,i1,i2,i3,i4,j3
legal T:e1
play T:e1
# white may build on his own territory; the Cathedral is never placed again
legal T:i1 S:i1,i2 Q:i1,i2,j1,j2
illegal Y:h3,i1,i2,i3,i4,j3
play Q:i1,i2,j1,j2
probe territory white => h1,h2,h3,i3,i4,j3
probe cathedral => captured

test seed diagram 3: no capture of two opponent buildings, nor of a building with the Cathedral
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
.T......Yt
opening=classic
tomove=black
cathedral=board
built=both
passes=0
last=none
end
# the bottom-left holds white's Stable and Tavern: nothing happens
play I:d2,e1,e2
probe territory => white=- black=-
probe hand white => TSIIQMADXW
# the bottom-right holds the Cathedral and black's Tavern: nothing happens
play T:g1
probe territory => white=- black=-
probe cathedral => board
probe hand black => TSIQMADXCW
# both areas stay open to both players
legal T:b2 T:h1
play T:b2
legal S:h1,h2

test a capture turns the captured player's territory over
newgame cathedral
position
........Y.
.......YYY
........Y.
........Y.
..........
....QQ....
....QQ....
bbb.......
II........
+I........
opening=classic
tomove=black
cathedral=board
built=both
passes=0
last=none
end
probe territory => white=a1 black=-
illegal T:a1
play S:c1,c2
probe territory => white=- black=a1,a2,b1,b2
probe hand white => TTSSIIBMADXCW
state white no none 43:42
illegal T:a1 T:b2

test a corner closed by one Inn, before and after
newgame cathedral
position
........Y.
.......YYY
........Y.
........Y.
..........
....QQ....
....QQ....
bbb.......
..........
..........
opening=classic
tomove=white
cathedral=board
built=both
passes=0
last=none
end
play I:a9,b9,b10
probe territory => white=a10 black=-
illegal T:a10
play T:e1
legal T:a10
play T:a10
probe territory => white=- black=-
