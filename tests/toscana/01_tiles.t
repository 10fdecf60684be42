# Toscana: the 16 tiles, their quarter turns, the first tile and the options.
# Shapes (probe tile ID [ROT]): rows top first separated by '|', 'o' the
# owner's colour, 'x' the two off-colour cells; ROT = quarter turns clockwise.

test the 16 tile ids, and the 4 that look the same after a half turn
newgame toscana
probe tiles => 01 02 03 04 05 06 07 12 13 14 15 16 23 24 25 34
probe symmetric => 07 16 25 34

test every tile's shape: cells 0-3 top row, 4-7 bottom row, its id names the off cells
newgame toscana
probe tile 01 => xxoo|oooo
probe tile 02 => xoxo|oooo
probe tile 03 => xoox|oooo
probe tile 04 => xooo|xooo
probe tile 05 => xooo|oxoo
probe tile 06 => xooo|ooxo
probe tile 07 => xooo|ooox
probe tile 12 => oxxo|oooo
probe tile 13 => oxox|oooo
probe tile 14 => oxoo|xooo
probe tile 15 => oxoo|oxoo
probe tile 16 => oxoo|ooxo
probe tile 23 => ooxx|oooo
probe tile 24 => ooxo|xooo
probe tile 25 => ooxo|oxoo
probe tile 34 => ooox|xooo

test quarter turns clockwise: the top row becomes the right column
newgame toscana
probe tile 01 1 => ox|ox|oo|oo
probe tile 01 2 => oooo|ooxx
probe tile 01 3 => oo|oo|xo|xo
probe tile 03 1 => ox|oo|oo|ox
probe tile 15 1 => oo|xx|oo|oo
# a half turn of a symmetric tile gives the same tile
probe tile 07 2 => xooo|ooox
probe tile 16 2 => oxoo|ooxo
probe tile 25 2 => ooxo|oxoo
probe tile 34 2 => ooox|xooo
probe tile 34 3 => xo|oo|oo|ox

test first tile 01: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 02: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=02,01,03,04,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 03: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=03,01,02,04,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 04: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=04,01,02,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 05: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=05,01,02,03,04,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 06: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=06,01,02,03,04,05,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 07: 16 placements cover i9 (16 rectangles x 2 distinct turns)
newgame toscana white=07,01,02,03,04,05,06,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 16

test first tile 12: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=12,01,02,03,04,05,06,07,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 13: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=13,01,02,03,04,05,06,07,12,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 14: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=14,01,02,03,04,05,06,07,12,13,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 15: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=15,01,02,03,04,05,06,07,12,13,14,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 16: 16 placements cover i9 (16 rectangles x 2 distinct turns)
newgame toscana white=16,01,02,03,04,05,06,07,12,13,14,15,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 16

test first tile 23: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=23,01,02,03,04,05,06,07,12,13,14,15,16,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 24: 32 placements cover i9 (16 rectangles x 2 half turns)
newgame toscana white=24,01,02,03,04,05,06,07,12,13,14,15,16,23,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32

test first tile 25: 16 placements cover i9 (16 rectangles x 2 distinct turns)
newgame toscana white=25,01,02,03,04,05,06,07,12,13,14,15,16,23,24,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 16

test first tile 34: 16 placements cover i9 (16 rectangles x 2 distinct turns)
newgame toscana white=34,01,02,03,04,05,06,07,12,13,14,15,16,23,24,25 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 16

test symmetric tile 07 first: exactly these 16 moves, each once (its half turn is the same move)
newgame toscana white=07,01,02,03,04,05,06,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
moves f10-i9:f10,i9 f9-i8:f9,i8 g10-j9:g10,j9 g9-j8:g9,j8 h10-i7:h7,i10 h10-k9:h10,k9 h11-i8:h8,i11 h12-i9:h9,i12 h9-i6:h6,i9 h9-k8:h9,k8 i10-j7:i7,j10 i10-l9:i10,l9 i11-j8:i8,j11 i12-j9:i9,j12 i9-j6:i6,j9 i9-l8:i9,l8

test asymmetric tile 03 first: exactly these 32 moves
newgame toscana white=03,01,02,04,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
moves f10-i9:f10,i10 f10-i9:f9,i9 f9-i8:f8,i8 f9-i8:f9,i9 g10-j9:g10,j10 g10-j9:g9,j9 g9-j8:g8,j8 g9-j8:g9,j9 h10-i7:h7,h10 h10-i7:i7,i10 h10-k9:h10,k10 h10-k9:h9,k9 h11-i8:h8,h11 h11-i8:i8,i11 h12-i9:h9,h12 h12-i9:i9,i12 h9-i6:h6,h9 h9-i6:i6,i9 h9-k8:h8,k8 h9-k8:h9,k9 i10-j7:i7,i10 i10-j7:j7,j10 i10-l9:i10,l10 i10-l9:i9,l9 i11-j8:i8,i11 i11-j8:j8,j11 i12-j9:i9,i12 i12-j9:j9,j12 i9-j6:i6,i9 i9-j6:j6,j9 i9-l8:i8,l8 i9-l8:i9,l9
# rectangles that miss i9, or run off the board, or half-turn spellings that do not exist
illegal f11-i10:f11,i11 j9-m8:j9,m9 i10-j7:i8,j10 i10-j7:i10,i7 i10-j7:j7,i10 i8-l7:i8,l8
illegal i10-j7 i10-j7:i7 I10-J7:I7,I10 i9 pass veto accept
test the opening: black decides first on white's first tile, scores 0:0
newgame toscana seed=7
state black no none 0:0
moves veto accept
probe veto => white=unused black=unused
probe placed => 0:0

test options: explicit stacks, top first
newgame toscana white=34,25,16,07,01,02,03,04,05,06,12,13,14,15,23,24 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
probe stack white => 34,25,16,07,01,02,03,04,05,06,12,13,14,15,23,24
probe stack black => 01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34

test options: seed=N shuffles reproducibly; stacks hold the 16 tiles once
newgame toscana seed=1
probe stack white => 24,14,03,07,16,15,25,13,02,05,01,04,12,06,23,34
probe stack black => 03,16,15,06,13,02,05,23,25,12,07,01,34,24,04,14
newgame toscana seed=2
probe stack white => 15,23,05,34,07,24,04,12,01,13,03,02,06,14,16,25
# no option: the same as seed=1
newgame toscana
probe stack white => 24,14,03,07,16,15,25,13,02,05,01,04,12,06,23,34
probe stack black => 03,16,15,06,13,02,05,23,25,12,07,01,34,24,04,14
# one explicit stack: the other still comes from the seed
newgame toscana seed=1 white=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
probe stack black => 03,16,15,06,13,02,05,23,25,12,07,01,34,24,04,14

test options are validated strictly
error newgame toscana seed=x
error newgame toscana seed=-1
error newgame toscana seed=
error newgame toscana white=01,02
error newgame toscana white=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,25
error newgame toscana white=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,35
error newgame toscana white=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,43
error newgame toscana white=1,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
error newgame toscana white=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34,
error newgame toscana white=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34,01
error newgame toscana black=01;02
error newgame toscana seed=1 seed=2
error newgame toscana variant=standard
expect newgame toscana foo=1 => error unknown option 'foo' (expected seed=N, white=ID,...,ID and black=ID,...,ID)
