# Toscana: move counts (perft) from several positions, a regression suite.
# Counts were checked against tests/ref/toscana.txt (an independent
# implementation's legal-move counts) along the same games.

test game 1 of the reference file after 0 plies
newgame toscana white=03,13,34,05,06,04,02,16,24,23,01,14,25,07,15,12 black=01,25,34,03,15,04,02,06,23,12,24,16,05,13,07,14
count 2
perft 1 2
perft 2 64
perft 3 128

test game 1 of the reference file after 1 plies
newgame toscana white=03,13,34,05,06,04,02,16,24,23,01,14,25,07,15,12 black=01,25,34,03,15,04,02,06,23,12,24,16,05,13,07,14
play accept
count 32
perft 1 32
perft 2 64
perft 3 1728

test game 1 of the reference file after 2 plies
newgame toscana white=03,13,34,05,06,04,02,16,24,23,01,14,25,07,15,12 black=01,25,34,03,15,04,02,06,23,12,24,16,05,13,07,14
play accept h9-i6:i6,i9
count 2
perft 1 2
perft 2 54
perft 3 108

test game 1 of the reference file after 7 plies
newgame toscana white=03,13,34,05,06,04,02,16,24,23,01,14,25,07,15,12 black=01,25,34,03,15,04,02,06,23,12,24,16,05,13,07,14
play accept h9-i6:i6,i9 accept j8-k5:k7,k8 accept l7-o6:m7,o7 veto
count 21
perft 1 21
perft 2 42
perft 3 2279

test game 1 of the reference file after 20 plies
newgame toscana white=03,13,34,05,06,04,02,16,24,23,01,14,25,07,15,12 black=01,25,34,03,15,04,02,06,23,12,24,16,05,13,07,14
play accept h9-i6:i6,i9 accept j8-k5:k7,k8 accept l7-o6:m7,o7 veto j12-k9:j12,k9 accept f11-g8:f11,g8 l15-m12:m12,m15 veto l11-m8:l9,m11 f5-i4:h4,h5 f15-g12:f15,g15 j4-m3:j3,j4 e3-h2:f2,h2 n5-q4:o4,q4 n11-q10:o11,p10 i17-l16:i17,k16
count 84
perft 1 84
perft 2 5743
perft 3 407400

test game 2 of the reference file after 3 plies
newgame toscana white=12,15,02,06,13,24,34,05,14,03,23,04,25,01,07,16 black=01,06,16,15,24,13,02,14,07,03,23,12,04,05,25,34
play accept g9-j8:h9,i9 veto
count 14
perft 1 14
perft 2 28
perft 3 1976

test game 2 of the reference file after 12 plies
newgame toscana white=12,15,02,06,13,24,34,05,14,03,23,04,25,01,07,16 black=01,06,16,15,24,13,02,14,07,03,23,12,04,05,25,34
play accept g9-j8:h9,i9 veto g11-j10:h11,j10 accept g15-h12:g13,h13 e14-f11:e12,f13 accept d17-g16:d17,f17 c15-d12:c14,d14 accept h17-k16:h17,j16
count 45
perft 1 45
perft 2 90
perft 3 6660

test game 2 of the reference file after 30 plies
newgame toscana white=12,15,02,06,13,24,34,05,14,03,23,04,25,01,07,16 black=01,06,16,15,24,13,02,14,07,03,23,12,04,05,25,34
play accept g9-j8:h9,i9 veto g11-j10:h11,j10 accept g15-h12:g13,h13 e14-f11:e12,f13 accept d17-g16:d17,f17 c15-d12:c14,d14 accept h17-k16:h17,j16 k11-n10:k10,m11 veto g7-j6:h6,j7 j15-m14:k15,m15 e7-f4:e7,f4 n15-q14:o14,q14 o13-p10:o10,p11 k13-n12:k12,l13 a5-d4:a4,b5 c9-f8:c9,f8 h5-k4:h4,k4 k9-n8:k8,n8 l6-o5:n6,o6 a12-b9:a11,a12 p7-q4:p7,q7 f3-i2:g3,h3 m3-p2:n2,o3 a7-d6:d6,d7
count 12
perft 1 12
perft 2 112
perft 3 224

