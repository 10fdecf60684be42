/* i18n.c — the terminal's texts in Italian (i18n.h): each English text the
 * CLI prints beside its Italian, with the same printf conversions in the
 * same order.  Terms as in docs/glossary.md. */

#include <stdlib.h>
#include <string.h>

#include "cli/i18n.h"

static const struct {
    const char *en, *it;
} catalog[] = {
    {"'%s' is not a legal move%s%s%s", "'%s' non è una mossa valida%s%s%s"},
    {"%s No legal move fits it. Type 'moves' for the list, 'help' for help.",
     "%s Nessuna mossa valida corrisponde. Scrivi 'moves' per l'elenco, 'help' per l'aiuto."},
    {"%s Moves that fit (%d):%s%s", "%s Mosse che corrispondono (%d):%s%s"},
    {"not saved: %s", "non salvata: %s"},
    {"cannot write %s", "impossibile scrivere %s"},
    {"error writing %s", "errore scrivendo %s"},
    {"saved to %s", "salvata in %s"},
    {"Type a move in the game's notation (docs/rules/%s.md; a unique beginning is enough), or: "
     "moves, undo, hint, save FILE, resign, help, quit.",
     "Scrivi una mossa nella notazione del gioco (docs/rules/%s.md; basta un inizio che la identifichi), "
     "oppure un comando: moves (le mosse), undo (annulla), hint (suggerimento), save FILE (salva), "
     "resign (abbandona), help (aiuto), quit (esci)."},
    {" Please answer y, n or s.\n", " Rispondi y, n oppure s.\n"},
    {" file name [%s.rec]: ", " nome del file [%s.rec]: "},
    {" (no legal move)\n", " (nessuna mossa valida)\n"},
    {" %d legal move", " %d mossa valida"},
    {" %d legal moves", " %d mosse valide"},
    {" Decision for %s: %s is about to place tile %s (drawn above).\n"
     "   accept: %s places it; you keep your veto.\n"
     "   veto:   it goes to the bottom of %s's stack and %s places the next tile instead;\n"
     "           you can veto only once in the game.\n",
     " Decisione del %s: il %s sta per posare la tessera %s (disegnata sopra).\n"
     "   accept: il %s la posa; tu ti tieni il veto.\n"
     "   veto:   la tessera va in fondo alla pila del %s e il %s posa invece la successiva;\n"
     "           puoi mettere il veto una volta sola per partita.\n"},
    {" %s to move> ", " muove il %s> "},
    {" That line is too long.\n", " Questa riga è troppo lunga.\n"},
    {" That line holds a control character.\n", " Questa riga contiene un carattere di controllo.\n"},
    {"Leave this game? y = leave without saving, s = save it first, n = go on [n]: ",
     "Lasci la partita? y = esci senza salvare, s = prima salvala, n = continua [n]: "},
    {"took back %d move", "annullata %d mossa"},
    {"took back %d moves", "annullate %d mosse"},
    {"nothing to undo", "niente da annullare"},
    {"hint: %s", "suggerimento: %s"},
    {"save needs a file name: save FILE", "per salvare serve il nome di un file: save FILE"},
    {"Resign this game? y = resign, s = save it first, n = go on [n]: ",
     "Abbandoni la partita? y = abbandona, s = prima salvala, n = continua [n]: "},
    {"played %s (%s)", "giocata %s (%s)"},
    {" %s resigned: %s wins.\n", " il %s abbandona: vince il %s.\n"},
    {" Game left unfinished.\n", " Partita lasciata in sospeso.\n"},
    {" Game over: a draw.\n", " Partita finita: pareggio.\n"},
    {" Game over: %s wins.\n", " Partita finita: vince il %s.\n"},
    {"That answer is not readable. %s", "Questa risposta non si legge. %s"},
    {"'%s' is not one of the choices: type a number from 1 to %d, a name, or Enter for %s.\n",
     "'%s' non è tra le scelte: scrivi un numero da 1 a %d, un nome, o premi Invio per %s.\n"},
    {"Tavoliere \xe2\x80\x94 which game?\n", "Tavoliere \xe2\x80\x94 quale gioco?\n"},
    {"game [1]: ", "gioco [1]: "},
    {"against the computer", "contro il computer"},
    {"two people at one screen", "due persone allo stesso schermo"},
    {"Who plays?\n", "Chi gioca?\n"},
    {"players [1]: ", "giocatori [1]: "},
    {"white (moves first)", "Bianco (muove per primo)"},
    {"black (moves first)", "Nero (muove per primo)"},
    {"white", "Bianco"},
    {"black", "Nero"},
    {"Which side do you play?\n", "Con quale colore giochi?\n"},
    {"side [1]: ", "colore [1]: "},
    {"Levels, rated on a scale where random moves are 0 (docs/levels.md):\n",
     "Livelli, con un punteggio su una scala in cui le mosse a caso valgono 0 (docs/levels.md):\n"},
    {"  level %2d \xe2\x80\x94 about %d\n", "  livello %2d \xe2\x80\x94 circa %d\n"},
    {"  level %2d \xe2\x80\x94 not rated yet\n", "  livello %2d \xe2\x80\x94 ancora senza punteggio\n"},
    {"AI level, 1 (weakest) to 10 (strongest) [5]: ", "livello del computer, da 1 (il più debole) a 10 (il più forte) [5]: "},
    {"'%s' is not a level: type a number from 1 to 10, or Enter for 5.\n",
     "'%s' non è un livello: scrivi un numero da 1 a 10, o premi Invio per il 5.\n"},
    {"%s%s%s%s: white is %s, black is %s. Type 'help' for help.\n",
     "%s%s%s%s: il Bianco è %s, il Nero è %s. Scrivi 'help' per l'aiuto.\n"},
    {"%s (%s) plays %s", "il %s (%s) gioca %s"},
    {" n = another game (same players), s = save this game, q = quit [q]: ",
     " n = un'altra partita (stessi giocatori), s = salva questa partita, q = esci [q]: "},
    {" Please answer n, s or q.\n", " Rispondi n, s oppure q.\n"},
    {"buildings in hand", "edifici in mano"},
    {"no building left in hand", "nessun edificio rimasto in mano"},
    {"white (light)", "Bianco (chiaro)"},
    {"black (dark)", "Nero (scuro)"},
    {"top tile ", "tessera in cima "},
    {"stack empty", "pila vuota"},
    {" %d left, veto unused", " %d in pila, veto libero"},
    {" %d left, veto used", " %d in pila, veto usato"},
    {"nothing left", "non resta nulla"},
    {"%d pieces on the board, %d lost", "%d pedine sul tavoliere, %d perse"},
    {" score white %d, black %d", " punteggio Bianco %d, Nero %d"},
    {" %s%slast move: %s\n", " %s%sultima mossa: %s\n"},
    {"human", "una persona"},
    {"random", "mosse a caso"},
    {"houses", "case"},
    {"palaces", "palazzi"},
    {"towers", "torri"},
    {"district points", "punti dei quartieri"},
    {"pieces on the board", "pedine sul tavoliere"},
    {"squares of the buildings left outside", "caselle degli edifici rimasti fuori"},
    {"tiles touched by each largest area", "tessere toccate dalla zona più grande di ciascuno"},
    {"higher wins", "vince il più alto"},
    {"lower wins", "vince il più basso"},
};

const char *cli_tr(cli_lang lang, const char *en)
{
    if (lang != CLI_IT)
        return en;
    for (size_t i = 0; i < sizeof catalog / sizeof catalog[0]; i++)
        if (strcmp(catalog[i].en, en) == 0)
            return catalog[i].it;
    return en;
}

const char *cli_side(cli_lang lang, int side)
{
    return side == 0 ? cli_tr(lang, "white") : cli_tr(lang, "black");
}

int cli_lang_parse(const char *s)
{
    if (!s)
        return -1;
    if (strcmp(s, "it") == 0)
        return CLI_IT;
    if (strcmp(s, "en") == 0)
        return CLI_EN;
    return -1;
}

cli_lang cli_lang_from_env(void)
{
    /* POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG. */
    const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && v[0])
            return strncmp(v, "it", 2) == 0 ? CLI_IT : CLI_EN;
    }
    return CLI_EN;
}
