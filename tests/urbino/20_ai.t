# Urbino: the ai player (docs/ai/urbino.md) at fixed, deterministic budgets
# (go nodes=N seed=S threads=1).  Both positions are last moves: black's supply
# is empty and white has one house left, so after white's house black passes,
# white passes and the game is over.  The outcome of every legal move was
# checked by playing it, pass, pass (181 and 152 moves).

test the ai finds the house that wins the game
newgame urbino
position
phphphphp
hhhththth
hphhhhhh.
.A.....A.
...Hh....
.........
HPHHHHH..
HHHTHTHTH
PHPHPHPHP
phase=play
tomove=white
passes=0
end
state white no none 0:0
probe supply => white H1 P0 T0 black H0 P0 T0
probe lots => c6 d6 e6 f6 g6
count 181
# d5 (white) against e5 (black) is 1:1, nobody scores.  15 moves win: a house on
# c5 (2:0) or on d4 (joins the white block below: 39:0), both only after moving
# the architect on h6; 77 moves lose 0:38 (a house against black's big block,
# e.g. every plain lot Hc6 Hf6 Hg6), 89 draw 0:0.
expect go nodes=300 seed=1 threads=1 => bestmove h6-d6,Hc5
expect go nodes=1000 seed=1 threads=1 => bestmove h6-d6,Hc5
expect go nodes=1000 seed=2 threads=1 => bestmove h6-d6,Hc5

test the ai avoids the house that hands black the game
newgame urbino
position
phphphphp
hhhththth
hphhhhhh.
.A.....A.
..HHh....
.........
HPHHHH...
HHHTHTHTH
PHPHPHPHP
phase=play
tomove=white
passes=0
end
state white no none 2:0
probe lots => c6 d6 e6 f6 g6
count 152
# White leads 2:1 in the c5 district.  Every plain lot loses or is illegal (Hf6
# and Hg6 join black's block of 38: 2:38); 62 moves lose, 90 win (2:0 or 3:0)
# and all need a repositioning.
expect go nodes=300 seed=1 threads=1 => bestmove b6-h4,Hi5
expect go nodes=1000 seed=1 threads=1 => bestmove b6-f6,Hf4
expect go nodes=1000 seed=2 threads=1 => bestmove b6-f6,Hf4
