# Cathedral: passing, the end after two passes in a row, and the score (the
# squares of the buildings still in hand; the lower wins, equal draws).

test a player who can place nothing passes; the other goes on
newgame cathedral
position
....D.Y...
IImDDYYYY.
.ImmDDY.ww
ttmM...wwa
.T.MMSSwaa
ss.M..b.a.
ss..WWbCCT
-i.WWib.C.
iiIW.iiCC.
..II.SS...
opening=classic
tomove=black
cathedral=board
built=both
passes=0
last=T:b6
end
state black no none 16:19
probe hand black => QDXC
moves pass
play pass
state white no none 16:19
moves B:h1,i1,j1 B:e7,f7,g7 B:a10,b10,c10 B:b10,c10,d10 B:h10,i10,j10 B:j1,j2,j3 B:c3,c4,c5 B:c4,c5,c6
play B:h10,i10,j10
state black no none 13:19
moves pass
play pass
state white no none 13:19
count 1
# white has only the Square, the Abbey and the Infirmary: nothing fits either
probe hand white => QAX
moves pass
play pass
state none yes white 13:19
count 0
expect moves => moves
illegal pass B:a10,b10,c10
undo
state white no none 13:19

test two passes in a row end the game: equal scores draw
newgame cathedral
position
-ssBBBQQcc
qqii.tQQc-
qqiiCC.acc
.IIiiCaa--
IIISCCad--
IMtS.Yddd-
MM..YYY.dm
.MAATYWWmm
.AAssY.WWm
.bbb.TSSW.
opening=classic
tomove=black
cathedral=board
built=both
passes=0
last=none
end
state black no none 10:10
moves pass
play pass
state white no none 10:10
moves pass
play pass
state none yes draw 10:10
count 0
expect getposition => position -ssBBBQQcc/qqii.tQQc-/qqiiCC.acc/.IIiiCaa--/IIISCCad--/IMtS.Yddd-/MM..YYY.dm/.MAATYWWmm/.AAssY.WWm/.bbb.TSSW./opening=classic/tomove=black/cathedral=board/built=both/passes=2/last=pass

test a finished game can be set as a position
newgame cathedral
position
-ssBBBQQcc
qqii.tQQc-
qqiiCC.acc
.IIiiCaa--
IIISCCad--
IMtS.Yddd-
MM..YYY.dm
.MAATYWWmm
.AAssY.WWm
.bbb.TSSW.
opening=classic
tomove=black
cathedral=board
built=both
passes=2
last=pass
end
state none yes draw 10:10
count 0
illegal pass

test a whole game (the first reference trace): black wins 19:14
newgame cathedral
play Y:f4,g4,h3,h4,h5,i4 I:d4,d5,e4 W:a8,b8,b9,c9,c10 W:f7,f8,g8,g9,h9 A:d9,e9,e10,f10
play B:a2,b2,c2 T:i1 M:h7,i7,i8,j7 B:c3,c4,c5 D:d6,e6,e7,f5,f6 S:f1,f2 S:c8,d8 T:a7
play S:h6,i6 I:i2,j2,j3 T:d2 M:a3,a4,a5,b4 T:b6 S:a1,b1 I:i10,j9,j10 I:e2,e3,f3
state black no none 19:18
moves Q:g1,g2,h1,h2
play Q:g1,g2,h1,h2
state white no none 19:14
moves pass
play pass
state black no none 19:14
moves pass
play pass
state none yes black 19:14
count 0
