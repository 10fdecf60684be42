# Cathedral: options and the position text (docs/rules/cathedral.md): every
# malformed or inconsistent text is refused with a message and changes nothing.

test options are strict
expect newgame cathedral foo=bar => error unknown option 'foo' (expected opening=classic|late)
expect newgame cathedral opening=x => error bad value 'x' for opening (expected classic|late)
expect newgame cathedral opening=late => ok
state white no none 47:47
count 2141

test the text of a new game, and a round trip
newgame cathedral
expect getposition => position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=hand/built=none/passes=0/last=none
play Y:e4,f3,f4,f5,f6,g4 I:a2,b1,b2 I:i9,i10,j9 T:e9 T:e1
expect getposition => position ........I+/....t...II/........../........../.....Y..../.....Y..../....YYY.../.....Y..../ii......../-i..T...../opening=classic/tomove=black/cathedral=board/built=both/passes=0/last=T:e1
position
........I+
....t...II
..........
..........
.....Y....
.....Y....
....YYY...
.....Y....
ii........
-i..T.....
opening=classic
tomove=black
cathedral=board
built=both
passes=0
last=T:e1
end
state black no none 43:43
probe territory => white=j10 black=a1
probe claims => yes
illegal T:j10
legal T:a1
expect getposition => position ........I+/....t...II/........../........../.....Y..../.....Y..../....YYY.../.....Y..../ii......../-i..T...../opening=classic/tomove=black/cathedral=board/built=both/passes=0/last=T:e1

test the late opening's states before the Cathedral
newgame cathedral opening=late
position
..........
..........
..........
..........
..........
..........
..........
..........
.......QQ.
.......QQ.
opening=late
tomove=black
cathedral=hand
built=none
passes=0
last=none
end
error position ........../........../........../........../........../........../........../........../........../........../opening=late/tomove=black/cathedral=hand/built=none/passes=0/last=none
state black no none 43:47
probe placements Y => 206
legal Y:a3,b1,b2,b3,b4,c3

test malformed boards are refused
newgame cathedral
error position ........./........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=hand/built=none/passes=0/last=none
error position ...................../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=hand/built=none/passes=0/last=none
error position ........../........../........../........../........../........../........../........../..........
error position ........../........../........../........../........../........../........../........../........../.......y../opening=classic/tomove=white/cathedral=hand/built=none/passes=0/last=none
error position ........../........../........../........../........../........../........../........../........../.......Z../opening=classic/tomove=white/cathedral=hand/built=none/passes=0/last=none
error position
state white no none 47:47

test malformed keys are refused
newgame cathedral
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=hand/built=none/passes=0/last=none/colour=red
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=hand/built=none/last=none
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=hand/built=none/passes=3/last=none
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=nobody/cathedral=hand/built=none/passes=0/last=none
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/tomove=white/cathedral=hand/built=none/passes=0/last=none
error position ........../........../........../........../........../........../........../........../........../........../opening=sometimes/tomove=white/cathedral=hand/built=none/passes=0/last=none
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=hand/built=none/passes=0/last=T:a1
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=hand/built=none/passes=0/garbage
state white no none 47:47

test pieces must be whole, of the right shape and no more than a hand holds
newgame cathedral
# three white Taverns
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../........../T.T.T...../opening=classic/tomove=black/cathedral=board/built=none/passes=0/last=none
# half a Stable
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../........../S........./opening=classic/tomove=black/cathedral=board/built=none/passes=0/last=none
# white's Abbey drawn in black's shape
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../AA......../.AA......./opening=classic/tomove=black/cathedral=board/built=none/passes=0/last=none
# black's Abbey in black's shape is fine
expect position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../aa......../.aa......./opening=classic/tomove=black/cathedral=board/built=both/passes=0/last=none => ok
probe hand black => TTSSIIBQMDXCW
# a broken Cathedral, and a Cathedral that is said to be in hand
error position ........../........../........../........../.....Y..../....YY..../.....Y..../.....Y..../........../........../opening=classic/tomove=black/cathedral=board/built=none/passes=0/last=none
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../........../........../opening=classic/tomove=black/cathedral=hand/built=none/passes=0/last=none
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=black/cathedral=board/built=none/passes=0/last=none

test the phase must be consistent
newgame cathedral
# after the Cathedral black builds first
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../........../........../opening=classic/tomove=white/cathedral=board/built=none/passes=0/last=none
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../........../........../opening=classic/tomove=black/cathedral=board/built=white/passes=0/last=none
# territory only once claims are enabled, and only in a closed region of its owner
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ii......../-i......../opening=classic/tomove=white/cathedral=board/built=black/passes=0/last=none
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ss......../-........./opening=classic/tomove=white/cathedral=board/built=both/passes=0/last=none
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ss......../--......../opening=classic/tomove=white/cathedral=board/built=both/passes=0/last=none
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ii......../-i..-...../opening=classic/tomove=white/cathedral=board/built=both/passes=0/last=none
expect position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ii......../-i......../opening=classic/tomove=white/cathedral=board/built=both/passes=0/last=none => ok
probe territory => white=- black=a1
# a captured Cathedral needs claims enabled
error position ........../........../........../........../........../........../........../........../........../........../opening=classic/tomove=white/cathedral=captured/built=black/passes=0/last=none
# passes only when the passing player could place nothing
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ii......../-i......../opening=classic/tomove=white/cathedral=board/built=both/passes=1/last=pass
# the last move must be on the board
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ii......../-i......../opening=classic/tomove=white/cathedral=board/built=both/passes=0/last=I:b1,a2,b2
error position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ii......../-i......../opening=classic/tomove=white/cathedral=board/built=both/passes=0/last=I:c2,d1,d2
expect position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ii......../-i......../opening=classic/tomove=white/cathedral=board/built=both/passes=0/last=I:a2,b1,b2 => ok
expect getposition => position ........../........../........../........../.....Y..../....YYY.../.....Y..../.....Y..../ii......../-i......../opening=classic/tomove=white/cathedral=board/built=both/passes=0/last=I:a2,b1,b2
