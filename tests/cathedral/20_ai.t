# Cathedral: the ai player (docs/ai/cathedral.md) at fixed, deterministic budgets
# (go nodes=N seed=S, one thread).  Both positions are late endgames cut from the
# full board of end.t; the outcomes quoted were proved by exhaustive alpha-beta.

test the ai takes the capture that wins the game
newgame cathedral
position
.ssBBBQQcc
qqii.tQQc.
qqiiCC.acc
.IIiiCaa..
IIISCCad..
IMtS.Yddd.
MM..YYY.dm
.M..TYWWmm
.....Y.WWm
.bbb.TSSW.
opening=classic
tomove=white
cathedral=board
built=both
passes=0
last=none
end
state white no none 14:12
count 5
# 5 moves: the Academy on c3,d2,d3,d4,e2 closes c4-c5 around black's Tavern c5 and
# wins; three Abbey placements draw, A:i6,i7,j5,j6 loses
expect go nodes=300 seed=1 threads=1 => bestmove D:c3,d2,d3,d4,e2
expect go nodes=1000 seed=1 threads=1 => bestmove D:c3,d2,d3,d4,e2
expect go nodes=3000 seed=2 threads=1 => bestmove D:c3,d2,d3,d4,e2
play D:c3,d2,d3,d4,e2
state black no none 9:13
probe territory white => c4,c5
probe hand black => TSXW

test the ai does not leave its Inn where black captures it at once
newgame cathedral
position
.ssBBBQQcc
qqii.tQQc.
qqiiCC.acc
...iiCaa..
...SCCad..
.M.S.Yddd.
MM..YYY.dm
.MAATYWWmm
.AAssY.WWm
.bbb.TSSW.
opening=classic
tomove=white
cathedral=board
built=both
passes=0
last=none
end
state white no none 16:11
count 17
# An Inn in the bottom-right corner (i6,j5,j6 / i7,j6,j7 / i6,j6,j7 / i6,i7,j6 /
# i6,i7,j7) stands alone in a black region: any black Tavern then captures it, and
# white loses.  Only five Inn placements on the left (b7,c6,c7 / b6,c6,c7 /
# a6,a7,b6 / a5,a6,b6 / a6,a7,b7) hold the draw; the other seven lose more slowly.
# The ai must play one of the five.
play I:i6,j5,j6
legal T:a1
play T:a1
probe hand white => IIDX
undo
undo
expect go nodes=1000 seed=1 threads=1 => bestmove I:b7,c6,c7 | bestmove I:b6,c6,c7 | bestmove I:a6,a7,b6 | bestmove I:a5,a6,b6 | bestmove I:a6,a7,b7
expect go nodes=3000 seed=2 threads=1 => bestmove I:b7,c6,c7 | bestmove I:b6,c6,c7 | bestmove I:a6,a7,b6 | bestmove I:a5,a6,b6 | bestmove I:a6,a7,b7
expect go nodes=10000 seed=4 threads=1 => bestmove I:b7,c6,c7 | bestmove I:b6,c6,c7 | bestmove I:a6,a7,b6 | bestmove I:a5,a6,b6 | bestmove I:a6,a7,b7
