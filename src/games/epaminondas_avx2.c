/*
 * epaminondas_avx2.c — the hot functions of Epaminondas (the walks and the
 * evaluation, epaminondas_core.h) compiled for processors with AVX2 and
 * popcnt, with a set of squares as one 256-bit vector.  epaminondas.c calls
 * them only when the processor has both (epa_avx2); elsewhere (or built with
 * EPA_AVX2=0) this file compiles to nothing.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    (!defined(EPA_AVX2) || EPA_AVX2)
#pragma GCC target("avx2,popcnt")
#define EPA_VEC 1
#include "epaminondas_core.h"

int tavi_epa_generate_avx2(const epaminondas_state *st, int side, tav_move *out)
{
    return epa_generate_in(st, side, out);
}

int tavi_epa_noisy_avx2(const epaminondas_state *s, tav_move *out)
{
    return epa_noisy_in(s, out);
}

int tavi_epa_count_avx2(const epaminondas_state *st, int side, int per[8])
{
    return epa_count_in(st, side, per);
}

tav_move tavi_epa_find_avx2(const epaminondas_state *st, int side, const int per[8], int idx)
{
    return epa_find_in(st, side, per, idx);
}

int tavi_epa_score_avx2(const epaminondas_state *s)
{
    return epa_score_in(s);
}
#else
typedef int epa_avx2_unused;   /* ISO C wants something in a file */
#endif