test game 3 of the reference file after 3 plies
newgame toscana white=03,06,02,23,05,24,14,16,07,34,13,25,01,12,04,15 black=23,04,14,06,12,03,13,15,02,07,24,25,05,16,34,01
play veto h11-i8:h9,i11 accept
count 27
perft 1 27
perft 2 1686
perft 3 3372

test game 3 of the reference file after 12 plies
newgame toscana white=03,06,02,23,05,24,14,16,07,34,13,25,01,12,04,15 black=23,04,14,06,12,03,13,15,02,07,24,25,05,16,34,01
play veto h11-i8:h9,i11 accept j13-k10:k10,k11 f8-g5:f5,f7 veto j17-k14:j15,k14 l12-m9:m9,m10 b5-e4:b5,d4 n13-o10:n10,o11 l17-o16:m16,n16 h15-i12:h15,i13
count 59
perft 1 59
perft 2 5778
perft 3 388992

test game 3 of the reference file after 30 plies
newgame toscana white=03,06,02,23,05,24,14,16,07,34,13,25,01,12,04,15 black=23,04,14,06,12,03,13,15,02,07,24,25,05,16,34,01
play veto h11-i8:h9,i11 accept j13-k10:k10,k11 f8-g5:f5,f7 veto j17-k14:j15,k14 l12-m9:m9,m10 b5-e4:b5,d4 n13-o10:n10,o11 l17-o16:m16,n16 h15-i12:h15,i13 f12-g9:f9,f12 j9-k6:j9,k8 b12-e11:b11,d11 p13-q10:p11,q12 d9-e6:d8,e8 o9-p6:o6,p9 c16-d13:c13,c15 l8-m5:l8,m5 j4-m3:j4,m3 b3-e2:c3,e3 a17-b14:a16,b14 h6-i3:h5,i4 f4-g1:f3,g2 n4-o1:o3,o4 f17-i16:h17,i16 j2-m1:k1,l1 p17-q14:p15,q16 a10-b7:a7,b7
count 3
perft 1 3
perft 2 8
perft 3 8

test game 4 of the reference file after 3 plies
newgame toscana white=01,23,12,14,03,24,07,13,06,05,34,15,25,04,16,02 black=16,07,34,15,04,03,01,24,25,02,12,05,13,14,06,23
play accept g10-j9:i9,j9 accept
count 13
perft 1 13
perft 2 26
perft 3 1593

test game 4 of the reference file after 12 plies
newgame toscana white=01,23,12,14,03,24,07,13,06,05,34,15,25,04,16,02 black=16,07,34,15,04,03,01,24,25,02,12,05,13,14,06,23
play accept g10-j9:i9,j9 accept k10-l7:k8,l9 veto f8-g5:f6,f7 accept k14-l11:k11,l14 i16-l15:k15,l16 veto b7-e6:c6,c7 m17-n14:m14,m17
count 56
perft 1 56
perft 2 5759
perft 3 375273

test game 4 of the reference file after 30 plies
newgame toscana white=01,23,12,14,03,24,07,13,06,05,34,15,25,04,16,02 black=16,07,34,15,04,03,01,24,25,02,12,05,13,14,06,23
play accept g10-j9:i9,j9 accept k10-l7:k8,l9 veto f8-g5:f6,f7 accept k14-l11:k11,l14 i16-l15:k15,l16 veto b7-e6:c6,c7 m17-n14:m14,m17 m13-n10:m10,n10 c11-f10:c10,e11 o12-p9:o9,o12 o16-p13:o13,p16 a13-b10:b12,b13 a17-b14:a15,a17 b5-e4:b4,d5 c16-d13:c14,d16 e15-f12:e14,f13 g14-h11:g11,h12 i14-j11:j12,j14 a9-d8:a8,d9 f4-g1:f2,f3 e17-h16:g16,g17 h6-k5:j6,k5 o8-p5:o7,p6 j4-k1:k1,k3 m4-p3:m3,m4
count 16
perft 1 16
perft 2 80
perft 3 510
