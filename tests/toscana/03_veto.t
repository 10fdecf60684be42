# Toscana: the veto.  Before each turn of a player whose stack holds two or
# more tiles, while the opponent's veto is unused, the opponent decides first:
# `veto` (the tile goes under, the next one is placed at once, no second
# decision) or `accept` (the veto is kept).  Decisions are not turns.

test black vetoes white's first tile: it goes under, white places his next tile at once
newgame toscana white=04,02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
moves veto accept
play veto
state white no none 0:0
probe veto => white=unused black=used
probe stack white => 02,01,03,05,06,07,12,13,14,15,16,23,24,25,34,04
# no second decision: white places 02 (32 first placements), the vetoed 04 can not be played
count 32
illegal veto accept i10-j7:i10,j10
legal i9-l8:i9,k9 f9-i8:f9,h9
play f9-i8:f9,h9
# white still holds his veto: he decides on black's tile
state white no none 1:1
moves veto accept
play accept
state black no none 1:1
play g13-h10:g10,g11
# black's light g10, g11 touch white's light g9, black's dark h10 white's dark h9: 2 tiles each
# black's veto is spent: white's turns begin without a decision from now on
state white no none 2:2
illegal veto accept
probe veto => white=unused black=used

test accept keeps the veto for later; the vetoing player never decides again
newgame toscana white=04,02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept
probe veto => white=unused black=unused
play i10-j7:i10,j10
moves veto accept
play accept g13-h10:g10,g11
# black decides again on white's second tile, and this time vetoes it
state black no none 1:2
play veto
probe stack white => 01,03,05,06,07,12,13,14,15,16,23,24,25,34,02
state white no none 1:2
illegal veto accept
play k9-l6:l8,l9
# white's decision on black's next tile; black never decides again
moves veto accept
play veto
probe veto => white=used black=used
probe stack black => 03,04,05,06,07,12,13,14,15,16,23,24,25,34,02
state black no none 2:2
illegal veto accept

test the vetoed tile is known at the bottom of the stack: the masked view keeps it there
newgame toscana white=04,02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play veto
probe stack white => 02,01,03,05,06,07,12,13,14,15,16,23,24,25,34,04
# the masked view: top and the vetoed bottom kept, the hidden middle sorted
probe masked white => white=02,01,03,05,06,07,12,13,14,15,16,23,24,25,34,04 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34 hash=83b56ccf9f65ed63

test no decision before the turn of a player holding one tile, though the opponent's veto is unused
newgame toscana
position
.BbWWWwBbBbBB....
.BBWWwWBBBBBBBBbB
.BB..WWWW..bBBbBB
.bBBBwWWW..bB..BB
WW.bbWWWWbBbBBBBB
Ww.BBWwwwBBBBbBbB
Ww.BBbBBBBBwWwWBb
WWbB.bBBBBbWWWWWw
..BBBBWWWwWw.WwwW
wWBBbBwWWWWW.WWWW
WWbBBBWwBB.WWWWWW
WW..BbWWBb.WwwW..
wWWWBbbBBb.WW....
WwWwBBbBBB.wWwW..
WwwWBbBB.WWwWwW..
WWWWBBBB.WWwWWW..
WW...........WW..
tomove=white
phase=place
white=34
black=16,05
veto=black
passes=1
tiles=W:i9-l8:j9,l9 B:j13-k10:j13,k10 W:g9-h6:g8,h7 B:l13-o12:l13,n12 W:l11-o10:l11,n11 B:e9-f6:e8,f6 W:l7-m4:l4,m6 B:c10-d7:c7,c10 W:h15-i12:h12,i12 B:i7-j4:j5,j6 W:p10-q7:p9,q10 B:d14-e11:d13,e13 W:j3-m2:l2,l3 B:b17-c14:b14,c17 W:n9-o6:n6,o9 B:p14-q11:p12,q11 W:a13-b10:b11,b12 B:g5-h2:g4,g5 W:n4-o1:n3,n4 B:l17-m14:l14,l15 W:f15-g12:f14,g12 B:h17-k16:i17,k17 W:d17-g16:f16,g17 B:e5-f2:f3,f5 W:a8-b5:a5,a8 B:n16-q15:o15,p16 W:c5-d2:c3,d4 B:f11-i10:f10,f11 W:a4-b1:b3,b4
end
state white no none 9:12
probe stack white => 34
probe veto => white=used black=unused
illegal veto accept
count 3
moves p4-q1:p4,q1 p5-q2:p5,q2 p6-q3:p6,q3
play p4-q1:p4,q1
# black holds two tiles but white's veto is spent: black must pass at once
state black no none 10:12
moves pass

