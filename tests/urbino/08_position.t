# Urbino: the position text. Nine board lines, rank 9 first, one character
# per square (. empty, A architect, H P T white, h p t black), then
# phase=place1|place2|choose|first|play|over, tomove=white|black|none,
# passes=0|1|2 and an optional variant=standard|monuments.

test the position text of the start and after the setup
newgame urbino
expect getposition => position ........./........./........./........./........./........./........./........./........./phase=place1/tomove=black/passes=0/variant=standard
play Ae5 Af2 first:white Hd4
expect getposition => position ........./........./........./........./....A..../...H...../........./.....A.../........./phase=play/tomove=black/passes=0/variant=standard

test setting a position: black's turn, architects c5 and f1, and back
newgame urbino variant=monuments
expect position ........./....h.h../........./........./.hA...hH./Hh......./..h....../..H...h../....HAh../phase=play/tomove=black/passes=0 => ok
expect getposition => position ........./....h.h../........./........./.hA...hH./Hh......./..h....../..H...h../....HAh../phase=play/tomove=black/passes=0/variant=monuments
probe lots => c4 f2 f5 f8
expect position ........./....h.h../........./........./.hA...hH./Hh......./..h....../..H...h../....HAh../phase=play/tomove=black/passes=0/variant=standard => ok
expect getposition => position ........./....h.h../........./........./.hA...hH./Hh......./..h....../..H...h../....HAh../phase=play/tomove=black/passes=0/variant=standard

test blank lines and surrounding blanks are ignored
newgame urbino
position

  .........
.........
.........
.........
....A....
.........
.........
....A....
.........  
phase=choose
tomove=black
passes=0

end
moves first:black first:white

test bad position texts are refused and leave the game as it was
newgame urbino
play Ae5
error position ........./........./........./........./........./........./........./........./.........
error position ........./........./........./........./........./........./........./......../........./phase=place1/tomove=black/passes=0
error position ........./........./........./........./........./........./........./........./........X/phase=place1/tomove=black/passes=0
error position ........./........./........./........./........./........./........./........./........./phase=place1/tomove=white/passes=0
error position ........./........./........./........./........./........./........./........./........./phase=place3/tomove=black/passes=0
error position ........./........./........./........./........./........./........./........./........./phase=place1/tomove=black/passes=0/passes=0
error position ........./........./........./........./........./........./........./........./........./phase=place1/tomove=black/passes=0/colour=red
error position ........./........./........./........./........./........./........./........./........./phase=place1/tomove=black/passes=0/variant=big
error position ........./........./........./........./........./........./........./........./....A..../phase=place1/tomove=black/passes=0
error position ........./........./........./........./........./........./........./........./....A..../phase=place2/tomove=black/passes=0
error position ........./........./........./........./........./........./........./......A../....A..../phase=choose/tomove=black/passes=1
error position ........./........./........./........./........./........./........./......A../...HA..../phase=first/tomove=white/passes=0
error position ........./........./........./........./........./........./........./....A.A.A/.......H./phase=play/tomove=white/passes=0
error position ........./........./........./........./........./........./........./......A../....A..../phase=play/tomove=none/passes=0
error position ........./........./........./........./........./........./........./......A../....A..../phase=over/tomove=none/passes=1
error position ........./........./........./........./........./........./........./......A../....A..../phase=play/tomove=white/passes=2
error position ........./........./........./........./........./........./........./......A../....A..../phase=play/tomove=white
error position ........./........./........./........./........./........./......A../....A..../PP......./phase=play/tomove=white/passes=0
error position ........./........./........./........./........./........./......A../t......./t...A..../phase=play/tomove=white/passes=0
error position ........./........./........./........./........./........./......A../....A..../HhH....../phase=play/tomove=white/passes=0
error position ........./........./........./........./........./........./......A../T.T.T.T.A/........./phase=play/tomove=white/passes=0
error position ........./........./........./........./........./........./......A../....A..../........./........./phase=play/tomove=white/passes=0
expect getposition => position ........./........./........./........./....A..../........./........./........./........./phase=place2/tomove=white/passes=0/variant=standard
