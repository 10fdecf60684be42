/* i18n_lib.c — the library's sentences for people, in Italian in the
 * terminal (i18n.h cli_tr_text).  The library (src/games, src/session)
 * writes its explanations in English: a move it understood another way, why
 * a building may not stand somewhere, the status line of a position, how a
 * game was won.  Each of its formats is here beside its Italian; a text is
 * read against the English formats, its numbers, squares and words taken
 * out, and written again with the Italian format (a word taken out is itself
 * looked up: "white" -> "Bianco").  Where no format reads the text, a
 * character is kept as it is and the reading goes on from the next one.
 *
 * The Italian has the same conversions in the same order as the English
 * (tests/cli_i18n.mjs checks it), except "%_": a value the Italian does not
 * print (an English plural ending, "pass%s").  Terms as in docs/glossary.md.
 */
#include <string.h>

#include "cli/i18n.h"

static const struct {
    const char *en, *it;
} library[] = {
    /* the status line of a position (tav_board_view.info, without its score) */
    {"%s, %d lots, passes %d", "%s, %d lotti, passaggi %d"},
    {"cathedral %s, claims %s, territory %d:%d, passes %d",
     "cattedrale %s, conquiste %s, territorio %d:%d, passaggi %d"},
    {"ply %u of %u; far row white %d, black %d", "semimossa %u di %u; ultima riga Bianco %d, Nero %d"},
    {"%d tiles placed, %d pass%s in a row", "%d tessere posate, %d passaggi%_ di fila"},
    /* Urbino's districts as they score now (urbino_describe) */
    {" districts: none scores yet (a district scores once both colours build in it)\n",
     " quartieri: nessuno fa ancora punti (un quartiere fa punti quando entrambi i colori vi "
     "costruiscono)\n"},
    {" districts (square, block values, who scores now):\n",
     " quartieri (casella, valori dei blocchi, chi fa punti ora):\n"},
    /* how the game was won (explain_result) */
    {" Urbino is won by the higher sum of district points: white %d, black %d.\n",
     " A Urbino vince la somma più alta dei punti dei quartieri: Bianco %d, Nero %d.\n"},
    {" The sums are equal, so the scored buildings decide: more towers, then more palaces,\n"
     " then more houses; %s.\n",
     " Le somme sono pari, quindi decidono gli edifici che fanno punti: più torri, poi più palazzi,\n"
     " poi più case; %s.\n"},
    {" Districts (square, block values, who scores):\n",
     " Quartieri (casella, valori dei blocchi, chi fa punti):\n"},
    {" In Cathedral the lower score wins: a score is the squares of the buildings that could\n"
     " not be placed. White left %d, black %d.\n",
     " In Cathedral vince il punteggio più basso: il punteggio sono le caselle degli edifici che non\n"
     " si sono potuti posare. Il Bianco ne ha lasciate %d, il Nero %d.\n"},
    {" %s reached the far row: %d of its pieces stand on %s's home row against %d, and\n"
     " %s could not level the count in its turn.\n",
     " Il %s ha raggiunto l'ultima riga: %d sue pedine stanno sulla prima riga del %s contro %d, e\n"
     " il %s non ha potuto pareggiare il conto nel suo turno.\n"},
    {" %s has no legal move left (no piece, or every piece blocked), and loses.\n",
     " Il %s non ha più mosse valide (nessuna pedina, o tutte bloccate), e perde.\n"},
    {" The ply limit was reached with no winner: a draw.\n",
     " Si è arrivati al limite di semimosse senza un vincitore: pareggio.\n"},
    {" Pieces left: white %d, black %d.\n", " Pedine rimaste: Bianco %d, Nero %d.\n"},
    {" Toscana is won by the larger largest area (the tiles touched by one connected region of\n"
     " a player's colour): white %d tiles, black %d.\n",
     " A Toscana vince la zona più grande (le tessere toccate da una regione collegata del colore\n"
     " di un giocatore): Bianco %d tessere, Nero %d.\n"},
    /* a move understood another way, or refused (explain_move) */
    {"moves are written '%s' (letter case matters)", "le mosse si scrivono '%s' (maiuscole e minuscole contano)"},
    {"the only legal move that starts with '%s' is %s", "l'unica mossa valida che comincia con '%s' è %s"},
    {"the same squares in the canonical order are '%s'", "le stesse caselle nell'ordine canonico sono '%s'"},
    {"a capture is written with x: did you mean %s?", "una cattura si scrive con x: intendevi %s?"},
    {"that move captures nothing: did you mean %s?", "quella mossa non cattura nulla: intendevi %s?"},
    {"%c%d is taken", "%c%d è occupata"},
    {"%c%d is not a building lot now (a lot is a square both architects see); moving an architect "
     "first can make it one",
     "%c%d ora non è un lotto (un lotto è una casella che entrambi gli architetti vedono); spostare "
     "prima un architetto può renderla un lotto"},
    {"a %s may not stand beside a %s (%c%d has one, of either colour)",
     "%s non può stare accanto a %s (in %c%d ce n'è già, di qualunque colore)"},
    /* the parts of an Urbino district's line ("b7 white=3(T0P1H1) black=2(T0P0H2) -> white 3") */
    {" white=", " Bianco="},
    {" black=", " Nero="},
    {" -> none", " -> nessuno"},
    {" -> white ", " -> Bianco "},
    {" -> black ", " -> Nero "},
};

