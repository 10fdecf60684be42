# Cathedral: the two opening orders and the first-round rule (SPEC.md "Opening",
# "No territory is claimed until each player has placed one building after the
# Cathedral").

test classic: white places the Cathedral first, and only the Cathedral
newgame cathedral
state white no none 47:47
probe cathedral => hand
count 224
illegal T:a1 I:a2,b1,b2 pass
play Y:e4,f3,f4,f5,f6,g4
probe cathedral => board
state black no none 47:47
legal T:a1 I:a2,b1,b2
illegal Y:a3,b1,b2,b3,b4,c3 T:f4 pass
count 1720

test classic: then black builds, then white, alternating
newgame cathedral
play Y:e4,f3,f4,f5,f6,g4 I:a2,b1,b2
state white no none 47:44
play S:i9,j9
state black no none 45:44
play T:j1
state white no none 45:43

test classic: the first building of each player claims nothing
newgame cathedral
play Y:e4,f3,f4,f5,f6,g4
probe claims => no
# black's Inn closes the corner a1, but his first building claims nothing
play I:a2,b1,b2
probe territory => white=- black=-
probe claims => no
# so white may still build on a1
legal T:a1
# white's first building (closing j10) claims nothing either
play I:i9,i10,j9
probe territory => white=- black=-
probe claims => yes
# black's next building examines all his regions: a1 is now his
play T:e9
probe territory => white=- black=a1
illegal T:a1
# and white's next one claims j10
play T:e1
probe territory => white=j10 black=a1
illegal T:j10

test classic: a building placed in a corner during the first round is captured later
newgame cathedral
play Y:e4,f3,f4,f5,f6,g4 I:a2,b1,b2 T:a1
probe hand white => TSSIIBQMADXCW
# black's region {a1} holds one white building: captured, a1 becomes black's;
# his other region holds only the Cathedral: captured too, and the whole rest
# of the board becomes black's territory (regions have no size limit)
play S:i9,j9
probe hand white => TTSSIIBQMADXCW
probe cathedral => captured
state white no none 47:42
probe territory white => -
expect probe territory black => probe a1,a3,a4,a5,a6,a7,a8,a9,a10,b3,b4,b5,b6,b7,b8,b9,b10,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,d1,d2,d3,d4,d5,d6,d7,d8,d9,d10,e1,e2,e3,e4,e5,e6,e7,e8,e9,e10,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10,g1,g2,g3,g4,g5,g6,g7,g8,g9,g10,h1,h2,h3,h4,h5,h6,h7,h8,h9,h10,i1,i2,i3,i4,i5,i6,i7,i8,i10,j1,j2,j3,j4,j5,j6,j7,j8,j10
# white can place nothing: his only move is pass; black goes on alone
moves pass
play pass
state black no none 47:42
legal T:a1 Q:e4,e5,f4,f5
play Q:e4,e5,f4,f5
moves pass

test late: white builds first, black places the Cathedral and builds, then white
newgame cathedral opening=late
state white no none 47:47
probe cathedral => hand
count 2141
illegal Y:e4,f3,f4,f5,f6,g4 pass
play I:a2,b1,b2
state black no none 44:47
# black must place the Cathedral now: only Cathedral moves
count 214
probe placements Y => 214
illegal T:j10 I:i10,j9,j10
play Y:e4,f3,f4,f5,f6,g4
# and black moves again, a building this time
state black no none 44:47
illegal Y:a3,b1,b2,b3,b4,c3
legal T:j10
play I:i10,j9,j10
state white no none 44:44

test late: white's first two buildings and black's first claim nothing
newgame cathedral opening=late
play I:a2,b1,b2
probe territory => white=- black=-
play Y:e4,f3,f4,f5,f6,g4
probe claims => no
play I:i9,i10,j9
probe territory => white=- black=-
probe claims => no
play S:a9,a10
probe territory => white=- black=-
probe claims => yes
# black's second building claims j10
play T:e1
probe territory => white=- black=j10
# white's third claims a1
play T:e9
probe territory => white=a1 black=j10
# black may not build on white's territory, but may build on his own
illegal T:a1
legal T:j10
play T:j10
probe territory => white=a1 black=-
# and white on his own
legal T:a1

test late: the Cathedral move claims nothing
newgame cathedral opening=late
play T:e5
play Y:a3,b1,b2,b3,b4,c3
probe territory => white=- black=-
probe cathedral => board
