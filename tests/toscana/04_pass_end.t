# Toscana: forced passes and the end.  A player whose top tile has no room,
# or whose stack is empty, passes (the tile stays on top).  The game ends when
# both stacks are empty or after two passes in a row; veto/accept decisions
# are not turns and do not break the sequence.

test forced pass: a tile with no room is passed and stays on top
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
moves veto accept
play accept
# black's 03 has no room anywhere: his only move is pass, and 03 stays on top
moves pass
probe stack black => 03,14
play pass
probe stack black => 03,14
probe passes => 1
# white holds one tile (no decision for black), and 23 has no room either
state white no none 15:6
probe stack white => 23
moves pass
play pass
state none yes white 15:6
count 0
illegal pass veto accept

test pass, decision, pass: the decision between the passes does not break the sequence
newgame toscana
position
.WWwW..BbBb...BB.
.WwWW..BBBB...BB.
bBbbbBBBBBBbBbbB.
BBBBBBbBBbBBbBBb.
BBBB..BBBB..BBwW.
bBBB..BbbB..BBwW.
.WwBBbB.BBBBBBWW.
.WWBbBB.BbBbBbWW.
.WWWW...WWwWbBBB.
.wWwW...WWWwBBBB.
...WWWwWW.WwWWbB.
BB.WwWWwW.WWWwbB.
BBwWWWWWWWwWWWWw.
BbWWwWWwWWwWWWWw.
BbWW..wWwW.WWWW..
..Ww..WWWW.WWww..
.................
tomove=white
phase=place
white=13,14,12
black=15,07,34
veto=white,black
passes=0
tiles=W:i9-l8:k9,l8 B:m11-n8:m9,n10 W:f7-i6:g7,h6 B:m15-n12:m14,n15 W:i5-l4:k4,k5 B:o17-p14:o15,p14 W:d9-e6:d8,e6 B:i11-l10:j10,l10 W:o13-p10:o12,o13 B:g13-j12:h12,i12 W:m5-p4:p4,p5 B:o9-p6:o6,o7 W:b11-c8:b8,c11 B:e15-h14:e15,g14 W:l3-o2:n2,o2 B:d11-g10:e10,f11 W:g3-j2:g3,i3 B:h17-k16:i17,k17 W:c5-d2:c5,d2 B:a6-b3:b3,b4 W:b17-e16:c16,d17 B:i15-l14:j14,l15 W:k7-n6:l7,n6 B:c15-d12:c15,d15 W:e5-h4:e4,h4 B:a15-b12:a12,a15
end
moves pass
play pass
probe passes => 1
moves veto accept
play accept
moves pass
play pass
state none yes white 15:14

test a placement between two passes resets the count; an empty stack passes
newgame toscana
position
......WwWWWWww...
..BbBBWWwWWWWW...
..BBbBWwWWWWwW...
bBBbBBWwWWWwWW...
BbBBBbWwWw.BBWWWw
BBBbBbWWWW.bBWwwW
BBBBBB.bBBBBbWWWW
BbBbbB.BBbBBBwWWW
bBBbbBWWwWBBWwwW.
BBBBBBwWWWbbWWWW.
BBBBBBwWwWBBWWWW.
WWbBBbWWWWBBwWWw.
WwBBBBwWWWWwWW...
WwBBbBwWWWwWWW...
WWbBBB.bBBBwwWW..
...BbBbBBBbWWWW..
...BBBB..........
tomove=black
phase=place
white=03
black=34,04
veto=white,black
passes=0
tiles=W:g9-j8:g8,i9 B:h11-k10:h11,j10 W:g7-j6:g7,i7 B:k9-l6:k8,l8 W:g13-j12:h13,j13 B:e10-f7:e9,e10 W:g5-j4:g4,g5 B:l13-m10:l12,m11 W:m9-n6:m6,n9 B:e14-f11:f12,f13 W:g15-j14:h14,h15 B:c10-d7:d9,d10 W:k5-n4:k4,l5 B:c6-f5:c6,f6 W:n13-o10:n10,o12 B:h3-k2:h3,k2 W:k15-n14:l14,m15 B:c14-d11:d12,d14 W:o9-p6:o9,p6 B:c4-f3:c3,e4 W:g17-j16:h17,i16 B:a10-b7:a9,b10 W:l3-o2:l3,m3 B:c16-f15:d16,e15 W:p13-q10:p12,q13 B:d2-g1:e2,g2 W:k17-n16:m17,n17 B:a14-b11:a14,b13 W:a6-b3:b4,b5
end
moves pass
play pass
probe passes => 1
play o17-p14:p14,p17
probe passes => 0
probe stack white => -
moves veto accept
play accept
moves pass
play pass
probe passes => 1
# white's stack is empty: he passes, the second pass in a row
moves pass
play pass
state none yes white 21:14