/* Words the formats above take out and that read differently in Italian. */
static const struct {
    const char *en, *it;
} words[] = {
    {"white", "Bianco"},
    {"black", "Nero"},
    {"standard", "standard"},
    {"monuments", "monumenti"},
    {"in hand", "in mano"},
    {"on the board", "sul tavoliere"},
    {"captured", "catturata"},
    {"on", "sì"},
    {"off", "no"},
    {"they are equal too", "sono pari anche questi"},
    {"that decided it", "questo ha deciso"},
    {"tower", "una torre"},
    {"palace", "un palazzo"},
};

typedef struct {
    const char *at;
    size_t len;
} piece;

#define MAX_PIECES 8

/* The length of a conversion at f ("%d", "%u", "%s", "%c", "%_"), 0 if none. */
static size_t conv_len(const char *f)
{
    if (f[0] != '%')
        return 0;
    size_t k = 1;
    while (f[k] == 'l' || f[k] == 'z')
        k++;
    return strchr("dusc_", f[k]) && f[k] ? k + 1 : 0;
}

/* Read `text` from its start against format `f`: the length read (a format
 * read whole; the text may go on), or -1; the values taken out in p. */
static long read_as(const char *f, const char *t, const char *t0, piece *p, int np)
{
    for (;;) {
        if (!*f)
            return (long)(t - t0);
        if (f[0] == '%' && f[1] == '%') {
            if (*t != '%')
                return -1;
            f += 2;
            t++;
            continue;
        }
        size_t cl = conv_len(f);
        if (!cl) {
            if (*f != *t)
                return -1;
            f++;
            t++;
            continue;
        }
        if (np >= MAX_PIECES)
            return -1;
        char c = f[cl - 1];
        f += cl;
        if (c == 'c') {
            if (!*t || *t == '\n')
                return -1;
            p[np] = (piece){t, 1};
            np++;
            t++;
            continue;
        }
        if (c == 'd' || c == 'u') {
            const char *s = t;
            if (c == 'd' && *t == '-')
                t++;
            if (*t < '0' || *t > '9')
                return -1;
            while (*t >= '0' && *t <= '9')
                t++;
            p[np] = (piece){s, (size_t)(t - s)};
            np++;
            continue;
        }
        /* %s: the shortest run (within a line) after which the rest reads */
        for (size_t len = 0;; len++) {
            p[np] = (piece){t, len};
            long r = read_as(f, t + len, t0, p, np + 1);
            if (r >= 0)
                return r;
            if (!t[len] || t[len] == '\n')
                return -1;
        }
    }
}

/* Append `s` (len bytes) to out. */
static void put(char *out, size_t n, size_t *k, const char *s, size_t len)
{
    if (*k + 1 >= n)
        return;
    if (len > n - 1 - *k)
        len = n - 1 - *k;
    memcpy(out + *k, s, len);
    *k += len;
    out[*k] = '\0';
}

/* A value taken out, in Italian when it is one of the words. */
static void put_value(char *out, size_t n, size_t *k, piece v, int is_word)
{
    if (is_word)
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (strlen(words[i].en) == v.len && strncmp(words[i].en, v.at, v.len) == 0) {
                put(out, n, k, words[i].it, strlen(words[i].it));
                return;
            }
    put(out, n, k, v.at, v.len);
}

/* Write Italian format `f` with the values taken out. */
static void write_as(const char *f, const piece *p, int np, char *out, size_t n, size_t *k)
{
    int i = 0;
    while (*f) {
        if (f[0] == '%' && f[1] == '%') {
            put(out, n, k, "%", 1);
            f += 2;
            continue;
        }
        size_t cl = conv_len(f);
        if (!cl) {
            put(out, n, k, f, 1);
            f++;
            continue;
        }
        char c = f[cl - 1];
        if (i < np && c != '_')
            put_value(out, n, k, p[i], c == 's');
        i++;
        f += cl;
    }
}

void cli_tr_text(cli_lang lang, const char *text, char *out, size_t n)
{
    if (!n)
        return;
    out[0] = '\0';
    size_t k = 0;
    if (lang != CLI_IT) {
        put(out, n, &k, text, strlen(text));
        return;
    }
    const char *t = text;
    while (*t) {
        /* the format that reads the longest part from here */
        long best = 0;
        size_t which = 0;
        piece p[MAX_PIECES], bp[MAX_PIECES];
        for (size_t i = 0; i < sizeof library / sizeof library[0]; i++) {
            long r = read_as(library[i].en, t, t, p, 0);
            if (r > best) {
                best = r;
                which = i;
                memcpy(bp, p, sizeof p);
            }
        }
        if (best > 0) {
            int np = 0;
            for (const char *f = library[which].en; *f; f++)
                if (f[0] == '%' && f[1] == '%')
                    f++;
                else if (conv_len(f))
                    np++;
            write_as(library[which].it, bp, np, out, n, &k);
            t += best;
            continue;
        }
        /* no format here: this character as it is (a whole UTF-8 one) */
        size_t len = 1;
        while (((unsigned char)t[len] & 0xC0) == 0x80)
            len++;
        put(out, n, &k, t, len);
        t += len;
    }
}
