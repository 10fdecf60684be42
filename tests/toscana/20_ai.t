# Toscana: the ai player (docs/ai/toscana.md) at fixed, deterministic budgets
# (go nodes=N seed=S, one thread).

test hidden order: the stacks as dealt (the answers must match the other test)
# Only each top tile (and, after a veto, the vetoed tile at the bottom) is
# public; the search masks the root and re-deals the rest, so the answer may
# not depend on the order below the top.
newgame toscana white=04,02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept i10-j7:i10,j10 accept g13-h10:g10,g11
probe masked => white=02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=02,03,04,05,06,07,12,13,14,15,16,23,24,25,34 hash=d70c16d02159646d
expect go nodes=3000 seed=5 threads=1 => bestmove accept
play accept
expect go nodes=3000 seed=5 threads=1 => bestmove e9-h8:f8,h8
newgame toscana white=04,02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34
play accept i10-j7:i10,j10 accept g13-h10:g10,g11 veto
probe masked => white=01,03,05,06,07,12,13,14,15,16,23,24,25,34,02 black=02,03,04,05,06,07,12,13,14,15,16,23,24,25,34 hash=7b7ba3581819f251
expect go nodes=3000 seed=5 threads=1 => bestmove e9-h8:g8,h8

test hidden order: the same visible tiles, the hidden rest of both stacks in another order (the answers must match the other test)
# Only each top tile (and, after a veto, the vetoed tile at the bottom) is
# public; the search masks the root and re-deals the rest, so the answer may
# not depend on the order below the top.
newgame toscana white=04,02,01,34,25,24,23,16,15,14,13,12,07,06,05,03 black=01,02,16,23,05,34,07,12,25,14,15,03,13,24,04,06
play accept i10-j7:i10,j10 accept g13-h10:g10,g11
probe masked => white=02,01,03,05,06,07,12,13,14,15,16,23,24,25,34 black=02,03,04,05,06,07,12,13,14,15,16,23,24,25,34 hash=d70c16d02159646d
expect go nodes=3000 seed=5 threads=1 => bestmove accept
play accept
expect go nodes=3000 seed=5 threads=1 => bestmove e9-h8:f8,h8
newgame toscana white=04,02,01,34,25,24,23,16,15,14,13,12,07,06,05,03 black=01,02,16,23,05,34,07,12,25,14,15,03,13,24,04,06
play accept i10-j7:i10,j10 accept g13-h10:g10,g11 veto
probe masked => white=01,03,05,06,07,12,13,14,15,16,23,24,25,34,02 black=02,03,04,05,06,07,12,13,14,15,16,23,24,25,34 hash=7b7ba3581819f251
expect go nodes=3000 seed=5 threads=1 => bestmove e9-h8:g8,h8

test the ai places the game's last tile where it wins
# Cut from a self-play game (seed=932, a mobility-keeping policy): white's stack
# is empty, black places the last tile of the game, 14.  Of its 4 placements only
# m10-p9:o9,p10 wins (12:13); the other three lose (13:11, 12:11, 12:11).
newgame toscana
position
BBBbwWBbbB...WWwW
bBbBWWBBBBwW.WWWw
BbBBWwwWWwWwBb...
BBBBWWWWWWWWBBWw.
BbBBwwWW..WWBBWW.
BbBBWWWWWwWwBbWW.
WWWWwWwWWWWW..wW.
WwwWWWWWWWWw.....
bB.BBWW.wWWW.....
BB.BBWWBBbbBBWwWW
Bb.BBwwbBBBBBWWwW
BB.bbWWBBBBBbBbBb
...wWWWbBBBBBBBBB
.bBwWWWWWBbBbBBBB
.BB....wWBbBBBbbB
.BBwWWWWwBbBBWWWW
.BbWWwWWWBBbBwwWW
tomove=black
phase=place
white=
black=14
veto=white,black
passes=0
tiles=W:i10-l9:i9,l10 B:h8-i5:h5,h7 W:e11-h10:e11,g11 B:j6-k3:k3,k4 W:i12-l11:j12,l12 B:m15-n12:n12,n15 W:d5-g4:d4,d5 B:l6-o5:m6,o6 W:e13-h12:e13,f13 B:a13-d12:b12,b13 W:a11-d10:b10,c10 B:l4-o3:m4,o3 W:g15-j14:g15,j15 B:b4-c1:b4,c1 W:f9-g6:f7,g7 B:p6-q3:p3,q6 W:h4-i1:h3,i2 B:a17-b14:a16,b15 W:d2-g1:d2,f1 B:c17-d14:c16,d17 W:e17-f14:e17,f15 B:j2-m1:k2,l1 W:n2-q1:n1,o1 B:a9-b6:a9,b7 W:o14-p11:o11,p14 B:d9-e6:d6,e6 W:n17-q16:p17,q16 B:g17-j16:h17,i17 W:k16-l13:k16,l15 B:j8-m7:j8,k8 W:n8-q7:o8,p7
end
count 4
expect go nodes=300 seed=1 threads=1 => bestmove m10-p9:o9,p10
expect go nodes=1000 seed=2 threads=1 => bestmove m10-p9:o9,p10
play m10-p9:o9,p10
state none yes black 12:13

