# Toscana: placing a tile — the seed's worked example (PerGioco #67) and the
# placement rules: inside the board, on empty squares, the first tile on i9,
# later tiles with a square of the mover's colour next to the same colour.
# White's stack starts 04 (off cells 0 and 4), 02; black's starts 01, 02.

test seed example: white's first tile i10-j7 covers i9 (i10 and j10 dark)
newgame toscana white=04,02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
count 32
legal i10-j7:i10,j10 i10-j7:i7,j7 h9-k8:h8,h9
play i10-j7:i10,j10
# light squares i7-i9, j7-j9 (one tile for white); dark i10, j10 (one tile for black)
state white no none 1:1
probe area white => 1 i10-j7
probe area black => 1 i10-j7

test seed example: black's g13-h10 is legal, dark h10 touches white's dark i10
newgame toscana white=04,02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept i10-j7:i10,j10 accept
count 31
legal g13-h10:g10,g11 g13-h10:h12,h13 g10-h7:g7,g8
# h10 light: its dark h7, h8 touch only white's light i7, i8 — no dark contact
illegal g10-h7:h9,h10
# touching nothing; off the board; a rectangle over white's tile
illegal e6-h5:e6,f6 e6-h5:g5,h5 p17-q14:p16,p17 q13-r12:q12,q13 i11-j8:i8,i9 h11-i8:h8,h9
play g13-h10:g10,g11
# black's area: h10-h13, g12, g13 and white's i10, j10: 2 tiles
state black no none 1:2
probe area black => 2 i10-j7 g13-h10

test seed example: white's i13-l12 is illegal (its light squares touch no light square), e6-h5 touches no tile
newgame toscana white=04,02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept i10-j7:i10,j10 accept g13-h10:g10,g11 accept
state white no none 1:2
count 60
illegal i13-l12:i13,k13 i13-l12:j12,l12
illegal e6-h5:e6,g6 e6-h5:f5,h5
# i13-l12 touches black's dark h12, h13 only; white needs light next to light
# j14-k11 touches only white's dark j10: illegal even with its own dark j11 there
illegal j14-k11:k12,k14 j14-k11:j11,j13
# k12-l9 with k9 dark: dark k9 touches light j9, light k10 touches dark j10: illegal;
# the other half turn puts light k9 next to light j9: legal
illegal k12-l9:k9,k11
legal k12-l9:l10,l12
# c10-f9: light f10 touches black's light off-colour square g10 — the opponent's tiles count
legal c10-f9:c10,e10 c10-f9:d9,f9
legal k9-l6:k6,k8 k9-l6:l7,l9 e7-h6:e7,g7 g9-h6:g6,g8
play c10-f9:c10,e10
# white's light: c9, d9..f9, d10, f10, g10, g11 (black's) — 2 tiles; i7-j9 — 1 tile
# (white now decides on black's next tile)
state white no none 2:2
probe area white => 2 g13-h10 c10-f9