test the game ends when both stacks are empty (all 32 tiles placed)
newgame toscana white=15,25,06,02,14,03,04,16,24,12,13,05,01,07,34,23 black=04,12,24,16,07,06,01,15,25,13,05,34,02,23,03,14
play accept f9-i8:g8,g9 accept f7-i6:f6,f7 accept f5-i4:g4,h5 accept f11-i10:g11,h11 accept f3-i2:f3,h2 accept d4-e1:d4,e2 accept d8-e5:e6,e8 accept b4-c1:b2,c3 accept b8-c5:b8,c7 accept b10-e9:b10,e9 accept a12-d11:a12,d12 accept a14-d13:a14,c13 accept a16-d15:d15,d16 accept e13-h12:e13,f13 accept e17-f14:e15,f16 accept g17-h14:g16,h16 accept i17-j14:i17,j15 accept k17-l14:k16,l15 accept i13-l12:j13,k13 accept m17-p16:n17,p17 accept m15-p14:n15,p15 accept j11-k8:j10,k11 accept m13-p12:m13,n12 accept l11-o10:l10,o11 accept p11-q8:q10,q11 accept l9-o8:l9,n9 accept n7-q6:n7,q6 accept j7-m6:l7,m7 accept j5-m4:j4,m5 accept n5-q4:n4,q4 j3-m2:l3,m3
probe stack white => -
probe stack black => 14
state black no none 7:20
# black places his last tile (white has no tile left, so no decision): two placements
count 2
play n3-q2:n2,o3
state none yes black 7:21
count 0
illegal pass veto accept
newgame toscana
position
....WWBBwWBBBbBb.
WWWwWwbbWWbBBBBB.
WWWwwWBBWwBbWwWw.
bBBBWWBBWWBBWWWW.
BBbBbbBBWwwWwWWW.
wWWwBBBBWWWWWwWW.
WWWW.BbbBBbBBBbWw
.bBBBBBBBbBbBBBWw
.BBBbWwWWBBbBbBWW
.wWWwWwWWBBBBBBWW
.WwWWbBBBBBbbwWWW
.WWWwbBBBBBBBWWWw
.WWWWWWwWWWWwBBBB
.BBbBWwWWwWWWbBBb
.BbBBwWWWWWwwBbBB
.bBBbWWwWWWWWbBBB
.BBBB............
tomove=none
phase=over
white=
black=
veto=white,black
passes=0
tiles=W:f9-i8:g8,g9 B:f7-i6:f6,f7 W:f5-i4:g4,h5 B:f11-i10:g11,h11 W:f3-i2:f3,h2 B:d4-e1:d4,e2 W:d8-e5:e6,e8 B:b4-c1:b2,c3 W:b8-c5:b8,c7 B:b10-e9:b10,e9 W:a12-d11:a12,d12 B:a14-d13:a14,c13 W:a16-d15:d15,d16 B:e13-h12:e13,f13 W:e17-f14:e15,f16 B:g17-h14:g16,h16 W:i17-j14:i17,j15 B:k17-l14:k16,l15 W:i13-l12:j13,k13 B:m17-p16:n17,p17 W:m15-p14:n15,p15 B:j11-k8:j10,k11 W:m13-p12:m13,n12 B:l11-o10:l10,o11 W:p11-q8:q10,q11 B:l9-o8:l9,n9 W:n7-q6:n7,q6 B:j7-m6:l7,m7 W:j5-m4:j4,m5 B:n5-q4:n4,q4 W:j3-m2:l3,m3 B:n3-q2:n2,o3
end
state none yes black 7:21

test equal scores draw
newgame toscana white=14,23,15,13,34,02,24,03,05,06,16,12,25,01,04,07 black=01,07,06,16,15,13,25,14,05,04,12,23,03,34,24,02
play accept g10-j9:i9,j10 accept k11-l8:k8,k9 accept h14-i11:h13,h14 accept m12-n9:m9,n12 accept f8-i7:g7,g8 accept k15-l12:k13,l15 accept d13-g12:e13,g13 accept b15-e14:c15,d14 veto d8-e5:e6,e8 accept b17-e16:c16,c17 b8-c5:b8,c6 accept o13-p10:o11,o13 g6-h3:g3,g6 accept c4-f3:d3,e4 j17-m16:l17,m16 accept n17-q16:p16,q17 a11-d10:a11,c10 veto f16-i15:f15,f16 j7-m6:k7,l6 i5-l4:j5,k5 n6-q5:o5,p5 n4-o1:n3,n4 j3-m2:k2,l3 f2-i1:f2,i2 a2-d1:a2,b2 n15-q14:n14,q15 p4-q1:p1,q1 n8-q7:o7,q8 pass pass
state none yes draw 9:9
