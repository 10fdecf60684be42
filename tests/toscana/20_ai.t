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