test after a veto the next tile is played at once — or, with no room for it, passed
newgame toscana
position
..ww..BBWw.......
WWWWwWbBwWWwWW.Ww
wWWWwWBBWWWWwW.WW
wWWWWWBbWWWW.WWWW
WW..WW....wW.WWwW
BBBbBbBBwWWW.wW..
bBBBBBbBWWWw.wWWW
..BBwWWWWW.BBBBwW
..BBWWwWWw.BBBbWW
wWbB..bB...BBBbwW
WWbB..BB...bbBB..
wWbBBBBB.........
WWBbBBbBBBBbBBBB.
BbBB....BBbBBbbB.
BBBb...bBBB.BBBb.
..WWWW.BBBb.BbBB.
..wWWw...........
tomove=black
phase=place
white=14,25,15
black=02,23,15
veto=black
passes=1
tiles=W:i12-j9:i12,j9 B:e12-h11:f12,g11 W:k14-l11:k13,l11 B:a12-d11:a11,d12 W:k16-n15:l16,m15 B:c10-d7:c7,c8 W:i17-j14:i16,j17 B:c6-f5:c6,d5 W:e16-f13:e15,e16 B:a4-d3:b4,d3 W:a8-b5:a6,a8 B:g8-h5:g5,g8 W:c17-d14:c17,d17 B:l10-m7:l7,m7 W:c2-f1:c1,f1 B:i5-l4:k4,l5 W:n14-o11:n11,n12 B:h3-k2:h3,k2 W:p11-q8:p8,p10 B:n10-o7:o8,o9 W:e10-h9:e10,g9 B:m5-n2:n2,n4 W:a16-b13:a14,a15 B:g17-h14:g16,h14 W:p16-q13:p13,q16 B:o5-p2:o4,p3
end
state black no none 7:8
probe stack black => 02,23,15
moves pass
play pass
state none yes black 7:8

test the decision comes before a turn even when the tile can not be placed (SPEC.md: before each turn)
newgame toscana
position
......bBBB.......
..wwWWBbBBWwwW...
..WWWWwWWwWWWW...
WwBBBbWWWWWwWWWW.
WWbBBBwWWWWWwWWw.
WWBbBBWWwWBBbBWW.
wWBBbBbBBBbBBBWw.
WwwwWwbBBBBBwWwW.
wWWWWWWwWWBbWwWW.
WWWWWwWwWWBbWWWw.
WWWWWWWWwWBBWWWW.
wW....WwWW.bbBBBB
WW.bBBBBbBBBBBBBB
WW.BBbBBBbBBbBbBb
WwBBBbBbBB.BBBBBb
..bBBBBbBBbBbB...
..........BBBB...
tomove=white
phase=decide
white=23
black=03,14
veto=white,black
passes=0
tiles=W:g9-j8:h8,h9 B:g11-j10:g10,g11 W:g7-j6:h6,i7 B:k10-l7:l8,l9 W:g13-j12:g13,i12 B:k12-n11:k11,m12 W:e10-f7:f8,f10 B:h5-k4:i5,j4 W:m10-n7:m10,n9 B:e14-f11:e11,f14 W:g15-j14:g15,j15 B:d5-g4:d5,f4 W:c10-d7:c10,d10 B:l6-o5:l6,m6 W:k14-n13:l14,m13 B:g3-j2:h2,h3 W:o10-p7:o10,p8 B:c14-d11:c13,d12 W:k16-n15:l16,m16 B:l4-o3:m4,o4 W:o14-p11:p11,p13 B:g17-j16:g17,h16 W:a10-b7:a9,b10 B:c3-f2:c2,f3 W:c16-f15:c16,d16 B:k2-n1:k2,m2 W:a14-b11:a11,b14 B:p6-q3:q3,q4 W:a6-b3:a6,b3
end
state white no none 15:6
probe stack black => 03,14
moves veto accept
play accept
moves pass
undo
play veto
probe stack black => 14,03
moves pass
play pass
# white then passes too (his 23 has no room): two passes in a row end the game
moves pass
play pass
state none yes white 15:6
