/*
 * bench.h — the deterministic benchmark (bench.c), shared by the command
 * line (`tavoliere bench`) and the page's engine (tw_bench in
 * src/wasm/tavwasm.c): a layer below both, above the library.
 */
#ifndef TAV_BENCH_H
#define TAV_BENCH_H

#include <stdio.h>

/* `bench [GAME] [--scale F] [--no-search]`: argv[0] is the command's name.
 * The table's lines go to `out`, failures to `errs`. */
int bench_run(int argc, char **argv, FILE *out, FILE *errs);

#endif
