# Toscana: scoring.  A player's largest area is the orthogonally connected
# region of squares of his colour touching the most tiles (either player's);
# he scores the tiles it touches, each once.  probe area SIDE answers the
# score, then the rectangles of the tiles touched, in placement order.

test the score counts tiles: white's 15 shows two light parts, touched twice, counted once
newgame toscana white=15,23,01,02,03,04,05,06,07,12,13,14,16,24,25,34 black=01,23,02,03,04,05,06,07,12,13,14,15,16,24,25,34
state black no none 0:0
probe area white => 0
play accept h9-k8:i8,i9
# white: h8, h9 | j8, j9, k8, k9 (two regions of one tile); black: i8, i9 of white's tile
state white no none 1:1
probe area white => 1 h9-k8
probe area black => 1 h9-k8
play accept h11-k10:h11,i11
# black's dark i10 joins white's dark i9: 2 tiles
state black no none 1:2
probe area black => 2 h9-k8 h11-k10
play accept h7-k6:h6,i6
# white's light h7..k7 joins both parts of the 15: one region, 2 tiles (not 3)
state white no none 2:2
probe area white => 2 h9-k8 h7-k6

test opponent's tiles count when their squares connect yours
newgame toscana white=15,23,01,02,03,04,05,06,07,12,13,14,16,24,25,34 black=01,23,02,03,04,05,06,07,12,13,14,15,16,24,25,34
play accept h9-k8:i8,i9 accept h11-k10:h11,i11 accept h7-k6:h6,i6 accept
# black's 23 shows light j5, k5 under white's light j6, k6: white's area grows by a black tile
play h5-k4:j5,k5
state black no none 3:2
probe area white => 3 h9-k8 h7-k6 h5-k4
# black: {h9-k8, h11-k10} and {h7-k6, h5-k4} tie at 2; the region holding the lowest square is shown
probe area black => 2 h7-k6 h5-k4
play accept
# l5 light touches only black's light k5: legal, and the black tile links it to white's area
legal l5-m2:l2,l3
legal l5-m2:m4,m5
# l4-m1 would touch black's dark k4 only
illegal l4-m1:l1,l2 l4-m1:m3,m4
play l5-m2:l2,l3
state white no none 4:2
probe area white => 4 h9-k8 h7-k6 h5-k4 l5-m2
