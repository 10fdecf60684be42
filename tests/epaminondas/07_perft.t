# Epaminondas move counts (perft): leaves of every legal move sequence of depth D.
# Positions are taken from the reference games of tests/ref/epaminondas.txt (game, ply);
# perft 1 of every reference ply is checked by refcheck. Depth 2 and 3 computed by this
# implementation after it matched the reference traces exactly, and cross-checked move by
# move (move sets, not just counts) against a naive independent generator on random games.

test perft from the initial position
newgame epaminondas
perft 1 114
perft 2 12996
perft 3 1787292
perft 4 245799684

test perft: reference game 1 after ply 40 (tomove=white, 0 captures available)
newgame epaminondas
position
.BBBBB...B..BB
BBBBB.BBBBB.B.
.B..B.B.......
...........BB.
....B....B..B.
............B.
..............
..........W...
....W..W......
.W..W...WW...W
W.WWWWWWW.WWWW
WWWW..W..W..WW
tomove=white
plies=40
maxplies=500
last=l8-l9
end
perft 1 187
perft 2 36649
perft 3 6937845

test perft: reference game 1 after ply 85 (tomove=black, 5 captures available)
newgame epaminondas
position
..B.B.B..BBB..
BBBB.....B..B.
.B....B..B.B.B
......B.BB....
....B...B..BB.
.......BBW..W.
.......B...W..
..............
...W.W.W..W.W.
....W....WW..W
WWW..WWWWWW..W
WW.W.W...W...W
tomove=black
plies=85
maxplies=500
last=h5-h4
end
perft 1 212
perft 2 44503
perft 3 9401348

test perft: reference game 2 after ply 120 (tomove=white, 8 captures available)
newgame epaminondas
position
BB.BB..B.....B
B.....B.B..B.B
.........B...B
B...B...BBB...
....B.B...B.B.
....BW......B.
......WWBB.B..
.....W.WW.W...
.W.W.W...W.W..
.WW......WW...
W...W.W..W...W
WW..W..W.W....
tomove=white
plies=120
maxplies=500
last=l9-k8
end
perft 1 194
perft 2 36039
perft 3 7040567

test perft: reference game 2 after ply 161 (tomove=black, 7 captures available)
newgame epaminondas
position
BB..B...B....B
.B...BB.....BB
.B..B.......B.
.BBW.....B.B.B
......B......B
....B....BB.B.
......WWBB.B..
.......WW.W...
.W.W.W..W..W..
..WW.W..W.....
W.WWW.W..W...W
..W.W...WW....
tomove=black
plies=161
maxplies=500
last=j3-j2
end
perft 1 186
perft 2 37524
perft 3 7032982

test perft: reference game 3 after ply 100 (tomove=white, 0 captures available)
newgame epaminondas
position
BBB.B.BB.BB...
B.....B..W.B.B
.B....BB....BB
.....B.B..WB..
.....B.B.B....
.........W....
...B........W.
...B.W..W..WW.
...W.....WWW.W
....W.W.W....W
W...W......W..
.WW.W.WWWW...W
tomove=white
plies=100
maxplies=500
last=i9-h8
end
perft 1 201
perft 2 33543
perft 3 6707791

test perft: reference game 4 after ply 200 (tomove=white, 4 captures available)
newgame epaminondas
position
...BB....B..B.
BB......B....B
..B......B....
.BB.B....W....
B.B..BB.....BB
.....B...BBBB.
......W..B..W.
WW...W..BWBWWW
......W...B...
..W..W..W.....
.W.W......WW..
W..W.WW....WWW
tomove=white
plies=200
maxplies=500
last=l8j6xi5
end
perft 1 166
perft 2 36232
perft 3 6015703

test perft: reference game 5 after ply 251 (tomove=black, 3 captures available)
newgame epaminondas
position
..B.B.B..B.B..
..B.......BB..
..B.BBB......B
.B...B.....B..
..........B...
.B..W...BBB.B.
.......W..W.WW
.W.B.W..WW...W
..WWB.W.WW...W
W..WW.B..W....
W.....WW.....W
.W..W.W.W.....
tomove=black
plies=251
maxplies=500
last=k3i5-h6
end
perft 1 188
perft 2 39182
perft 3 7312925

test perft: reference game 6 after ply 300 (tomove=white, 1 captures available)
newgame epaminondas
position
.......B.BB..B
BBB....B....BB
.B..WB....W..B
B.....W.......
...B.W...B....
......W.B.....
.BB.B.....B..B
.W...B..WW....
..W....W..WB..
....W....W...B
.W.WWW.W......
W...W..W.WW..W
tomove=white
plies=300
maxplies=500
last=l6-k6
end
perft 1 175
perft 2 28951
perft 3 5072789
