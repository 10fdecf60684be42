# Cathedral: the pieces of SPEC.md, their shapes and their distinct quarter turns.
# `probe orientations X [SIDE]` lists every distinct orientation placed at a1;
# `probe placements X` counts the legal moves of piece X for the player to act.
# On the empty board (opening=late: white builds first) a shape of bounding box
# w x h fits in (11-w)(11-h) places per orientation.

test the empty board of the late opening: 2141 placements, every piece counted
newgame cathedral opening=late
count 2141
probe placements T => 100
probe placements S => 180
probe placements I => 324
probe placements B => 160
probe placements Q => 81
probe placements M => 288
probe placements A => 144
probe placements D => 256
probe placements X => 64
probe placements C => 288
probe placements W => 256
probe placements Y => 0
illegal Y:a3,b1,b2,b3,b4,c3 pass

test Tavern: one square, one orientation
newgame cathedral opening=late
probe orientations T => 1 T:a1
legal T:a1 T:j10 T:e5
illegal T:k1 T:a11 T:a0 T:a01 T: T
play T:j10
probe hand white => TSSIIBQMADXCW

test Stable: a domino, two orientations
newgame cathedral opening=late
probe orientations S => 2 S:a1,b1 S:a1,a2
legal S:i10,j10 S:j9,j10 S:a1,b1 S:a1,a2
illegal S:a1,b2 S:b1,a1 S:a1,c1 S:j10,k10

test Inn: a tromino ##/.#, four orientations
newgame cathedral opening=late
probe orientations I => 4 I:a2,b1,b2 I:a1,b1,b2 I:a1,a2,b1 I:a1,a2,b2
legal I:d2,e1,e2 I:d1,e1,e2 I:d1,d2,e1 I:d1,d2,e2
illegal I:d1,e1,f1 I:d1,e2,f1 I:e1,d2,e2 I:d1,d2,d3

test Bridge: three in a row, two orientations
newgame cathedral opening=late
probe orientations B => 2 B:a1,b1,c1 B:a1,a2,a3
legal B:h10,i10,j10 B:j8,j9,j10
illegal B:i10,j10 B:a1,b1,c2 B:a1,b1,d1

test Square: 2x2, one orientation
newgame cathedral opening=late
probe orientations Q => 1 Q:a1,a2,b1,b2
legal Q:i9,i10,j9,j10
illegal Q:a1,a2,b1 Q:a1,a3,b1,b3

test Manor: ###/.#., four orientations
newgame cathedral opening=late
probe orientations M => 4 M:a2,b1,b2,c2 M:a2,b1,b2,b3 M:a1,b1,b2,c1 M:a1,a2,a3,b2
legal M:e6,f5,f6,g6 M:e6,f5,f6,f7 M:e5,f5,f6,g5 M:e5,e6,e7,f6
illegal M:e5,f5,g5,h5 M:e5,f6,g5,g6

test Abbey: white .##/##. and its quarter turn, never flipped
newgame cathedral opening=late
probe orientations A white => 2 A:a1,b1,b2,c2 A:a2,a3,b1,b2
probe orientations A black => 2 A:a2,b1,b2,c1 A:a1,a2,b2,b3
legal A:a1,b1,b2,c2 A:a2,a3,b1,b2
illegal A:a2,b1,b2,c1 A:a1,a2,b2,b3

test Abbey: black ##./.## and its quarter turn, never flipped
newgame cathedral
play Y:h8,i7,i8,i9,i10,j8
legal A:a2,b1,b2,c1 A:a1,a2,b2,b3
illegal A:a1,b1,b2,c2 A:a2,a3,b1,b2
probe placements A => 127

test Academy: white ##./.##/.#., four orientations, never flipped
newgame cathedral opening=late
probe orientations D white => 4 D:a3,b1,b2,b3,c2 D:a2,b1,b2,c2,c3 D:a2,b1,b2,b3,c1 D:a1,a2,b2,b3,c2
probe orientations D black => 4 D:a2,b1,b2,b3,c3 D:a2,b2,b3,c1,c2 D:a1,b1,b2,b3,c2 D:a2,a3,b1,b2,c2
legal D:a3,b1,b2,b3,c2 D:a2,b1,b2,c2,c3 D:a2,b1,b2,b3,c1 D:a1,a2,b2,b3,c2
illegal D:a2,b1,b2,b3,c3 D:a2,b2,b3,c1,c2 D:a1,b1,b2,b3,c2 D:a2,a3,b1,b2,c2

test Academy: black .##/##./.#., four orientations, never flipped
newgame cathedral
play Y:h8,i7,i8,i9,i10,j8
legal D:a2,b1,b2,b3,c3 D:a2,b2,b3,c1,c2 D:a1,b1,b2,b3,c2 D:a2,a3,b1,b2,c2
illegal D:a3,b1,b2,b3,c2 D:a2,b1,b2,c2,c3 D:a2,b1,b2,b3,c1 D:a1,a2,b2,b3,c2

test Infirmary: the plus, one orientation
newgame cathedral opening=late
probe orientations X => 1 X:a2,b1,b2,b3,c2
legal X:h9,i8,i9,i10,j9
illegal X:i9,j8,j9,j10 X:a1,b1,b2,b3,c1

test Castle: ###/#.#, four orientations
newgame cathedral opening=late
probe orientations C => 4 C:a1,a2,b2,c1,c2 C:a1,a3,b1,b2,b3 C:a1,a2,b1,c1,c2 C:a1,a2,a3,b1,b3
legal C:a1,a2,b2,c1,c2 C:a1,a3,b1,b2,b3 C:a1,a2,b1,c1,c2 C:a1,a2,a3,b1,b3
illegal C:a1,a2,b1,b2,c1 C:a1,b1,c1,c2,c3

test Tower: ##./.##/..#, four orientations
newgame cathedral opening=late
probe orientations W => 4 W:a3,b2,b3,c1,c2 W:a1,b1,b2,c2,c3 W:a2,a3,b1,b2,c1 W:a1,a2,b2,b3,c3
legal W:a3,b2,b3,c1,c2 W:a1,b1,b2,c2,c3 W:a2,a3,b1,b2,c1 W:a1,a2,b2,b3,c3
illegal W:a1,b1,b2,b3,c3 W:a3,b3,b2,c1,c2

test Cathedral: .#./###/.#./.#., four orientations, 224 places on the empty board
newgame cathedral
probe orientations Y => 4 Y:a3,b1,b2,b3,b4,c3 Y:a2,b2,c1,c2,c3,d2 Y:a2,b1,b2,b3,b4,c2 Y:a2,b1,b2,b3,c2,d2
count 224
probe placements Y => 224
legal Y:a3,b1,b2,b3,b4,c3 Y:a2,b2,c1,c2,c3,d2 Y:a2,b1,b2,b3,b4,c2 Y:a2,b1,b2,b3,c2,d2
legal Y:h9,i7,i8,i9,i10,j9
illegal Y:h10,i7,i8,i9,i10,j10 Y:a1,b1,b2,b3,b4,c1 T:a1 X:a2,b1,b2,b3,c2 pass

test identical pieces give one move per placement
newgame cathedral opening=late
play T:a1
probe hand white => TSSIIBQMADXCW
play Y:h9,i7,i8,i9,i10,j9 T:j1
probe placements T => 92
legal T:a2
play T:a2
probe hand white => SSIIBQMADXCW
play S:e5,f5
probe placements T => 0
illegal T:a3
